//! What a seat's own discards say of the hand it holds now, read as strong plays. Strong
//! throws its least useful tile: the one leaving the hand nearest a route, and among
//! those the least connected, by acceptance. Put a discard back into the hand held now
//! and, for strong's own seats, strong would throw that very tile again nine times in
//! ten even several turns later (`how_strong_would_have_thrown`, docs/expert-belief.md);
//! in the chains' worlds only a third to a half of the time, as a dealt hand keeps loose
//! tiles a real one would have thrown first. The chains weigh each world's hand by that
//! rank of each of its seat's latest discards ([`crate::expert::THROWS`]).

use mcr::tile::Counts;
use mcr::{Meld, Tile, Wind};
use table::engine::View;

use super::{age, AGES};
use crate::strong::{PlanBot, Seat};

/// Ranks of a discard: strong's choice, as near a route as it, one tile worse, two or
/// more (or not held at all).
pub const RANKS: usize = 4;

/// Seats' latest discards and how to weigh their ranks.
pub struct Throws {
    /// By seat: its discards, latest first, as many as read.
    thrown: [Vec<Tile>; 4],
    /// Log weights by age and rank.
    weights: [[f64; RANKS]; AGES],
    /// Tiles everyone sees (discards, open sets).
    public: Counts,
    prevalent: Wind,
    flowers: [u8; 4],
    plan: PlanBot,
}

impl Throws {
    /// The latest `depth` discards of each seat in `view`, weighed by `weights`.
    pub fn of(
        view: &View,
        depth: usize,
        weights: [[f64; RANKS]; AGES],
        rules: &mcr::Rules,
    ) -> Throws {
        let mut plan = PlanBot::strong();
        plan.rules = rules.clone();
        Throws {
            thrown: std::array::from_fn(|s| {
                (view.thrown.iter().rev())
                    .filter(|(w, _)| w.index() == s)
                    .map(|(_, t)| *t)
                    .take(depth)
                    .collect()
            }),
            weights,
            public: crate::strong::public_counts(view),
            prevalent: view.prevalent,
            flowers: std::array::from_fn(|s| view.bonus[s].len() as u8),
            plan,
        }
    }

    /// The rank of each of seat `s`'s latest discards for the hand `c` beside `sets`.
    pub fn ranks(&self, s: usize, c: &Counts, sets: &[Meld]) -> Vec<usize> {
        let live: [u8; mcr::tile::KINDS] =
            std::array::from_fn(|i| 4u8.saturating_sub(c[i] + self.public[i]));
        let mut seat = Seat {
            conc: *c,
            melds: sets.to_vec(),
            live,
            seat: Wind::from_index(s),
            prevalent: self.prevalent,
            flowers: self.flowers[s],
        };
        self.thrown[s]
            .iter()
            .map(|d| {
                let i = d.index();
                seat.conc[i] += 1;
                let r = self.plan.throw_rank(&seat, i);
                seat.conc[i] -= 1;
                r
            })
            .collect()
    }

    /// The log weight of seat `s` holding `c` beside `sets`.
    pub(super) fn weight(&self, s: usize, c: &Counts, sets: &[Meld]) -> f64 {
        (self.ranks(s, c, sets).into_iter().enumerate())
            .map(|(back, r)| self.weights[age(back)][r])
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::counts;

    /// A seat holding `tiles` (fourteen), nothing on the table.
    fn seat(tiles: &str) -> Seat {
        let conc = counts(&mcr::parse_tiles(tiles).unwrap());
        Seat {
            conc,
            melds: Vec::new(),
            live: std::array::from_fn(|i| 4 - conc[i]),
            seat: Wind::South,
            prevalent: Wind::East,
            flowers: 0,
        }
    }

    fn index(tile: &str) -> usize {
        mcr::parse_tiles(tile).unwrap()[0].index()
    }

    /// Holding a Pure Straight, a pair, 45s and a loose East: throwing East leaves the
    /// hand ready (on 3s and 6s), so strong throws it (rank 0); throwing 5m or 1p leaves
    /// it a tile from ready (East to exchange for the tile given up: rank 2); a tile not
    /// held ranks last (3). With two loose honours beside 4s, each of the three leaves
    /// the hand a tile from ready (4s: a pair of either honour to make, for a wait on two
    /// pairs): one is strong's choice, the other two tied with it (rank 1).
    #[test]
    fn a_discard_is_ranked_against_strongs_own_choice() {
        let plan = PlanBot::strong();
        let s = seat("123456789m11p45sE");
        assert_eq!(plan.throw_rank(&s, index("E")), 0);
        assert_eq!(plan.throw_rank(&s, index("5m")), 2);
        assert_eq!(plan.throw_rank(&s, index("1p")), 2);
        assert_eq!(plan.throw_rank(&s, index("9p")), 3);
        let s = seat("123456789m11p4sEW");
        let mut ranks = ["E", "W", "4s"].map(|t| plan.throw_rank(&s, index(t)));
        ranks.sort();
        assert_eq!(ranks, [0, 1, 1]);
    }
}
