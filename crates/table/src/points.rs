//! Match points of one hand (rules §4).

use mcr::Wind;

use crate::rules::Payments;

/// Lower bounds of |DIF| for 1, 2, … 20 IMP (rules §5).
pub const IMP_BRACKETS: [i64; 20] = [
    2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296,
];

/// IMP of the exact difference `num / den` (den > 0): integer comparisons only, so a
/// difference of exactly 2, 6, 10 … lands in the upper bracket.
pub fn imp_of_dif(num: i64, den: i64) -> i32 {
    let a = num.abs();
    let imp = IMP_BRACKETS.iter().take_while(|&&b| a >= b * den).count() as i32;
    if num < 0 {
        -imp
    } else {
        imp
    }
}

/// How a hand ended, for payment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settlement {
    /// Nobody won.
    Draw,
    /// A win from the wall.
    SelfDrawn {
        /// Who won.
        winner: Wind,
        /// The hand's value in points.
        value: u32,
    },
    /// One or more winners on one discard (or robbed kong); values in the same order.
    Discard {
        /// Who discarded (or promoted the robbed kong).
        discarder: Wind,
        /// Each winner with their hand's value.
        winners: Vec<(Wind, u32)>,
    },
}

/// Each seat's match points (E, S, W, N).
pub fn match_points(s: &Settlement, payments: Payments) -> [i32; 4] {
    let mut p = [0i32; 4];
    match s {
        Settlement::Draw => {}
        Settlement::SelfDrawn { winner, value } => {
            let hv = *value as i32;
            let each = match payments {
                Payments::Duplicate => (hv + 2) / 3 + 8,
                Payments::Regular => hv + 8,
            };
            for w in Wind::ALL {
                if w != *winner {
                    p[w.index()] -= each;
                }
            }
            p[winner.index()] += match payments {
                Payments::Duplicate => hv + 24,
                Payments::Regular => 3 * each,
            };
        }
        Settlement::Discard { discarder, winners } => {
            for &(w, value) in winners {
                let hv = value as i32;
                for o in Wind::ALL {
                    if o == w {
                        continue;
                    }
                    let pay = if o == *discarder { hv + 8 } else { 8 };
                    p[o.index()] -= pay;
                    p[w.index()] += pay;
                }
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use Wind::*;

    #[test]
    fn seeds_examples() {
        // S0 Rule 1: HV 9 → +33/−11; HV 10 → +34/−12.
        let s = Settlement::SelfDrawn {
            winner: South,
            value: 9,
        };
        assert_eq!(match_points(&s, Payments::Duplicate), [-11, 33, -11, -11]);
        let s = Settlement::SelfDrawn {
            winner: East,
            value: 10,
        };
        assert_eq!(match_points(&s, Payments::Duplicate), [34, -12, -12, -12]);
        // Rule 2: A discards, B wins 20 and C wins 10 → −46, +36, +26, −16.
        let s = Settlement::Discard {
            discarder: East,
            winners: vec![(South, 20), (West, 10)],
        };
        assert_eq!(match_points(&s, Payments::Duplicate), [-46, 36, 26, -16]);
        assert_eq!(match_points(&Settlement::Draw, Payments::Duplicate), [0; 4]);
    }

    #[test]
    fn regular_mcr() {
        let s = Settlement::SelfDrawn {
            winner: North,
            value: 8,
        };
        assert_eq!(match_points(&s, Payments::Regular), [-16, -16, -16, 48]);
        let s = Settlement::Discard {
            discarder: West,
            winners: vec![(East, 12)],
        };
        assert_eq!(match_points(&s, Payments::Regular), [36, -8, -20, -8]);
    }
}
