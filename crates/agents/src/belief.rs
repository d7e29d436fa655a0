//! What the others probably hold, for the search bot's worlds. Dealing the unseen tiles
//! uniformly gives the other seats hands far from ready: real players keep the tiles that
//! help and throw the rest, so by the middle of a hand they are much nearer to ready than
//! a random hand, and their hands lean towards the routes to 8 points that `strong`
//! plans by; and what they threw is seldom a tile they still hold or one next to one. A
//! world is therefore judged by how far each other seat is in it from its nearest route
//! (in tiles to exchange, as `strong` counts) and how that seat's discards stand to the
//! hand it is given, against how `strong`'s seats are at the same point of a hand (tiles
//! left in their wall, sets declared, the age of each discard), measured once by
//! self-play. Importance weights on uniform worlds (the lab's `weigh`) leave 3 or 4 worlds that
//! count out of 48; Markov chains over swaps of hidden tiles ([`settle`]) give as many
//! worlds as asked, all of the belief.
//! Nothing here sees a hidden tile: the measurement is of strong's own games, and the
//! weights read only the sampled worlds and the view.

use mcr::tile::Counts;
use mcr::{Meld, Wind};

use table::engine::{Decision, Table};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::agent::Agent;
use crate::plan;
use crate::strong::PlanBot;

mod chains;
mod history;
mod readiness_data;
mod throws;
pub use chains::{below, live_bucket, live_waits, place_bonus, sets, settle_knowing, shuffle};
pub use chains::{settle, Chains, LIVE};
pub use history::{History, WINDOWS};
pub use throws::{Throws, RANKS};

/// Distances counted: 0 (ready) to `SH - 1` and beyond (the last bucket).
pub const SH: usize = 7;
/// Tiles left in a personal wall: 0 to `WALL - 1` and beyond.
pub const WALL: usize = 32;
/// Hands of self-play measured for [`Readiness::measured`].
pub const HANDS: u64 = 1500;

/// Discards counted by age: the seat's latest, the two before, the three before those,
/// older.
pub const AGES: usize = 4;
/// How a discarded tile stands to a hand: 0 nothing near, 1 a tile two away in its suit,
/// 2 a tile next to it, 3 one copy, 4 two copies or more.
pub const TIES: usize = 5;

/// What strong's seats are like at a point of a hand: how near to ready by tiles left in
/// their wall and sets declared, and how the tiles they threw stand to what they hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readiness {
    /// `counts[wall][melds][shanten]`
    pub counts: [[[u32; SH]; 5]; WALL],
    /// `ties[age][tie]`: each earlier discard of a seat against the hand it holds now.
    pub ties: [[u32; TIES]; AGES],
}

/// The age bucket of the discard `back` places before a seat's latest.
pub fn age(back: usize) -> usize {
    match back {
        0 => 0,
        1..=2 => 1,
        3..=5 => 2,
        _ => 3,
    }
}

/// How tile index `t` stands to the concealed counts `c` (see [`TIES`]): a tile thrown
/// is seldom one the hand still holds or one next to it, since strong throws the least
/// useful tile.
pub fn tie(c: &Counts, t: usize) -> usize {
    match c[t] {
        0 => {}
        1 => return 3,
        _ => return 4,
    }
    if t >= 27 {
        return 0;
    }
    let r = t % 9;
    let held = |d: i32| {
        let j = r as i32 + d;
        (0..9).contains(&j) && c[t - r + j as usize] > 0
    };
    if held(-1) || held(1) {
        2
    } else if held(-2) || held(2) {
        1
    } else {
        0
    }
}

/// Counts of a list of tiles.
pub fn counts(tiles: &[mcr::Tile]) -> Counts {
    let mut c: Counts = [0; mcr::tile::KINDS];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

/// How far a seat is from a winning hand as `strong` counts it: tiles to exchange to the
/// nearest route to 8 points (0: ready), capped at the last bucket.
pub fn near(c: &Counts, melds: &[Meld], seat: Wind, prevalent: Wind) -> usize {
    let shape = plan::Shape {
        conc: c,
        melds,
        seat,
        prevalent,
    };
    plan::best_distance(plan::routes(), &shape).clamp(0, SH as i32 - 1) as usize
}

impl Readiness {
    /// As measured on [`HANDS`] hands ([`Readiness::measure`]) and checked in
    /// (`belief/readiness_data.rs`, written by `lab readiness`), so that no process plays
    /// those hands before its first decision.
    pub fn measured() -> &'static Readiness {
        static R: Readiness = Readiness {
            counts: readiness_data::COUNTS,
            ties: readiness_data::TIES_SEEN,
        };
        &R
    }

    /// Strong at all four seats on the first `hands` of a fixed run of deals (seeds from
    /// `0x5eed_0000`), counted at every turn: a run of fewer hands counts a part of a
    /// longer one's.
    pub fn measure(hands: u64) -> Readiness {
        let mut r = Readiness {
            counts: [[[0; SH]; 5]; WALL],
            ties: [[0; TIES]; AGES],
        };
        let rules = TableRules::seeds();
        for seed in 0..hands {
            let mut t = Table::new(
                Setup::generate(WallModel::Personal, 0x5eed_0000 + seed),
                rules.clone(),
            );
            let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
            while let Some(seat) = t.next_to_act() {
                let view = t.view(seat);
                if matches!(view.decision, Some(Decision::Turn { .. })) {
                    // What every other seat is like while this one decides.
                    for other in Wind::ALL.into_iter().filter(|&w| w != seat) {
                        let o = other.index();
                        let mut c: Counts = [0; mcr::tile::KINDS];
                        for tile in t.concealed(other) {
                            c[tile.index()] += 1;
                        }
                        let melds = t.melds(other);
                        let w = view.wall_left[o].min(WALL - 1);
                        r.counts[w][melds.len().min(4)][near(&c, melds, other, view.prevalent)] +=
                            1;
                        for (back, t) in view.discards[o].iter().rev().enumerate() {
                            r.ties[age(back)][tie(&c, t.index())] += 1;
                        }
                    }
                }
                let a = bots[seat.index()].act(&view);
                if t.apply(seat, a).is_err() {
                    break;
                }
            }
        }
        r
    }

    /// The share of strong's seats at `shanten` with `wall` tiles left and `melds` sets
    /// (smoothed, so that nothing is impossible).
    pub fn share(&self, wall: usize, melds: usize, shanten: usize) -> f64 {
        let row = &self.counts[wall.min(WALL - 1)][melds.min(4)];
        let total: u32 = row.iter().sum();
        (row[shanten.min(SH - 1)] as f64 + 0.5) / (total as f64 + 0.5 * SH as f64)
    }
}

impl Readiness {
    /// The share of strong's discards of age bucket `age` that stand as `tie` to the hand
    /// held now (smoothed).
    pub fn tie_share(&self, age: usize, tie: usize) -> f64 {
        let row = &self.ties[age.min(AGES - 1)];
        let total: u32 = row.iter().sum();
        (row[tie.min(TIES - 1)] as f64 + 0.5) / (total as f64 + 0.5 * TIES as f64)
    }
}

/// The weighted mean of `d` (one difference per world, weights `w`) and its standard
/// error, by the worlds' effective number (Kish's: (Σw)² / Σw²).
pub fn weighted_gain(d: &[f64], w: &[f64]) -> (f64, f64) {
    let total: f64 = w.iter().sum();
    if total <= 0.0 || d.is_empty() {
        return (0.0, f64::INFINITY);
    }
    let mean = d.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() / total;
    let var = d
        .iter()
        .zip(w)
        .map(|(x, w)| w * (x - mean).powi(2))
        .sum::<f64>()
        / total;
    let effective = total * total / w.iter().map(|w| w * w).sum::<f64>();
    (mean, (var / (effective - 1.0).max(1.0)).sqrt())
}

/// A table of `rules` on the walls of `seed`, strong at every seat, stopped at East's
/// `turn`-th turn without a win on offer; `None` when the hand ends first. A decision to
/// look at, for the belief's tests and the lab's.
pub fn strong_until_east_turn(rules: &TableRules, seed: u64, turn: usize) -> Option<Table> {
    use table::engine::Action;
    let mut t = Table::new(Setup::generate(rules.wall, seed), rules.clone());
    let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
    let mut turns = 0;
    while let Some(seat) = t.next_to_act() {
        let view = t.view(seat);
        if seat == Wind::East
            && matches!(view.decision, Some(Decision::Turn { .. }))
            && !view.legal.contains(&Action::Hu)
        {
            turns += 1;
            if turns == turn {
                return Some(t);
            }
        }
        let a = bots[seat.index()].act(&view);
        t.apply(seat, a).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean(r: &Readiness, wall: usize, melds: usize) -> f64 {
        (0..SH).map(|s| s as f64 * r.share(wall, melds, s)).sum()
    }

    /// Equal weights give the plain mean and standard error; a world weighing ten times
    /// the others counts as one world, not ten: the error grows, as the gate must see.
    #[test]
    fn a_heavy_world_counts_as_one() {
        let d = [4.0, 0.0, 0.0, 8.0, -4.0, 0.0, 4.0, 0.0];
        let (mean, se) = weighted_gain(&d, &[1.0; 8]);
        assert!((mean - 1.5).abs() < 1e-12);
        // Σ(x − 1.5)² = 94: sample variance 94 / 7, over 8 worlds.
        assert!((se - (94.0 / 7.0 / 8.0f64).sqrt()).abs() < 1e-12, "{se}");
        let mut w = [1.0; 8];
        w[3] = 10.0;
        let (heavy, heavy_se) = weighted_gain(&d, &w);
        // (4 + 8 · 10 − 4 + 4) / 17, and an error over twice the even one.
        assert!(
            (heavy - 84.0 / 17.0).abs() < 1e-12 && heavy_se > 2.0 * se,
            "{heavy} ± {heavy_se}"
        );
        assert_eq!(weighted_gain(&[], &[]).1, f64::INFINITY);
    }

    /// The data checked in is strong's self-play as the code measures it now: the first
    /// 60 of its hands measured again count a part of it (no cell more) in proportion, and
    /// all of them measured again are the data itself (`lab readiness --write` rewrites it
    /// when strong changes).
    #[test]
    fn the_checked_in_readiness_is_strongs_self_play() {
        let data = Readiness::measured();
        let small = Readiness::measure(60);
        let cells = |r: &Readiness| -> Vec<u32> {
            let c = r.counts.iter().flatten().flatten();
            c.chain(r.ties.iter().flatten()).copied().collect()
        };
        let (all, part) = (cells(data), cells(&small));
        assert!(
            all.iter().zip(&part).all(|(a, p)| p <= a),
            "a cell above the data"
        );
        let share = part.iter().sum::<u32>() as f64 / all.iter().sum::<u32>() as f64;
        assert!((share - 60.0 / HANDS as f64).abs() < 0.02, "{share}");
        assert_eq!(&Readiness::measure(HANDS), data, "the data is stale");
    }

    /// strong's seats start a hand as far from ready as a dealt hand is, and get nearer
    /// as their wall empties: the weights push the worlds the way real hands go.
    #[test]
    fn strongs_seats_get_nearer_to_ready_as_their_wall_empties() {
        let r = Readiness::measure(300);
        let early = mean(&r, 20, 0);
        let late = mean(&r, 4, 0);
        assert!(early > 2.0 && early < 4.5, "early {early}");
        assert!(late < early - 1.0, "late {late}, early {early}");
        for w in [3, 10, 18] {
            let total: f64 = (0..SH).map(|s| r.share(w, 1, s)).sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
        }
    }

    /// A tile thrown stands to a hand as the hand's copies and neighbours say.
    #[test]
    fn how_a_discard_stands_to_a_hand() {
        let c = counts(&mcr::parse_tiles("11m357p99sEE").unwrap());
        let i = |s: &str| mcr::parse_tiles(s).unwrap()[0].index();
        assert_eq!(tie(&c, i("1m")), 4, "two copies held");
        assert_eq!(tie(&c, i("3p")), 3, "one copy held");
        assert_eq!(tie(&c, i("4p")), 2, "3p and 5p next to it");
        assert_eq!(tie(&c, i("3m")), 1, "1m two away");
        assert_eq!(tie(&c, i("9p")), 1, "7p two away");
        assert_eq!(tie(&c, i("6s")), 0, "9s three away");
        assert_eq!(tie(&c, i("S")), 0);
        assert_eq!(tie(&c, i("E")), 4);
        // Suits do not run into each other: 9m is not next to 1p.
        let mut d: Counts = [0; mcr::tile::KINDS];
        d[i("1p")] = 1;
        assert_eq!(tie(&d, i("9m")), 0);
    }
}
