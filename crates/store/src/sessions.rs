//! Sessions and people: the director's password, signed-in sessions of the director,
//! the venue's tables and players, and the people who play online (guests and accounts).

use crate::{EventId, Result};

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
    /// A bot account: an account its owner turned over to a program, for good
    /// ([`crate::BotStore::make_bot`]); marked as a bot wherever it is shown.
    pub bot: bool,
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

/// The director's password, sessions, and the people who play online.
pub trait SessionStore {
    /// The director's password hash, once set.
    ///
    /// A read: it sees what committed transactions wrote.
    fn director_hash(&self) -> Result<Option<String>>;

    /// Sets the director's password hash.
    ///
    /// One transaction, with its audit line.
    fn set_director_hash(&self, hash: &str, who: &str) -> Result<()>;

    /// Sets the director's password hash only if none is set, in one transaction; whether
    /// it was set.
    ///
    /// One transaction, with its audit line.
    fn set_first_director_hash(&self, hash: &str, who: &str) -> Result<bool>;

    /// Stores a new session.
    ///
    /// One transaction.
    fn create_session(&self, s: &Session) -> Result<()>;

    /// The session of a token, if any.
    ///
    /// A read: it sees what committed transactions wrote.
    fn session(&self, token: &str) -> Result<Option<Session>>;

    /// Ends a session.
    ///
    /// One transaction.
    fn end_session(&self, token: &str) -> Result<()>;

    /// Sessions that have not expired, newest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn sessions(&self) -> Result<Vec<SessionInfo>>;

    /// Ends a session by its number in [`SessionStore::sessions`] (audited).
    ///
    /// One transaction, with its audit line.
    fn end_session_id(&self, id: i64, who: &str) -> Result<()>;

    /// Creates a guest (no password) or an account (with one). Names are compared by
    /// [`crate::name_key`]: an account's name must be free among accounts, and a guest may not take
    /// an account's name.
    ///
    /// One transaction.
    fn create_person(&self, name: &str, hash: Option<&str>) -> Result<Person>;

    /// A person by number.
    ///
    /// A read: it sees what committed transactions wrote.
    fn person(&self, id: i64) -> Result<Person>;

    /// An account by name (compared by [`crate::name_key`]) with its password hash.
    ///
    /// A read: it sees what committed transactions wrote.
    fn account(&self, name: &str) -> Result<Option<(Person, String)>>;

    /// A person's options at the table, as the browser wrote them (JSON), if any.
    ///
    /// A read: it sees what committed transactions wrote.
    fn prefs(&self, person: i64) -> Result<Option<String>>;

    /// Replaces a person's options at the table.
    ///
    /// One statement, its own transaction.
    fn set_prefs(&self, person: i64, prefs: &str) -> Result<()>;

    /// When `key` (a client's address with what it tried, a table) failed since `since`,
    /// oldest first, in milliseconds since 1970: failed attempts are counted in the
    /// database, so that a limit holds whichever node a client reaches.
    ///
    /// A read: it sees what committed transactions wrote.
    fn attempts(&self, key: &str, since: i64) -> Result<Vec<i64>>;

    /// Counts a failure of `key` at `at`, and forgets every failure before `forget_before`.
    ///
    /// One transaction.
    fn add_attempt(&self, key: &str, at: i64, forget_before: i64) -> Result<()>;
}
