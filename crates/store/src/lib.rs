//! # store — where an event's data lives
//!
//! Owns persistence, by domain, each a trait implemented once over SQL ([`sql`]) and run on
//! SQLite (one file, the default) or PostgreSQL (a shared database for several nodes):
//!
//! - [`EventStore`]: events with their players, movement, table codes, rounds, the day at
//!   the venue (check-in, withdrawals, the clock) and the deal set's release;
//! - [`ResultStore`]: score entries with versions and conflicts, penalties, and the audit
//!   trail of every change (who, when, before, after);
//! - [`SessionStore`]: the director's password, director, table and player sessions, and
//!   the people who play online (guests and accounts, names compared by [`name_key`]);
//! - [`PlayStore`]: tables of online play with their journals and finished hands;
//! - [`ChallengeStore`]: challenges and the deals people took up;
//! - [`OnlineStore`]: events played online, their linked seats and sittings;
//! - [`RatingStore`]: the duplicate rating kept per person, and the sessions it took in;
//! - [`ReviewStore`]: the queue of hand reviews, each taken by one reviewer under a lease;
//! - [`QueueStore`]: the quick-match queue every node shares;
//! - [`BotStore`]: bot accounts and their API tokens;
//! - [`DrillStore`]: training drills, their schedule and every answer;
//! - [`SeasonStore`]: sign-ups for events (every act in order) and seasons with their parts;
//! - [`LeaseStore`]: several nodes on one database: which node plays which table (leases
//!   with fencing numbers, checked by every journal write), the nodes, their duties.
//!
//! [`Store`] is all of them; the web layer sees only it. Every method says the transaction
//! it is: every change is one transaction, and every change to results, seating or
//! penalties writes its audit line in that same transaction. Both databases run the same
//! statements (see [`sql`]); the schema's migrations are one list with each step written
//! for both (`schema.rs`). [`open`] picks the backend from a path or a `postgres://` URL.

#![deny(missing_docs)]

mod bots;
mod challenges;
mod drills;
mod events;
pub mod history;
mod leases;
pub mod migrate;
mod online;
pub mod people;
mod postgres;
mod queue;
pub mod ratings;
mod results;
mod reviews;
mod schema;
mod seasons;
mod sessions;
pub mod sql;
mod sqlite;
mod tables;

pub use bots::{ApiToken, BotStore, MAX_TOKENS};
pub use challenges::{ChallengePlay, ChallengeStore, StoredChallenge};
pub use drills::{DrillAnswer, DrillCard, DrillProgress, DrillStore};
pub use events::{Entrant, Event, EventId, EventStore, NewEvent, StandIn, Withdrawal};
pub use history::HistoryStore;
pub use leases::{now_ms, LeaseStore, NodeInfo, TableOwner};
pub use online::{OnlineSitting, OnlineStore};
pub use people::name_key;
pub use postgres::{scratch_database, PgStore, Postgres};
pub use queue::{QueueStore, Queued};
pub use ratings::{RatedHand, RatedSession, RatingRow, RatingStore, SessionRated};
pub(crate) use results::points_of;
pub use results::{AuditLine, Conflict, ResultStore, Saved, StoredResult};
pub use reviews::{
    PersonReview, ReviewBacklog, ReviewJob, ReviewState, ReviewStore, REVIEW_QUEUE_MAX,
};
/// The schema's migrations, for tests that build an older database.
#[doc(hidden)]
pub use schema::{MIGRATIONS, POSTGRES};
pub use seasons::{EventKind, NewSignUp, PartKind, Season, SeasonStore, SignUp};
pub use sessions::{session_hours, Person, Role, Session, SessionInfo, SessionStore};
pub use sql::civil_date;
pub use sqlite::{Sqlite, SqliteStore};
pub use tables::{NewHand, PlayStore, PlayWrite, StoredHand, StoredPlayTable};

/// Every domain's trait, for `use store::prelude::*` where a [`Store`] is used.
pub mod prelude {
    pub use crate::{
        BotStore, ChallengeStore, DrillStore, EventStore, HistoryStore, LeaseStore, OnlineStore,
        PlayStore, QueueStore, RatingStore, ResultStore, ReviewStore, SeasonStore, SessionStore,
        Store,
    };
}

/// Anything the store could not do, with what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// Nothing stored under that key.
    NotFound(String),
    /// A request the data refuses (a rule of the event, a stale version, …).
    Invalid(String),
    /// The database failed.
    Backend(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::NotFound(s) => write!(f, "not found: {s}"),
            StoreError::Invalid(s) => write!(f, "{s}"),
            StoreError::Backend(s) => write!(f, "storage error: {s}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// What every store call returns.
pub type Result<T> = std::result::Result<T, StoreError>;

/// Everything the application keeps: every domain's trait.
pub trait Store:
    SessionStore
    + EventStore
    + ResultStore
    + PlayStore
    + ChallengeStore
    + OnlineStore
    + HistoryStore
    + LeaseStore
    + RatingStore
    + ReviewStore
    + QueueStore
    + BotStore
    + DrillStore
    + SeasonStore
    + Send
    + Sync
{
}

impl<T> Store for T where
    T: SessionStore
        + EventStore
        + ResultStore
        + PlayStore
        + ChallengeStore
        + OnlineStore
        + HistoryStore
        + LeaseStore
        + RatingStore
        + ReviewStore
        + QueueStore
        + BotStore
        + DrillStore
        + SeasonStore
        + Send
        + Sync
{
}

/// Where the data lives, as given on the command line or in `DUPMJ_DB`: a `postgres://`
/// (or `postgresql://`) URL, or else the path of a SQLite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL database.
    Postgres(String),
}

impl Location {
    /// Reads a `--db` value.
    pub fn parse(s: &str) -> Location {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Location::Postgres(s.to_string())
        } else {
            Location::Sqlite(s.into())
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            // Never the password.
            Location::Postgres(url) => write!(f, "{}", postgres::without_password(url)),
        }
    }
}

/// Opens the store at `at` (creating a SQLite file when missing), schema brought up to date.
pub fn open(at: &Location) -> Result<std::sync::Arc<dyn Store>> {
    Ok(match at {
        Location::Sqlite(p) => std::sync::Arc::new(SqliteStore::open(p)?),
        Location::Postgres(url) => std::sync::Arc::new(PgStore::connect(url)?),
    })
}
