//! The queue of hand reviews: every finished hand with a person at it waits here until a
//! reviewer (on any node) takes it under a lease, reviews the people's seats and stores
//! what it found, once.

use crate::Result;

/// A review to do: the hand, its log and the seats (0–3, East first) people played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewJob {
    /// The hand (`play_hands.id`).
    pub hand: i64,
    /// Seats to review.
    pub seats: Vec<usize>,
    /// The hand log (JSON).
    pub log: String,
    /// Who played it (JSON, as stored with the hand).
    pub summary: String,
}

/// Where a hand's review stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewState {
    /// Waiting for a reviewer (or being reviewed).
    Queued,
    /// Reviewed: the review (JSON owned by the reviewer).
    Done(String),
    /// Not reviewable, and why (a log that no longer replays).
    Failed(String),
}

/// How far behind the reviewers are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewBacklog {
    /// Reviews waiting.
    pub queued: u64,
    /// When the oldest of them was queued (milliseconds since 1970).
    pub oldest_ms: Option<i64>,
    /// Reviews done.
    pub done: u64,
    /// Hands that could not be reviewed.
    pub failed: u64,
}

/// Most hands waiting for review: a hand kept beyond it is marked failed, with the reason,
/// instead of queued. At the default budget one reviewer thread does about 15 hand-seats a
/// minute, so a full queue is about 5 hours of one thread's work.
pub const REVIEW_QUEUE_MAX: usize = 5_000;

/// A done review of a hand a person held a seat in ([`ReviewStore::reviews_of_person`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersonReview {
    /// The hand (`play_hands.id`).
    pub hand: i64,
    /// Its table.
    pub table: i64,
    /// Its number at the table.
    pub hand_no: u32,
    /// When it finished (UTC).
    pub at: String,
    /// The seat the person held.
    pub seat: usize,
    /// The review (JSON owned by the reviewer).
    pub review: String,
}

/// The review queue. A job is queued in the transaction that keeps its hand
/// ([`crate::PlayStore::write_play`], [`crate::PlayStore::save_hand`]).
pub trait ReviewStore {
    /// Takes the oldest queued review nobody holds, for `node`, until `ttl_ms` from now
    /// (a reviewer that dies lets it go back to the queue then).
    ///
    /// One transaction.
    fn claim_review(&self, node: &str, ttl_ms: u64) -> Result<Option<ReviewJob>>;

    /// Stores a review `node` holds: done with its JSON, or failed with the reason. A
    /// review another node took over since (or already stored) is left as it is; whether
    /// this one was stored.
    ///
    /// One transaction.
    fn finish_review(&self, hand: i64, node: &str, outcome: &ReviewState) -> Result<bool>;

    /// Where hand `hand`'s review stands; `None` for a hand with no review (no person at
    /// it, or kept before reviews were).
    ///
    /// A read: it sees what committed transactions wrote.
    fn review_of(&self, hand: i64) -> Result<Option<ReviewState>>;

    /// How far behind the reviewers are.
    ///
    /// A read: it sees what committed transactions wrote.
    fn review_backlog(&self) -> Result<ReviewBacklog>;

    /// Queues the review of hands with people at them kept before reviews were (no job at
    /// all), newest first, at most `limit` hands and never past [`REVIEW_QUEUE_MAX`]
    /// waiting; how many were queued.
    ///
    /// One transaction.
    fn queue_unreviewed(&self, limit: usize) -> Result<usize>;

    /// The done reviews of hands `person` held a seat in, newest first, at most `limit`.
    ///
    /// A read: it sees what committed transactions wrote.
    fn reviews_of_person(&self, person: i64, limit: usize) -> Result<Vec<PersonReview>>;
}
