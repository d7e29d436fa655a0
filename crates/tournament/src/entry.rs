//! What a table reports for one deal: how the hand ended and any false Hu, checked and
//! turned into match points (rules §4).

use mcr::Wind;
use serde::{Deserialize, Serialize};
use table::points::{match_points, Settlement};
use table::rules::Payments;

/// The smallest winning value (the 8-point minimum).
pub const MIN_VALUE: u32 = 8;
/// A value no hand reaches (88 × several fans still stays far below).
pub const MAX_VALUE: u32 = 1000;

/// How the hand ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// Nobody won.
    Draw,
    /// A win from the wall.
    SelfDrawn {
        /// Who won.
        winner: Wind,
        /// The hand's value in points.
        value: u32,
    },
    /// One or more winners on one discard (or a robbed kong).
    Discard {
        /// Who discarded the winning tile.
        discarder: Wind,
        /// Each winner with the value of their hand.
        winners: Vec<(Wind, u32)>,
    },
}

/// A table's report of one deal. Seats are the winds of the deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreEntry {
    /// How the hand ended.
    pub outcome: Outcome,
    /// Seats that declared a false Hu during the hand (penalised in the standings).
    #[serde(default)]
    pub false_hu: Vec<Wind>,
}

/// Why an entry cannot be right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryError(pub String);

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EntryError {}

fn check_value(w: Wind, v: u32) -> Result<(), EntryError> {
    if v < MIN_VALUE {
        return Err(EntryError(format!(
            "{} seat: a win is worth at least {MIN_VALUE} points, not {v}",
            w.letter()
        )));
    }
    if v > MAX_VALUE {
        return Err(EntryError(format!(
            "{} seat: {v} points is not a possible hand value",
            w.letter()
        )));
    }
    Ok(())
}

impl ScoreEntry {
    /// Checks the entry: values of at least 8, a discarder who is not a winner, each winner
    /// once, each false Hu once.
    pub fn check(&self) -> Result<(), EntryError> {
        match &self.outcome {
            Outcome::Draw => {}
            Outcome::SelfDrawn { winner, value } => check_value(*winner, *value)?,
            Outcome::Discard { discarder, winners } => {
                if winners.is_empty() {
                    return Err(EntryError("a win on a discard needs a winner".into()));
                }
                for (i, (w, v)) in winners.iter().enumerate() {
                    if w == discarder {
                        return Err(EntryError(format!(
                            "{} seat is both the discarder and a winner",
                            w.letter()
                        )));
                    }
                    if winners[..i].iter().any(|(o, _)| o == w) {
                        return Err(EntryError(format!(
                            "{} seat is entered twice as a winner",
                            w.letter()
                        )));
                    }
                    check_value(*w, *v)?;
                }
            }
        }
        for (i, w) in self.false_hu.iter().enumerate() {
            if self.false_hu[..i].contains(w) {
                return Err(EntryError(format!(
                    "{} seat has two false Hu entries",
                    w.letter()
                )));
            }
        }
        Ok(())
    }

    /// Match points by seat (E, S, W, N) for the hand itself; false Hu penalties are
    /// applied in the standings.
    pub fn match_points(&self) -> Result<[i32; 4], EntryError> {
        self.check()?;
        let s = match &self.outcome {
            Outcome::Draw => Settlement::Draw,
            Outcome::SelfDrawn { winner, value } => Settlement::SelfDrawn {
                winner: *winner,
                value: *value,
            },
            Outcome::Discard { discarder, winners } => Settlement::Discard {
                discarder: *discarder,
                winners: winners.clone(),
            },
        };
        Ok(match_points(&s, Payments::Duplicate))
    }

    /// One line for tables and the audit trail, e.g. `S wins 12 on W's discard`.
    pub fn describe(&self) -> String {
        let mut s = match &self.outcome {
            Outcome::Draw => "draw".to_string(),
            Outcome::SelfDrawn { winner, value } => {
                format!("{} self-drawn {value}", winner.letter())
            }
            Outcome::Discard { discarder, winners } => {
                let ws: Vec<String> = winners
                    .iter()
                    .map(|(w, v)| format!("{} {v}", w.letter()))
                    .collect();
                format!("{} on {}'s discard", ws.join(", "), discarder.letter())
            }
        };
        for w in &self.false_hu {
            s.push_str(&format!("; false Hu {}", w.letter()));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Wind::*;

    fn entry(outcome: Outcome) -> ScoreEntry {
        ScoreEntry {
            outcome,
            false_hu: vec![],
        }
    }

    #[test]
    fn match_points_follow_spec_4() {
        // Self-drawn 12: winner 12 + 24 = 36, others −(⌈12/3⌉ + 8) = −12.
        let e = entry(Outcome::SelfDrawn {
            winner: South,
            value: 12,
        });
        assert_eq!(e.match_points(), Ok([-12, 36, -12, -12]));
        // On a discard, 10: winner 10 + 24 = 34, discarder −(10 + 8) − 8·2... rules §4: the
        // discarder pays HV + 8, the others 8 each.
        let e = entry(Outcome::Discard {
            discarder: East,
            winners: vec![(West, 10)],
        });
        assert_eq!(e.match_points(), Ok([-18, -8, 34, -8]));
        assert_eq!(entry(Outcome::Draw).match_points(), Ok([0; 4]));
    }

    #[test]
    fn impossible_entries_are_refused_with_the_seat() {
        let low = entry(Outcome::SelfDrawn {
            winner: North,
            value: 7,
        });
        assert!(low.check().unwrap_err().0.contains("N seat"));
        let both = entry(Outcome::Discard {
            discarder: East,
            winners: vec![(East, 8)],
        });
        assert!(both.check().unwrap_err().0.contains("both the discarder"));
        let twice = entry(Outcome::Discard {
            discarder: East,
            winners: vec![(South, 8), (South, 9)],
        });
        assert!(twice.check().unwrap_err().0.contains("twice"));
        let none = entry(Outcome::Discard {
            discarder: East,
            winners: vec![],
        });
        assert!(none.check().is_err());
    }
}
