//! Several nodes on one PostgreSQL database, each on a runtime of its own as a process
//! would be: a table's socket reaching the node that does not play it is relayed; a node
//! that dies (its runtime shut down mid-hand) has its table taken over from the journal
//! with every acknowledged move kept once; a node whose lease was taken stops at once; the
//! lobby, failed attempts and duties are shared. Skipped without `DUPMJ_TEST_PG` unless
//! `DUPMJ_REQUIRE_PG` is set, as the README's test command does.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;
use server::play::spec::Place;
use server::play::PlayConfig;
use server::App;
use store::PgStore;
use table::engine::Action;

fn pg(name: &str) -> Option<String> {
    let Ok(admin) = std::env::var("DUPMJ_TEST_PG") else {
        assert!(
            std::env::var_os("DUPMJ_REQUIRE_PG").is_none(),
            "DUPMJ_REQUIRE_PG is set but DUPMJ_TEST_PG is not: run under tools/with-postgres.sh"
        );
        eprintln!("{name}: skipped (DUPMJ_TEST_PG is not set)");
        return None;
    };
    Some(store::scratch_database(&admin, &format!("cluster_{name}")).unwrap())
}

/// A node: its app, its address, and the runtime it runs on (dropped: the node is dead).
struct Node {
    app: App,
    addr: SocketAddr,
    rt: tokio::runtime::Runtime,
}

impl Node {
    fn start(url: &str, name: &str) -> Node {
        let store = PgStore::connect(url).unwrap();
        let app = App::new(
            Arc::new(store),
            PlayConfig {
                pace: Duration::ZERO,
                shared_node: Some(name.into()),
                quick_wait: Duration::from_secs(2),
                ..Default::default()
            },
        );
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let served = app.clone();
        let addr = rt.block_on(async move {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = l.local_addr().unwrap();
            server::start_node(&served, addr).await.unwrap();
            tokio::spawn(server::play::keeper(served.hall.clone()));
            tokio::spawn(server::play::quick::matchmaker(served.hall.clone()));
            tokio::spawn(async move { axum::serve(l, server::router(served)).await });
            addr
        });
        Node { app, addr, rt }
    }

    /// Opens a table on this node (its task runs here).
    fn open(&self, spec: server::play::spec::TableSpec) -> i64 {
        let _in = self.rt.enter();
        self.app.hall.open_table(spec, "someone").unwrap()
    }

    /// Dies at once, as a killed process: no task runs on, nothing is let go.
    fn kill(self) {
        self.rt.shutdown_background();
    }
}

fn spec_alone(me: i64) -> server::play::spec::TableSpec {
    let mut s = duplicate(
        40..42,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        me,
    );
    // Long enough that no move of the test is ever a time-out default.
    s.limit_s = 120;
    s
}

/// Plays `moves` moves (or up to the end of the hand); the moves acknowledged, each once
/// a state shows the decision it answered is past, and the person's seat.
async fn play(c: &mut Client, moves: usize) -> (Vec<Value>, Option<mcr::Wind>) {
    play_timed(c, moves).await.0
}

/// [`play`], and when the first state came.
async fn play_timed(c: &mut Client, moves: usize) -> ((Vec<Value>, Option<mcr::Wind>), Instant) {
    let mut acked = Vec::new();
    let mut seat = None;
    let mut first = None;
    let mut pending: Option<(u64, Value)> = None;
    while acked.len() < moves {
        let s = c.next().await;
        if s["type"] != "state" {
            continue;
        }
        first.get_or_insert_with(Instant::now);
        if let Some((step, a)) = pending.take() {
            if s["step"].as_u64() != Some(step) || s["stage"] != "playing" {
                acked.push(a);
            } else {
                pending = Some((step, a));
            }
        }
        if s["stage"] != "playing" {
            break;
        }
        if seat.is_none() && s.get("seat_places").is_some() {
            seat = Some(seat_of(&s));
        }
        if pending.is_none() && my_move(&s) {
            let step = s["step"].as_u64().unwrap();
            let a = choose(s["legal"].as_array().unwrap());
            c.act(step, a.clone()).await;
            pending = Some((step, a));
        }
    }
    ((acked, seat), first.unwrap_or_else(Instant::now))
}

/// The seat a state's person holds in its hand.
fn seat_of(s: &Value) -> mcr::Wind {
    let you = s["you"].as_u64().unwrap();
    let places = s["seat_places"].as_array().unwrap();
    mcr::Wind::from_index(places.iter().position(|p| p.as_u64() == Some(you)).unwrap())
}

/// The moves of `seat` in the first hand of the table's journal that nobody made for it.
fn journal_person_actions(app: &App, table: i64, seat: mcr::Wind) -> Vec<Action> {
    use server::play::room::Entry;
    app.store
        .journal(table)
        .unwrap()
        .iter()
        .filter_map(|l| match serde_json::from_str::<Entry>(l).unwrap() {
            Entry::Act {
                hand: 0,
                seat: s,
                action,
                stand_in: false,
                ..
            } if s == seat => Some(action),
            _ => None,
        })
        .collect()
}

#[test]
fn a_socket_is_relayed_to_the_owner_and_a_dead_nodes_table_is_taken_over() {
    let Some(url) = pg("takeover") else {
        return;
    };
    let a = Node::start(&url, "a");
    let b = Node::start(&url, "b");
    let (me, cookie) = person(&a.app, "Relayed");
    let id = a.open(spec_alone(me));
    let owner = b.app.store.table_owner(id).unwrap().unwrap();
    assert_eq!((owner.node.as_str(), owner.fence), ("a", 1));
    // Every node lists every node's tables.
    assert!(b.app.hall.lobby().iter().any(|l| l.id == id));
    assert_eq!(b.app.hall.open_tables_of(me), 1);

    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let b_addr = b.addr;
    // Through b, which does not play the table: relayed to a.
    let (acked_before, mut c, seat) = clients.block_on(async {
        let mut c = Client::connect(b_addr, id, Some(&cookie)).await;
        let (acked, seat) = play(&mut c, 6).await;
        (acked, c, seat.expect("a state with the board"))
    });
    assert!(acked_before.len() >= 3, "{acked_before:?}");
    assert!(!b.app.hall.live(id), "b relays, a plays");

    let killed = Instant::now();
    a.kill();
    let (taken_after, acked_after) = clients.block_on(async {
        // The relay ends: the browser is told, and reconnects (to b, the node left).
        loop {
            match c.next_within(10.0).await {
                None => break,
                Some(m) if m["type"] == "error" => {
                    assert_eq!(m["message"], server::play::actor::MOVED);
                }
                Some(_) => {}
            }
        }
        let mut c = Client::connect(b_addr, id, Some(&cookie)).await;
        let ((acked, seat_now), first) = play_timed(&mut c, 1000).await;
        let taken = first - killed;
        assert_eq!(seat_now, Some(seat), "the person keeps their seat");
        c.close().await;
        (taken, acked)
    });
    eprintln!(
        "taken over {} ms after the kill; {} moves acknowledged before, {} after",
        taken_after.as_millis(),
        acked_before.len(),
        acked_after.len()
    );
    assert!(
        taken_after < server::play::LEASE + Duration::from_secs(4),
        "taken over after {taken_after:?}"
    );
    let owner = b.app.store.table_owner(id).unwrap().unwrap();
    assert_eq!((owner.node.as_str(), owner.fence), ("b", 2));
    // The journal says who wrote each line: the opening without a lease, then a, then b.
    let fences = b.app.store.journal_fences(id).unwrap();
    assert!(fences.windows(2).all(|w| w[0] <= w[1]), "{fences:?}");
    assert!(fences.contains(&Some(1)) && fences.last() == Some(&Some(2)));

    // Every acknowledged move is in the journal once, in order, and nothing else of the
    // person's: the person sent only acknowledged moves plus at most one in flight.
    let stored: Vec<Action> = journal_person_actions(&b.app, id, seat);
    let acked: Vec<Action> = acked_before
        .iter()
        .chain(&acked_after)
        .map(|a| serde_json::from_value(a.clone()).unwrap())
        .collect();
    assert!(
        stored.len() == acked.len() || stored.len() == acked.len() + 1,
        "stored {} acked {}",
        stored.len(),
        acked.len()
    );
    assert_eq!(&stored[..acked_before.len()], &acked[..acked_before.len()]);
    // The hand finished on b is kept and replays.
    let hands = b.app.store.hands_of_table(id).unwrap();
    assert_eq!(hands.len(), 1);
    let log: table::log::HandLog = serde_json::from_str(&hands[0].log).unwrap();
    table::log::replay(&log).unwrap();
    b.kill();
}

#[test]
fn a_node_whose_lease_was_taken_stops_and_its_socket_goes_to_the_new_owner() {
    let Some(url) = pg("lease_taken") else {
        return;
    };
    let a = Node::start(&url, "a");
    let b = Node::start(&url, "b");
    let (me, cookie) = person(&a.app, "Moved");
    let id = a.open(spec_alone(me));
    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let a_addr = a.addr;
    let mut c = clients.block_on(async {
        let mut c = Client::connect(a_addr, id, Some(&cookie)).await;
        play(&mut c, 2).await;
        c
    });
    assert!(a.app.hall.live(id));
    // b takes the table (as if a had stalled past its lease); a's next keeper round sees it.
    assert_eq!(
        b.app.store.claim_table(id, "b", 60_000, true).unwrap(),
        Some(2)
    );
    let journal = b.app.store.journal(id).unwrap().len();
    a.app.hall.keep();
    assert!(!a.app.hall.live(id));
    clients.block_on(async {
        let m = c.until_any(|m| m["type"] == "error").await;
        assert_eq!(m["message"], server::play::actor::MOVED);
        // The browser comes back to a, which relays it to b; b plays on from the journal.
        let mut c = Client::connect(a_addr, id, Some(&cookie)).await;
        let (acked, seat) = play(&mut c, 2).await;
        assert!(seat.is_some() && acked.len() == 2, "{acked:?}");
        c.close().await;
    });
    assert!(b.app.hall.live(id));
    assert!(b.app.store.journal(id).unwrap().len() > journal);
    a.kill();
    b.kill();
}

#[test]
fn failed_attempts_lobby_and_duties_are_shared_by_the_nodes() {
    let Some(url) = pg("shared") else {
        return;
    };
    let a = Node::start(&url, "a");
    let b = Node::start(&url, "b");
    for _ in 0..10 {
        assert!(a.app.guards.password.check("password:192.0.2.7").is_ok());
        a.app.guards.password.fail("password:192.0.2.7");
    }
    assert!(b.app.guards.password.check("password:192.0.2.7").is_err());
    assert!(b.app.guards.password.check("password:192.0.2.8").is_ok());
    // One node holds the sweeper's duty at a time.
    let held = [
        a.app.hall.holds_duty("sweeper"),
        b.app.hall.holds_duty("sweeper"),
    ];
    assert_eq!(held, [true, false]);
    assert!(a.app.hall.holds_duty("sweeper"));
    // Both nodes said where they are.
    let nodes = a.app.store.nodes().unwrap();
    let urls: Vec<String> = nodes.iter().map(|n| n.url.clone()).collect();
    assert_eq!(
        urls,
        [format!("http://{}", a.addr), format!("http://{}", b.addr)]
    );
    a.kill();
    b.kill();
}

/// Joins the quick-match queue through `node` and asks there, as the waiting page does,
/// until a table is given.
fn quick_table(clients: &tokio::runtime::Runtime, node: &Node, cookie: &str) -> i64 {
    clients.block_on(async {
        join(&node.app, cookie, false).await;
        table_within(&node.app, cookie, 15).await
    })
}

#[test]
fn the_quick_match_queue_is_shared_by_the_nodes() {
    let Some(url) = pg("quick") else {
        return;
    };
    let a = Node::start(&url, "a");
    let b = Node::start(&url, "b");
    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Two people, each on a node of their own, join at once: one table, both at it.
    let (_, ann) = person(&a.app, "Ann");
    let (_, bo) = person(&b.app, "Bo");
    let (ta, tb) = std::thread::scope(|s| {
        let x = s.spawn(|| quick_table(&clients, &a, &ann));
        let y = s.spawn(|| quick_table(&clients, &b, &bo));
        (x.join().unwrap(), y.join().unwrap())
    });
    assert_eq!(ta, tb);
    let spec: server::play::spec::TableSpec =
        serde_json::from_str(&a.app.store.play_table(ta).unwrap().spec).unwrap();
    let people = spec.places.iter().filter(|p| **p == Place::Person).count();
    assert_eq!(people, 2, "{spec:?}");
    // Each reaches the table through their own node (one of them relayed) and sits there.
    let mut yous = Vec::new();
    for (node, cookie) in [(&a, &ann), (&b, &bo)] {
        let addr = node.addr;
        yous.push(clients.block_on(async {
            let mut c = Client::connect(addr, ta, Some(cookie)).await;
            let s = c.until(|s| s["you"].is_u64()).await;
            c.close().await;
            s["you"].as_u64().unwrap()
        }));
    }
    assert_ne!(yous[0], yous[1]);
    // One alone, on the node without the matchmaker's duty: bots after the wait.
    let (_, cy) = person(&b.app, "Cy");
    let tc = quick_table(&clients, &b, &cy);
    assert_ne!(tc, ta);
    let spec: server::play::spec::TableSpec =
        serde_json::from_str(&b.app.store.play_table(tc).unwrap().spec).unwrap();
    assert_eq!(
        spec.places.iter().filter(|p| **p == Place::Person).count(),
        1
    );
    a.kill();
    b.kill();
}

/// A move anyone may make: a win, else a pass, else a discard.
fn choose(legal: &[Value]) -> Value {
    legal
        .iter()
        .find(|x| x["action"] == "hu")
        .or_else(|| legal.iter().find(|x| x["action"] == "pass"))
        .or_else(|| legal.iter().find(|x| x["action"] == "discard"))
        .unwrap_or(&legal[0])
        .clone()
}
