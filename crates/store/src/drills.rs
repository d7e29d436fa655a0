//! Training drills: each person's cards (a drill and when it comes back, by the spaced
//! repetition schedule), every answer given, and which of their hands were looked through
//! for positions.

use crate::Result;

/// One drill of one person: when it comes back and how it has gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrillCard {
    /// The drill (`play:…`, `fan:…`, `route:…`).
    pub drill: String,
    /// The day it was added (days since 1970, UTC).
    pub added_day: i64,
    /// The day it is next due.
    pub due_day: i64,
    /// Right answers in a row.
    pub streak: u32,
    /// The last interval, in days.
    pub interval_days: u32,
    /// The easy factor × 1000.
    pub ease_milli: i64,
    /// Answers given to it.
    pub answered: u32,
    /// Of which right.
    pub right: u32,
}

/// How a person's training stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrillProgress {
    /// Drills they have.
    pub cards: usize,
    /// Answers given (every drill, the problem of the day included).
    pub answered: usize,
    /// Of which right.
    pub right: usize,
    /// Drills due today or earlier.
    pub due: usize,
    /// Answers given today.
    pub answered_today: usize,
}

/// One answer, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrillAnswer {
    /// The answer, as the drill writes it.
    pub answer: String,
    /// Its grade, 0 to 5 (3 and up is right).
    pub grade: u8,
}

/// Training drills.
pub trait DrillStore {
    /// Gives `person` the drills `drills` (due on `day`); those they have already are left
    /// as they are. How many were new.
    ///
    /// One transaction.
    fn add_drills(&self, person: i64, drills: &[String], day: i64) -> Result<usize>;

    /// Notes that hand `hand` was looked through for `person`'s drills and gives them the
    /// drills found in it, in one go.
    ///
    /// One transaction.
    fn mark_mined(&self, person: i64, hand: i64, drills: &[String], day: i64) -> Result<()>;

    /// The hands looked through for `person`.
    ///
    /// A read.
    fn mined_hands(&self, person: i64) -> Result<Vec<i64>>;

    /// `person`'s drills due on `day` or earlier, the longest due first, at most `limit`.
    ///
    /// A read.
    fn drills_due(&self, person: i64, day: i64, limit: usize) -> Result<Vec<DrillCard>>;

    /// One of `person`'s drills.
    ///
    /// A read.
    fn drill_card(&self, person: i64, drill: &str) -> Result<Option<DrillCard>>;

    /// Keeps `person`'s answer to `drill` on `day` and, for a drill of theirs, its card
    /// after the answer (`card`; `None` for the problem of the day, which is no card).
    ///
    /// One transaction.
    fn answer_drill(
        &self,
        person: i64,
        drill: &str,
        card: Option<&DrillCard>,
        answer: &DrillAnswer,
        day: i64,
    ) -> Result<()>;

    /// `person`'s first answer to `drill`, if any.
    ///
    /// A read.
    fn first_answer(&self, person: i64, drill: &str) -> Result<Option<DrillAnswer>>;

    /// Everyone's first answers to `drill`: each answer with how many gave it, the most
    /// given first.
    ///
    /// A read.
    fn answers_to(&self, drill: &str) -> Result<Vec<(DrillAnswer, usize)>>;

    /// The site's salt for the problem of the day: `candidate` (a random number) the first
    /// time, the one kept ever after (so that nobody can work out a day's problem before it
    /// is out, and every node gives the same one).
    ///
    /// One transaction.
    fn drill_salt(&self, candidate: i64) -> Result<i64>;

    /// How `person`'s training stands on `day`.
    ///
    /// A read.
    fn drill_progress(&self, person: i64, day: i64) -> Result<DrillProgress>;
}
