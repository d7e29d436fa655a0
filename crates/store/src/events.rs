//! Events: the entrants, the movement, the table codes, rounds, the day at the venue
//! (check-in, withdrawals, the clock) and the deal set.

use serde::{Deserialize, Serialize};
use tournament::movement::Movement;

use crate::Result;

/// An event's number in the store.
pub type EventId = i64;

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

impl Event {
    /// The seed of the event's deal `i` (0-based, in the movement's play order): from its
    /// secret deal set, or for events made before deal sets its seed plus `i`.
    pub fn deal_seed(&self, i: usize) -> u64 {
        match self
            .deal_key
            .as_deref()
            .and_then(|k| table::set::SetKey::parse(k).ok())
        {
            Some(key) => key.seed(i),
            None => self.deal_seed + i as u64,
        }
    }

    /// The deal called `name` in the movement.
    pub fn deal(&self, name: &str) -> Option<table::deal::Deal> {
        let i = self.movement.deal_names().iter().position(|d| d == name)?;
        Some(table::deal::Deal::generate(self.deal_seed(i)))
    }
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

/// Events and their day: what the director creates and changes.
pub trait EventStore {
    /// Creates an event; returns its number.
    ///
    /// One transaction, with its audit line.
    fn create_event(&self, e: &NewEvent, who: &str) -> Result<EventId>;

    /// Every event: id and name, newest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn events(&self) -> Result<Vec<(EventId, String)>>;

    /// An event by number.
    ///
    /// A read: it sees what committed transactions wrote.
    fn event(&self, id: EventId) -> Result<Event>;

    /// Replaces the entrant of slot `player` (results stay with the slot).
    ///
    /// One transaction, with its audit line.
    fn set_player(&self, id: EventId, player: u32, who_now: &Entrant, who: &str) -> Result<()>;

    /// Exchanges the seats of two players from round `from_round` on; earlier rounds and
    /// every stored result are kept.
    ///
    /// One transaction, with its audit line.
    fn swap_players(&self, id: EventId, a: u32, b: u32, from_round: u32, who: &str) -> Result<()>;

    /// Hides or shows the public standings.
    ///
    /// One transaction, with its audit line.
    fn set_hide_standings(&self, id: EventId, hide: bool, who: &str) -> Result<()>;

    /// Rounds opened so far and whether each is still open (a round never opened is absent).
    ///
    /// A read: it sees what committed transactions wrote.
    fn round_states(&self, id: EventId) -> Result<Vec<(u32, bool)>>;

    /// Opens or closes a round for the tables (audited). Closing it ends every table
    /// session of the event: the phones log in again for the next round.
    ///
    /// One transaction, with its audit line.
    fn set_round(&self, id: EventId, round: u32, open: bool, who: &str) -> Result<()>;

    /// Gives every table a new code and ends the tables' sessions (audited).
    ///
    /// One transaction, with its audit line.
    fn set_table_codes(&self, id: EventId, codes: &[String], who: &str) -> Result<()>;

    /// Checks a player in (or takes the check-in back), audited.
    ///
    /// One transaction, with its audit line.
    fn set_checked_in(&self, id: EventId, player: u32, present: bool, who: &str) -> Result<()>;

    /// Records a withdrawal (one per player), audited. Refused if the player has already
    /// withdrawn or a round is out of range.
    ///
    /// One transaction, with its audit line.
    fn withdraw(&self, id: EventId, w: &Withdrawal, who: &str) -> Result<()>;

    /// Takes a withdrawal back, audited.
    ///
    /// One transaction, with its audit line.
    fn cancel_withdrawal(&self, id: EventId, player: u32, who: &str) -> Result<()>;

    /// Starts the big screen's round clock (`Some((round, ends_at))`) or stops it.
    ///
    /// One transaction, with its audit line.
    fn set_clock(&self, id: EventId, clock: Option<(u32, i64)>, who: &str) -> Result<()>;

    /// Releases the event's deals for practice (audited); they stay released.
    ///
    /// One transaction, with its audit line.
    fn release_deals(&self, id: EventId, who: &str) -> Result<()>;
}
