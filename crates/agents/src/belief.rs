//! What the others probably hold, for the search bot's worlds. Dealing the unseen tiles
//! uniformly gives the other seats hands far from ready: real players keep the tiles that
//! help and throw the rest, so by the middle of a hand they are much nearer to ready than
//! a random hand, and their hands lean towards the routes to 8 points that `strong`
//! plans by. The worlds are therefore weighed by how far each other seat is in them from
//! its nearest route (in tiles to exchange, as `strong` counts), against how far
//! `strong`'s seats are at the same point of a hand (tiles left in their wall, sets
//! declared), measured once by self-play; and drawn again by weight.
//! Nothing here sees a hidden tile: the measurement is of strong's own games, and the
//! weights read only the sampled worlds and the view.

use std::sync::OnceLock;

use mcr::tile::Counts;
use mcr::{Meld, Wind};

use table::engine::{Decision, Hidden, SeenMeld, Table, View};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::bots::Agent;
use crate::plan;
use crate::strong::PlanBot;

/// Distances counted: 0 (ready) to `SH - 1` and beyond (the last bucket).
const SH: usize = 7;
/// Tiles left in a personal wall: 0 to `WALL - 1` and beyond.
const WALL: usize = 32;
/// Hands of self-play measured.
const HANDS: u64 = 1500;

/// How near to ready strong's seats are, by tiles left in their wall and sets declared.
pub struct Readiness {
    /// counts[wall][melds][shanten]
    counts: Vec<[[u32; SH]; 5]>,
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
    plan::best(plan::routes(), &shape).0.clamp(0, SH as i32 - 1) as usize
}

impl Readiness {
    /// Measured once per process: strong at all four seats on fixed deals.
    pub fn measured() -> &'static Readiness {
        static R: OnceLock<Readiness> = OnceLock::new();
        R.get_or_init(|| Readiness::measure(HANDS))
    }

    fn measure(hands: u64) -> Readiness {
        let mut r = Readiness {
            counts: vec![[[0; SH]; 5]; WALL],
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

/// The first `n` of the `raw` worlds, each with its importance weight: how much more (or
/// less) likely its other seats' distances from a route are for `strong`'s seats at the same
/// point ([`Readiness`]) than among the raw worlds, which are counted seat by seat from all
/// of `raw` (drawn only to count them: they cost no playout). A weight is at most
/// [`CAP`] times the mean, so that one world cannot stand for all. The worlds stay distinct,
/// so that the statistics over them ([`weighted_gain`]) see how much they really say.
pub fn weigh(view: &View, raw: Vec<Hidden>, n: usize) -> Vec<(Hidden, f64)> {
    let readiness = Readiness::measured();
    let me = view.seat.index();
    let others: Vec<usize> = (0..4).filter(|&s| s != me).collect();
    // Each raw world's shanten for each other seat.
    let melds: [usize; 4] = std::array::from_fn(|s| view.melds[s].len().min(4));
    let shanten: Vec<Vec<usize>> = raw
        .iter()
        .map(|h| {
            others
                .iter()
                .map(|&s| {
                    let mut c: Counts = [0; mcr::tile::KINDS];
                    for t in &h.hands[s] {
                        c[t.index()] += 1;
                    }
                    // The seat's sets: the open ones, and its concealed kongs as sampled.
                    let mut kongs = h.kongs[s].iter();
                    let sets: Vec<Meld> = view.melds[s]
                        .iter()
                        .filter_map(|m| match m {
                            SeenMeld::Open(m) => Some(*m),
                            SeenMeld::HiddenKong => kongs.next().map(|&t| Meld::concealed_kong(t)),
                        })
                        .collect();
                    near(&c, &sets, Wind::from_index(s), view.prevalent)
                })
                .collect()
        })
        .collect();
    let mut weights: Vec<f64> = vec![1.0; raw.len()];
    for (k, &s) in others.iter().enumerate() {
        let mut seen = [0.5f64; SH];
        for sh in &shanten {
            seen[sh[k]] += 1.0;
        }
        let total: f64 = seen.iter().sum();
        for (w, sh) in weights.iter_mut().zip(&shanten) {
            let p = readiness.share(view.wall_left[s], melds[s], sh[k]);
            *w *= p / (seen[sh[k]] / total);
        }
    }
    let n = n.min(raw.len());
    let mean = weights[..n].iter().sum::<f64>() / n.max(1) as f64;
    let cap = if mean.is_finite() && mean > 0.0 {
        CAP * mean
    } else {
        1.0
    };
    raw.into_iter()
        .zip(weights)
        .take(n)
        .map(|(h, w)| (h, if w.is_finite() { w.min(cap) } else { cap }))
        .collect()
}

/// How many times the mean weight one world may weigh at most.
pub const CAP: f64 = 10.0;

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
}
