//! Why the hall did not do what was asked: one kind per way a caller answers it (the
//! player's mistake, nothing there, a limit, another node, the store), each with the
//! words the player reads (`Display`).

use std::fmt;

use store::StoreError;

use crate::room::Refusal;

/// A request to the hall (open, sit, join, publish, …) that did not go through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// A setting, a name, a token or a form the rules refuse, in words for the player.
    Invalid(String),
    /// No such table, event or challenge (or none this person may see).
    NotFound(String),
    /// A person has as many tables going as they may.
    TooManyTables {
        /// Tables they have going.
        going: usize,
        /// Whether they have an account (a guest may have fewer).
        account: bool,
        /// Minutes after which a table nobody is at ends.
        idle_minutes: u64,
    },
    /// The table is played by another node just now.
    Elsewhere {
        /// The table.
        table: i64,
        /// The node that holds it.
        node: String,
    },
    /// A table refused the request.
    Refused(Refusal),
    /// Something on the server's side failed or does not read back (a stored table's
    /// settings or journal, a hand's log, the journal thread): not the player's fault.
    Internal(String),
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Invalid(s) | PlayError::NotFound(s) | PlayError::Internal(s) => {
                f.write_str(s)
            }
            PlayError::TooManyTables {
                going,
                account,
                idle_minutes,
            } => write!(
                f,
                "you have {going} tables going, the most {} may have: finish or leave one first (a table nobody is at ends after {idle_minutes} minutes)",
                if *account { "an account" } else { "a guest" },
            ),
            PlayError::Elsewhere { table, node } => write!(
                f,
                "table {table} is played by another server ({node}) just now; try again in a few seconds"
            ),
            PlayError::Refused(r) => r.fmt(f),
            PlayError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<StoreError> for PlayError {
    fn from(e: StoreError) -> Self {
        PlayError::Store(e)
    }
}

impl From<Refusal> for PlayError {
    fn from(r: Refusal) -> Self {
        PlayError::Refused(r)
    }
}

/// JSON the hall reads is what it stored (a table's settings, a journal line, a log):
/// JSON that does not read back is the server's fault.
impl From<serde_json::Error> for PlayError {
    fn from(e: serde_json::Error) -> Self {
        PlayError::Internal(e.to_string())
    }
}
