//! Why a table refuses a person's request or a journal entry: one kind per reason, so a
//! caller can tell them apart; `Display` gives the words the player reads.

use std::fmt;

use table::deal::DealError;
use table::{Action, IllegalAction};

/// A request or journal entry the table does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Sitting at a place the table keeps for a bot (or one past the fourth).
    NotAPersonsPlace,
    /// Sitting down twice.
    AlreadySeated,
    /// Sitting where somebody sits.
    PlaceTaken,
    /// A move from someone watching, not signed in.
    Watching,
    /// Hints asked for at a table that counts (the page says why too).
    HintsOff,
    /// A move or a request from someone not at the table.
    NotSeated,
    /// A move after the table's time ran out.
    TimeUp,
    /// A move before the first hand.
    NotStarted,
    /// A move after the hand ended.
    HandOver,
    /// A move when nothing is asked of the player.
    NotYourTurn,
    /// A move for a decision later than the one asked (`step`; `asked` is asked).
    Ahead {
        /// The decision the move was for.
        step: u64,
        /// The decision asked now.
        asked: u64,
    },
    /// A move for a decision already past.
    Behind {
        /// The decision the move was for.
        step: u64,
        /// The decision asked now.
        asked: u64,
    },
    /// A move the rules do not allow now.
    NotAllowed(Action),
    /// Asking for the next hand while a hand is in play or the table is over.
    NoNextHand,
    /// A journal's stand-in at a place (0–3) that is not a person's.
    PlaceNotAPersons(usize),
    /// A journal's hand (0-based) started out of order.
    OutOfOrder(usize),
    /// Ending a table that is over.
    TableOver,
    /// A journal entry for a hand that is not in play.
    HandNotInPlay,
    /// A journal's move with no hand in play.
    NoHandInPlay,
    /// A duplicate table's hand (0-based) past its deals.
    NoDeal(usize),
    /// A regular game's hand after the game ended.
    GameOver,
    /// The engine did not take a journal's move.
    Illegal(IllegalAction),
    /// The engine did not take a hand's deal or rules.
    Deal(DealError),
    /// A stamp not in the table's set (its id, cut short).
    NoSuchStamp(String),
    /// Stamps sent too fast: seconds until the next may be.
    StampsTooFast(u64),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAPersonsPlace => f.write_str("that place is not for a person"),
            Refusal::AlreadySeated => f.write_str("you already sit at this table"),
            Refusal::PlaceTaken => f.write_str("somebody already sits there"),
            Refusal::Watching => f.write_str("sign in to play (you are watching)"),
            Refusal::HintsOff => f.write_str(
                "hints are off at a rated table: its result is compared and rated, so it must be your own play (open a practice table for hints)",
            ),
            Refusal::NotSeated => f.write_str("you do not sit at this table"),
            Refusal::TimeUp => f.write_str("time is up at this table"),
            Refusal::NotStarted => f.write_str("the hand has not started"),
            Refusal::HandOver => f.write_str("the hand is over"),
            Refusal::NotYourTurn => f.write_str("it is not your turn to decide"),
            Refusal::Ahead { step, asked } => write!(
                f,
                "that move is for a decision not asked yet (number {step}; this one is {asked})"
            ),
            Refusal::Behind { step, asked } => write!(
                f,
                "that move was for an earlier decision (number {step}; this one is {asked})"
            ),
            Refusal::NotAllowed(action) => write!(f, "{action} is not allowed now"),
            Refusal::NoNextHand => f.write_str("there is no next hand to start now"),
            Refusal::PlaceNotAPersons(place) => write!(f, "place {place} is not a person's"),
            Refusal::OutOfOrder(hand) => write!(f, "hand {} started out of order", hand + 1),
            Refusal::TableOver => f.write_str("the table is over already"),
            Refusal::HandNotInPlay => f.write_str("that hand is not in play"),
            Refusal::NoHandInPlay => f.write_str("no hand is in play"),
            Refusal::NoDeal(hand) => write!(f, "there is no deal {}", hand + 1),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::Illegal(e) => e.fmt(f),
            Refusal::Deal(e) => e.fmt(f),
            Refusal::NoSuchStamp(id) => write!(f, "stamp: there is no stamp '{id}'"),
            Refusal::StampsTooFast(s) => {
                write!(f, "stamps: a few a minute at most; the next in {s} s")
            }
        }
    }
}

impl std::error::Error for Refusal {}
