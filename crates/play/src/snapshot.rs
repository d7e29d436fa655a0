//! The state one connection is sent: the table's places and scores, the board as its
//! person may see it, and what they may do now.

use std::time::Instant;

use serde_json::{json, Value};
use table::game::table_points;

use super::actor::Finished;
use super::room::{Room, Stage};
use super::spec::Place;
use super::view::{board, hints, hu_preview, win_json, Eye};

impl Room {
    /// The state for `person` (None: a watcher); `with_hints` adds the hints panel;
    /// `finished`: what this viewer may see of the hand just finished (the secrecy rule's
    /// answer, [`super::secrecy`]): its board at all, and every seat's tiles. Its `clock`
    /// is the only part that changes with time alone.
    pub fn snapshot(
        &self,
        person: Option<i64>,
        with_hints: bool,
        finished: Finished,
        now: Instant,
    ) -> Value {
        let you = person.and_then(|p| self.place_of(p));
        let scores = self.scores();
        let places: Vec<Value> = (0..4)
            .map(|p| {
                let level = match &self.spec.places[p] {
                    Place::Bot { level } => Some(level.as_str()),
                    Place::Person => None,
                };
                json!({
                    "name": self.name_of(p),
                    "bot": self.spec.places[p] != Place::Person,
                    "level": level,
                    "open": self.spec.places[p] == Place::Person && self.seated[p].is_none(),
                    "away": self.away[p],
                    "connected": self.connected[p] > 0,
                    "seat": self.seat_of(p),
                    "score": scores[p],
                    "ready": self.is_ready(p),
                })
            })
            .collect();
        let stage = match self.stage {
            Stage::Waiting => "waiting",
            Stage::Playing => "playing",
            Stage::Between { .. } => "between",
            Stage::Over => "over",
        };
        let shown_hand = match self.stage {
            Stage::Playing | Stage::Waiting => self.hand_no,
            _ => self.hand_no.saturating_sub(1),
        };
        let mut s = json!({
            "type": "state",
            "table": self.id,
            "what": self.spec.describe(),
            "stage": stage,
            "hand_no": shown_hand + 1,
            "hands": self.spec.hand_count(),
            "label": self.label(shown_hand),
            "label_parts": self.label_parts(shown_hand),
            "duplicate": self.spec.is_duplicate(),
            "places": places,
            "you": you,
            "limit_s": self.spec.limit_s,
            "hints_allowed": self.spec.hints_allowed(),
            "stamps": self.stamps.json(),
        });
        // Between hands the board is the hand just finished: a watcher sees it only when
        // its deal is open to them.
        let playing = self.stage == Stage::Playing;
        let board_shown = you.is_some() || playing || finished.shown;
        if let Some(table) = self.table().filter(|_| board_shown) {
            let seat_places = self.places_by_seat(shown_hand);
            s["seat_places"] = json!(seat_places);
            s["dealer"] = json!("E");
            let eye = match you {
                // A hand over, open to this viewer: all four hands are laid down.
                _ if !playing && table.is_over() && finished.open => Eye::Open,
                Some(p) => Eye::Seat(mcr::Wind::from_index(
                    seat_places.iter().position(|&x| x == p).unwrap_or(p),
                )),
                None => Eye::Watcher,
            };
            s["board"] = board(table, eye);
            if let (Some(p), Eye::Seat(seat), Stage::Playing) = (you, eye, self.stage) {
                let legal = table.legal(seat);
                s["step"] = json!(self.asked_step(seat));
                s["legal"] = json!(legal);
                s["decision"] = json!(table.view(seat).decision);
                // The decision's own time and the bank's as they stand now, so that the
                // page counts down the one and then the other as the server does.
                let (own, bank) = self.clock_split_ms(p, now).unzip();
                s["clock"] = json!({
                    "left_ms": self.time_left_ms(p, now),
                    "own_ms": own,
                    "bank_ms": bank.unwrap_or(self.bank_ms(p)),
                    "bank_full_ms": self.spec.bank_s as u64 * 1000,
                });
                s["hu_preview"] = json!(hu_preview(table, seat));
                if !legal.is_empty() {
                    // What the server plays if the clock runs out, for the page to say.
                    s["default"] = json!(super::room::timeout_default(table, seat));
                }
                // Never at a table that counts, whatever the connection asked.
                if with_hints && self.spec.hints_allowed() {
                    s["hints"] = hints(table, seat);
                }
            }
            if let Some(r) = table.result() {
                s["result"] = json!({
                    "kind": r.kind,
                    "discarder": r.discarder,
                    "wins": r.wins.iter().map(win_json).collect::<Vec<_>>(),
                    "points": r.points,
                    "hand": self.summaries.last().map(|h| h.hand_no),
                });
            }
        }
        if let Some(p) = you {
            s["notice"] = json!(self.notice[p]);
        }
        if self.stage == Stage::Over {
            let mut fin = json!({"scores": scores, "abandoned": self.abandoned});
            if let Some(g) = self.game() {
                fin["table_points"] = json!(table_points(g.scores()));
            }
            fin["sheet"] = self.score_sheet();
            s["final"] = fin;
        }
        s
    }
}

impl Room {
    /// The table's score sheet: every hand played, by place, with the seat each place held
    /// and its points.
    fn score_sheet(&self) -> Value {
        let rows: Vec<Value> = self
            .summaries
            .iter()
            .map(|h| {
                let mut seats = [mcr::Wind::East; 4];
                let mut points = [0i32; 4];
                for seat in 0..4 {
                    seats[h.places[seat]] = mcr::Wind::from_index(seat);
                    points[h.places[seat]] = h.points[seat];
                }
                json!({
                    "hand": h.hand_no,
                    "label": self.label_parts(h.hand_no.saturating_sub(1)),
                    "seats": seats,
                    "points": points,
                    "outcome": h.outcome,
                })
            })
            .collect();
        json!(rows)
    }
}
