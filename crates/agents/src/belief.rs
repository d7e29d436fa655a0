//! What the others probably hold, for the search bot's worlds. Dealing the unseen tiles
//! uniformly gives the other seats hands far from ready: real players keep the tiles that
//! help and throw the rest, so by the middle of a hand they are much nearer to ready than
//! a random hand. The worlds are therefore weighed by how near to ready each other seat is
//! in them, against how near `strong`'s seats are at the same point of a hand (tiles left
//! in their wall, sets declared), measured once by self-play; and drawn again by weight.
//! Nothing here sees a hidden tile: the measurement is of strong's own games, and the
//! weights read only the sampled worlds and the view.

use std::sync::OnceLock;

use mcr::tile::Counts;
use mcr::Wind;
use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use table::engine::{Decision, Hidden, Table, View};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::bots::Agent;
use crate::strong::PlanBot;

/// Shanten counted: 0 (ready) to `SH - 1` and beyond (the last bucket).
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

/// A seat's shanten: the nearest of the regular shape and, without sets, seven pairs.
pub fn near(c: &Counts, melds: usize) -> usize {
    let mut s = mcr::wait::shanten_regular(c, melds);
    if melds == 0 {
        s = s.min(mcr::wait::shanten_seven_pairs(c));
    }
    s.clamp(0, SH as i32 - 1) as usize
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
                        let melds = view.melds[o].len().min(4);
                        let w = view.wall_left[o].min(WALL - 1);
                        r.counts[w][melds][near(&c, melds)] += 1;
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

/// Draws `n` of the `raw` worlds again, each in proportion to how much nearer to ready
/// (or further) its other seats are than the raw worlds make them, against strong's seats
/// at the same point ([`Readiness`]). The raw worlds' own share of each shanten, seat by
/// seat, is counted from the raw worlds themselves.
pub fn weigh(view: &View, raw: Vec<Hidden>, n: usize, rng: &mut ChaCha8Rng) -> Vec<Hidden> {
    if raw.len() <= n {
        return raw;
    }
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
                    near(&c, melds[s])
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
    // Systematic resampling: n evenly spaced picks along the cumulative weights.
    let sum: f64 = weights.iter().sum();
    if sum.is_nan() || sum <= 0.0 {
        return raw.into_iter().take(n).collect();
    }
    let step = sum / n as f64;
    let mut at = (rng.next_u64() as f64 / u64::MAX as f64) * step;
    let mut out = Vec::with_capacity(n);
    let mut acc = 0.0;
    for (h, w) in raw.iter().zip(&weights) {
        acc += w;
        while at < acc && out.len() < n {
            out.push(h.clone());
            at += step;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mean(r: &Readiness, wall: usize, melds: usize) -> f64 {
        (0..SH).map(|s| s as f64 * r.share(wall, melds, s)).sum()
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
