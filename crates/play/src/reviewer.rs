//! The reviewers: threads that take finished hands from the review queue
//! ([`store::ReviewStore`]), replay each person's seat with the expert asked at every
//! decision ([`agents::review`]) and store what it found. They run apart from the tables'
//! tasks, at a budget of their own: nobody waits at a table for a review.

use std::sync::Arc;
use std::time::Duration;

use agents::expert::ExpertBot;
use agents::review::review;
use mcr::Wind;
use serde::Deserialize;
use serde_json::json;
use store::{ReviewJob, ReviewState, Store};
use table::log::HandLog;
use table::rules::TableRules;

/// How long a reviewer holds a job before another may take it (a reviewer that died).
pub const REVIEW_LEASE: Duration = Duration::from_secs(15 * 60);

/// How long an idle reviewer waits before it looks at the queue again.
const IDLE: Duration = Duration::from_secs(2);

/// The reviewer's name in a review.
pub const REVIEWER: &str = "expert";

/// The part of a hand's summary a reviewer reads ([`crate::room::HandSummary::bot_moves`]).
#[derive(Deserialize)]
struct BotMoves {
    #[serde(default)]
    bot_moves: [Vec<usize>; 4],
}

/// Reviews one job: every person's seat of the hand, each with its agreement, its
/// costliest decisions and the review itself. A log that does not replay (a rule version
/// this program no longer plays) is a failed review, not a crash.
pub fn review_job(job: &ReviewJob, think_ms: u32) -> ReviewState {
    let log: HandLog = match serde_json::from_str(&job.log) {
        Ok(l) => l,
        Err(e) => return ReviewState::Failed(format!("the hand's log does not read: {e}")),
    };
    // Moves a stand-in bot chose are set aside: a review is of the person's own play.
    let bot_moves = serde_json::from_str::<BotMoves>(&job.summary)
        .map(|b| b.bot_moves)
        .unwrap_or_default();
    let mut seats = Vec::new();
    for &s in &job.seats {
        let seat = Wind::ALL[s];
        // The review replays under the log's own rules (`review` hands them to the bot).
        let mut expert = ExpertBot::thinking(TableRules::seeds(), job.hand as u64, think_ms);
        match review(&log, seat, &mut expert) {
            Ok(mut r) => {
                r.set_aside(&bot_moves[s]);
                seats.push(r.report());
            }
            Err(e) => return ReviewState::Failed(format!("the hand does not replay: {e}")),
        }
    }
    let done = json!({
        "reviewer": REVIEWER,
        "think_ms": think_ms,
        "seats": seats,
    });
    ReviewState::Done(done.to_string())
}

/// One seat's report (`seat`, `agreement`, `costliest`, `review`) in a stored review
/// ([`review_job`]'s JSON), if that seat was reviewed.
pub fn seat_report(review: &serde_json::Value, seat: Wind) -> Option<&serde_json::Value> {
    let letter = ["E", "S", "W", "N"][seat.index()];
    review["seats"]
        .as_array()?
        .iter()
        .find(|s| s["seat"] == letter)
}

/// Takes and does one job for `node`; whether there was one.
pub fn review_one(store: &dyn Store, node: &str, think_ms: u32) -> Result<bool, store::StoreError> {
    let Some(job) = store.claim_review(node, REVIEW_LEASE.as_millis() as u64)? else {
        return Ok(false);
    };
    // A bot that panics on one hand fails that review; it must not take the thread, and
    // after the lease every other reviewer, down with it.
    let outcome =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| review_job(&job, think_ms)))
            .unwrap_or_else(|p| {
                let why = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                ReviewState::Failed(format!("the reviewer stopped on this hand: {why}"))
            });
    if let ReviewState::Failed(why) = &outcome {
        tracing::warn!(hand = job.hand, "review failed: {why}");
    }
    store.finish_review(job.hand, node, &outcome)?;
    Ok(true)
}

/// Lowers the calling thread's scheduling priority (nice 10) where the system allows it,
/// so that a reviewer takes the CPU the tables leave: measured with `dupmj bench serve
/// --review-threads 1` (docs/play-online.md). Elsewhere it does nothing.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take and return plain integers; setpriority with the
    // thread's own id changes that thread only, and a failure leaves it as it was.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Hands kept before reviews were that a starting node queues ([`store::ReviewStore::queue_unreviewed`]).
pub const BACKFILL: usize = 1_000;

/// Starts `threads` reviewers for `node` (none for 0), each a thread of its own, apart
/// from the runtime that answers the tables; first the newest [`BACKFILL`] hands kept
/// before reviews were are queued.
pub fn start(store: Arc<dyn Store>, node: String, threads: usize, think_ms: u32) {
    if threads > 0 {
        match store.queue_unreviewed(BACKFILL) {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} hands kept before reviews were queued for review"),
            Err(e) => tracing::warn!("queueing earlier hands for review: {e}"),
        }
    }
    for i in 0..threads {
        let store = store.clone();
        let node = node.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("reviewer-{i}"))
            .spawn(move || {
                lower_priority();
                loop {
                    match review_one(store.as_ref(), &node, think_ms) {
                        Ok(true) => {}
                        Ok(false) => std::thread::sleep(IDLE),
                        Err(e) => {
                            tracing::warn!("review queue: {e}");
                            std::thread::sleep(IDLE);
                        }
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::error!("no reviewer thread: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::prelude::*;

    /// A hand with a person at South: queued when kept, reviewed by one reviewer for
    /// South alone, stored as JSON; a log that does not replay is stored as failed.
    #[test]
    fn a_queued_hand_is_reviewed_for_its_person_once() {
        let s = store::SqliteStore::in_memory().unwrap();
        let rules = TableRules::seeds();
        let mut four = std::array::from_fn(|i| {
            agents::registry::builtin(["strong", "random", "strong", "strong"][i], 7 + i as u64)
                .unwrap()
        });
        let log = agents::drive::play_hand(table::deal::Deal::generate(3), rules, &mut four);
        let p = s.create_person("Rhea", None).unwrap();
        let t = s.create_play_table("{}", false).unwrap();
        // South's second decision was a stand-in bot's.
        let south: Vec<usize> = (1..=log.actions.len())
            .filter(|&i| log.actions[i - 1].seat == Wind::South)
            .collect();
        let summary = format!(
            r#"{{"persons": [null, {}, null, null], "bot_moves": [[], [{}], [], []]}}"#,
            p.id, south[1]
        );
        let h = s
            .save_hand(t, 1, None, &summary, &serde_json::to_string(&log).unwrap())
            .unwrap();
        assert!(review_one(&s, "here", 20).unwrap());
        assert!(!review_one(&s, "here", 20).unwrap(), "nothing left");
        let Some(ReviewState::Done(json)) = s.review_of(h).unwrap() else {
            panic!("not reviewed");
        };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["reviewer"], REVIEWER);
        let seats = v["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 1);
        assert_eq!(seats[0]["seat"], "S");
        let weighed = seats[0]["review"]["decisions_weighed"].as_array().unwrap();
        assert!(!weighed.is_empty(), "{json}");
        assert!(weighed.iter().all(|w| w["index"] != south[1]), "{json}");
        assert_eq!(seats[0]["review"]["set_aside"], json!([south[1]]));

        // A log from a rule version this program does not play: failed, with the reason.
        let mut old = log.clone();
        old.rules_version = 999;
        let h2 = s
            .save_hand(t, 2, None, &summary, &serde_json::to_string(&old).unwrap())
            .unwrap();
        assert!(review_one(&s, "here", 20).unwrap());
        let Some(ReviewState::Failed(why)) = s.review_of(h2).unwrap() else {
            panic!("a log that does not replay is not reviewed");
        };
        assert!(why.contains("does not replay"), "{why}");
    }

    /// A hand where North may rob a kong and the expert weighs passing (its worlds once
    /// lost the tile being added, and the review panicked): reviewed for North.
    #[test]
    fn a_hand_with_a_robbable_kong_is_reviewed() {
        let log = include_str!("../../table/tests/fixtures/rob_kong_log.json");
        let job = ReviewJob {
            hand: 92555,
            seats: vec![3],
            summary: "{}".into(),
            log: log.into(),
        };
        let ReviewState::Done(json) = review_job(&job, 20) else {
            panic!("not reviewed");
        };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let weighed = v["seats"][0]["review"]["decisions_weighed"]
            .as_array()
            .unwrap();
        assert!(
            weighed
                .iter()
                .any(|w| w["situation"].as_str().is_some_and(|s| s.contains("adds"))),
            "the robbable kong is weighed: {json}"
        );
    }
}
