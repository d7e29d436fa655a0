//! Tables of online play: their settings, journals and finished hands.

use crate::Result;

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

/// A finished hand to keep ([`PlayStore::save_hand`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewHand {
    /// The table it was played at.
    pub table: i64,
    /// Its number at that table (1-based).
    pub hand_no: u32,
    /// The deal it was played on.
    pub deal_key: Option<String>,
    /// Players, seats and points (JSON).
    pub summary: String,
    /// The hand log (JSON).
    pub log: String,
}

/// What tables' tasks have to write, for one transaction ([`PlayStore::write_play`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayWrite {
    /// (table, fence): the write is refused unless each is still the table's fence
    /// ([`crate::LeaseStore`]).
    pub fences: Vec<(i64, u64)>,
    /// Journal lines: (table, line number, entry).
    pub entries: Vec<(i64, u64, String)>,
    /// Hands that ended.
    pub hands: Vec<NewHand>,
    /// Tables that ended, with their final settings.
    pub finished: Vec<(i64, String)>,
    /// Tables' lines in the lobby (JSON owned by the server), written anew.
    pub lobby: Vec<(i64, String)>,
}

impl PlayWrite {
    /// Whether there is nothing to write or check.
    pub fn is_empty(&self) -> bool {
        self.fences.is_empty()
            && self.entries.is_empty()
            && self.hands.is_empty()
            && self.finished.is_empty()
            && self.lobby.is_empty()
    }
}

/// Tables of online play, their journals and their finished hands.
pub trait PlayStore {
    /// Creates a table of online play; returns its number. `listed`: a table of the lobby
    /// (not of a challenge or an event).
    ///
    /// One transaction.
    fn create_play_table(&self, spec: &str, listed: bool) -> Result<i64>;

    /// Finished tables of the lobby, newest first, from `offset` on, and how many there are.
    ///
    /// A read: it sees what committed transactions wrote.
    fn finished_tables(&self, offset: usize, limit: usize)
        -> Result<(Vec<StoredPlayTable>, usize)>;

    /// Updates a table's settings and whether it is over.
    ///
    /// One transaction.
    fn update_play_table(&self, id: i64, spec: &str, finished: bool) -> Result<()>;

    /// A table of online play by number.
    ///
    /// A read: it sees what committed transactions wrote.
    fn play_table(&self, id: i64) -> Result<StoredPlayTable>;

    /// Tables newest first; `unfinished` keeps only those still in play.
    ///
    /// A read: it sees what committed transactions wrote.
    fn play_tables(&self, unfinished: bool, limit: usize) -> Result<Vec<StoredPlayTable>>;

    /// Appends entries to tables' journals in one transaction: (table, seq, entry).
    ///
    /// One transaction.
    fn append_journal(&self, entries: &[(i64, u64, String)]) -> Result<()>;

    /// A table's journal, in order.
    ///
    /// A read: it sees what committed transactions wrote.
    fn journal(&self, table: i64) -> Result<Vec<String>>;

    /// Keeps a finished hand (once per table and hand number); returns its id.
    ///
    /// One transaction.
    fn save_hand(
        &self,
        table: i64,
        hand_no: u32,
        deal_key: Option<&str>,
        summary: &str,
        log: &str,
    ) -> Result<i64>;

    /// Writes what tables' tasks have to write: checks the fences, appends the journal
    /// lines, keeps the hands, marks the tables that ended and writes their lobby lines. A
    /// stale fence refuses all of it, naming the table.
    ///
    /// One transaction.
    fn write_play(&self, w: &PlayWrite) -> Result<()>;

    /// How many journal writers may commit at once to gain from it: one on SQLite, where
    /// writes take turns; several on PostgreSQL, where each commit is a round trip.
    fn writers(&self) -> usize;

    /// The lobby's lines (table, line): of every table in play, and of tables that ended
    /// after `ended_since` (milliseconds since 1970).
    ///
    /// A read: it sees what committed transactions wrote.
    fn lobby_lines(&self, ended_since: i64) -> Result<Vec<(i64, String)>>;

    /// Writes a table's line in the lobby.
    ///
    /// One transaction.
    fn set_lobby_line(&self, table: i64, line: &str) -> Result<()>;

    /// Takes a table's line out of the lobby.
    ///
    /// One transaction.
    fn drop_lobby_line(&self, table: i64) -> Result<()>;

    /// A finished hand by number.
    ///
    /// A read: it sees what committed transactions wrote.
    fn hand(&self, id: i64) -> Result<StoredHand>;

    /// The finished hands of a table, in order.
    ///
    /// A read: it sees what committed transactions wrote.
    fn hands_of_table(&self, table: i64) -> Result<Vec<StoredHand>>;

    /// Finished hands played on the same deal, oldest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn hands_of_deal(&self, deal_key: &str, limit: usize) -> Result<Vec<StoredHand>>;

    /// Finished hands stored under deal key `key` (or, with `prefix`, under every key that
    /// starts with it), oldest first, without their logs (`log` is empty): the holders of
    /// deal-seats, for the rating and the profiles.
    ///
    /// A read.
    fn deal_summaries(&self, key: &str, prefix: bool) -> Result<Vec<StoredHand>>;

    /// The newest `limit` hands stored under deal key `key` up to hand `upto`, oldest
    /// first, without their logs: a deal-seat's field as the rating bounds it.
    ///
    /// A read.
    fn deal_field(&self, key: &str, upto: i64, limit: usize) -> Result<Vec<StoredHand>>;
}
