//! Training: drills from one's own hands and drills that need no history, brought back by
//! a spaced-repetition schedule, a set for each day and a problem of the day shared by
//! everyone.
//!
//! - [`mine`]: positions from a person's reviewed hands (costly mistakes, the field's
//!   splits), answered with the expert's candidates, the move played and the field;
//! - [`fans`]: random winning hands, "how many points, which fans?";
//! - [`routes`]: a hand after a draw, "which discard keeps a route to 8 points?";
//! - [`schedule`]: SuperMemo 2; [`position()`]: a decision as its seat saw it;
//! - [`daily`]: the day's set, the problem of the day, answering and keeping answers.

pub mod daily;
pub mod fans;
pub mod mine;
pub mod position;
pub mod routes;
pub mod schedule;

pub use position::{position, Position};
pub use schedule::{Card, MIN_EASE, START_EASE};

use std::fmt;

use crate::PlayError;

/// A drill, as kept and as the page names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrillKey {
    /// Decision `at` (0-based) of hand `hand` of table `table`, one's own.
    Play {
        /// The table.
        table: i64,
        /// The hand's number at the table (1-based).
        hand: u32,
        /// The decision.
        at: usize,
    },
    /// The fan drill of a seed.
    Fan(u64),
    /// The route drill of a seed.
    Route(u64),
    /// The problem of a day (days since 1970, UTC).
    Day(i64),
}

impl fmt::Display for DrillKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrillKey::Play { table, hand, at } => write!(f, "play:{table}:{hand}:{at}"),
            DrillKey::Fan(s) => write!(f, "fan:{s}"),
            DrillKey::Route(s) => write!(f, "route:{s}"),
            DrillKey::Day(d) => write!(f, "day:{d}"),
        }
    }
}

impl DrillKey {
    /// Reads a drill's name (`play:T:H:A`, `fan:S`, `route:S`, `day:D`).
    pub fn parse(s: &str) -> Result<DrillKey, PlayError> {
        let bad = || {
            PlayError::Invalid(format!(
                "drill: '{}' is not play:TABLE:HAND:MOVE, fan:SEED, route:SEED or day:DAY",
                s.chars().take(40).collect::<String>()
            ))
        };
        let parts: Vec<&str> = s.split(':').collect();
        let num = |x: &str| x.parse::<u64>().map_err(|_| bad());
        Ok(match parts.as_slice() {
            ["play", t, h, a] => DrillKey::Play {
                table: num(t)? as i64,
                hand: u32::try_from(num(h)?).map_err(|_| bad())?,
                at: num(a)? as usize,
            },
            ["fan", x] => DrillKey::Fan(num(x)?),
            ["route", x] => DrillKey::Route(num(x)?),
            ["day", x] => DrillKey::Day(num(x)? as i64),
            _ => return Err(bad()),
        })
    }

    /// The kind, as the page names it.
    pub fn kind(&self) -> &'static str {
        match self {
            DrillKey::Play { .. } => "play",
            DrillKey::Fan(_) => "fan",
            DrillKey::Route(_) => "route",
            DrillKey::Day(_) => "day",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_bad_ones_say_why() {
        for k in [
            DrillKey::Play {
                table: 3,
                hand: 2,
                at: 41,
            },
            DrillKey::Fan(7),
            DrillKey::Route(u64::MAX),
            DrillKey::Day(20_000),
        ] {
            assert_eq!(DrillKey::parse(&k.to_string()).unwrap(), k);
        }
        for bad in ["", "fan", "fan:x", "play:1:2", "chess:1", "fan:-1"] {
            let e = DrillKey::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("drill: "), "{bad}: {e}");
        }
    }
}
