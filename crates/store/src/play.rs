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
}
