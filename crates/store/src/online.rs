//! Online events: an event of the director's app played at tables of online play.

use crate::{EventId, Result};

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

/// Events played online: their settings, the people linked to their seats, and the
/// tables of their sittings.
pub trait OnlineStore {
    /// Makes an event an online one (settings JSON owned by the server) or changes them.
    ///
    /// One transaction, with its audit line.
    fn set_online(&self, event: EventId, settings: &str, who: &str) -> Result<()>;

    /// An event's online settings, if it is played online.
    ///
    /// A read: it sees what committed transactions wrote.
    fn online(&self, event: EventId) -> Result<Option<String>>;

    /// Every online event with its settings.
    ///
    /// A read: it sees what committed transactions wrote.
    fn online_events(&self) -> Result<Vec<(EventId, String)>>;

    /// Links a player slot (1-based) of an event to a person who plays it online.
    ///
    /// One transaction.
    fn bind_person(&self, event: EventId, slot: u32, person: i64) -> Result<()>;

    /// Slots and the persons linked to them.
    ///
    /// A read: it sees what committed transactions wrote.
    fn event_people(&self, event: EventId) -> Result<Vec<(u32, i64)>>;

    /// Creates the table of an online sitting, the first lines of its journal and its
    /// record in one transaction; a sitting that already has a table keeps it (its id is
    /// returned).
    ///
    /// One transaction.
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
    ///
    /// A read: it sees what committed transactions wrote.
    fn online_sittings(&self, event: EventId) -> Result<Vec<OnlineSitting>>;
}
