//! The review queue over SQL.

use super::{args, Backend, Db, Sql, SqlExt};
use crate::{
    now_ms, PersonReview, Result, ReviewBacklog, ReviewJob, ReviewState, ReviewStore,
    REVIEW_QUEUE_MAX,
};

/// Hands waiting for review.
fn waiting(tx: &mut dyn Sql) -> Result<i64> {
    tx.one(
        "SELECT count(*) FROM review_jobs WHERE state = 'queued'",
        &[],
    )?
    .get(0)
}

/// Queues the review of hand `hand` for the people's `seats` (none: nothing queued). With
/// [`REVIEW_QUEUE_MAX`] hands already waiting the hand is marked failed, with the reason,
/// rather than queued: the queue never grows past what the reviewers can catch up on.
pub(super) fn queue_review(tx: &mut dyn Sql, hand: i64, seats: &[usize]) -> Result<()> {
    if seats.is_empty() {
        return Ok(());
    }
    let seats: Vec<String> = seats.iter().map(usize::to_string).collect();
    let waiting = waiting(tx)?;
    if waiting >= REVIEW_QUEUE_MAX as i64 {
        let why =
            format!("not reviewed: the reviewers were {waiting} hands behind when it was kept");
        tx.exec(
            "INSERT INTO review_jobs (hand, seats, queued, state, done, review) VALUES (?1, ?2, ?3, 'failed', ?3, ?4) ON CONFLICT (hand) DO NOTHING",
            args![hand, seats.join(","), now_ms(), why],
        )?;
        return Ok(());
    }
    tx.exec(
        "INSERT INTO review_jobs (hand, seats, queued) VALUES (?1, ?2, ?3) ON CONFLICT (hand) DO NOTHING",
        args![hand, seats.join(","), now_ms()],
    )?;
    Ok(())
}

impl<B: Backend> ReviewStore for Db<B> {
    fn claim_review(&self, node: &str, ttl_ms: u64) -> Result<Option<ReviewJob>> {
        self.change(|tx| {
            let now = now_ms();
            // The oldest free job; the update takes it only if nobody took it meanwhile
            // (on PostgreSQL a second node's update waits, then finds it taken).
            for r in tx.query(
                "SELECT hand, seats FROM review_jobs WHERE state = 'queued' AND expires <= ?1 ORDER BY hand LIMIT 4",
                args![now],
            )? {
                let hand: i64 = r.get(0)?;
                let seats: String = r.get(1)?;
                let n = tx.exec(
                    "UPDATE review_jobs SET node = ?2, expires = ?3 WHERE hand = ?1 AND state = 'queued' AND expires <= ?4",
                    args![hand, node, now + ttl_ms as i64, now],
                )?;
                if n == 1 {
                    let row = tx.one(
                        "SELECT log, summary FROM play_hands WHERE id = ?1",
                        args![hand],
                    )?;
                    let (log, summary): (String, String) = (row.get(0)?, row.get(1)?);
                    let seats = seats
                        .split(',')
                        .filter_map(|s| s.parse().ok())
                        .filter(|&s: &usize| s < 4)
                        .collect();
                    return Ok(Some(ReviewJob {
                        hand,
                        seats,
                        log,
                        summary,
                    }));
                }
            }
            Ok(None)
        })
    }

    fn finish_review(&self, hand: i64, node: &str, outcome: &ReviewState) -> Result<bool> {
        let (state, text) = match outcome {
            ReviewState::Queued => return Ok(false),
            ReviewState::Done(json) => ("done", json.as_str()),
            ReviewState::Failed(why) => ("failed", why.as_str()),
        };
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE review_jobs SET state = ?3, review = ?4, done = ?5 WHERE hand = ?1 AND node = ?2 AND state = 'queued'",
                args![hand, node, state, text, now_ms()],
            )?;
            Ok(n == 1)
        })
    }

    fn review_of(&self, hand: i64) -> Result<Option<ReviewState>> {
        let row = self.read(|c| {
            c.opt(
                "SELECT state, review FROM review_jobs WHERE hand = ?1",
                args![hand],
            )
        })?;
        let Some(r) = row else { return Ok(None) };
        let state: String = r.get(0)?;
        let text: Option<String> = r.get(1)?;
        Ok(Some(match state.as_str() {
            "done" => ReviewState::Done(text.unwrap_or_default()),
            "failed" => ReviewState::Failed(text.unwrap_or_default()),
            _ => ReviewState::Queued,
        }))
    }

    fn queue_unreviewed(&self, limit: usize) -> Result<usize> {
        self.change(|tx| {
            let rows = tx.query(
                "SELECT p.hand, p.seat FROM play_hand_people p \
                 WHERE NOT EXISTS (SELECT 1 FROM review_jobs r WHERE r.hand = p.hand) \
                 ORDER BY p.hand DESC, p.seat LIMIT ?1",
                args![limit.saturating_mul(4)],
            )?;
            let mut hands: Vec<(i64, Vec<usize>)> = Vec::new();
            for r in &rows {
                let (hand, seat): (i64, usize) = (r.get(0)?, r.get(1)?);
                match hands.last_mut() {
                    Some((h, seats)) if *h == hand => seats.push(seat),
                    _ => hands.push((hand, vec![seat])),
                }
            }
            hands.truncate(limit);
            let mut queued = 0;
            for (hand, seats) in &hands {
                if waiting(tx)? >= REVIEW_QUEUE_MAX as i64 {
                    break;
                }
                queue_review(tx, *hand, seats)?;
                queued += 1;
            }
            Ok(queued)
        })
    }

    fn reviews_of_person(&self, person: i64, limit: usize) -> Result<Vec<PersonReview>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT r.hand, h.play_table, h.hand_no, h.at, p.seat, r.review \
                 FROM play_hand_people p JOIN review_jobs r ON r.hand = p.hand \
                 JOIN play_hands h ON h.id = p.hand \
                 WHERE p.person = ?1 AND r.state = 'done' ORDER BY r.hand DESC LIMIT ?2",
                args![person, limit],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(PersonReview {
                    hand: r.get(0)?,
                    table: r.get(1)?,
                    hand_no: r.get(2)?,
                    at: r.get(3)?,
                    seat: r.get(4)?,
                    review: r.get::<Option<String>>(5)?.unwrap_or_default(),
                })
            })
            .collect()
    }

    fn review_backlog(&self) -> Result<ReviewBacklog> {
        let r = self.read(|c| {
            c.one(
                "SELECT \
                 COALESCE(SUM(CASE WHEN state = 'queued' THEN 1 ELSE 0 END), 0), \
                 MIN(CASE WHEN state = 'queued' THEN queued END), \
                 COALESCE(SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END), 0), \
                 COALESCE(SUM(CASE WHEN state = 'failed' THEN 1 ELSE 0 END), 0) \
                 FROM review_jobs",
                args![],
            )
        })?;
        Ok(ReviewBacklog {
            queued: r.get::<i64>(0)? as u64,
            oldest_ms: r.get(1)?,
            done: r.get::<i64>(2)? as u64,
            failed: r.get::<i64>(3)? as u64,
        })
    }
}
