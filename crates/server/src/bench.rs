//! How many tables one core serves: tables of four bots, each watched by one browser-like
//! WebSocket client that reads every state and sends a ping every `ping` interval; the
//! answer time is ping to pong. The server runs on a single-threaded runtime (one core);
//! the clients on another thread.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use store::SqliteStore;
use tokio_tungstenite::tungstenite::Message;

use crate::web::App;
use play::spec::{DealRef, Hands, Place, TableSpec};
use play::PlayConfig;

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

/// Measures each table count for `seconds`, bots `level` moving every `pace`.
pub fn run(
    counts: &[usize],
    seconds: f64,
    level: &str,
    pace: Duration,
    ping: Duration,
    mut report: impl FnMut(&Point),
) -> Result<Vec<Point>, String> {
    let mut out = Vec::new();
    for &n in counts {
        let p = one(n, seconds, level, pace, ping)?;
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
) -> Result<Point, String> {
    let server_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let store = SqliteStore::in_memory().map_err(|e| e.to_string())?;
    let app = App::new(
        Arc::new(store),
        PlayConfig {
            pace,
            schedule: None,
            idle: Duration::from_secs(600),
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
            let mut ids = Vec::new();
            for t in 0..n {
                let spec = TableSpec {
                    hands: Hands::Duplicate {
                        deals: (0..64)
                            .map(|i| DealRef {
                                seed: (t * 64 + i) as u64,
                                label: i.to_string(),
                            })
                            .collect(),
                    },
                    places: std::array::from_fn(|_| Place::Bot {
                        level: level.clone(),
                    }),
                    owner: 0,
                    owner_place: 0,
                    limit_s: 15,
                    bank_s: 0,
                    challenge: None,
                    sitting: None,
                    deals_key: None,
                    practice: None,
                    rules_version: None,
                };
                ids.push(server_app.hall.open_table(spec, "bench").unwrap());
            }
            let _ = ids;
            let serve = axum::serve(l, crate::router(server_app));
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
    let times: Arc<Mutex<Vec<f64>>> = Arc::default();
    let states = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let moves_before = moves(&app);
    let started = Instant::now();
    client_rt.block_on(async {
        let warm = Duration::from_secs(1);
        let end = Instant::now() + warm + Duration::from_secs_f64(seconds);
        let mut tasks = Vec::new();
        for t in 0..n {
            let times = times.clone();
            let states = states.clone();
            tasks.push(tokio::spawn(async move {
                let url = format!("ws://{addr}/play/t/{}/ws", t + 1);
                let Ok((ws, _)) = tokio_tungstenite::connect_async(url).await else {
                    return;
                };
                let (mut tx, mut rx) = ws.split();
                let mut next_ping = Instant::now() + ping.mul_f64((t % 10) as f64 / 10.0);
                let mut sent: Option<(u64, Instant)> = None;
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
                        sent = Some((id, Instant::now()));
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
                    if text.starts_with("{\"type\":\"pong\"") || text.contains("\"type\":\"pong\"")
                    {
                        if let Some((_, at)) = sent.take() {
                            if at >= measuring {
                                times
                                    .lock()
                                    .unwrap()
                                    .push(at.elapsed().as_secs_f64() * 1000.0);
                            }
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
    });
    let elapsed = started.elapsed().as_secs_f64();
    let moves_after = moves(&app);
    let _ = stop_tx.send(());
    server
        .join()
        .map_err(|_| "the server thread panicked".to_string())?;
    let mut v = times.lock().unwrap().clone();
    v.sort_by(f64::total_cmp);
    let q = |f: f64| {
        if v.is_empty() {
            f64::NAN
        } else {
            v[((v.len() as f64 * f).ceil() as usize).clamp(1, v.len()) - 1]
        }
    };
    Ok(Point {
        tables: n,
        pings: v.len(),
        p50_ms: q(0.5),
        p99_ms: q(0.99),
        max_ms: v.last().copied().unwrap_or(f64::NAN),
        states_per_s: states.load(std::sync::atomic::Ordering::Relaxed) as f64 / seconds,
        moves_per_s: (moves_after - moves_before) as f64 / elapsed,
    })
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
