//! An agent playing a seat on the site: what a bot account's program is sent at its seat
//! (the `seat` messages of `docs/bots.md`: the seat's events as it saw them, and each
//! decision with its view) turned into the agent's calls, as the arena makes them, and its
//! answer into the move to send. No I/O here: the caller reads and writes the socket.

use serde::Deserialize;
use table::engine::{Action, SeatView};
use table::seen::SeenEvent;

use crate::agent::Agent;
use crate::drive::safe_default;

/// One `seat` message.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatMsg {
    /// The hand at the table (1-based).
    pub hand: usize,
    /// How many of the hand's events were told before these (0: the hand from its start).
    pub from: usize,
    /// What the seat saw since.
    #[serde(default)]
    pub events: Vec<SeenEvent>,
    /// The seat's legal moves now.
    #[serde(default)]
    pub legal: Vec<Action>,
    /// The decision asked, when one is.
    #[serde(default)]
    pub step: Option<u64>,
    /// The seat's view at that decision.
    #[serde(default)]
    pub view: Option<SeatView>,
}

/// Makes a fresh agent for each hand.
pub type MakeAgent = Box<dyn FnMut() -> Box<dyn Agent + Send> + Send>;

/// One seat played by agents, a fresh one each hand (and after a reconnection mid-hand,
/// which the site tells from the hand's start).
pub struct SiteSeat {
    make: MakeAgent,
    agent: Option<Box<dyn Agent + Send>>,
    hand: usize,
    /// Decisions where the agent failed (crashed, late, unreadable, illegal) and the safe
    /// default went instead.
    pub faults: u64,
    /// Decisions answered.
    pub moves: u64,
}

impl SiteSeat {
    /// A seat whose agents `make` makes.
    pub fn new(make: MakeAgent) -> SiteSeat {
        SiteSeat {
            make,
            agent: None,
            hand: 0,
            faults: 0,
            moves: 0,
        }
    }

    /// Takes one `seat` message; the move to send (with the decision's number) when one is
    /// asked. An agent's failure gives the safe default (a pass, or the drawn tile).
    pub fn take(&mut self, mut m: SeatMsg) -> Option<(u64, Action)> {
        if m.from == 0 || m.hand != self.hand || self.agent.is_none() {
            self.agent = Some((self.make)());
            self.hand = m.hand;
        }
        let agent = self.agent.as_mut().expect("made above");
        if agent.follows_events() && !m.events.is_empty() {
            agent.observe(&m.events, &m.legal);
        }
        let (step, view) = (m.step?, m.view.as_mut()?);
        let view = view.view();
        let mut action = agent.act(&view);
        let failed = agent.take_fault().is_some();
        if failed || !view.legal.contains(&action) {
            self.faults += 1;
            action = safe_default(view.legal);
        }
        self.moves += 1;
        Some((step, action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::engine::Table;
    use table::rules::TableRules;
    use table::seen::seen_since;
    use table::wall::{Setup, WallModel};

    /// A hand played with every seat's agent fed only the site's messages, made from the
    /// engine as the site makes them, ends as the same agents playing at the table do.
    #[test]
    fn a_seat_fed_by_messages_plays_as_the_agent_at_the_table() {
        let setup = || Setup::generate(WallModel::Personal, 31);
        let rules = TableRules::seeds();
        let make = |s: usize| -> MakeAgent {
            Box::new(move || crate::registry::builtin("strong", s as u64).unwrap())
        };
        // At the table.
        let mut direct: [Box<dyn Agent + Send>; 4] =
            std::array::from_fn(|s| crate::registry::builtin("strong", s as u64).unwrap());
        let a = crate::drive::play_table(setup(), rules.clone(), &mut direct);
        // Through messages.
        let mut t = Table::new(setup(), rules);
        let mut seats: Vec<SiteSeat> = (0..4).map(|s| SiteSeat::new(make(s))).collect();
        let mut shown = [0usize; 4];
        while let Some(seat) = t.next_to_act() {
            let s = seat.index();
            let from = shown[s];
            let events = seen_since(&t, seat, &mut shown[s]);
            let view = t.view(seat);
            let json = serde_json::json!({
                "hand": 1, "from": from, "events": events, "legal": view.legal,
                "step": 1, "view": SeatView::of(&view),
            })
            .to_string();
            let read: SeatMsg = serde_json::from_str(&json).unwrap();
            let (_, action) = seats[s].take(read).unwrap();
            t.apply(seat, action).unwrap();
        }
        assert_eq!(t.result(), a.0.result());
        assert_eq!(seats.iter().map(|s| s.faults).sum::<u64>(), 0);
    }
}
