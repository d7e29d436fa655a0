//! The quick-match queue, shared by every node: who waits for a table, since when, when
//! their browser last asked, and the table they were given.

use crate::Result;

/// A player waiting in the quick-match queue (or just given a table from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    /// Who.
    pub person: i64,
    /// The name they play under.
    pub name: String,
    /// Their rating when they joined, × 1000 (a newcomer's is the bots' medium level).
    pub rating_milli: i64,
    /// A bot account (it fills seats only of people who let bot accounts play them).
    pub bot: bool,
    /// A person who lets bot accounts fill the other seats.
    pub bots_ok: bool,
    /// When they joined, in milliseconds since 1970.
    pub joined_ms: i64,
    /// When their browser (or bot) last said it still waits.
    pub seen_ms: i64,
    /// The table they were given, once they were.
    pub table: Option<i64>,
}

/// The quick-match queue.
pub trait QueueStore {
    /// Puts `q` in the queue; someone already there keeps their place (their options and
    /// name are updated), someone given a table before waits anew.
    ///
    /// One transaction.
    fn join_queue(&self, q: &Queued) -> Result<()>;

    /// Notes that `person` still waits (at `now_ms`) and says where they stand; `None` when
    /// they are not in the queue.
    ///
    /// One transaction.
    fn queue_seen(&self, person: i64, now_ms: i64) -> Result<Option<Queued>>;

    /// Takes `person` out of the queue; whether they were in it.
    ///
    /// One transaction.
    fn leave_queue(&self, person: i64) -> Result<bool>;

    /// Everyone in the queue, those given a table included, by the time they joined.
    ///
    /// A read: it sees what committed transactions wrote.
    fn queue(&self) -> Result<Vec<Queued>>;

    /// People (not bot accounts) waiting without a table: how many, and when the first of
    /// them joined.
    ///
    /// A read: it sees what committed transactions wrote.
    fn queue_waiting(&self) -> Result<(usize, Option<i64>)>;

    /// Gives `table` to `persons` who still wait without one; how many got it (someone
    /// who left meanwhile does not).
    ///
    /// One transaction.
    fn seat_queued(&self, persons: &[i64], table: i64) -> Result<usize>;

    /// Takes out everyone not seen since `before_ms` (a closed browser, a table given and
    /// gone to); who was taken out.
    ///
    /// One transaction.
    fn prune_queue(&self, before_ms: i64) -> Result<Vec<i64>>;
}
