//! Regular (non-duplicate) MCR sessions, for events that mix both formats: game scores
//! from regular payments, and table points per game.

use std::collections::BTreeMap;

use table::points::{match_points, Settlement};
use table::rules::Payments;

use crate::tablepoints::table_points;

/// One game of regular MCR: the four players by seat and its hands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The four players, by seat in the first hand.
    pub players: [u32; 4],
    /// What each hand settled.
    pub hands: Vec<Settlement>,
}

/// A game's score for each seat: the sum of regular payments over its hands.
pub fn game_scores(g: &Game) -> [i64; 4] {
    let mut s = [0i64; 4];
    for h in &g.hands {
        for (total, p) in s.iter_mut().zip(match_points(h, Payments::Regular)) {
            *total += p as i64;
        }
    }
    s
}

/// Per player over several games: (table points, game score), ranked by table points
/// then score (S4: the regular points break ties in table points).
pub fn session(games: &[Game]) -> Vec<(u32, f64, i64)> {
    let mut totals: BTreeMap<u32, (f64, i64)> = BTreeMap::new();
    for g in games {
        let scores = game_scores(g);
        let points = table_points(scores);
        for i in 0..4 {
            let t = totals.entry(g.players[i]).or_default();
            t.0 += points[i];
            t.1 += scores[i];
        }
    }
    let mut out: Vec<(u32, f64, i64)> = totals.into_iter().map(|(p, (tp, s))| (p, tp, s)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcr::Wind::*;

    #[test]
    fn regular_games_and_table_points() {
        let g1 = Game {
            players: [1, 2, 3, 4],
            hands: vec![
                // South self-drawn 8: each pays 16.
                Settlement::SelfDrawn {
                    winner: South,
                    value: 8,
                },
                // East wins 10 on West's discard: West pays 18, the others 8.
                Settlement::Discard {
                    discarder: West,
                    winners: vec![(East, 10)],
                },
            ],
        };
        assert_eq!(game_scores(&g1), [34 - 16, 48 - 8, -16 - 18, -16 - 8]);
        let g2 = Game {
            players: [4, 3, 2, 1],
            hands: vec![Settlement::Draw],
        };
        let s = session(&[g1, g2]);
        // Game 1 ranks 2, 1, 4, 3 → 4, 2, 0, 1; game 2 all tie → 1.75 each.
        assert_eq!(s[0], (2, 4.0 + 1.75, 40));
        assert_eq!(s[1], (1, 2.0 + 1.75, 18));
        assert_eq!(s[2], (4, 1.0 + 1.75, -24));
        assert_eq!(s[3], (3, 0.0 + 1.75, -34));
    }
}
