//! A season's standings: several events (challenges, online and live events), of which each
//! player's best N results count, measured as total IMP or as IMP per hand. Ties are broken
//! as rules §5 breaks them within an event: by the match points of the results that count;
//! still equal, the same rank. A result a player does not have counts as nothing.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// How a result is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The event's total IMP.
    Total,
    /// The event's IMP divided by the hands played (events of different lengths weigh the
    /// same).
    PerHand,
}

/// How a season counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// How many results of each player count (the best ones).
    pub best: u32,
    /// How each result is measured.
    pub measure: Measure,
}

/// One player's result in one event of the season.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Result {
    /// The event's place in the season (0-based).
    pub part: usize,
    /// IMP in that event.
    pub imp: i64,
    /// Match points in that event.
    pub ms: i64,
    /// Hands played there.
    pub hands: u32,
}

/// An exact fraction (IMP per hand), kept in lowest terms with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frac {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

impl Frac {
    /// `num / den` (a zero denominator reads as 0).
    pub fn new(num: i64, den: i64) -> Frac {
        if den == 0 {
            return Frac { num: 0, den: 1 };
        }
        let (num, den) = (num as i128 * den.signum() as i128, den.abs() as i128);
        let g = gcd(num, den);
        Frac {
            num: num / g,
            den: den / g,
        }
    }

    fn add(self, o: Frac) -> Frac {
        let g = gcd(self.den, o.den);
        let den = self.den / g * o.den;
        let num = self.num * (den / self.den) + o.num * (den / o.den);
        let g = gcd(num, den);
        Frac {
            num: num / g,
            den: den / g,
        }
    }

    /// The value as a float, for showing (comparisons stay exact).
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl Ord for Frac {
    fn cmp(&self, o: &Frac) -> Ordering {
        (self.num * o.den).cmp(&(o.num * self.den))
    }
}

impl PartialOrd for Frac {
    fn partial_cmp(&self, o: &Frac) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Result {
    /// This result under `m`.
    pub fn measured(&self, m: Measure) -> Frac {
        match m {
            Measure::Total => Frac::new(self.imp, 1),
            Measure::PerHand => Frac::new(self.imp, i64::from(self.hands)),
        }
    }
}

/// A line of a season's standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<K> {
    /// Rank, shared by equal lines.
    pub rank: usize,
    /// Who.
    pub who: K,
    /// The season's figure: the sum of the counted results' measures.
    pub value: Frac,
    /// Match points of the counted results (the tie-break).
    pub ms: i64,
    /// Every result, in season order.
    pub results: Vec<Result>,
    /// The parts whose results count.
    pub counted: Vec<usize>,
}

/// The season's standings of `players` (each with their results, any order).
pub fn standings<K: Clone + Ord>(rules: &Rules, players: &[(K, Vec<Result>)]) -> Vec<Line<K>> {
    let mut lines: Vec<Line<K>> = players
        .iter()
        .map(|(who, results)| {
            let mut results = results.clone();
            results.sort_by_key(|r| r.part);
            let mut best: Vec<&Result> = results.iter().collect();
            // The best first; equal measures by match points, then the earlier event.
            best.sort_by(|a, b| {
                b.measured(rules.measure)
                    .cmp(&a.measured(rules.measure))
                    .then(b.ms.cmp(&a.ms))
                    .then(a.part.cmp(&b.part))
            });
            best.truncate(rules.best as usize);
            let value = best
                .iter()
                .fold(Frac::new(0, 1), |v, r| v.add(r.measured(rules.measure)));
            let ms = best.iter().map(|r| r.ms).sum();
            let mut counted: Vec<usize> = best.iter().map(|r| r.part).collect();
            counted.sort_unstable();
            Line {
                rank: 0,
                who: who.clone(),
                value,
                ms,
                results,
                counted,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        b.value
            .cmp(&a.value)
            .then(b.ms.cmp(&a.ms))
            .then(a.who.cmp(&b.who))
    });
    let ranks = crate::rank::shared(&lines, |l| (l.value, l.ms));
    for (l, r) in lines.iter_mut().zip(ranks) {
        l.rank = r;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(part: usize, imp: i64, ms: i64, hands: u32) -> Result {
        Result {
            part,
            imp,
            ms,
            hands,
        }
    }

    #[test]
    fn the_best_two_of_four_by_total_and_by_hand() {
        let players = vec![
            (
                "ann",
                vec![
                    r(0, 10, 50, 8),
                    r(1, -4, -10, 8),
                    r(2, 6, 20, 4),
                    r(3, 12, 30, 20),
                ],
            ),
            ("bob", vec![r(0, 15, 60, 8), r(3, 8, 10, 20)]),
            ("cat", vec![r(1, 30, 90, 8)]),
        ];
        let total = standings(
            &Rules {
                best: 2,
                measure: Measure::Total,
            },
            &players,
        );
        // ann: 12 + 10 = 22 (parts 0 and 3); bob: 15 + 8 = 23; cat: 30 alone.
        let got: Vec<(&str, f64, Vec<usize>)> = total
            .iter()
            .map(|l| (l.who, l.value.value(), l.counted.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("cat", 30.0, vec![1]),
                ("bob", 23.0, vec![0, 3]),
                ("ann", 22.0, vec![0, 3])
            ]
        );
        let per_hand = standings(
            &Rules {
                best: 2,
                measure: Measure::PerHand,
            },
            &players,
        );
        // ann: 6/4 + 10/8 = 2.75 (parts 0 and 2); bob: 15/8 + 8/20 = 2.275; cat: 30/8 = 3.75.
        let got: Vec<(&str, Frac, Vec<usize>)> = per_hand
            .iter()
            .map(|l| (l.who, l.value, l.counted.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("cat", Frac::new(15, 4), vec![1]),
                ("ann", Frac::new(11, 4), vec![0, 2]),
                ("bob", Frac::new(91, 40), vec![0, 3])
            ]
        );
    }

    #[test]
    fn ties_go_to_match_points_then_share_the_rank() {
        let players = vec![
            ("a", vec![r(0, 5, 10, 4)]),
            ("b", vec![r(0, 5, 12, 4)]),
            ("c", vec![r(0, 5, 10, 4)]),
        ];
        let st = standings(
            &Rules {
                best: 1,
                measure: Measure::Total,
            },
            &players,
        );
        let got: Vec<(&str, usize)> = st.iter().map(|l| (l.who, l.rank)).collect();
        assert_eq!(got, [("b", 1), ("a", 2), ("c", 2)]);
        // Exact: 1/3 + 1/3 + 1/3 is 1, not a float short of it.
        assert_eq!(
            Frac::new(1, 3).add(Frac::new(1, 3)).add(Frac::new(1, 3)),
            Frac::new(1, 1)
        );
    }
}
