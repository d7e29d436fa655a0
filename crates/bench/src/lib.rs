//! # bench — the server under load
//!
//! What `dupmj bench` measures of the server, kept out of the server library. How many
//! tables a server answers: tables of four bots, each watched by one browser-like
//! WebSocket client that reads every state and sends a ping every `ping` interval; the
//! answer time is ping to pong. [`run`] serves from this process on a single-threaded
//! runtime (one core) on SQLite in memory, the clients on another thread; [`run_nodes`]
//! starts `dupmj serve` nodes as processes on one PostgreSQL database ([`nodes`]), with
//! each table's watcher on one node in turn (so that with two nodes half of them are
//! relayed to the other), and says how the CPU time was shared. [`failover`] kills nodes
//! while people play; [`rating`] times the rating rebuilt from many kept hands;
//! [`reviews`] the reviewers: a hand's wait for its review, the table with them busy, and
//! the review and field pages; [`botplayers`] outside bots playing as bot accounts and
//! waiting in the quick-match queue.

pub mod botplayers;
pub mod failover;
pub mod nodes;
pub mod rating;
pub mod reviews;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use store::SqliteStore;
use tokio_tungstenite::tungstenite::Message;

use play::spec::{DealRef, Hands, Place, TableSpec};
use play::PlayConfig;
use server::App;

/// One measured load.
#[derive(Clone, Debug)]
pub struct Point {
    /// Tables played at once.
    pub tables: usize,
    /// Pings answered.
    pub pings: usize,
    /// Median ping round trip, in milliseconds.
    pub p50_ms: f64,
    /// 99th percentile round trip, in milliseconds.
    pub p99_ms: f64,
    /// Slowest round trip, in milliseconds.
    pub max_ms: f64,
    /// State messages the clients received per second.
    pub states_per_s: f64,
    /// Bot moves per second across the tables.
    pub moves_per_s: f64,
}

/// Measures each table count for `seconds`, bots `level` moving every `pace`; with
/// `reviewers` (threads, ms a decision), that many reviewers busy on a backlog of hands
/// meanwhile, in this process.
pub fn run(
    counts: &[usize],
    seconds: f64,
    level: &str,
    pace: Duration,
    ping: Duration,
    reviewers: Option<(usize, u32)>,
    mut report: impl FnMut(&Point),
) -> Result<Vec<Point>, String> {
    let mut out = Vec::new();
    for &n in counts {
        let p = one(n, seconds, level, pace, ping, reviewers)?;
        report(&p);
        out.push(p);
    }
    Ok(out)
}

fn one(
    n: usize,
    seconds: f64,
    level: &str,
    pace: Duration,
    ping: Duration,
    reviewers: Option<(usize, u32)>,
) -> Result<Point, String> {
    let server_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let store: Arc<dyn store::Store> =
        Arc::new(SqliteStore::in_memory().map_err(|e| e.to_string())?);
    // A backlog the reviewers cannot finish while it is measured (a hand-seat takes them
    // seconds).
    let busy = match reviewers {
        Some((threads, ms)) => {
            let person = store
                .create_person("bench", None)
                .map_err(|e| e.to_string())?
                .id;
            let t = store
                .create_play_table("{}", false)
                .map_err(|e| e.to_string())?;
            let backlog = threads * (seconds as usize + 2) + 4;
            for (i, k) in reviews::hands(50_000, backlog, ["strong"; 4], person)
                .iter()
                .enumerate()
            {
                store
                    .save_hand(t, i as u32 + 1, None, &k.summary, &k.log)
                    .map_err(|e| e.to_string())?;
            }
            Some(reviews::Reviewers::start(store.clone(), threads, ms))
        }
        None => None,
    };
    let app = App::new(
        store,
        PlayConfig {
            pace,
            schedule: None,
            idle: Duration::from_secs(600),
            ..Default::default()
        },
    );
    let (addr_tx, addr_rx) = std::sync::mpsc::channel::<SocketAddr>();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let level = level.to_string();
    let server_app = app.clone();
    let server = std::thread::spawn(move || {
        server_rt.block_on(async move {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(l.local_addr().unwrap()).unwrap();
            for t in 0..n {
                server_app
                    .hall
                    .open_table(bot_table(t, &level), "bench")
                    .unwrap();
            }
            let serve = axum::serve(l, server::router(server_app));
            tokio::select! {
                _ = serve => {},
                _ = stop_rx => {},
            }
        })
    });
    let addr = addr_rx.recv().map_err(|e| e.to_string())?;
    let client_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let moves_before = moves(&app);
    let started = Instant::now();
    // The backlog's table, when there is one, took number 1.
    let first = if reviewers.is_some() { 2 } else { 1 };
    let watchers: Vec<(SocketAddr, i64)> = (0..n).map(|t| (addr, t as i64 + first)).collect();
    let (times, states) = client_rt.block_on(watch(watchers, seconds, ping));
    let elapsed = started.elapsed().as_secs_f64();
    let moves_after = moves(&app);
    if let Some(r) = busy {
        let reviewed = r.done.lock().unwrap().len();
        r.stop();
        if reviewed == 0 && seconds >= 10.0 {
            return Err("the reviewers finished no hand while it was measured".into());
        }
    }
    let _ = stop_tx.send(());
    server
        .join()
        .map_err(|_| "the server thread panicked".to_string())?;
    Ok(point(
        n,
        times,
        states,
        seconds,
        (moves_after - moves_before) as f64 / elapsed,
    ))
}

/// Journal lines written so far: one per move (and per hand start).
fn moves(app: &App) -> usize {
    app.store
        .play_tables(false, usize::MAX >> 1)
        .unwrap_or_default()
        .iter()
        .map(|t| app.store.journal(t.id).map(|j| j.len()).unwrap_or(0))
        .sum()
}

/// A table of four `level` bots playing 64 deals of its own.
fn bot_table(t: usize, level: &str) -> TableSpec {
    let deals = (0..64)
        .map(|i| DealRef {
            seed: (t * 64 + i) as u64,
            label: i.to_string(),
        })
        .collect();
    let places = std::array::from_fn(|_| Place::Bot {
        level: level.to_string(),
    });
    duplicate_table(deals, places, 0, 15)
}

/// A table of duplicate `deals` with these `places`, its owner and clock (seconds a
/// decision), and nothing else set.
fn duplicate_table(deals: Vec<DealRef>, places: [Place; 4], owner: i64, limit_s: u32) -> TableSpec {
    TableSpec {
        hands: Hands::Duplicate { deals },
        places,
        owner,
        owner_place: 0,
        limit_s,
        bank_s: 0,
        challenge: None,
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    }
}

/// One watcher per (address, table): reads every state and pings every `ping`, for one
/// second of warm-up and `seconds` measured; the round trips measured (ms) and the states
/// read while measuring.
async fn watch(
    watchers: Vec<(SocketAddr, i64)>,
    seconds: f64,
    ping: Duration,
) -> (Vec<f64>, usize) {
    let times: Arc<Mutex<Vec<f64>>> = Arc::default();
    let states = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let warm = Duration::from_secs(1);
    let end = Instant::now() + warm + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::new();
    for (t, (addr, table)) in watchers.into_iter().enumerate() {
        let times = times.clone();
        let states = states.clone();
        tasks.push(tokio::spawn(async move {
            let url = format!("ws://{addr}/play/t/{table}/ws");
            let Ok((ws, _)) = tokio_tungstenite::connect_async(url).await else {
                return;
            };
            let (mut tx, mut rx) = ws.split();
            let mut next_ping = Instant::now() + ping.mul_f64((t % 10) as f64 / 10.0);
            let mut sent: Option<Instant> = None;
            let mut id = 0u64;
            let measuring = Instant::now() + warm;
            loop {
                let now = Instant::now();
                if now >= end {
                    break;
                }
                if sent.is_none() && now >= next_ping {
                    id += 1;
                    let m = format!("{{\"type\":\"ping\",\"id\":{id}}}");
                    if tx.send(Message::Text(m.into())).await.is_err() {
                        break;
                    }
                    sent = Some(Instant::now());
                    next_ping += ping;
                }
                let wait = if sent.is_some() {
                    end
                } else {
                    next_ping.min(end)
                };
                let m = match tokio::time::timeout_at(wait.into(), rx.next()).await {
                    Ok(Some(Ok(m))) => m,
                    Ok(_) => break,
                    Err(_) => continue,
                };
                let Message::Text(text) = m else { continue };
                if text.contains("\"type\":\"pong\"") {
                    if let Some(at) = sent.take() {
                        note_time(&times, at, measuring);
                    }
                } else if Instant::now() >= measuring {
                    states.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let v = times.lock().unwrap().clone();
    (v, states.load(std::sync::atomic::Ordering::Relaxed))
}

/// Keeps the time since `sent`, in milliseconds, when it was sent once measuring began.
fn note_time(times: &Mutex<Vec<f64>>, sent: Instant, measuring: Instant) {
    if sent >= measuring {
        times
            .lock()
            .unwrap()
            .push(sent.elapsed().as_secs_f64() * 1000.0);
    }
}

/// The median, 99th percentile and largest of `v` (NaN for none).
fn percentiles(mut v: Vec<f64>) -> [f64; 3] {
    v.sort_by(f64::total_cmp);
    let q = |f: f64| {
        if v.is_empty() {
            f64::NAN
        } else {
            v[((v.len() as f64 * f).ceil() as usize).clamp(1, v.len()) - 1]
        }
    };
    [q(0.5), q(0.99), v.last().copied().unwrap_or(f64::NAN)]
}

/// A measured load from its round trips.
fn point(tables: usize, v: Vec<f64>, states: usize, seconds: f64, moves_per_s: f64) -> Point {
    let pings = v.len();
    let [p50_ms, p99_ms, max_ms] = percentiles(v);
    Point {
        tables,
        pings,
        p50_ms,
        p99_ms,
        max_ms,
        states_per_s: states as f64 / seconds,
        moves_per_s,
    }
}

/// A load measured on several nodes, and where the CPU time went meanwhile.
#[derive(Clone, Debug)]
pub struct NodesPoint {
    /// The answer times and rates.
    pub point: Point,
    /// Tables each node played.
    pub tables_per_node: Vec<usize>,
    /// CPU seconds of the node processes, together.
    pub nodes_cpu_s: f64,
    /// CPU seconds of the PostgreSQL server's processes.
    pub postgres_cpu_s: f64,
    /// CPU seconds of this process (the watchers).
    pub clients_cpu_s: f64,
    /// Wall seconds measured over.
    pub wall_s: f64,
}

impl NodesPoint {
    /// The database's share of the CPU time the server side used (nodes and PostgreSQL).
    pub fn database_share(&self) -> f64 {
        self.postgres_cpu_s / (self.postgres_cpu_s + self.nodes_cpu_s).max(f64::MIN_POSITIVE)
    }
}

/// Measures each table count on `nodes` node processes of `exe` over PostgreSQL `db`
/// (whose play tables are emptied between counts by a fresh database each: `db` names a
/// server, and each count gets `dupmj_bench_<n>`).
#[allow(clippy::too_many_arguments)]
pub fn run_nodes(
    exe: &std::path::Path,
    admin_url: &str,
    nodes: usize,
    counts: &[usize],
    seconds: f64,
    level: &str,
    pace: Duration,
    ping: Duration,
    logs: &std::path::Path,
    mut report: impl FnMut(&NodesPoint),
) -> Result<Vec<NodesPoint>, String> {
    let mut out = Vec::new();
    for &n in counts {
        let db = store::scratch_database(admin_url, &format!("dupmj_bench_{nodes}_{n}"))
            .map_err(|e| e.to_string())?;
        let p = one_on_nodes(exe, &db, nodes, n, seconds, level, pace, ping, logs)?;
        report(&p);
        out.push(p);
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn one_on_nodes(
    exe: &std::path::Path,
    db: &str,
    nodes: usize,
    n: usize,
    seconds: f64,
    level: &str,
    pace: Duration,
    ping: Duration,
    logs: &std::path::Path,
) -> Result<NodesPoint, String> {
    use store::prelude::*;
    let store = store::PgStore::connect(db).map_err(|e| e.to_string())?;
    let names: Vec<String> = (0..nodes).map(|i| format!("n{}", i + 1)).collect();
    let procs: Vec<nodes::NodeProcess> = names
        .iter()
        .map(|name| nodes::NodeProcess::start(exe, db, name, pace.as_millis() as u64, logs))
        .collect::<Result<_, _>>()?;
    // The tables are written straight into the database; the nodes' keepers share them out.
    let mut ids = Vec::new();
    for t in 0..n {
        let spec = bot_table(t, level);
        let json = serde_json::to_string(&spec).map_err(|e| e.to_string())?;
        let journal = play::room::Room::opening(&spec, &[], &[]).map_err(|e| e.to_string())?;
        let id = store
            .create_play_table(&json, false)
            .map_err(|e| e.to_string())?;
        let lines: Vec<(i64, u64, String)> = journal
            .into_iter()
            .enumerate()
            .map(|(i, l)| (id, i as u64, l))
            .collect();
        store.append_journal(&lines).map_err(|e| e.to_string())?;
        ids.push(id);
    }
    let until = Instant::now() + Duration::from_secs(30);
    while !store.unheld_tables().map_err(|e| e.to_string())?.is_empty() {
        if Instant::now() > until {
            return Err("the nodes did not take every table within 30 s".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let tables_per_node: Vec<usize> = names
        .iter()
        .map(|name| {
            ids.iter()
                .filter(|&&t| {
                    store
                        .table_owner(t)
                        .ok()
                        .flatten()
                        .is_some_and(|o| &o.node == name)
                })
                .count()
        })
        .collect();
    let watchers: Vec<(SocketAddr, i64)> = ids
        .iter()
        .enumerate()
        .map(|(i, &t)| (procs[i % nodes].addr, t))
        .collect();
    let cpu = |procs: &[nodes::NodeProcess]| -> (f64, f64, f64) {
        let node: f64 = procs
            .iter()
            .filter_map(|p| p.pid())
            .map(nodes::cpu_seconds)
            .sum();
        (
            node,
            nodes::postgres_cpu_seconds(),
            nodes::cpu_seconds(std::process::id()),
        )
    };
    let journal_lines = |s: &store::PgStore| -> usize {
        ids.iter()
            .map(|&t| s.journal(t).map(|j| j.len()).unwrap_or(0))
            .sum()
    };
    let client_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let moves_before = journal_lines(&store);
    let before = cpu(&procs);
    let started = Instant::now();
    let (times, states) = client_rt.block_on(watch(watchers, seconds, ping));
    let wall_s = started.elapsed().as_secs_f64();
    let after = cpu(&procs);
    let moves_after = journal_lines(&store);
    drop(procs);
    Ok(NodesPoint {
        point: point(
            n,
            times,
            states,
            seconds,
            (moves_after - moves_before) as f64 / wall_s,
        ),
        tables_per_node,
        nodes_cpu_s: after.0 - before.0,
        postgres_cpu_s: after.1 - before.1,
        clients_cpu_s: after.2 - before.2,
        wall_s,
    })
}
