//! Drills from one's own hands (groundwork): the position of a decision as the player saw
//! it then, and the spaced-repetition schedule that brings a position back.
//!
//! The schedule is SuperMemo 2 (P. A. Woźniak, 1990) with its published constants: an easy
//! factor starting at 2.5, changed after each right answer by `0.1 − (5 − q)(0.08 +
//! (5 − q)·0.02)` and never below 1.3; intervals of 1 day, 6 days, then the last times the
//! factor; an answer graded under 3 starts the intervals again and leaves the factor as it
//! was (the method's step 6).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use table::engine::{Action, Decision};
use table::log::{start_of, HandLog};

use crate::view::{board, Eye};
use crate::PlayError;

/// Where one drill stands for one player.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// Right answers in a row (SM-2's repetition number).
    pub streak: u32,
    /// Days until it comes back.
    pub interval_days: u32,
    /// The easy factor.
    pub ease: f64,
}

/// The easy factor of a new card.
pub const START_EASE: f64 = 2.5;
/// The easy factor never goes below this.
pub const MIN_EASE: f64 = 1.3;

impl Default for Card {
    fn default() -> Card {
        Card {
            streak: 0,
            interval_days: 0,
            ease: START_EASE,
        }
    }
}

impl Card {
    /// The card after an answer graded `q` (0 to 5; 3 and up is right): when it comes back
    /// and its new factor. The interval grows by the factor the card had before this answer.
    pub fn answered(self, q: u8) -> Card {
        let q = q.min(5);
        if q < 3 {
            return Card {
                streak: 0,
                interval_days: 1,
                ease: self.ease,
            };
        }
        let interval_days = match self.streak {
            0 => 1,
            1 => 6,
            _ => (self.interval_days as f64 * self.ease).round() as u32,
        };
        let d = (5 - q) as f64;
        Card {
            streak: self.streak + 1,
            interval_days,
            ease: (self.ease + 0.1 - d * (0.08 + d * 0.02)).max(MIN_EASE),
        }
    }
}

/// A decision as the player saw it: their seat, the board as their seat saw it (their own
/// tiles and everything public, nothing of another hand or the wall), what was asked and
/// what they might do, and what they did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The seat that decided.
    pub seat: mcr::Wind,
    /// The board from that seat ([`crate::view::board`]).
    pub board: Value,
    /// What was asked.
    pub decision: Option<Decision>,
    /// The moves allowed.
    pub legal: Vec<Action>,
    /// The move played.
    pub played: Action,
}

/// The position of the `at`-th move of a hand's log (0-based, as `log.actions` counts).
pub fn position(log: &HandLog, at: usize) -> Result<Position, PlayError> {
    let d = log.actions.get(at).ok_or_else(|| {
        PlayError::Invalid(format!(
            "move {}: the hand has {} moves",
            at + 1,
            log.actions.len()
        ))
    })?;
    let mut table = start_of(log).map_err(|e| PlayError::Internal(e.to_string()))?;
    for earlier in &log.actions[..at] {
        table
            .apply(earlier.seat, earlier.action)
            .map_err(|e| PlayError::Internal(format!("the log does not replay: {e}")))?;
    }
    let view = table.view(d.seat);
    Ok(Position {
        seat: d.seat,
        board: board(&table, Eye::Seat(d.seat)),
        decision: view.decision,
        legal: view.legal.to_vec(),
        played: d.action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand from the method's rules.
    #[test]
    fn sm2_intervals_and_factors() {
        let c = Card::default().answered(5);
        assert_eq!((c.streak, c.interval_days), (1, 1));
        assert!((c.ease - 2.6).abs() < 1e-9);
        let c = c.answered(5);
        assert_eq!(c.interval_days, 6);
        assert!((c.ease - 2.7).abs() < 1e-9);
        // 6 × 2.7 = 16.2 days.
        let c = c.answered(5);
        assert_eq!(c.interval_days, 16);
        assert!((c.ease - 2.8).abs() < 1e-9);
        // Wrong: tomorrow, from the start, the factor kept.
        let c = c.answered(2);
        assert_eq!((c.streak, c.interval_days), (0, 1));
        assert!((c.ease - 2.8).abs() < 1e-9);
        // Graded 4: the factor does not move; graded 3: down by 0.14.
        let c = c.answered(4);
        assert_eq!(c.interval_days, 1);
        assert!((c.ease - 2.8).abs() < 1e-9);
        let c = c.answered(3);
        assert_eq!(c.interval_days, 6);
        assert!((c.ease - 2.66).abs() < 1e-9);
        // Never under 1.3, however hard.
        let mut hard = Card::default();
        for _ in 0..20 {
            hard = hard.answered(3);
        }
        assert!((hard.ease - MIN_EASE).abs() < 1e-9);
    }

    /// A position shows its seat's own tiles and the public facts only, and the move the
    /// log says was played there.
    #[test]
    fn a_position_is_what_its_seat_saw() {
        use table::wall::{Setup, WallModel};
        let setup = Setup::generate(WallModel::Personal, 77);
        let rules = table::rules::TableRules::seeds();
        let mut agents: [Box<dyn agents::agent::Agent + Send>; 4] = std::array::from_fn(|s| {
            agents::registry::builtin("strong", s as u64).expect("a built-in bot")
        });
        let log = agents::drive::play_hand(setup, rules, &mut agents);
        assert!(log.actions.len() > 20);
        for at in [0, 7, log.actions.len() / 2, log.actions.len() - 1] {
            let p = position(&log, at).unwrap();
            assert_eq!(p.seat, log.actions[at].seat);
            assert_eq!(p.played, log.actions[at].action);
            assert!(p.legal.contains(&p.played), "move {at}");
            for (i, s) in p.board["seats"].as_array().unwrap().iter().enumerate() {
                let mine = i == p.seat.index();
                assert_eq!(s.get("hand").is_some(), mine, "move {at}, seat {i}");
            }
        }
        assert!(position(&log, log.actions.len()).is_err());
    }
}
