//! # store — where an event's data lives
//!
//! Owns persistence: events with their players, movement and table codes; score entries
//! with versions and conflicts; penalties; the audit trail of every change (who, when,
//! before, after); director, table and player sessions; online players (guests and
//! accounts), tables of online play with their journals, and their finished hands. The web layer sees only the [`Store`]
//! trait, so a PostgreSQL backend can be added beside [`SqliteStore`] without touching it.
//!
//! Every change is one transaction, and every change to results, seating or penalties
//! writes its audit line in that same transaction.

#![deny(missing_docs)]

pub mod people;
mod schema;
mod sqlite;

use serde::{Deserialize, Serialize};
use tournament::entry::ScoreEntry;
use tournament::movement::Movement;
use tournament::standings::Penalty;

pub use people::name_key;
/// The schema's migrations, for tests that build an older database.
#[doc(hidden)]
pub use schema::MIGRATIONS;
pub use sqlite::SqliteStore;

/// An event's number in the store.
pub type EventId = i64;

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

/// One entrant: a name and, in team events, a team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The entrant's name.
    pub name: String,
    /// Their team, in team events.
    #[serde(default)]
    pub team: Option<String>,
}

/// An event as the director creates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    /// The event's name.
    pub name: String,
    /// A team event.
    pub team: bool,
    /// Player n is `players[n - 1]`.
    pub players: Vec<Entrant>,
    /// The seed the movement was searched with; for events made before deal sets, also
    /// the seed of the first deal.
    pub deal_seed: u64,
    /// The secret key of the event's deal set (`table::set`, 64 hex digits); none for
    /// events made before deal sets, whose deal i is `deal_seed + i`.
    pub deal_key: Option<String>,
    /// Who sits where in every hand.
    pub movement: Movement,
    /// Table n's score-entry code is `table_codes[n - 1]`.
    pub table_codes: Vec<String>,
}

/// An event as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its number.
    pub id: EventId,
    /// Its name.
    pub name: String,
    /// A team event.
    pub team: bool,
    /// Player n is `players[n - 1]`.
    pub players: Vec<Entrant>,
    /// The seed the movement was searched with; for events made before deal sets, also
    /// the seed of the first deal.
    pub deal_seed: u64,
    /// The secret key of the event's deal set; none for events made before deal sets.
    pub deal_key: Option<String>,
    /// The director has released the deals: anyone may play them for practice and see
    /// every hand.
    pub deals_released: bool,
    /// Who sits where in every hand.
    pub movement: Movement,
    /// Each table's score-entry code (table n is `table_codes[n - 1]`).
    pub table_codes: Vec<String>,
    /// Whether the public standings are hidden (the last rounds).
    pub hide_standings: bool,
    /// Players the director has checked in, by number.
    pub checked_in: std::collections::BTreeSet<u32>,
    /// Players who withdrew, and who took their seats.
    pub withdrawals: Vec<Withdrawal>,
    /// The round clock on the big screen: the round and when it ends (Unix seconds).
    pub clock: Option<(u32, i64)>,
}

/// Who plays the seat of a player who withdrew.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StandIn {
    /// A named substitute.
    Substitute(String),
    /// A bot (online events) or a house player the standings call "bot".
    Bot,
}

/// A player's late withdrawal: from `from_round` on, `stand_in` plays their seat. Results
/// from then on count for the field (and the team) but not for the player, and the
/// stand-in is listed unranked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    /// The player who withdrew.
    pub player: u32,
    /// The first round they do not play.
    pub from_round: u32,
    /// Who takes the seat.
    pub stand_in: StandIn,
}

impl Withdrawal {
    /// The stand-in's name as the standings show it, with whose seat it took.
    pub fn stand_in_name(&self, withdrawn: &str) -> String {
        match &self.stand_in {
            StandIn::Substitute(n) => format!("{n} (for {withdrawn})"),
            StandIn::Bot => format!("Bot (for {withdrawn})"),
        }
    }
}

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

/// Who a session belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The tournament director.
    Director,
    /// A table of an event, logged in with its code.
    Table {
        /// The event.
        event: EventId,
        /// The table.
        table: u32,
    },
    /// Someone who plays online: a guest or an account ([`Person`]).
    Player {
        /// The person's number.
        person: i64,
    },
}

/// Someone who plays online. Guests have a name only; accounts also a password hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    /// Their number.
    pub id: i64,
    /// The name shown at the table.
    pub name: String,
    /// Whether it is an account (with a password) rather than a guest.
    pub account: bool,
}

/// A table for online play as stored: its settings (JSON owned by the server) and
/// whether it is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlayTable {
    /// Its number.
    pub id: i64,
    /// Its settings (JSON).
    pub spec: String,
    /// Whether it is over.
    pub finished: bool,
}

/// One finished hand of online play: a summary (JSON: players, seats, points) and its log
/// in the project's hand-log format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredHand {
    /// Its number.
    pub id: i64,
    /// The table it was played at.
    pub play_table: i64,
    /// Its number at that table (1-based).
    pub hand_no: u32,
    /// The deal it was played on, to compare with others who held the same tiles.
    pub deal_key: Option<String>,
    /// Players, seats and points (JSON).
    pub summary: String,
    /// The hand log (JSON).
    pub log: String,
    /// When it finished (UTC).
    pub at: String,
}

/// A challenge as stored: its settings (JSON owned by the server, secrets included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Its number.
    pub id: i64,
    /// Its settings (JSON).
    pub spec: String,
}

/// A deal of a challenge taken up by a person: the seat (0–3 for E, S, W, N) and the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengePlay {
    /// Who took it up.
    pub person: i64,
    /// The deal's place in the challenge (0-based).
    pub deal_index: u32,
    /// The seat played: 0–3 for E, S, W, N.
    pub seat: u8,
    /// The table it is played at.
    pub play_table: i64,
}

/// A sitting of an online event and the table of online play where it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlineSitting {
    /// The round.
    pub round: u32,
    /// The hand of the round (1–4).
    pub hand: u32,
    /// The table of the movement.
    pub table: u32,
    /// The table of online play.
    pub play_table: i64,
}

/// A session as the director's list shows it (never its token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionInfo {
    /// Its number in the list.
    pub id: i64,
    /// Who it belongs to.
    pub role: Role,
    /// When it started (UTC, ISO 8601).
    pub created: String,
    /// When it ends by itself (UTC, ISO 8601).
    pub expires: String,
}

/// How long a session lasts: an event day for the director and the tables, a month for
/// people who play online.
pub fn session_hours(role: &Role) -> u32 {
    match role {
        Role::Director => 12,
        Role::Table { .. } => 24,
        Role::Player { .. } => 24 * 30,
    }
}

/// A signed-in session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The random token in the cookie.
    pub token: String,
    /// Who it belongs to.
    pub role: Role,
    /// The token every form of this session must carry (against cross-site requests).
    pub csrf: String,
}

/// The narrow interface the web layer uses.
pub trait Store: Send + Sync {
    /// The director's password hash, once set.
    fn director_hash(&self) -> Result<Option<String>>;
    /// Sets the director's password hash.
    fn set_director_hash(&self, hash: &str, who: &str) -> Result<()>;
    /// Sets the director's password hash only if none is set, in one transaction; whether
    /// it was set.
    fn set_first_director_hash(&self, hash: &str, who: &str) -> Result<bool>;

    /// Creates an event; returns its number.
    fn create_event(&self, e: &NewEvent, who: &str) -> Result<EventId>;
    /// Every event: id and name, newest first.
    fn events(&self) -> Result<Vec<(EventId, String)>>;
    /// An event by number.
    fn event(&self, id: EventId) -> Result<Event>;
    /// Replaces the entrant of slot `player` (results stay with the slot).
    fn set_player(&self, id: EventId, player: u32, who_now: &Entrant, who: &str) -> Result<()>;
    /// Exchanges the seats of two players from round `from_round` on; earlier rounds and
    /// every stored result are kept.
    fn swap_players(&self, id: EventId, a: u32, b: u32, from_round: u32, who: &str) -> Result<()>;
    /// Hides or shows the public standings.
    fn set_hide_standings(&self, id: EventId, hide: bool, who: &str) -> Result<()>;
    /// Rounds opened so far and whether each is still open (a round never opened is absent).
    fn round_states(&self, id: EventId) -> Result<Vec<(u32, bool)>>;
    /// Opens or closes a round for the tables (audited). Closing it ends every table
    /// session of the event: the phones log in again for the next round.
    fn set_round(&self, id: EventId, round: u32, open: bool, who: &str) -> Result<()>;
    /// Gives every table a new code and ends the tables' sessions (audited).
    fn set_table_codes(&self, id: EventId, codes: &[String], who: &str) -> Result<()>;
    /// Checks a player in (or takes the check-in back), audited.
    fn set_checked_in(&self, id: EventId, player: u32, present: bool, who: &str) -> Result<()>;
    /// Records a withdrawal (one per player), audited. Refused if the player has already
    /// withdrawn or a round is out of range.
    fn withdraw(&self, id: EventId, w: &Withdrawal, who: &str) -> Result<()>;
    /// Takes a withdrawal back, audited.
    fn cancel_withdrawal(&self, id: EventId, player: u32, who: &str) -> Result<()>;
    /// Starts the big screen's round clock (`Some((round, ends_at))`) or stops it.
    fn set_clock(&self, id: EventId, clock: Option<(u32, i64)>, who: &str) -> Result<()>;
    /// Releases the event's deals for practice (audited); they stay released.
    fn release_deals(&self, id: EventId, who: &str) -> Result<()>;

    /// Every saved result of an event.
    fn results(&self, id: EventId) -> Result<Vec<StoredResult>>;
    /// Saves a table's entry for a deal if the stored version is still `expected` (0 for
    /// none); a different entry saved meanwhile makes a conflict instead.
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
    /// Conflicts waiting for the director.
    fn conflicts(&self, id: EventId) -> Result<Vec<Conflict>>;
    /// Accepts a conflicting entry (it replaces the stored one) or dismisses it.
    fn resolve_conflict(&self, id: EventId, conflict: i64, accept: bool, who: &str) -> Result<()>;

    /// Records a penalty; returns its number.
    fn add_penalty(&self, id: EventId, p: &Penalty, who: &str) -> Result<i64>;
    /// Every penalty with its number.
    fn penalties(&self, id: EventId) -> Result<Vec<(i64, Penalty)>>;
    /// Removes a penalty.
    fn remove_penalty(&self, id: EventId, penalty: i64, who: &str) -> Result<()>;

    /// The audit trail, oldest first.
    fn audit(&self, id: EventId) -> Result<Vec<AuditLine>>;

    /// Stores a new session.
    fn create_session(&self, s: &Session) -> Result<()>;
    /// The session of a token, if any.
    fn session(&self, token: &str) -> Result<Option<Session>>;
    /// Ends a session.
    fn end_session(&self, token: &str) -> Result<()>;
    /// Sessions that have not expired, newest first.
    fn sessions(&self) -> Result<Vec<SessionInfo>>;
    /// Ends a session by its number in [`Store::sessions`] (audited).
    fn end_session_id(&self, id: i64, who: &str) -> Result<()>;

    /// Creates a guest (no password) or an account (with one). Names are compared by
    /// [`name_key`]: an account's name must be free among accounts, and a guest may not take
    /// an account's name.
    fn create_person(&self, name: &str, hash: Option<&str>) -> Result<Person>;
    /// A person by number.
    fn person(&self, id: i64) -> Result<Person>;
    /// An account by name (compared by [`name_key`]) with its password hash.
    fn account(&self, name: &str) -> Result<Option<(Person, String)>>;

    /// Creates a table of online play; returns its number. `listed`: a table of the lobby
    /// (not of a challenge or an event).
    fn create_play_table(&self, spec: &str, listed: bool) -> Result<i64>;
    /// Finished tables of the lobby, newest first, from `offset` on, and how many there are.
    fn finished_tables(&self, offset: usize, limit: usize)
        -> Result<(Vec<StoredPlayTable>, usize)>;
    /// Updates a table's settings and whether it is over.
    fn update_play_table(&self, id: i64, spec: &str, finished: bool) -> Result<()>;
    /// A table of online play by number.
    fn play_table(&self, id: i64) -> Result<StoredPlayTable>;
    /// Tables newest first; `unfinished` keeps only those still in play.
    fn play_tables(&self, unfinished: bool, limit: usize) -> Result<Vec<StoredPlayTable>>;
    /// Appends entries to tables' journals in one transaction: (table, seq, entry).
    fn append_journal(&self, entries: &[(i64, u64, String)]) -> Result<()>;
    /// A table's journal, in order.
    fn journal(&self, table: i64) -> Result<Vec<String>>;
    /// Keeps a finished hand (once per table and hand number); returns its id.
    fn save_hand(
        &self,
        table: i64,
        hand_no: u32,
        deal_key: Option<&str>,
        summary: &str,
        log: &str,
    ) -> Result<i64>;
    /// A finished hand by number.
    fn hand(&self, id: i64) -> Result<StoredHand>;
    /// The finished hands of a table, in order.
    fn hands_of_table(&self, table: i64) -> Result<Vec<StoredHand>>;
    /// Finished hands played on the same deal, oldest first.
    fn hands_of_deal(&self, deal_key: &str, limit: usize) -> Result<Vec<StoredHand>>;

    /// Creates a challenge; returns its number.
    fn create_challenge(&self, spec: &str) -> Result<i64>;
    /// Updates a challenge's settings.
    fn update_challenge(&self, id: i64, spec: &str) -> Result<()>;
    /// A challenge by number.
    fn challenge(&self, id: i64) -> Result<StoredChallenge>;
    /// Challenges newest first.
    fn challenges(&self, limit: usize) -> Result<Vec<StoredChallenge>>;
    /// Creates the table where `person` plays deal `deal_index` of a challenge, with the
    /// first lines of its journal, in one transaction with the record that they took it up;
    /// refused if they already did.
    fn open_challenge_table(
        &self,
        challenge: i64,
        person: i64,
        deal_index: u32,
        seat: u8,
        table_spec: &str,
        journal: &[String],
    ) -> Result<i64>;
    /// Every deal of a challenge taken up, by whom and where.
    fn challenge_plays(&self, challenge: i64) -> Result<Vec<ChallengePlay>>;

    /// Makes an event an online one (settings JSON owned by the server) or changes them.
    fn set_online(&self, event: EventId, settings: &str, who: &str) -> Result<()>;
    /// An event's online settings, if it is played online.
    fn online(&self, event: EventId) -> Result<Option<String>>;
    /// Every online event with its settings.
    fn online_events(&self) -> Result<Vec<(EventId, String)>>;
    /// Links a player slot (1-based) of an event to a person who plays it online.
    fn bind_person(&self, event: EventId, slot: u32, person: i64) -> Result<()>;
    /// Slots and the persons linked to them.
    fn event_people(&self, event: EventId) -> Result<Vec<(u32, i64)>>;
    /// Creates the table of an online sitting, the first lines of its journal and its
    /// record in one transaction; a sitting that already has a table keeps it (its id is
    /// returned).
    fn open_sitting_table(
        &self,
        event: EventId,
        round: u32,
        hand: u32,
        table: u32,
        table_spec: &str,
        journal: &[String],
    ) -> Result<i64>;
    /// The sittings of an online event that have a table.
    fn online_sittings(&self, event: EventId) -> Result<Vec<OnlineSitting>>;
}

/// Match points of an entry, by wind, for storage.
pub(crate) fn points_of(entry: &ScoreEntry) -> Result<[i32; 4]> {
    entry
        .match_points()
        .map_err(|e| StoreError::Invalid(e.to_string()))
}
