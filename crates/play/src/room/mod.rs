//! One table of online play, without any I/O: who sits where, the hand in play, the clock,
//! the bots, and the journal of everything that changed it.
//!
//! Every change is an [`Entry`]; [`Room::restore`] replays a stored journal through the same
//! code, so a table rebuilt after a restart is the table that was left.
//!
//! The room's state, its journal entries and their replay are one piece; the clock, the
//! players' commands, whose a hand is and the notices stand in their own modules.
//!
//! Longer than most files: the state and the one `apply` that every journal entry goes
//! through are kept together, so that a restored table and a live one cannot differ.

mod bots;
mod clock;
pub use clock::Thinking;
mod commands;
mod held;
pub use held::Held;
mod notice;
mod refusal;
pub mod stamps;
pub use notice::Notice;
pub use refusal::Refusal;

use std::time::{Duration, Instant};

use agents::agent::Agent;
use agents::drive::safe_default;
use mcr::Wind;
use serde::{Deserialize, Serialize};
use table::deal::Deal;
use table::engine::{Action, Decision as Ask, Outcome, Table};
use table::game::{seat_of, seating, Game};
use table::log::{Decision, HandLog};
use table::rules::TableRules;
use table::wall::Setup;

use super::spec::{Hands, Place, TableSpec};

pub use super::spec::DEFAULTS;

use crate::PlayError;
use bots::{stand_in, table_bot};

/// One line of a table's journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Entry {
    /// A person took a place.
    Sit {
        /// The place (0–3).
        place: usize,
        /// The person's id.
        person: i64,
        /// Their name then.
        name: String,
    },
    /// Hand `hand` (0-based) began.
    Start {
        /// The hand (0-based).
        hand: usize,
    },
    /// The person of a place is not there: a stand-in plays until they connect.
    Away {
        /// The place (0–3).
        place: usize,
    },
    /// A move at the table.
    Act {
        /// The hand (0-based).
        hand: usize,
        /// The seat that moved.
        seat: Wind,
        /// The move.
        action: Action,
        /// Played for a person by the server (a time-out default or a stand-in).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        stand_in: bool,
        /// The stand-in bot that chose it, when a bot did (not a time-out default, which
        /// is the person's own move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<String>,
    },
    /// The person at `place` was shown their tiles of hand `hand` (0-based): from here on
    /// the hand's result is theirs, whoever finishes it.
    Shown {
        /// The hand (0-based).
        hand: usize,
        /// The place (0–3).
        place: usize,
    },
    /// Nobody was at the table for the idle time: it ends here, and the hand in play (if
    /// any) counts nothing.
    Abandon,
}

/// A person at a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    /// The person's id.
    pub person: i64,
    /// Their name.
    pub name: String,
}

/// Where a table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for people to take the open places.
    Waiting,
    /// A hand is in play.
    Playing,
    /// A hand is over; the next starts when the people are ready.
    Between {
        /// When the hand ended.
        since: Instant,
    },
    /// Every hand is played.
    Over,
}

/// A finished hand as kept: who sat where and the points, by seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandSummary {
    /// 1-based.
    pub hand_no: usize,
    /// The hand as labelled at the table ("deal …" or "hand n of m, … round").
    pub label: String,
    /// By seat: who played it.
    pub names: [String; 4],
    /// By seat: the person's id, none for a bot.
    pub persons: [Option<i64>; 4],
    /// By seat: the place at the table.
    pub places: [usize; 4],
    /// By seat: match points of the hand.
    pub points: [i32; 4],
    /// How the hand ended.
    pub outcome: Outcome,
    /// By seat: a person's seat where the server played at least one move for them.
    #[serde(default)]
    pub stood_in: [bool; 4],
    /// By seat: how much of the hand was the person's own ([`Held`]); absent in hands
    /// stored before it was kept (read through [`HandSummary::held`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<[Held; 4]>,
    /// By seat: the moves (1-based numbers in the hand's log) a stand-in bot chose for the
    /// person there: never reviewed or counted as theirs.
    #[serde(default, skip_serializing_if = "no_bot_moves")]
    pub bot_moves: [Vec<usize>; 4],
}

fn no_bot_moves(m: &[Vec<usize>; 4]) -> bool {
    m.iter().all(Vec::is_empty)
}

/// A hand that has ended and is not yet stored.
pub struct FinishedHand {
    /// Who sat where and the points.
    pub summary: HandSummary,
    /// For a challenge or event deal, the key its results are compared under.
    pub deal_key: Option<String>,
    /// The hand's full log.
    pub log: HandLog,
}

/// One table in play: its settings, who sits where, the hand in play and the clocks.
pub struct Room {
    /// The table's id.
    pub id: i64,
    /// What it plays.
    pub spec: TableSpec,
    /// By place: the person sitting there (persons' places only).
    pub seated: [Option<Seated>; 4],
    /// By place: a person who let their clock run out while disconnected; a bot plays for
    /// them until they come back.
    pub away: [bool; 4],
    /// By place: open connections of the person there (kept by the server).
    pub connected: [usize; 4],
    /// Where it is.
    pub stage: Stage,
    /// The hand in play or the next one (0-based).
    pub hand_no: usize,
    game: Option<Game>,
    /// Duplicate: match points so far, by place.
    totals: [i64; 4],
    /// Hands finished so far.
    pub summaries: Vec<HandSummary>,
    table: Option<Table>,
    actions: Vec<Decision>,
    /// By seat: the seat's current decision (its number among the seat's decisions this
    /// hand, and when it began). Counted per seat so that it says nothing of what the other
    /// seats were asked.
    asked: [Option<(u64, Instant)>; 4],
    /// By seat: what the current decision is about.
    deciding: [Option<Ask>; 4],
    decisions: [u64; 4],
    /// By place: extra seconds left, in milliseconds.
    bank_ms: [u64; 4],
    /// By place: the bot of a bot's place, or the stand-in of an away person.
    bots: [Option<Box<dyn Agent + Send>>; 4],
    /// By place: the bot is out thinking ([`Room::start_thinking`]).
    thinking: [bool; 4],
    /// By place: a person has asked for the next hand.
    ready: [bool; 4],
    /// By place: something the server did for them (a time-out default).
    pub notice: [Option<Notice>; 4],
    /// Journal entries not yet written, and hands not yet stored.
    pub pending: Vec<Entry>,
    /// Finished hands not yet stored.
    pub finished: Vec<FinishedHand>,
    /// Seconds between bot moves (zero: as fast as they think).
    pace: Duration,
    /// The table's time is up ([`Room::play_out`]).
    played_out: bool,
    /// It ended because nobody was at it ([`Entry::Abandon`]).
    pub abandoned: bool,
    /// By seat: the server played for a person in this hand.
    stood_in: [bool; 4],
    /// By seat: the person there has been shown their tiles of this hand.
    shown: [bool; 4],
    /// By seat: the stand-in bot that chose a move for the person there this hand.
    bot_played: [Option<String>; 4],
    /// By seat: the moves a stand-in bot chose this hand ([`HandSummary::bot_moves`]).
    bot_moves: [Vec<usize>; 4],
    /// When anything last changed (a bot moves no sooner than `pace` after it).
    pub last_change: Instant,
    /// Bumped on every change, so clients can tell states apart.
    pub version: u64,
    /// The stamps people sent (not journaled).
    pub stamps: stamps::Stamps,
}

impl Room {
    /// A table with nobody seated; `pace` is the pause between bot moves.
    pub fn new(id: i64, spec: TableSpec, pace: Duration) -> Room {
        let bots = std::array::from_fn(|p| match &spec.places[p] {
            Place::Bot { level } => table_bot(level, (id as u64) << 8 | p as u64).map(|mut b| {
                b.set_rules(&spec.rules());
                b
            }),
            Place::Person => None,
        });
        let game = match (&spec.hands, spec.key()) {
            (Hands::Regular { hands, .. }, Some(key)) => Game::with_seeds(
                TableRules::regular(),
                (0..*hands).map(|k| key.seed(k)).collect(),
            )
            .ok(),
            (Hands::Regular { seed, hands }, None) => {
                Game::new(TableRules::regular(), *seed, *hands).ok()
            }
            (Hands::Duplicate { .. }, _) => None,
        };
        Room {
            id,
            bank_ms: [spec.bank_s as u64 * 1000; 4],
            spec,
            seated: Default::default(),
            away: [false; 4],
            connected: [0; 4],
            stage: Stage::Waiting,
            hand_no: 0,
            game,
            totals: [0; 4],
            summaries: Vec::new(),
            table: None,
            actions: Vec::new(),
            asked: [None; 4],
            deciding: [None; 4],
            decisions: [0; 4],
            bots,
            thinking: [false; 4],
            ready: [false; 4],
            notice: Default::default(),
            pending: Vec::new(),
            finished: Vec::new(),
            pace,
            played_out: false,
            abandoned: false,
            stood_in: [false; 4],
            shown: [false; 4],
            bot_played: Default::default(),
            bot_moves: Default::default(),
            last_change: Instant::now(),
            version: 0,
            stamps: stamps::Stamps::default(),
        }
    }

    /// Rebuilds a table from its journal; nothing is journaled again.
    pub fn restore(
        id: i64,
        spec: TableSpec,
        pace: Duration,
        journal: &[String],
    ) -> Result<Room, PlayError> {
        let mut room = Room::new(id, spec, pace);
        for (i, line) in journal.iter().enumerate() {
            let e: Entry = serde_json::from_str(line).map_err(|e| {
                PlayError::Internal(format!("table {id}, journal line {}: {e}", i + 1))
            })?;
            room.apply(e).map_err(|r| {
                PlayError::Internal(format!("table {id}, journal line {}: {r}", i + 1))
            })?;
        }
        room.pending.clear();
        room.finished.clear();
        Ok(room)
    }

    /// Applies one entry and journals it.
    fn apply(&mut self, e: Entry) -> Result<(), Refusal> {
        match &e {
            Entry::Sit {
                place,
                person,
                name,
            } => {
                self.seated[*place] = Some(Seated {
                    person: *person,
                    name: name.clone(),
                });
            }
            Entry::Away { place } => {
                let place = *place;
                if place > 3 || self.spec.places[place] != Place::Person {
                    return Err(Refusal::PlaceNotAPersons(place));
                }
                self.away[place] = true;
                let name = self.spec.stand_in().to_string();
                self.bots[place] = Some(stand_in(&name, self.id as u64));
            }
            Entry::Start { hand } => {
                if *hand != self.hand_no {
                    return Err(Refusal::OutOfOrder(*hand));
                }
                let setup = self.setup(*hand)?;
                let rules = self.spec.rules();
                self.table = Some(Table::start(setup, rules).map_err(Refusal::Deal)?);
                self.actions.clear();
                self.asked = [None; 4];
                self.deciding = [None; 4];
                self.decisions = [0; 4];
                self.ready = [false; 4];
                self.stood_in = [false; 4];
                self.shown = [false; 4];
                self.bot_played = Default::default();
                self.bot_moves = Default::default();
                self.stage = Stage::Playing;
            }
            Entry::Abandon => {
                if self.stage == Stage::Over {
                    return Err(Refusal::TableOver);
                }
                self.stage = Stage::Over;
                self.abandoned = true;
                self.asked = [None; 4];
            }
            Entry::Shown { hand, place } => {
                if *hand != self.hand_no || self.stage != Stage::Playing || *place > 3 {
                    return Err(Refusal::HandNotInPlay);
                }
                let seat = self.seat_of(*place);
                self.shown[seat.index()] = true;
            }
            Entry::Act {
                hand,
                seat,
                action,
                stand_in,
                bot,
            } => {
                if *stand_in {
                    self.stood_in[seat.index()] = true;
                }
                if let Some(b) = bot {
                    self.bot_played[seat.index()].get_or_insert_with(|| b.clone());
                }
                let table = self.table.as_mut().ok_or(Refusal::NoHandInPlay)?;
                if *hand != self.hand_no || self.stage != Stage::Playing {
                    return Err(Refusal::HandNotInPlay);
                }
                table.apply(*seat, *action).map_err(Refusal::Illegal)?;
                if bot.is_some() {
                    self.bot_moves[seat.index()].push(self.actions.len() + 1);
                }
                self.actions.push(Decision {
                    seat: *seat,
                    action: *action,
                });
                // Its decision is answered: whatever it is asked next is a new one.
                self.asked[seat.index()] = None;
            }
        }
        self.pending.push(e);
        self.changed();
        Ok(())
    }

    fn setup(&self, hand: usize) -> Result<Setup, Refusal> {
        match &self.spec.hands {
            Hands::Duplicate { deals } => deals
                .get(hand)
                .map(|d| Setup::Duplicate(Deal::generate(d.seed)))
                .ok_or(Refusal::NoDeal(hand)),
            Hands::Regular { .. } => self
                .game
                .as_ref()
                .and_then(Game::next_setup)
                .ok_or(Refusal::GameOver),
        }
    }

    /// After every change: new decisions start their clocks, a finished hand is scored.
    fn changed(&mut self) {
        let now = Instant::now();
        self.version += 1;
        self.last_change = now;
        let Some(table) = &self.table else { return };
        if self.stage != Stage::Playing {
            return;
        }
        for w in Wind::ALL {
            let s = w.index();
            if table.legal(w).is_empty() {
                self.asked[s] = None;
                self.deciding[s] = None;
                continue;
            }
            // A new decision (even one that follows the seat's last at once, as a turn
            // after passing a claim) gets its own number and its own clock.
            let decision = table.view(w).decision;
            if self.asked[s].is_none() || self.deciding[s] != decision {
                self.decisions[s] += 1;
                self.asked[s] = Some((self.decisions[s], now));
                self.deciding[s] = decision;
            }
        }
        if table.is_over() {
            self.end_hand();
        }
    }

    fn end_hand(&mut self) {
        let table = self.table.as_ref().expect("a hand in play");
        let result = table.result().expect("the hand is over").clone();
        let places = self.places_by_seat(self.hand_no);
        match &mut self.game {
            Some(g) => {
                let _ = g.record(&result);
            }
            None => {
                for (s, &p) in places.iter().enumerate() {
                    self.totals[p] += result.points[s] as i64;
                }
            }
        }
        let summary = HandSummary {
            hand_no: self.hand_no + 1,
            label: self.label(self.hand_no),
            names: places.map(|p| self.name_of(p)),
            persons: places.map(|p| self.seated[p].as_ref().map(|s| s.person)),
            places,
            points: result.points,
            outcome: result.kind,
            stood_in: self.stood_in,
            bot_moves: self.bot_moves.clone(),
            held: Some(std::array::from_fn(|s| {
                let person = self.spec.places[places[s]] == Place::Person;
                Held::of(
                    person,
                    self.shown[s],
                    &self.bot_played[s],
                    self.spec.stand_in(),
                )
            })),
        };
        // A challenge table has one person, whose seat is the one compared.
        let compared = (0..4)
            .find(|&s| self.spec.places[places[s]] == Place::Person)
            .unwrap_or(0);
        let deal_key = self.spec.deal_key(self.hand_no, compared);
        self.finished.push(FinishedHand {
            summary: summary.clone(),
            deal_key,
            log: HandLog::of(table, self.actions.clone()),
        });
        self.summaries.push(summary);
        self.hand_no += 1;
        self.stage = if self.hand_no >= self.spec.hand_count() {
            Stage::Over
        } else {
            Stage::Between {
                since: Instant::now(),
            }
        };
    }

    /// How hand `hand` is called on screen, in English.
    pub fn label(&self, hand: usize) -> String {
        let (text, args) = self.label_parts(hand);
        crate::text::fill(text, args)
    }

    /// The label as a text with `{}` and what fills them, so that a page can say it in
    /// its own language.
    pub fn label_parts(&self, hand: usize) -> (&'static str, Vec<String>) {
        match &self.spec.hands {
            Hands::Duplicate { deals } => (
                "deal {} ({} of {})",
                vec![
                    deals.get(hand).map_or("?".to_string(), |d| d.label.clone()),
                    (hand + 1).to_string(),
                    deals.len().to_string(),
                ],
            ),
            Hands::Regular { hands, .. } => (
                "hand {} of {}, {} round",
                vec![
                    (hand + 1).to_string(),
                    hands.to_string(),
                    wind_name(table::game::prevalent_of(hand)).to_string(),
                ],
            ),
        }
    }

    /// The place at each seat (E, S, W, N) in hand `hand`.
    pub fn places_by_seat(&self, hand: usize) -> [usize; 4] {
        if self.spec.is_duplicate() {
            [0, 1, 2, 3]
        } else {
            seating(hand)
        }
    }

    /// The seat of a place in the hand in play (or the next one).
    pub fn seat_of(&self, place: usize) -> Wind {
        if self.spec.is_duplicate() {
            Wind::from_index(place)
        } else {
            seat_of(place, self.hand_no.min(self.spec.hand_count() - 1))
        }
    }

    /// The name shown for a place: the person, "bot (level)" or "(open)".
    pub fn name_of(&self, place: usize) -> String {
        match (&self.spec.places[place], &self.seated[place]) {
            (Place::Bot { level }, _) => format!("bot ({level})"),
            (Place::Person, Some(s)) => s.name.clone(),
            (Place::Person, None) => "(open)".into(),
        }
    }

    /// The place where this person sits.
    pub fn place_of(&self, person: i64) -> Option<usize> {
        self.seated
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.person == person))
    }

    /// People's places nobody has taken yet.
    pub fn open_places(&self) -> Vec<usize> {
        (0..4)
            .filter(|&p| self.spec.places[p] == Place::Person && self.seated[p].is_none())
            .collect()
    }

    /// The hand in play, if any.
    pub fn table(&self) -> Option<&Table> {
        self.table.as_ref()
    }

    /// The regular game, for a table that plays one.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Scores so far by place: match points in duplicate, the game's scores in a regular one.
    pub fn scores(&self) -> [i64; 4] {
        self.game.as_ref().map(Game::scores).unwrap_or(self.totals)
    }

    /// The number of a seat's current decision, if it has one.
    pub fn asked_step(&self, seat: Wind) -> Option<u64> {
        self.asked[seat.index()].map(|(s, _)| s)
    }

    /// When a seat's current decision began, if it has one.
    pub fn asked_at(&self, seat: Wind) -> Option<Instant> {
        self.asked[seat.index()].map(|(_, at)| at)
    }

    /// Whether the person at a place asked for the next hand.
    pub fn is_ready(&self, place: usize) -> bool {
        self.ready[place]
    }
}

/// East, South, West or North.
pub fn wind_name(w: Wind) -> &'static str {
    ["East", "South", "West", "North"][w.index()]
}

/// What the server plays for a person whose clock ran out: pass on a claim, set a flower
/// aside, otherwise discard the tile just drawn (the first discard offered after a claim).
pub fn timeout_default(table: &Table, seat: Wind) -> Action {
    default_of(table.view(seat).decision.as_ref(), table.legal(seat))
}

fn default_of(decision: Option<&Ask>, legal: &[Action]) -> Action {
    if let Some(Ask::Turn { drew: Some(t), .. }) = decision {
        if legal.contains(&Action::Discard(*t)) && !legal.contains(&Action::Bonus) {
            return Action::Discard(*t);
        }
    }
    safe_default(legal)
}

#[cfg(test)]
mod tests;
