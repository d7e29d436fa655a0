//! What people do at a table: sit, act on the step they were asked, ask for the next
//! hand, come back, and what ends a table early.

use super::{Action, Duration, Entry, Instant, Notice, Place, Refusal, Room, Stage, TableSpec};

impl Room {
    /// A person takes an open place; the first hand starts once every place is taken.
    pub fn sit(&mut self, person: i64, name: &str, place: usize) -> Result<(), Refusal> {
        if place > 3 || self.spec.places[place] != Place::Person {
            return Err(Refusal::NotAPersonsPlace);
        }
        if self.place_of(person).is_some() {
            return Err(Refusal::AlreadySeated);
        }
        if self.seated[place].is_some() {
            return Err(Refusal::PlaceTaken);
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
        let place = self.place_of(person).ok_or(Refusal::NotSeated)?;
        if self.played_out {
            return Err(Refusal::TimeUp);
        }
        if self.stage != Stage::Playing {
            return Err(match self.stage {
                Stage::Waiting => Refusal::NotStarted,
                _ => Refusal::HandOver,
            });
        }
        let seat = self.seat_of(place);
        let asked = self.asked_step(seat).ok_or(Refusal::NotYourTurn)?;
        if step > asked {
            return Err(Refusal::Ahead { step, asked });
        }
        if step < asked {
            return Err(Refusal::Behind { step, asked });
        }
        let table = self.table.as_ref().expect("a hand in play");
        if !table.legal(seat).contains(&action) {
            return Err(Refusal::NotAllowed(action));
        }
        self.spend_bank(place, seat, Instant::now());
        // Whoever moves has seen their tiles.
        if !self.shown[seat.index()] {
            let hand = self.hand_no;
            self.apply(Entry::Shown { hand, place })?;
        }
        self.away[place] = false;
        self.notice[place] = None;
        self.apply(Entry::Act {
            hand: self.hand_no,
            seat,
            action,
            stand_in: false,
            bot: None,
        })
    }

    /// A person asks for the next hand.
    pub fn next_hand(&mut self, person: i64) -> Result<(), Refusal> {
        let place = self.place_of(person).ok_or(Refusal::NotSeated)?;
        if !matches!(self.stage, Stage::Between { .. }) {
            return Err(Refusal::NoNextHand);
        }
        self.ready[place] = true;
        self.version += 1;
        Ok(())
    }

    /// Journals that the people connected at their places have been shown their tiles of
    /// the hand in play (the table's task calls it after every change): from then on the
    /// hand's result is theirs.
    pub fn note_shown(&mut self) {
        if self.stage != Stage::Playing {
            return;
        }
        for place in 0..4 {
            let seat = self.seat_of(place);
            if self.spec.places[place] == Place::Person
                && self.connected[place] > 0
                && !self.shown[seat.index()]
            {
                let hand = self.hand_no;
                let _ = self.apply(Entry::Shown { hand, place });
            }
        }
    }

    /// A person connected: if a bot was playing for them, they take their place back.
    pub fn came_back(&mut self, place: usize) {
        if self.away[place] && !self.played_out {
            self.away[place] = false;
            self.bots[place] = None;
            self.notice[place] = Some(Notice::plain("Welcome back: you play your place again."));
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
}
