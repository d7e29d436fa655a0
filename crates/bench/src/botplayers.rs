//! Bot players on one node: how many outside bots (bot accounts over the table's socket,
//! as `dupmj connect` plays) one core serves while others wait in the quick-match queue.
//! Each connected bot sits at a table of its own with three built-in bots and answers every
//! decision its seat is sent at once; the move's latency is from its answer sent to the next
//! message of the table (the state that shows the move). Each queued bot asks where it
//! stands every second, as `dupmj connect` does. The server runs on one thread (one core)
//! over SQLite in memory, the clients on another.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use store::SqliteStore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use play::spec::{DealRef, Place};
use play::PlayConfig;
use server::App;

/// One measured load.
#[derive(Clone, Debug)]
pub struct BotPoint {
    /// Bots connected, each at a table.
    pub connected: usize,
    /// Bots waiting in the queue.
    pub queued: usize,
    /// Moves the connected bots made while measured.
    pub moves: usize,
    /// Median move latency, in milliseconds.
    pub p50_ms: f64,
    /// 99th percentile, in milliseconds.
    pub p99_ms: f64,
    /// Slowest, in milliseconds.
    pub max_ms: f64,
    /// Queue requests answered a second.
    pub polls_per_s: f64,
    /// Queue requests that failed or took over a second.
    pub slow_polls: usize,
}

/// Measures each (connected, queued) load for `seconds`, the built-in bots (`level`)
/// moving every `pace`.
pub fn run(
    loads: &[(usize, usize)],
    seconds: f64,
    level: &str,
    pace: Duration,
    mut report: impl FnMut(&BotPoint),
) -> Result<Vec<BotPoint>, String> {
    let mut out = Vec::new();
    for &(connected, queued) in loads {
        let p = one(connected, queued, seconds, level, pace)?;
        report(&p);
        out.push(p);
    }
    Ok(out)
}

/// A bot account with a token, as its page makes them.
fn bot_account(app: &App, name: &str) -> Result<(i64, String), String> {
    let p = app
        .store
        .create_person(name, Some("not a hash"))
        .map_err(|e| e.to_string())?;
    app.store.make_bot(p.id).map_err(|e| e.to_string())?;
    let token = format!("dupmj_bench_{}", p.id);
    app.store
        .add_api_token(p.id, &token)
        .map_err(|e| e.to_string())?;
    Ok((p.id, token))
}

fn one(
    connected: usize,
    queued: usize,
    seconds: f64,
    level: &str,
    pace: Duration,
) -> Result<BotPoint, String> {
    let store: Arc<dyn store::Store> =
        Arc::new(SqliteStore::in_memory().map_err(|e| e.to_string())?);
    let app = App::new(
        store,
        PlayConfig {
            pace,
            review_threads: 0,
            ..Default::default()
        },
    );
    let mut players = Vec::new();
    for i in 0..connected {
        let (id, token) = bot_account(&app, &format!("Player{i}"))?;
        players.push((id, token));
    }
    let mut waiting = Vec::new();
    for i in 0..queued {
        waiting.push(bot_account(&app, &format!("Waiter{i}"))?.1);
    }
    let server_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let (addr_tx, addr_rx) = std::sync::mpsc::channel::<(SocketAddr, Vec<i64>)>();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server_app = app.clone();
    let level = level.to_string();
    let owners: Vec<i64> = players.iter().map(|p| p.0).collect();
    let server = std::thread::spawn(move || {
        server_rt.block_on(async move {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = l.local_addr().unwrap();
            tokio::spawn(play::quick::matchmaker(server_app.hall.clone()));
            let mut tables = Vec::new();
            for (i, &owner) in owners.iter().enumerate() {
                let deals = (0..64)
                    .map(|d| DealRef {
                        seed: (i * 64 + d) as u64,
                        label: d.to_string(),
                    })
                    .collect();
                let bot = Place::Bot {
                    level: level.clone(),
                };
                let places = [Place::Person, bot.clone(), bot.clone(), bot];
                let spec = super::duplicate_table(deals, places, owner, 60);
                tables.push(server_app.hall.open_table(spec, "bench").unwrap());
            }
            addr_tx.send((addr, tables)).unwrap();
            let serve = axum::serve(l, server::router(server_app));
            tokio::select! {
                _ = serve => {},
                _ = stop_rx => {},
            }
        })
    });
    let (addr, tables) = addr_rx.recv().map_err(|e| e.to_string())?;
    let client_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let warm = Duration::from_secs(1);
    let measuring = Instant::now() + warm;
    let end = measuring + Duration::from_secs_f64(seconds);
    let times: Arc<Mutex<Vec<f64>>> = Arc::default();
    let polls = Arc::new(AtomicUsize::new(0));
    let slow = Arc::new(AtomicUsize::new(0));
    client_rt.block_on(async {
        let mut tasks = Vec::new();
        for ((_, token), table) in players.into_iter().zip(tables) {
            let times = times.clone();
            tasks.push(tokio::spawn(async move {
                let _ = play_bot(addr, table, &token, measuring, end, &times).await;
            }));
        }
        for (i, token) in waiting.into_iter().enumerate() {
            let (polls, slow) = (polls.clone(), slow.clone());
            tasks.push(tokio::spawn(async move {
                // Spread over the second, as independent bots would be.
                let offset = Duration::from_millis((i * 1000 / queued.max(1)) as u64);
                tokio::time::sleep(offset).await;
                // As `dupmj connect` asks: a connection of its own each time.
                let Ok(site) = server::connect::Site::new(&format!("http://{addr}"), &token) else {
                    return;
                };
                let _ = site.call("POST", "/api/bot/quick", "").await;
                while Instant::now() < end {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    let at = Instant::now();
                    let ok = site.call("GET", "/api/bot/quick", "").await.is_ok();
                    if at >= measuring && at < end {
                        polls.fetch_add(1, Ordering::Relaxed);
                        if !ok || at.elapsed() > Duration::from_secs(1) {
                            slow.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            }));
        }
        for t in tasks {
            let _ = t.await;
        }
    });
    let _ = stop_tx.send(());
    server
        .join()
        .map_err(|_| "the server thread panicked".to_string())?;
    let v = times.lock().unwrap().clone();
    let moves = v.len();
    let [p50_ms, p99_ms, max_ms] = super::percentiles(v);
    Ok(BotPoint {
        connected,
        queued,
        moves,
        p50_ms,
        p99_ms,
        max_ms,
        polls_per_s: polls.load(Ordering::Relaxed) as f64 / seconds,
        slow_polls: slow.load(Ordering::Relaxed),
    })
}

/// One bot at its table: answers each decision at once with its first legal move, asks for
/// the next hand, and times each answer to the table's next message.
async fn play_bot(
    addr: SocketAddr,
    table: i64,
    token: &str,
    measuring: Instant,
    end: Instant,
    times: &Mutex<Vec<f64>>,
) -> Result<(), String> {
    let mut req = format!("ws://{addr}/play/t/{table}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let auth = format!("Bearer {token}").parse().map_err(|_| "token")?;
    req.headers_mut().insert("authorization", auth);
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| e.to_string())?;
    let (mut tx, mut rx) = ws.split();
    let mut sent: Option<Instant> = None;
    while let Ok(Some(Ok(m))) = tokio::time::timeout_at(end.into(), rx.next()).await {
        let Message::Text(text) = m else { continue };
        if let Some(at) = sent.take() {
            super::note_time(times, at, measuring);
        }
        let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let reply = match v["type"].as_str() {
            Some("seat") if v["step"].is_u64() => {
                let first = v["legal"][0].clone();
                Some(json!({"type": "act", "step": v["step"], "action": first}))
            }
            Some("state") if v["stage"] == "between" => Some(json!({"type": "next"})),
            _ => None,
        };
        if let Some(r) = reply {
            let is_move = r["type"] == "act";
            if tx.send(Message::Text(r.to_string().into())).await.is_err() {
                break;
            }
            if is_move {
                sent = Some(Instant::now());
            }
        }
    }
    Ok(())
}
