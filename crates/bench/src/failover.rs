//! `dupmj bench failover`: two nodes on one PostgreSQL database, people and bots playing at
//! many tables through both, and one node killed (SIGKILL) mid-hand, then the other.
//!
//! Each table has two people and two bots. The first person signs in as a guest and opens
//! the table through one node (which plays it); the second signs in and sits through the
//! other node (relayed to the first). Every person is a WebSocket client as a browser
//! would be: it answers each decision after a short think, readies for the next hand, and
//! reconnects a quarter of a second after its socket closes, to its own node or, when that
//! one is down, to the other. A move is acknowledged when a state shows its decision is
//! past. At the end, every person's moves are matched against the journals in the
//! database: each acknowledged move must be there once (none lost), nothing may be there
//! that was not sent (none twice), and every finished hand must replay to its points.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use mcr::Wind;
use serde_json::{json, Value};
use store::prelude::*;
use table::engine::Action;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::nodes::{http, NodeProcess};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Tables played at once.
    pub tables: usize,
    /// Nodes killed, one after the other (alternating between the two).
    pub kills: usize,
    /// Seconds of play before each kill, and after the last restart.
    pub play_s: u64,
    /// Seconds a killed node stays down.
    pub down_s: u64,
    /// Milliseconds between bot moves.
    pub pace_ms: u64,
}

/// What a run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// For each kill: the tables the killed node played, and for each the time from the
    /// kill to the first state a person of that table received from the node that took
    /// it over (milliseconds; tables that never came back are not in it).
    pub takeovers: Vec<(usize, Vec<f64>)>,
    /// Moves people sent.
    pub sent: usize,
    /// Moves acknowledged to the people who made them.
    pub acked: usize,
    /// People's moves in the journals.
    pub stored: usize,
    /// Acknowledged moves missing from the journals.
    pub lost: usize,
    /// Journal moves nobody sent, or sent once and stored twice.
    pub twice: usize,
    /// Moves in flight at a kill (sent, never acknowledged) that were kept.
    pub in_flight_kept: usize,
    /// Moves in flight at a kill that were not kept (the person made them again).
    pub in_flight_dropped: usize,
    /// Finished hands, and how many replayed to their stored points.
    pub hands: usize,
    /// Finished hands that replayed to their stored points.
    pub replayed: usize,
    /// Reconnections the people made.
    pub reconnects: usize,
}

/// One move a person sent.
#[derive(Clone, Debug)]
struct Sent {
    hand: usize,
    seat: Wind,
    step: u64,
    action: Action,
    acked: bool,
}

/// A person of the run and what they did.
struct Person {
    table: i64,
    cookie: String,
    /// The place to take on the first connection (the opener already sits).
    sit: Option<usize>,
    /// Index of the node this person connects to first.
    home: usize,
    sent: Vec<Sent>,
    /// Their seat in each hand (0-based), from the states.
    seats: HashMap<usize, Wind>,
    reconnects: usize,
    /// Moves in flight at a kill that were asked again (never applied) and made again.
    redone: usize,
}

/// When each table was last heard of after each kill.
#[derive(Default)]
struct Heard {
    kills: Vec<Instant>,
    first_after: Vec<HashMap<i64, Instant>>,
}

impl Heard {
    fn state(&mut self, table: i64) {
        let now = Instant::now();
        for (k, at) in self.kills.iter().enumerate() {
            if now > *at {
                self.first_after[k].entry(table).or_insert(now);
            }
        }
    }
}

/// Runs the failover benchmark with `exe serve` nodes on `db`; node logs go to `logs`.
pub fn run(
    exe: &Path,
    db: &str,
    o: &Options,
    logs: &Path,
    mut say: impl FnMut(&str),
) -> Result<Report, String> {
    let store = store::PgStore::connect(db).map_err(|e| e.to_string())?;
    let mut nodes = vec![
        NodeProcess::start(exe, db, "a", o.pace_ms, logs)?,
        NodeProcess::start(exe, db, "b", o.pace_ms, logs)?,
    ];
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    say(&format!(
        "nodes a {} and b {} on {}",
        addrs[0],
        addrs[1],
        store::Location::parse(db)
    ));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let people = rt.block_on(seat_people(&addrs, o.tables))?;
    let mut tables: Vec<i64> = people.iter().map(|p| p.table).collect();
    tables.dedup();
    say(&format!(
        "{} tables opened, {} people",
        o.tables,
        people.len()
    ));
    let heard = Arc::new(Mutex::new(Heard::default()));
    let total = Duration::from_secs(o.play_s * (o.kills as u64 + 1) + o.down_s * o.kills as u64);
    let end = Instant::now() + total;
    let handles: Vec<_> = people
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let addrs = addrs.clone();
            let heard = heard.clone();
            rt.spawn(person(p, addrs, end, heard, i as u64))
        })
        .collect();
    let mut killed_tables = Vec::new();
    for k in 0..o.kills {
        std::thread::sleep(Duration::from_secs(o.play_s));
        let victim = k % 2;
        let name = nodes[victim].name.clone();
        let owned: Vec<i64> = tables
            .iter()
            .copied()
            .filter(|&t| {
                store
                    .table_owner(t)
                    .ok()
                    .flatten()
                    .is_some_and(|o| o.node == name)
            })
            .collect();
        {
            let mut h = heard.lock().unwrap();
            h.kills.push(Instant::now());
            h.first_after.push(HashMap::new());
        }
        nodes[victim].kill();
        say(&format!(
            "kill {}: node {name} killed (SIGKILL) playing {} tables",
            k + 1,
            owned.len()
        ));
        killed_tables.push(owned);
        std::thread::sleep(Duration::from_secs(o.down_s));
        nodes[victim].restart()?;
        say(&format!("node {name} restarted"));
    }
    let people: Vec<Person> = rt.block_on(async {
        let mut out = Vec::new();
        for h in handles {
            if let Ok(p) = h.await {
                out.push(p);
            }
        }
        out
    });
    // Let the last writes settle, then stop both nodes before reading the database.
    std::thread::sleep(Duration::from_secs(1));
    for n in &mut nodes {
        n.kill();
    }
    let heard = heard.lock().unwrap();
    let mut report = Report::default();
    for (k, owned) in killed_tables.iter().enumerate() {
        let mut times: Vec<f64> = owned
            .iter()
            .filter_map(|t| heard.first_after[k].get(t))
            .map(|at| (*at - heard.kills[k]).as_secs_f64() * 1000.0)
            .collect();
        times.sort_by(f64::total_cmp);
        report.takeovers.push((owned.len(), times));
    }
    check(&store, &people, &tables, &mut report)?;
    Ok(report)
}

/// Signs in two guests per table, each through its own node, and opens each table through
/// the first one's node: the table's id, and both people.
async fn seat_people(addrs: &[SocketAddr], tables: usize) -> Result<Vec<Person>, String> {
    let mut out = Vec::new();
    for t in 0..tables {
        let home = t % addrs.len();
        let other = (t + 1) % addrs.len();
        let first = guest(addrs[home], &format!("Opener {t}"), t, 1).await?;
        let csrf = csrf(addrs[home], &first).await?;
        let form: Vec<(&str, String)> = vec![
            ("csrf", csrf),
            ("kind", "duplicate".into()),
            ("deals", "16".into()),
            ("place", "0".into()),
            ("p1", "easy".into()),
            ("p2", "person".into()),
            ("p3", "easy".into()),
            // Long enough that no decision runs out while a node is down.
            ("limit", "60".into()),
            ("bank", "60".into()),
        ];
        let a = http::request(
            addrs[home],
            "POST",
            "/play/tables",
            &[("Cookie", first.clone())],
            Some(&form),
        )
        .await?;
        let table: i64 = a
            .location
            .as_deref()
            .and_then(|l| l.strip_prefix("/play/t/"))
            .and_then(|id| id.parse().ok())
            .ok_or_else(|| format!("table {t} not opened: {} {}", a.status, a.body))?;
        let second = guest(addrs[other], &format!("Sitter {t}"), t, 2).await?;
        out.push(Person {
            table,
            cookie: first,
            sit: None,
            home,
            sent: Vec::new(),
            seats: HashMap::new(),
            reconnects: 0,
            redone: 0,
        });
        out.push(Person {
            table,
            cookie: second,
            sit: Some(2),
            home: other,
            sent: Vec::new(),
            seats: HashMap::new(),
            reconnects: 0,
            redone: 0,
        });
    }
    Ok(out)
}

/// A new guest through `addr` (from an address of its own, as a reverse proxy would say,
/// so that the limit on new players per address does not apply); its Cookie header.
async fn guest(addr: SocketAddr, name: &str, t: usize, n: usize) -> Result<String, String> {
    let from = format!("10.{}.{}.{n}", t / 250, t % 250);
    let a = http::request(
        addr,
        "POST",
        "/play/guest",
        &[("X-Forwarded-For", from)],
        Some(&[("name", name.to_string())]),
    )
    .await?;
    a.cookies
        .into_iter()
        .find(|c| c.starts_with(server::auth::COOKIE))
        .ok_or_else(|| format!("guest {name}: no session ({} {})", a.status, a.body))
}

/// The session's cross-site token, read off the lobby's form.
async fn csrf(addr: SocketAddr, cookie: &str) -> Result<String, String> {
    let a = http::request(
        addr,
        "GET",
        "/play",
        &[("Cookie", cookie.to_string())],
        None,
    )
    .await?;
    let at = a
        .body
        .find("name=\"csrf\" value=\"")
        .ok_or("the lobby has no form token")?;
    let rest = &a.body[at + "name=\"csrf\" value=\"".len()..];
    Ok(rest[..rest.find('"').unwrap_or(0)].to_string())
}

/// A small deterministic generator for think times.
fn next_rand(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x >> 33
}

/// One person playing until `end`: connects, sits if asked, answers, reconnects.
async fn person(
    mut p: Person,
    addrs: Vec<SocketAddr>,
    end: Instant,
    heard: Arc<Mutex<Heard>>,
    seed: u64,
) -> Person {
    let mut rng = seed.wrapping_add(0x9e37_79b9);
    let mut node = p.home;
    // The move awaiting its acknowledgement, and the connection it was sent on.
    let mut pending: Option<(usize, usize)> = None;
    let mut connection = 0usize;
    while Instant::now() < end {
        if connection > 0 {
            p.reconnects += 1;
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        connection += 1;
        let mut req =
            match format!("ws://{}/play/t/{}/ws", addrs[node], p.table).into_client_request() {
                Ok(r) => r,
                Err(_) => break,
            };
        if let Ok(c) = p.cookie.parse() {
            req.headers_mut().insert("cookie", c);
        }
        let ws = match tokio::time::timeout(
            Duration::from_secs(3),
            tokio_tungstenite::connect_async(req),
        )
        .await
        {
            Ok(Ok((ws, _))) => ws,
            _ => {
                // That node is down: the other one, as a load balancer would.
                node = (node + 1) % addrs.len();
                continue;
            }
        };
        node = p.home;
        let (mut tx, mut rx) = ws.split();
        if let Some(place) = p.sit.take() {
            let _ = tx
                .send(Message::Text(
                    json!({"type": "sit", "place": place}).to_string().into(),
                ))
                .await;
        }
        loop {
            let m = match tokio::time::timeout_at(end.into(), rx.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => t,
                Ok(Some(Ok(_))) => continue,
                _ => break,
            };
            let Ok(s) = serde_json::from_str::<Value>(&m) else {
                continue;
            };
            if s["type"] != "state" {
                continue;
            }
            heard.lock().unwrap().state(p.table);
            let playing = s["stage"] == "playing";
            let legal = s["legal"].as_array().filter(|l| !l.is_empty());
            let step = s["step"].as_u64();
            let asked = playing && legal.is_some();
            if let Some((i, on)) = pending {
                if !asked || step != Some(p.sent[i].step) {
                    // The decision it answered is past: it was applied.
                    p.sent[i].acked = true;
                    pending = None;
                } else if on != connection {
                    // Asked the same decision again after reconnecting: that move was
                    // lost in flight, never applied; it is made again below.
                    p.sent.remove(i);
                    p.redone += 1;
                    pending = None;
                }
            }
            if s["stage"] == "between" {
                let _ = tx
                    .send(Message::Text(json!({"type": "next"}).to_string().into()))
                    .await;
                continue;
            }
            let (Some(legal), Some(step), true) = (legal, step, asked) else {
                continue;
            };
            let hand = s["hand_no"].as_u64().unwrap_or(1) as usize - 1;
            let Some(seat) = seat_of(&s) else { continue };
            p.seats.insert(hand, seat);
            if pending.is_some() {
                continue;
            }
            tokio::time::sleep(Duration::from_millis(30 + next_rand(&mut rng) % 170)).await;
            let choice = choose(legal);
            let Ok(action) = serde_json::from_value::<Action>(choice.clone()) else {
                continue;
            };
            let msg = json!({"type": "act", "step": step, "action": choice}).to_string();
            p.sent.push(Sent {
                hand,
                seat,
                step,
                action,
                acked: false,
            });
            pending = Some((p.sent.len() - 1, connection));
            if tx.send(Message::Text(msg.into())).await.is_err() {
                break;
            }
        }
    }
    p
}

/// The person's seat in the hand a state shows.
fn seat_of(s: &Value) -> Option<Wind> {
    let you = s["you"].as_u64()?;
    let places = s["seat_places"].as_array()?;
    let i = places.iter().position(|p| p.as_u64() == Some(you))?;
    Some(Wind::from_index(i))
}

/// The move a benchmark's person makes: Hu when offered, else pass, else the first
/// discard, else the first legal move.
pub fn choose(legal: &[Value]) -> Value {
    legal
        .iter()
        .find(|x| x["action"] == "hu")
        .or_else(|| legal.iter().find(|x| x["action"] == "pass"))
        .or_else(|| legal.iter().find(|x| x["action"] == "discard"))
        .unwrap_or(&legal[0])
        .clone()
}

/// Matches every person's moves with the journals, and replays every finished hand.
fn check(
    store: &dyn Store,
    people: &[Person],
    tables: &[i64],
    r: &mut Report,
) -> Result<(), String> {
    use play::room::Entry;
    let mut tables: Vec<i64> = tables.to_vec();
    tables.sort();
    tables.dedup();
    for &t in &tables {
        let mut stored: HashMap<(usize, Wind), Vec<Action>> = HashMap::new();
        for line in store.journal(t).map_err(|e| e.to_string())? {
            if let Ok(Entry::Act {
                hand,
                seat,
                action,
                stand_in: false,
                ..
            }) = serde_json::from_str::<Entry>(&line)
            {
                stored.entry((hand, seat)).or_default().push(action);
            }
        }
        for p in people.iter().filter(|p| p.table == t) {
            r.sent += p.sent.len();
            r.acked += p.sent.iter().filter(|s| s.acked).count();
            r.reconnects += p.reconnects;
            r.in_flight_dropped += p.redone;
            for (&hand, &seat) in &p.seats {
                let journal = stored.remove(&(hand, seat)).unwrap_or_default();
                r.stored += journal.len();
                let sent: Vec<&Sent> = p
                    .sent
                    .iter()
                    .filter(|s| s.hand == hand && s.seat == seat)
                    .collect();
                // Each journal move takes the next sent move that is the same; a sent
                // move passed over was not kept (lost if it had been acknowledged).
                let mut i = 0;
                for a in &journal {
                    let mut matched = false;
                    while i < sent.len() {
                        let s = sent[i];
                        i += 1;
                        if s.action == *a {
                            matched = true;
                            if !s.acked {
                                r.in_flight_kept += 1;
                            }
                            break;
                        }
                        if s.acked {
                            r.lost += 1;
                        } else {
                            r.in_flight_dropped += 1;
                        }
                    }
                    if !matched {
                        r.twice += 1;
                    }
                }
                for s in &sent[i..] {
                    if s.acked {
                        r.lost += 1;
                    } else {
                        r.in_flight_dropped += 1;
                    }
                }
            }
        }
        for h in store.hands_of_table(t).map_err(|e| e.to_string())? {
            r.hands += 1;
            let log: table::log::HandLog =
                serde_json::from_str(&h.log).map_err(|e| format!("table {t}: {e}"))?;
            let summary: play::room::HandSummary =
                serde_json::from_str(&h.summary).map_err(|e| format!("table {t}: {e}"))?;
            if let Ok(played) = table::log::replay(&log) {
                if played.result().map(|x| x.points) == Some(summary.points) {
                    r.replayed += 1;
                }
            }
        }
    }
    Ok(())
}
