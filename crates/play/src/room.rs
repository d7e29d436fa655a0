//! One table of online play, without any I/O: who sits where, the hand in play, the clock,
//! the bots, and the journal of everything that changed it.
//!
//! Every change is an [`Entry`]; [`Room::restore`] replays a stored journal through the same
//! code, so a table rebuilt after a restart is the table that was left.

use std::time::{Duration, Instant};

use agents::bots::{builtin, Agent};
use agents::play::safe_default;
use mcr::Wind;
use serde::{Deserialize, Serialize};
use table::deal::Deal;
use table::engine::{Action, Decision as Ask, Outcome, Table};
use table::game::{seat_of, seating, Game};
use table::log::{Decision, HandLog};
use table::rules::TableRules;
use table::wall::Setup;

use super::spec::{Hands, Place, TableSpec};

/// The stand-in that only plays the time-out defaults (see [`timeout_default`]).
pub const DEFAULTS: &str = "defaults";

/// A stand-in by name: a built-in bot, or [`DEFAULTS`].
fn stand_in(name: &str, seed: u64) -> Box<dyn Agent + Send> {
    if name == DEFAULTS {
        return Box::new(Defaults);
    }
    builtin(name, seed).expect("stand-ins are built-in bots")
}

/// Plays for an absent person exactly what their clock running out would.
struct Defaults;

impl Agent for Defaults {
    fn name(&self) -> &str {
        DEFAULTS
    }

    fn act(&mut self, view: &table::engine::View) -> Action {
        default_of(view.decision.as_ref(), view.legal)
    }
}

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

/// Why a request was refused, in words for the player.
pub type Refusal = String;

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
    /// By place: a person has asked for the next hand.
    ready: [bool; 4],
    /// By place: something the server did for them (a time-out default).
    pub notice: [Option<String>; 4],
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
    /// When anything last changed (a bot moves no sooner than `pace` after it).
    pub last_change: Instant,
    /// Bumped on every change, so clients can tell states apart.
    pub version: u64,
}

impl Room {
    /// A table with nobody seated; `pace` is the pause between bot moves.
    pub fn new(id: i64, spec: TableSpec, pace: Duration) -> Room {
        let bots = std::array::from_fn(|p| match &spec.places[p] {
            Place::Bot { level } => builtin(level, (id as u64) << 8 | p as u64),
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
            ready: [false; 4],
            notice: Default::default(),
            pending: Vec::new(),
            finished: Vec::new(),
            pace,
            played_out: false,
            abandoned: false,
            stood_in: [false; 4],
            last_change: Instant::now(),
            version: 0,
        }
    }

    /// Rebuilds a table from its journal; nothing is journaled again.
    pub fn restore(
        id: i64,
        spec: TableSpec,
        pace: Duration,
        journal: &[String],
    ) -> Result<Room, String> {
        let mut room = Room::new(id, spec, pace);
        for (i, line) in journal.iter().enumerate() {
            let e: Entry = serde_json::from_str(line)
                .map_err(|e| format!("table {id}, journal line {}: {e}", i + 1))?;
            room.apply(e)
                .map_err(|r| format!("table {id}, journal line {}: {r}", i + 1))?;
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
                    return Err(format!("place {place} is not a person's"));
                }
                self.away[place] = true;
                let name = self.spec.stand_in().to_string();
                self.bots[place] = Some(stand_in(&name, self.id as u64));
            }
            Entry::Start { hand } => {
                if *hand != self.hand_no {
                    return Err(format!("hand {} started out of order", hand + 1));
                }
                let setup = self.setup(*hand)?;
                let rules = self.spec.rules();
                self.table = Some(Table::start(setup, rules).map_err(|e| e.to_string())?);
                self.actions.clear();
                self.asked = [None; 4];
                self.deciding = [None; 4];
                self.decisions = [0; 4];
                self.ready = [false; 4];
                self.stood_in = [false; 4];
                self.stage = Stage::Playing;
            }
            Entry::Abandon => {
                if self.stage == Stage::Over {
                    return Err("the table is over already".into());
                }
                self.stage = Stage::Over;
                self.abandoned = true;
                self.asked = [None; 4];
            }
            Entry::Act {
                hand,
                seat,
                action,
                stand_in,
            } => {
                if *stand_in {
                    self.stood_in[seat.index()] = true;
                }
                let table = self.table.as_mut().ok_or("no hand is in play")?;
                if *hand != self.hand_no || self.stage != Stage::Playing {
                    return Err("that hand is not in play".into());
                }
                table.apply(*seat, *action).map_err(|e| e.to_string())?;
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
                .ok_or_else(|| format!("there is no deal {}", hand + 1)),
            Hands::Regular { .. } => self
                .game
                .as_ref()
                .and_then(Game::next_setup)
                .ok_or_else(|| "the game is over".into()),
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

    /// Milliseconds a person has left for their current decision (their bank included).
    pub fn time_left_ms(&self, place: usize, now: Instant) -> Option<u64> {
        let seat = self.seat_of(place);
        let (_, at) = self.asked[seat.index()]?;
        let limit = self.spec.limit_s as u64 * 1000 + self.bank_ms[place];
        Some(limit.saturating_sub(now.duration_since(at).as_millis() as u64))
    }

    /// Extra milliseconds a place has left.
    pub fn bank_ms(&self, place: usize) -> u64 {
        self.bank_ms[place]
    }

    /// Whether the person at a place asked for the next hand.
    pub fn is_ready(&self, place: usize) -> bool {
        self.ready[place]
    }

    /// A person takes an open place; the first hand starts once every place is taken.
    pub fn sit(&mut self, person: i64, name: &str, place: usize) -> Result<(), Refusal> {
        if place > 3 || self.spec.places[place] != Place::Person {
            return Err("that place is not for a person".into());
        }
        if self.place_of(person).is_some() {
            return Err("you already sit at this table".into());
        }
        if self.seated[place].is_some() {
            return Err("somebody already sits there".into());
        }
        self.apply(Entry::Sit {
            place,
            person,
            name: name.to_string(),
        })?;
        self.begin_if_full()
    }

    /// Starts the first hand once no place is open (at once for a table of bots).
    pub fn begin_if_full(&mut self) -> Result<(), Refusal> {
        if self.open_places().is_empty() && self.stage == Stage::Waiting {
            self.apply(Entry::Start { hand: 0 })?;
        }
        Ok(())
    }

    /// A person's move: refused unless it is theirs to make now, at this step, and legal.
    pub fn act(&mut self, person: i64, step: u64, action: Action) -> Result<(), Refusal> {
        let place = self
            .place_of(person)
            .ok_or("you do not sit at this table")?;
        if self.played_out {
            return Err("time is up at this table".into());
        }
        if self.stage != Stage::Playing {
            return Err(match self.stage {
                Stage::Waiting => "the hand has not started".into(),
                _ => "the hand is over".into(),
            });
        }
        let seat = self.seat_of(place);
        let asked = self
            .asked_step(seat)
            .ok_or("it is not your turn to decide")?;
        if step > asked {
            return Err(format!(
                "that move is for a decision not asked yet (number {step}; this one is {asked})"
            ));
        }
        if step < asked {
            return Err(format!(
                "that move was for an earlier decision (number {step}; this one is {asked})"
            ));
        }
        let table = self.table.as_ref().expect("a hand in play");
        if !table.legal(seat).contains(&action) {
            return Err(format!("{action} is not allowed now"));
        }
        self.spend_bank(place, seat, Instant::now());
        self.away[place] = false;
        self.notice[place] = None;
        self.apply(Entry::Act {
            hand: self.hand_no,
            seat,
            action,
            stand_in: false,
        })
    }

    /// Takes the time used beyond the limit out of the place's bank.
    fn spend_bank(&mut self, place: usize, seat: Wind, now: Instant) {
        if let Some((_, at)) = self.asked[seat.index()] {
            let used = now.duration_since(at).as_millis() as u64;
            let over = used.saturating_sub(self.spec.limit_s as u64 * 1000);
            self.bank_ms[place] = self.bank_ms[place].saturating_sub(over);
        }
    }

    /// A person asks for the next hand.
    pub fn next_hand(&mut self, person: i64) -> Result<(), Refusal> {
        let place = self
            .place_of(person)
            .ok_or("you do not sit at this table")?;
        if !matches!(self.stage, Stage::Between { .. }) {
            return Err("there is no next hand to start now".into());
        }
        self.ready[place] = true;
        self.version += 1;
        Ok(())
    }

    /// A person connected: if a bot was playing for them, they take their place back.
    pub fn came_back(&mut self, place: usize) {
        if self.away[place] && !self.played_out {
            self.away[place] = false;
            self.bots[place] = None;
            self.notice[place] = Some("Welcome back: you play your place again.".into());
            self.version += 1;
        }
    }

    /// The journal a new table starts with, written in one transaction with the table: its
    /// people seated (place, person, name), those in `away` played by a stand-in until they
    /// connect, and the first hand started when nobody else is awaited.
    pub fn opening(
        spec: &TableSpec,
        sitters: &[(usize, i64, String)],
        away: &[usize],
    ) -> Result<Vec<String>, Refusal> {
        let mut room = Room::new(0, spec.clone(), Duration::ZERO);
        for (place, person, name) in sitters {
            room.sit(*person, name, *place)?;
        }
        for &place in away {
            room.apply(Entry::Away { place })?;
        }
        room.begin_if_full()?;
        Ok(room
            .pending
            .iter()
            .map(|e| serde_json::to_string(e).expect("entries serialise"))
            .collect())
    }

    /// Ends a table nobody is at: it is over, the hand in play counts nothing.
    pub fn abandon(&mut self) -> Result<(), Refusal> {
        self.apply(Entry::Abandon)
    }

    /// Whether the table ends when nobody is at it: a table of the lobby (challenge and
    /// event tables are played to their end by stand-ins).
    pub fn ends_when_left(&self) -> bool {
        self.spec.challenge.is_none() && self.spec.sitting.is_none() && self.stage != Stage::Over
    }

    /// Ends the table's time: every person is away with the defaults as stand-in, and
    /// nothing is paced any more.
    pub fn play_out(&mut self) {
        for p in 0..4 {
            if self.spec.places[p] == Place::Person {
                self.away[p] = true;
                self.bots[p] = Some(stand_in(DEFAULTS, 0));
                self.notice[p] = Some(
                    "Time is up: the rest of this hand is played by the time-out defaults.".into(),
                );
            }
        }
        self.pace = Duration::ZERO;
        self.played_out = true;
        self.version += 1;
    }

    /// Whether a bot (or a stand-in) plays this place now.
    fn bot_plays(&self, place: usize) -> bool {
        self.spec.places[place] != Place::Person || self.away[place]
    }

    /// Does whatever is due at `now`: time-out defaults, bot moves, the next hand. Returns
    /// whether anything changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut changed = false;
        // Bounded so that a table of fast bots still lets the server read its messages.
        for _ in 0..64 {
            let did = match self.stage {
                Stage::Playing => self.timeouts(now) || self.bot_move(now),
                Stage::Between { since } => self.maybe_start(since, now),
                Stage::Waiting | Stage::Over => false,
            };
            if !did {
                break;
            }
            changed = true;
            if !self.pace.is_zero() {
                break;
            }
        }
        changed
    }

    /// Plays the safe default for every person whose clock ran out.
    fn timeouts(&mut self, now: Instant) -> bool {
        for place in 0..4 {
            if self.bot_plays(place) || self.time_left_ms(place, now) != Some(0) {
                continue;
            }
            let seat = self.seat_of(place);
            let table = self.table.as_ref().expect("a hand in play");
            let action = timeout_default(table, seat);
            self.bank_ms[place] = 0;
            if self.connected[place] == 0 {
                self.away[place] = true;
                self.bots[place] = Some(stand_in(self.spec.stand_in(), self.id as u64));
            }
            self.notice[place] = Some(format!(
                "Time ran out: the server played '{action}' for you{}.",
                if self.away[place] {
                    "; a bot plays for you until you come back"
                } else {
                    ""
                }
            ));
            let hand = self.hand_no;
            self.apply(Entry::Act {
                hand,
                seat,
                action,
                stand_in: true,
            })
            .expect("a legal default applies");
            return true;
        }
        false
    }

    /// One move of a bot, when one is due. Only turns are paced: claims are answered at
    /// once, so that a pause never tells who had something to claim.
    fn bot_move(&mut self, now: Instant) -> bool {
        let table = self.table.as_ref().expect("a hand in play");
        let places = self.places_by_seat(self.hand_no);
        let Some(seat) = table
            .to_act()
            .into_iter()
            .find(|w| self.bot_plays(places[w.index()]))
        else {
            return false;
        };
        let place = places[seat.index()];
        let view = table.view(seat);
        if matches!(view.decision, Some(Ask::Turn { .. })) && now < self.last_change + self.pace {
            return false;
        }
        let name = self.spec.stand_in().to_string();
        let bot = self.bots[place].get_or_insert_with(|| stand_in(&name, self.id as u64));
        let mut action = bot.act(&view);
        if !view.legal.contains(&action) {
            action = safe_default(view.legal);
        }
        let hand = self.hand_no;
        let stand_in = self.spec.places[place] == Place::Person;
        self.apply(Entry::Act {
            hand,
            seat,
            action,
            stand_in,
        })
        .expect("a legal bot move applies");
        true
    }

    /// Starts the next hand once every connected person is ready (or the time limit has
    /// passed), leaving bots' tables a moment to show the result.
    fn maybe_start(&mut self, since: Instant, now: Instant) -> bool {
        if now < self.start_time(since) {
            return false;
        }
        let hand = self.hand_no;
        self.apply(Entry::Start { hand }).is_ok()
    }

    /// When the next hand may start: once the connected people are ready, but never
    /// before a short pause, and at the latest after the time limit.
    fn start_time(&self, since: Instant) -> Instant {
        let waiting_for_people = (0..4).any(|p| {
            self.spec.places[p] == Place::Person
                && self.connected[p] > 0
                && !self.away[p]
                && !self.ready[p]
        });
        if waiting_for_people {
            since + Duration::from_secs(self.spec.limit_s as u64)
        } else {
            since + self.pace * 4
        }
    }

    /// When [`Room::tick`] next has something to do (None: only a message can change
    /// anything).
    pub fn next_wake(&self, now: Instant) -> Option<Instant> {
        match self.stage {
            Stage::Playing => {
                let table = self.table.as_ref()?;
                let places = self.places_by_seat(self.hand_no);
                let mut wake: Option<Instant> = None;
                let mut earliest = |t: Instant| {
                    wake = Some(wake.map_or(t, |w: Instant| w.min(t)));
                };
                for seat in table.to_act() {
                    let place = places[seat.index()];
                    if self.bot_plays(place) {
                        let turn = matches!(table.view(seat).decision, Some(Ask::Turn { .. }));
                        earliest(if turn {
                            self.last_change + self.pace
                        } else {
                            now
                        });
                    } else if let Some(ms) = self.time_left_ms(place, now) {
                        earliest(now + Duration::from_millis(ms));
                    }
                }
                wake
            }
            Stage::Between { since } => Some(self.start_time(since)),
            Stage::Waiting | Stage::Over => None,
        }
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
#[path = "room_tests.rs"]
mod tests;
