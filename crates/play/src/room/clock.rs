//! Time at a table: each decision's clock and time bank, time-outs and stand-ins,
//! the bots' pace, the start of the next hand, and when the table's task must wake.

use super::{
    safe_default, stand_in, timeout_default, Action, Agent, Ask, Duration, Entry, Instant, Notice,
    Place, Room, Stage, Table, Wind, DEFAULTS,
};

/// A bot's move worked out away from the table's task: the bot, out of its place until the
/// move comes back, and a copy of the table to decide on.
pub struct Thinking {
    /// The bot's place.
    pub place: usize,
    /// Its seat in the hand.
    pub seat: Wind,
    /// The number of the decision it answers.
    pub step: u64,
    /// The table as it stands.
    pub table: Table,
    /// The bot.
    pub bot: Box<dyn Agent + Send>,
}

impl Room {
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

    /// A person's clock for their current decision as it stands at `now`: the decision's
    /// own milliseconds left, then the bank's. The own time runs first; the bank only once
    /// it is spent (as the bank is charged when the decision is answered).
    pub fn clock_split_ms(&self, place: usize, now: Instant) -> Option<(u64, u64)> {
        let seat = self.seat_of(place);
        let (_, at) = self.asked[seat.index()]?;
        let used = now.duration_since(at).as_millis() as u64;
        let limit = self.spec.limit_s as u64 * 1000;
        let over = used.saturating_sub(limit);
        Some((
            limit.saturating_sub(used),
            self.bank_ms[place].saturating_sub(over),
        ))
    }

    /// Takes the time used beyond the limit out of the place's bank.
    pub(super) fn spend_bank(&mut self, place: usize, seat: Wind, now: Instant) {
        if let Some((_, at)) = self.asked[seat.index()] {
            let used = now.duration_since(at).as_millis() as u64;
            let over = used.saturating_sub(self.spec.limit_s as u64 * 1000);
            self.bank_ms[place] = self.bank_ms[place].saturating_sub(over);
        }
    }

    /// Ends the table's time: every person is away with the defaults as stand-in, and
    /// nothing is paced any more.
    pub fn play_out(&mut self) {
        for p in 0..4 {
            if self.spec.places[p] == Place::Person {
                self.away[p] = true;
                self.bots[p] = Some(stand_in(DEFAULTS, 0));
                self.notice[p] = Some(Notice::plain(
                    "Time is up: the rest of this hand is played by the time-out defaults.",
                ));
            }
        }
        self.pace = Duration::ZERO;
        self.played_out = true;
        self.version += 1;
    }

    /// Whether a bot (or a stand-in) plays this place now.
    pub(super) fn bot_plays(&self, place: usize) -> bool {
        self.spec.places[place] != Place::Person || self.away[place]
    }

    /// Does whatever is due at `now`: time-out defaults, bot moves, the next hand. Returns
    /// whether anything changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut changed = false;
        let started = Instant::now();
        // Bounded, in moves and in time (a bot that searches takes a fifth of a second or
        // more a move), so that a table of bots still lets the server read its messages.
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
            if !self.pace.is_zero() || started.elapsed() > Duration::from_millis(100) {
                break;
            }
        }
        changed
    }

    /// Plays the safe default for every person whose clock ran out.
    pub(super) fn timeouts(&mut self, now: Instant) -> bool {
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
            self.notice[place] = Some(Notice::timed_out(action, self.away[place]));
            let hand = self.hand_no;
            self.apply(Entry::Act {
                hand,
                seat,
                action,
                stand_in: true,
                bot: None,
            })
            .expect("a legal default applies");
            return true;
        }
        false
    }

    /// The seat and place of the bot whose move is due at `now`, if any. Only turns are
    /// paced: claims are answered at once, so that a pause never tells who had something
    /// to claim. A bot out thinking is not due again.
    fn due_bot(&self, now: Instant) -> Option<(Wind, usize)> {
        if self.stage != Stage::Playing {
            return None;
        }
        let table = self.table.as_ref()?;
        let places = self.places_by_seat(self.hand_no);
        let seat = table.to_act().into_iter().find(|w| {
            let place = places[w.index()];
            self.bot_plays(place) && !self.thinking[place]
        })?;
        let turn = matches!(table.view(seat).decision, Some(Ask::Turn { .. }));
        if turn && now < self.last_change + self.pace {
            return None;
        }
        Some((seat, places[seat.index()]))
    }

    /// A due move of a bot that thinks long ([`Agent::thinks`]), taken out of the room to
    /// be worked out elsewhere: the bot leaves its place until [`Room::answer`] brings it
    /// back with its move.
    pub fn start_thinking(&mut self, now: Instant) -> Option<Thinking> {
        let (seat, place) = self.due_bot(now)?;
        if !self.bots[place].as_ref().is_some_and(|b| b.thinks()) {
            return None;
        }
        let step = self.asked_step(seat)?;
        let bot = self.bots[place].take()?;
        self.thinking[place] = true;
        Some(Thinking {
            place,
            seat,
            step,
            table: self.table.clone()?,
            bot,
        })
    }

    /// A thought-out move comes back: the bot takes its place again and the move is played
    /// if the decision it answers is still the one asked.
    pub fn answer(&mut self, job: Thinking, action: Action) {
        self.thinking[job.place] = false;
        self.bots[job.place] = Some(job.bot);
        let still_asked =
            self.stage == Stage::Playing && self.asked_step(job.seat) == Some(job.step);
        let legal = self
            .table
            .as_ref()
            .map(|t| t.legal(job.seat))
            .unwrap_or_default();
        if !still_asked || legal.is_empty() {
            return;
        }
        let action = if legal.contains(&action) {
            action
        } else {
            safe_default(legal)
        };
        self.play_bot_move(job.place, job.seat, action);
    }

    /// Plays a bot's legal `action` at `seat` (a stand-in's at a person's place).
    fn play_bot_move(&mut self, place: usize, seat: Wind, action: Action) {
        let hand = self.hand_no;
        let stand_in = self.spec.places[place] == Place::Person;
        // The time-out defaults are what the person's own clock would play; any other
        // stand-in is a bot choosing for them.
        let by = if self.played_out {
            DEFAULTS
        } else {
            self.spec.stand_in()
        };
        let bot = (stand_in && by != DEFAULTS).then(|| by.to_string());
        self.apply(Entry::Act {
            hand,
            seat,
            action,
            stand_in,
            bot,
        })
        .expect("a legal bot move applies");
    }

    /// A thought-out move never came back (its thread failed): the places out thinking
    /// get a stand-in, which plays on.
    pub fn thought_lost(&mut self) {
        for place in 0..4 {
            if std::mem::take(&mut self.thinking[place]) {
                self.bots[place] = Some(stand_in(self.spec.stand_in(), self.id as u64));
            }
        }
    }

    /// One move of a bot, when one is due (a bot that thinks long moves through
    /// [`Room::start_thinking`] instead, which the table's task calls).
    pub(super) fn bot_move(&mut self, now: Instant) -> bool {
        let Some((seat, place)) = self.due_bot(now) else {
            return false;
        };
        if self.bots[place].as_ref().is_some_and(|b| b.thinks()) {
            return false;
        }
        let table = self.table.as_ref().expect("a hand in play");
        let view = table.view(seat);
        let name = self.spec.stand_in().to_string();
        let bot = self.bots[place].get_or_insert_with(|| stand_in(&name, self.id as u64));
        let mut action = bot.act(&view);
        if !view.legal.contains(&action) {
            action = safe_default(view.legal);
        }
        self.play_bot_move(place, seat, action);
        true
    }

    /// Starts the next hand once every connected person is ready (or the time limit has
    /// passed), leaving bots' tables a moment to show the result.
    pub(super) fn maybe_start(&mut self, since: Instant, now: Instant) -> bool {
        if now < self.start_time(since) {
            return false;
        }
        let hand = self.hand_no;
        self.apply(Entry::Start { hand }).is_ok()
    }

    /// When the next hand may start: once the connected people are ready, but never
    /// before a short pause, and at the latest after the time limit.
    pub(super) fn start_time(&self, since: Instant) -> Instant {
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
                    if self.thinking[place] {
                        continue;
                    }
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
