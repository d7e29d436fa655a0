//! The spaced-repetition schedule that brings a drill back: SuperMemo 2 (P. A. Woźniak,
//! 1990) with its published constants. An easy factor starts at 2.5, changes after each
//! right answer by `0.1 − (5 − q)(0.08 + (5 − q)·0.02)` and never goes below 1.3;
//! intervals are 1 day, 6 days, then the last times the factor; an answer graded under 3
//! starts the intervals again and leaves the factor as it was (the method's step 6).

use serde::{Deserialize, Serialize};

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

impl Card {
    /// The card as kept for a person (the factor in thousandths).
    pub fn of(c: &store::DrillCard) -> Card {
        Card {
            streak: c.streak,
            interval_days: c.interval_days,
            ease: c.ease_milli as f64 / 1000.0,
        }
    }

    /// `kept` after an answer graded `q` on `day`: the new schedule, due `day` plus the
    /// interval, the answer counted.
    pub fn after(kept: &store::DrillCard, q: u8, day: i64) -> store::DrillCard {
        let c = Card::of(kept).answered(q);
        store::DrillCard {
            due_day: day + c.interval_days as i64,
            streak: c.streak,
            interval_days: c.interval_days,
            ease_milli: (c.ease * 1000.0).round() as i64,
            answered: kept.answered + 1,
            right: kept.right + u32::from(q >= 3),
            ..kept.clone()
        }
    }
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

    /// A kept card moves by the same schedule, from the day answered.
    #[test]
    fn a_kept_card_comes_back_on_its_day() {
        let kept = store::DrillCard {
            drill: "fan:1".into(),
            added_day: 10,
            due_day: 10,
            streak: 0,
            interval_days: 0,
            ease_milli: 2500,
            answered: 0,
            right: 0,
        };
        let a = Card::after(&kept, 5, 10);
        assert_eq!(
            (a.due_day, a.streak, a.ease_milli, a.answered, a.right),
            (11, 1, 2600, 1, 1)
        );
        let b = Card::after(&a, 5, 11);
        assert_eq!((b.due_day, b.interval_days, b.ease_milli), (17, 6, 2700));
        let c = Card::after(&b, 5, 17);
        assert_eq!((c.due_day, c.interval_days), (33, 16));
        let wrong = Card::after(&c, 1, 33);
        assert_eq!(
            (wrong.due_day, wrong.streak, wrong.ease_milli, wrong.right),
            (34, 0, 2800, 3)
        );
    }
}
