//! The review queue on SQLite and PostgreSQL: a hand with people at it is queued for the
//! people's seats when it is kept, a bots' hand is not; a job goes to one reviewer at a
//! time, comes back after its lease, and is stored once.

mod common;

use store::prelude::*;
use store::ReviewState;

use common::pg;

on_both!(reviews_are_queued_taken_once_and_stored_once,);

fn reviews_are_queued_taken_once_and_stored_once(s: &dyn Store) {
    let t = s.create_play_table("{}", false).unwrap();
    let p = s.create_person("Rhea", None).unwrap();
    let q = s.create_person("Quin", None).unwrap();
    // Hand 1: people at South and North; hand 2: bots only.
    let people = format!(r#"{{"persons": [null, {}, null, {}]}}"#, p.id, q.id);
    let h1 = s.save_hand(t, 1, None, &people, "log one").unwrap();
    let h2 = s
        .save_hand(
            t,
            2,
            None,
            r#"{"persons": [null, null, null, null]}"#,
            "log two",
        )
        .unwrap();
    assert_eq!(s.review_of(h1).unwrap(), Some(ReviewState::Queued));
    assert_eq!(s.review_of(h2).unwrap(), None);
    let b = s.review_backlog().unwrap();
    assert_eq!((b.queued, b.done, b.failed), (1, 0, 0));
    assert!(b.oldest_ms.is_some());

    // One reviewer takes it; nobody else can while its lease runs.
    let job = s.claim_review("node-a", 60_000).unwrap().expect("a job");
    assert_eq!(
        (job.hand, job.seats.clone(), job.log.as_str()),
        (h1, vec![1, 3], "log one")
    );
    assert_eq!(s.claim_review("node-b", 60_000).unwrap(), None);
    // Another node cannot store it; the holder can, once.
    let done = ReviewState::Done("{\"ok\":1}".into());
    assert!(!s.finish_review(h1, "node-b", &done).unwrap());
    assert!(s.finish_review(h1, "node-a", &done).unwrap());
    assert!(!s
        .finish_review(h1, "node-a", &ReviewState::Failed("x".into()))
        .unwrap());
    assert_eq!(s.review_of(h1).unwrap(), Some(done.clone()));
    assert_eq!(s.claim_review("node-b", 60_000).unwrap(), None);

    // A reviewer that lets its lease run out loses the job to the next.
    let h3 = s.save_hand(t, 3, None, &people, "log three").unwrap();
    let first = s.claim_review("node-a", 0).unwrap().expect("a job");
    assert_eq!(first.hand, h3);
    let second = s
        .claim_review("node-b", 60_000)
        .unwrap()
        .expect("taken over");
    assert_eq!(second.hand, h3);
    assert!(!s.finish_review(h3, "node-a", &done).unwrap());
    let failed = ReviewState::Failed("the log does not replay".into());
    assert!(s.finish_review(h3, "node-b", &failed).unwrap());
    assert_eq!(s.review_of(h3).unwrap(), Some(failed));
    let b = s.review_backlog().unwrap();
    assert_eq!((b.queued, b.oldest_ms, b.done, b.failed), (0, None, 1, 1));

    // Each person's done reviews, with the seat they held (a failed one is not among them).
    let seen = |who: i64| -> Vec<(i64, i64, u32, usize, String)> {
        s.reviews_of_person(who, 10)
            .unwrap()
            .into_iter()
            .map(|r| (r.hand, r.table, r.hand_no, r.seat, r.review))
            .collect()
    };
    let text = "{\"ok\":1}".to_string();
    assert_eq!(seen(p.id), [(h1, t, 1, 1, text.clone())]);
    assert_eq!(seen(q.id), [(h1, t, 1, 3, text)]);
    assert!(s.reviews_of_person(q.id, 0).unwrap().is_empty());
    // Every hand with people has its job: the backfill finds none.
    assert_eq!(s.queue_unreviewed(10).unwrap(), 0);
}

/// The queue is bounded: with `REVIEW_QUEUE_MAX` hands waiting, the next hand kept is
/// marked failed with the reason, not queued; once the reviewers catch up, hands queue
/// again.
#[test]
fn a_full_queue_marks_new_hands_instead_of_growing() {
    let s = store::SqliteStore::in_memory().unwrap();
    let t = s.create_play_table("{}", false).unwrap();
    let p = s.create_person("Rhea", None).unwrap();
    let people = format!(r#"{{"persons": [{}, null, null, null]}}"#, p.id);
    for n in 0..store::REVIEW_QUEUE_MAX {
        s.save_hand(t, n as u32 + 1, None, &people, "log").unwrap();
    }
    let b = s.review_backlog().unwrap();
    assert_eq!(b.queued, store::REVIEW_QUEUE_MAX as u64);
    let over = s.save_hand(t, 9_999, None, &people, "log").unwrap();
    let Some(ReviewState::Failed(why)) = s.review_of(over).unwrap() else {
        panic!("queued past the bound");
    };
    assert!(why.contains("5000 hands behind"), "{why}");
    assert_eq!(s.review_backlog().unwrap().queued, b.queued);
    // One review done: room for the next hand.
    let job = s.claim_review("a", 60_000).unwrap().unwrap();
    s.finish_review(job.hand, "a", &ReviewState::Done("{}".into()))
        .unwrap();
    let next = s.save_hand(t, 10_000, None, &people, "log").unwrap();
    assert_eq!(s.review_of(next).unwrap(), Some(ReviewState::Queued));
}

/// Hands kept before reviews were (no job at all) are queued once by the backfill, the
/// newest first and as many as asked; hands without people never are.
#[test]
fn hands_kept_before_reviews_are_queued_once() {
    let dir = std::env::temp_dir().join(format!("dupmj-backfill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.sqlite");
    std::fs::remove_file(&path).ok();
    let s = store::SqliteStore::open(&path).unwrap();
    let t = s.create_play_table("{}", false).unwrap();
    let p = s.create_person("Rhea", None).unwrap();
    let people = format!(r#"{{"persons": [null, {}, null, null]}}"#, p.id);
    let h1 = s.save_hand(t, 1, None, &people, "log").unwrap();
    let bots = r#"{"persons": [null, null, null, null]}"#;
    let h2 = s.save_hand(t, 2, None, bots, "log").unwrap();
    let h3 = s.save_hand(t, 3, None, &people, "log").unwrap();
    drop(s);
    // As a database from before migration 13 has them: no review jobs.
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute("DELETE FROM review_jobs", []).unwrap();
    drop(c);
    let s = store::SqliteStore::open(&path).unwrap();
    assert_eq!(s.review_of(h1).unwrap(), None);
    assert_eq!(s.queue_unreviewed(1).unwrap(), 1);
    assert_eq!(s.review_of(h3).unwrap(), Some(ReviewState::Queued));
    assert_eq!(s.review_of(h1).unwrap(), None, "the newest first");
    assert_eq!(s.queue_unreviewed(10).unwrap(), 1);
    assert_eq!(s.review_of(h1).unwrap(), Some(ReviewState::Queued));
    assert_eq!(s.review_of(h2).unwrap(), None, "nobody to review");
    assert_eq!(s.queue_unreviewed(10).unwrap(), 0);
    let job = s.claim_review("a", 60_000).unwrap().unwrap();
    assert_eq!(job.seats, [1]);
    std::fs::remove_dir_all(&dir).ok();
}
