//! What a bot account's connection is sent besides the table's state: its seat's hand as
//! the seat saw it, event by event, and each decision with the seat's whole view, so that
//! a program can play from it as an agent plays in the arena (`docs/bots.md`). Only the
//! seat's own knowledge goes out: [`table::seen`] and [`table::engine::View`] hold nothing
//! hidden from it.

use serde_json::{json, Value};
use table::engine::SeatView;
use table::seen::seen_since;

use crate::room::{Room, Stage};

/// How far one connection has been told its seat's hand.
#[derive(Default)]
pub(crate) struct Feed {
    /// The hand told (0-based), if any.
    hand: Option<usize>,
    /// Events of that hand told.
    shown: usize,
    /// The decision last sent.
    asked: Option<u64>,
}

impl Feed {
    /// The next message for `person`'s connection, if anything new happened at their
    /// seat: `{"type": "seat", "hand", "from", "events", "legal"}` with `step` and `view`
    /// when a decision is theirs. `from` is 0 for the first message of a hand (a program
    /// that reconnects mid-hand is told the hand from its start).
    pub(crate) fn next(&mut self, room: &Room, person: i64) -> Option<Value> {
        if room.stage != Stage::Playing {
            return None;
        }
        let place = room.place_of(person)?;
        let table = room.table()?;
        let seat = room.seat_of(place);
        if self.hand != Some(room.hand_no) {
            *self = Feed {
                hand: Some(room.hand_no),
                ..Feed::default()
            };
        }
        let from = self.shown;
        let events = seen_since(table, seat, &mut self.shown);
        let legal = table.legal(seat);
        let step = room.asked_step(seat).filter(|_| !legal.is_empty());
        let decide = step.is_some() && step != self.asked;
        if events.is_empty() && !decide {
            return None;
        }
        let mut m = json!({
            "type": "seat",
            "hand": room.hand_no + 1,
            "from": from,
            "events": events,
            "legal": legal,
        });
        if decide {
            self.asked = step;
            m["step"] = json!(step);
            m["view"] = json!(SeatView::of(&table.view(seat)));
        }
        Some(m)
    }
}
