//! The reviewers under load: how long a finished hand waits for its review when hands
//! arrive at a steady rate on one node ([`queue`]); hands for a backlog ([`hands`]); the
//! reviewers as stoppable threads ([`Reviewers`]); and how long the review and the field
//! of a hand take to serve when 200 people held the same deal-seat ([`pages`]).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use agents::registry::builtin;
use play::room::HandSummary;
use play::spec::{DealRef, Place, TableSpec};
use store::{ReviewState, SqliteStore, Store};
use table::deal::Deal;
use table::log::HandLog;
use table::rules::TableRules;

/// The reviewer's node name in these runs.
const NODE: &str = "bench";

/// A hand kept for review: its log and who played it.
pub struct Kept {
    /// The summary, a person at East.
    pub summary: String,
    /// The log.
    pub log: String,
}

/// `n` hands of deal seeds from `first`, four bots of `levels` (by seat) each, a person
/// (`person`) named at East; the deal key `key` for all of them when given.
pub fn hands(first: u64, n: usize, levels: [&str; 4], person: i64) -> Vec<Kept> {
    (0..n as u64)
        .map(|i| {
            let seed = first + i;
            let mut bots = std::array::from_fn(|s| {
                builtin(levels[s], seed * 4 + s as u64).expect("a built-in bot")
            });
            let log =
                agents::drive::play_hand(Deal::generate(seed), TableRules::seeds(), &mut bots);
            Kept {
                summary: summary(&log, person, levels),
                log: serde_json::to_string(&log).expect("a log writes"),
            }
        })
        .collect()
}

fn summary(log: &HandLog, person: i64, levels: [&str; 4]) -> String {
    let r = log.result.as_ref();
    let s = HandSummary {
        hand_no: 1,
        label: "deal 1".into(),
        names: std::array::from_fn(|i| {
            if i == 0 {
                format!("player {person}")
            } else {
                format!("bot ({})", levels[i])
            }
        }),
        persons: [Some(person), None, None, None],
        places: [0, 1, 2, 3],
        points: r.map_or([0; 4], |r| r.points),
        outcome: r.map_or(table::engine::Outcome::Draw, |r| r.kind),
        stood_in: [false; 4],
        held: None,
        bot_moves: Default::default(),
    };
    serde_json::to_string(&s).expect("a summary writes")
}

/// A table of one deal with a person at East: what the explorer's pages read.
fn one_deal_table(seed: u64, person: i64) -> TableSpec {
    let deal = DealRef {
        seed,
        label: "1".into(),
    };
    let places = std::array::from_fn(|i| match i {
        0 => Place::Person,
        _ => Place::Bot {
            level: "strong".into(),
        },
    });
    crate::duplicate_table(vec![deal], places, person, 600)
}

/// Reviewer threads that stop when asked, each noting when it finished which hand.
pub struct Reviewers {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    /// (hand, when it was taken, when it was stored).
    pub done: Arc<Mutex<Vec<(i64, Instant, Instant)>>>,
}

impl Reviewers {
    /// `threads` reviewers on `store` at `think_ms` a decision.
    pub fn start(store: Arc<dyn Store>, threads: usize, think_ms: u32) -> Reviewers {
        let stop = Arc::new(AtomicBool::new(false));
        let done: Arc<Mutex<Vec<(i64, Instant, Instant)>>> = Arc::default();
        let threads = (0..threads)
            .map(|_| {
                let (store, stop, done) = (store.clone(), stop.clone(), done.clone());
                std::thread::spawn(move || {
                    play::reviewer::lower_priority();
                    while !stop.load(Ordering::Relaxed) {
                        let job = store.claim_review(NODE, 15 * 60_000).ok().flatten();
                        let Some(job) = job else {
                            std::thread::sleep(Duration::from_millis(20));
                            continue;
                        };
                        let taken = Instant::now();
                        let outcome = play::reviewer::review_job(&job, think_ms);
                        let _ = store.finish_review(job.hand, NODE, &outcome);
                        done.lock().unwrap().push((job.hand, taken, Instant::now()));
                    }
                })
            })
            .collect();
        Reviewers {
            stop,
            threads,
            done,
        }
    }

    /// Stops them once each has finished the hand it holds.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// Times from a hand kept to its review, at a steady arrival rate on one node.
#[derive(Clone, Debug)]
pub struct QueueWait {
    /// Hands kept.
    pub kept: usize,
    /// Of them, reviewed by the end.
    pub reviewed: usize,
    /// Kept to taken by a reviewer: median and 95th percentile, seconds.
    pub wait_p50_s: f64,
    /// See [`QueueWait::wait_p50_s`].
    pub wait_p95_s: f64,
    /// Kept to stored: median and 95th percentile, seconds.
    pub done_p50_s: f64,
    /// See [`QueueWait::done_p50_s`].
    pub done_p95_s: f64,
    /// Seconds a review took, on average.
    pub review_mean_s: f64,
}

/// Keeps `per_hour` hands an hour (evenly spaced) for `minutes`, each with one person,
/// reviewed by `threads` reviewers at `think_ms`; then waits for the last review (at most
/// as long again) and says how long hands waited.
pub fn queue(
    per_hour: u32,
    minutes: f64,
    threads: usize,
    think_ms: u32,
) -> Result<QueueWait, String> {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().map_err(|e| e.to_string())?);
    let person = store
        .create_person("bench", None)
        .map_err(|e| e.to_string())?
        .id;
    let table = store
        .create_play_table("{}", false)
        .map_err(|e| e.to_string())?;
    let n = ((per_hour as f64) * minutes / 60.0).round().max(1.0) as usize;
    let kept = hands(10_000, n, ["strong"; 4], person);
    let gap = Duration::from_secs_f64(3600.0 / per_hour as f64);
    let reviewers = Reviewers::start(store.clone(), threads, think_ms);
    let mut when = Vec::new();
    let start = Instant::now();
    for (i, k) in kept.iter().enumerate() {
        let due = start + gap * i as u32;
        if let Some(d) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(d);
        }
        let id = store
            .save_hand(table, i as u32 + 1, None, &k.summary, &k.log)
            .map_err(|e| e.to_string())?;
        when.push((id, Instant::now()));
    }
    let deadline = Instant::now() + start.elapsed();
    while reviewers.done.lock().unwrap().len() < n && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let done = reviewers.done.lock().unwrap().clone();
    reviewers.stop();
    let mut waits = Vec::new();
    let mut totals = Vec::new();
    let mut reviews = Vec::new();
    for (id, kept_at) in &when {
        if let Some((_, taken, stored)) = done.iter().find(|d| d.0 == *id) {
            waits.push((*taken - *kept_at).as_secs_f64());
            totals.push((*stored - *kept_at).as_secs_f64());
            reviews.push((*stored - *taken).as_secs_f64());
        }
    }
    Ok(QueueWait {
        kept: n,
        reviewed: totals.len(),
        wait_p50_s: quantile(&mut waits, 0.5),
        wait_p95_s: quantile(&mut waits, 0.95),
        done_p50_s: quantile(&mut totals.clone(), 0.5),
        done_p95_s: quantile(&mut totals, 0.95),
        review_mean_s: reviews.iter().sum::<f64>() / reviews.len().max(1) as f64,
    })
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1]
}

/// Serving times of a hand's review and field pages.
#[derive(Clone, Debug)]
pub struct PageTimes {
    /// Holders of the deal-seat (the explored hand among them).
    pub holders: usize,
    /// `review.json`: median and slowest of the runs, milliseconds.
    pub review_p50_ms: f64,
    /// See [`PageTimes::review_p50_ms`].
    pub review_max_ms: f64,
    /// `field.json`: median and slowest, milliseconds.
    pub field_p50_ms: f64,
    /// See [`PageTimes::field_p50_ms`].
    pub field_max_ms: f64,
    /// The field's size, bytes.
    pub field_bytes: usize,
}

/// `holders` people each play deal `seed` at a table of their own (East, with `strong`,
/// `medium` or `random` company in turn), the first hand is reviewed at `think_ms`, and
/// its `review.json` and `field.json` are asked for `runs` times each over HTTP from an
/// in-process server (as the director, who may see every hand).
pub fn pages(holders: usize, runs: usize, think_ms: u32) -> Result<PageTimes, String> {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().map_err(|e| e.to_string())?);
    let app = server::App::new(store.clone(), play::PlayConfig::default());
    let seed = 77;
    let key = format!("dup:{seed}");
    let mut first = None;
    for h in 0..holders {
        let person = store
            .create_person(&format!("player {h}"), None)
            .map_err(|e| e.to_string())?
            .id;
        let spec =
            serde_json::to_string(&one_deal_table(seed, person)).map_err(|e| e.to_string())?;
        let table = store
            .create_play_table(&spec, false)
            .map_err(|e| e.to_string())?;
        let company = ["strong", "medium", "random"][h % 3];
        let mut bots = std::array::from_fn(|s| {
            let level = if s == 0 {
                ["strong", "medium", "random", "greedy"][h % 4]
            } else {
                company
            };
            builtin(level, (h * 4 + s) as u64).expect("a built-in bot")
        });
        let log = agents::drive::play_hand(Deal::generate(seed), TableRules::seeds(), &mut bots);
        let levels = [company; 4];
        let id = store
            .save_hand(
                table,
                1,
                Some(&key),
                &summary(&log, person, levels),
                &serde_json::to_string(&log).map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?;
        first.get_or_insert((table, id));
    }
    let (table, hand) = first.ok_or("no holders")?;
    // The explored hand's review, as a reviewer would store it (the others are not needed).
    while let Some(job) = store
        .claim_review(NODE, 60_000)
        .map_err(|e| e.to_string())?
    {
        let outcome = if job.hand == hand {
            play::reviewer::review_job(&job, think_ms)
        } else {
            ReviewState::Failed("not needed here".into())
        };
        store
            .finish_review(job.hand, NODE, &outcome)
            .map_err(|e| e.to_string())?;
    }
    let (session, _) = server::auth::start_session(store.as_ref(), store::Role::Director)
        .map_err(|e| e.to_string())?;
    let cookie = format!("{}={}", server::auth::COOKIE, session.token);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    rt.spawn(async move { axum::serve(listener, server::router(app)).await });
    let time = |path: &str| -> Result<(Vec<f64>, usize), String> {
        let mut v = Vec::new();
        let mut bytes = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let body = get(addr, path, &cookie)?;
            v.push(t.elapsed().as_secs_f64() * 1000.0);
            bytes = body.len();
        }
        Ok((v, bytes))
    };
    let (mut review, _) = time(&format!("/play/t/{table}/hands/1/review.json"))?;
    let (mut field, field_bytes) = time(&format!("/play/t/{table}/hands/1/field.json"))?;
    Ok(PageTimes {
        holders,
        review_p50_ms: quantile(&mut review, 0.5),
        review_max_ms: quantile(&mut review, 1.0),
        field_p50_ms: quantile(&mut field, 0.5),
        field_max_ms: quantile(&mut field, 1.0),
        field_bytes,
    })
}

/// One HTTP/1.1 GET with a cookie; the body, or the status line when it is not 200.
fn get(addr: SocketAddr, path: &str, cookie: &str) -> Result<String, String> {
    let mut s = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut out = String::new();
    s.read_to_string(&mut out).map_err(|e| e.to_string())?;
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("{path}: {}", head.lines().next().unwrap_or("")));
    }
    Ok(body.to_string())
}
