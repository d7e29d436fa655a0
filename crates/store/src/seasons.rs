//! Around the events: sign-ups (who asked to play, in order, and what the director decided)
//! and seasons (the events whose results make one standings, and its final).

use tournament::signup::{Act, Line, Rules as SignUpRules};

use crate::{EventId, Result};

/// Where an event made from a sign-up is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// At a venue, with score entry.
    Live,
    /// At tables of online play.
    Online,
}

impl EventKind {
    /// The word kept in the database and shown in forms.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Live => "live",
            EventKind::Online => "online",
        }
    }

    /// Reads [`as_str`](Self::as_str).
    pub fn parse(s: &str) -> Option<EventKind> {
        match s {
            "live" => Some(EventKind::Live),
            "online" => Some(EventKind::Online),
            _ => None,
        }
    }
}

/// A sign-up as the director opens it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSignUp {
    /// The event's name.
    pub name: String,
    /// Live or online.
    pub kind: EventKind,
    /// The cap and whether sign-ups wait for approval.
    pub rules: SignUpRules,
    /// Sign-ups close at this time (seconds since 1970, UTC).
    pub deadline: i64,
    /// What players should know (place, date, fee), shown on the public page.
    pub note: String,
}

/// A sign-up as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignUp {
    /// Its number.
    pub id: i64,
    /// What the director opened.
    pub spec: NewSignUp,
    /// The event made from it, once made.
    pub event: Option<EventId>,
}

/// What a season's part is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// A challenge (its number).
    Challenge,
    /// An event of the director's app, live or online (its number).
    Event,
}

impl PartKind {
    /// The word kept in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            PartKind::Challenge => "challenge",
            PartKind::Event => "event",
        }
    }

    /// Reads [`as_str`](Self::as_str).
    pub fn parse(s: &str) -> Option<PartKind> {
        match s {
            "challenge" => Some(PartKind::Challenge),
            "event" => Some(PartKind::Event),
            _ => None,
        }
    }
}

/// A season as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Season {
    /// Its number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// How many results count and how they are measured.
    pub rules: tournament::season::Rules,
    /// How many of the top of the standings are seeded into the final.
    pub final_k: u32,
    /// Its parts in order: what and which.
    pub parts: Vec<(PartKind, i64)>,
    /// The final, once made.
    pub final_event: Option<EventId>,
}

/// Sign-ups and seasons.
pub trait SeasonStore {
    /// Opens a sign-up; its number.
    ///
    /// One transaction, with its audit line.
    fn create_signup(&self, s: &NewSignUp, who: &str) -> Result<i64>;

    /// Every sign-up, newest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn signups(&self) -> Result<Vec<SignUp>>;

    /// One sign-up.
    ///
    /// A read: it sees what committed transactions wrote.
    fn signup(&self, id: i64) -> Result<SignUp>;

    /// What was done to a sign-up, in order.
    ///
    /// A read: it sees what committed transactions wrote.
    fn signup_acts(&self, id: i64) -> Result<Vec<Act>>;

    /// Does one more thing to a sign-up and gives the list it makes: refused when the act
    /// cannot be done (named), when the event is made already, and for a person's sign-up
    /// (to play or to stand by) after the deadline (`now`, seconds since 1970).
    ///
    /// One transaction, with its audit line: two acts at once are taken one after the other.
    fn add_signup_act(&self, id: i64, act: &Act, now: i64, who: &str) -> Result<Vec<Line>>;

    /// Notes the event made from a sign-up; a sign-up makes one event.
    ///
    /// One transaction, with its audit line.
    fn signup_made(&self, id: i64, event: EventId, who: &str) -> Result<()>;

    /// Makes a season; its number.
    ///
    /// One transaction, with its audit line.
    fn create_season(&self, s: &Season, who: &str) -> Result<i64>;

    /// Every season, newest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn seasons(&self) -> Result<Vec<Season>>;

    /// One season with its parts.
    ///
    /// A read: it sees what committed transactions wrote.
    fn season(&self, id: i64) -> Result<Season>;

    /// Adds a part at the end of a season.
    ///
    /// One transaction, with its audit line.
    fn add_season_part(&self, id: i64, kind: PartKind, of: i64, who: &str) -> Result<()>;

    /// Notes a season's final; a season has one.
    ///
    /// One transaction, with its audit line.
    fn set_season_final(&self, id: i64, event: EventId, who: &str) -> Result<()>;
}
