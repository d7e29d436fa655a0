//! Results: the tables' entries with their versions and conflicts, penalties, and the
//! audit trail of every change.

use serde::Serialize;
use tournament::entry::ScoreEntry;
use tournament::standings::Penalty;

use crate::{EventId, Result, StoreError};

/// A table's saved result of one deal. A table can play the same deal in several hands
/// of a round (the deals stay, the players move), so a sitting is deal, table and hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// The deal's label.
    pub deal: String,
    /// The table.
    pub table: u32,
    /// The hand of the round (1–4).
    pub hand: u32,
    /// What the table entered.
    pub entry: ScoreEntry,
    /// Match points by wind of the deal (E, S, W, N).
    pub points: [i32; 4],
    /// 1 for the first save, one more for each change.
    pub version: u32,
    /// Who saved it.
    pub by: String,
    /// When (UTC).
    pub at: String,
}

/// What saving a result did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// Stored as this version.
    Saved {
        /// The version now stored.
        version: u32,
    },
    /// The same entry was already stored.
    Unchanged {
        /// The version stored.
        version: u32,
    },
    /// Someone saved a different entry since the form was loaded; kept aside for the
    /// director.
    Conflict {
        /// The conflict's number.
        id: i64,
    },
}

/// A second, different entry for a deal and table, waiting for the director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The conflict's number.
    pub id: i64,
    /// The deal's label.
    pub deal: String,
    /// The table.
    pub table: u32,
    /// The hand of the round (1–4).
    pub hand: u32,
    /// The entry that differs from the stored one.
    pub entry: ScoreEntry,
    /// Who entered it.
    pub by: String,
    /// When (UTC).
    pub at: String,
}

/// One line of the audit trail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditLine {
    /// When (UTC).
    pub at: String,
    /// Who.
    pub who: String,
    /// What was done.
    pub what: String,
    /// The data before, when something changed.
    pub before: Option<String>,
    /// The data after.
    pub after: Option<String>,
}

/// Results of an event, their conflicts and penalties, and its audit trail.
pub trait ResultStore {
    /// Every saved result of an event.
    ///
    /// A read: it sees what committed transactions wrote.
    fn results(&self, id: EventId) -> Result<Vec<StoredResult>>;

    /// Saves a table's entry for a deal if the stored version is still `expected` (0 for
    /// none); a different entry saved meanwhile makes a conflict instead.
    ///
    /// One transaction, with its audit line.
    #[allow(clippy::too_many_arguments)]
    fn save_result(
        &self,
        id: EventId,
        deal: &str,
        table: u32,
        hand: u32,
        entry: &ScoreEntry,
        expected: u32,
        who: &str,
    ) -> Result<Saved>;

    /// [`save_result`](Self::save_result) once per `key`, the phone's own name for the entry
    /// (8 to 64 letters, digits or '-'): a key seen before records nothing and answers what
    /// its first save did, so that a phone may send again an entry whose answer it lost.
    ///
    /// One transaction, with its audit line.
    fn save_result_once(
        &self,
        id: EventId,
        key: &str,
        sitting: (&str, u32, u32),
        entry: &ScoreEntry,
        expected: u32,
        who: &str,
    ) -> Result<Saved>;

    /// Conflicts waiting for the director.
    ///
    /// A read: it sees what committed transactions wrote.
    fn conflicts(&self, id: EventId) -> Result<Vec<Conflict>>;

    /// Accepts a conflicting entry (it replaces the stored one) or dismisses it.
    ///
    /// One transaction, with its audit line.
    fn resolve_conflict(&self, id: EventId, conflict: i64, accept: bool, who: &str) -> Result<()>;

    /// Records a penalty; returns its number.
    ///
    /// One transaction, with its audit line.
    fn add_penalty(&self, id: EventId, p: &Penalty, who: &str) -> Result<i64>;

    /// Every penalty with its number.
    ///
    /// A read: it sees what committed transactions wrote.
    fn penalties(&self, id: EventId) -> Result<Vec<(i64, Penalty)>>;

    /// Removes a penalty.
    ///
    /// One transaction, with its audit line.
    fn remove_penalty(&self, id: EventId, penalty: i64, who: &str) -> Result<()>;

    /// The audit trail, oldest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn audit(&self, id: EventId) -> Result<Vec<AuditLine>>;
}

/// Match points of an entry, by wind, for storage.
pub(crate) fn points_of(entry: &ScoreEntry) -> Result<[i32; 4]> {
    entry
        .match_points()
        .map_err(|e| StoreError::Invalid(e.to_string()))
}
