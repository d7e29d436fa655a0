//! What the others probably hold, for the search bot's worlds. Dealing the unseen tiles
//! uniformly gives the other seats hands far from ready: real players keep the tiles that
//! help and throw the rest, so by the middle of a hand they are much nearer to ready than
//! a random hand, and their hands lean towards the routes to 8 points that `strong`
//! plans by; and what they threw is seldom a tile they still hold or one next to one. A
//! world is therefore judged by how far each other seat is in it from its nearest route
//! (in tiles to exchange, as `strong` counts) and how that seat's discards stand to the
//! hand it is given, against how `strong`'s seats are at the same point of a hand (tiles
//! left in their wall, sets declared, the age of each discard), measured once by
//! self-play. Importance weights on uniform worlds ([`weigh`]) leave 3 or 4 worlds that
//! count out of 48; Markov chains over swaps of hidden tiles ([`settle`]) give as many
//! worlds as asked, all of the belief.
//! Nothing here sees a hidden tile: the measurement is of strong's own games, and the
//! weights read only the sampled worlds and the view.

use std::sync::OnceLock;

use mcr::tile::Counts;
use mcr::{Meld, Wind};

use table::engine::{Decision, Hidden, SeenMeld, Table, View};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::agent::Agent;
use crate::plan;
use crate::strong::PlanBot;

mod chains;
pub(crate) mod danger;
#[cfg(test)]
mod diagnostics;
mod history;
mod throws;
#[cfg(test)]
pub(crate) use chains::settle_knowing;
pub(crate) use chains::{below, place_bonus, sets, shuffle};
pub use chains::{settle, Chains, LIVE};
pub use history::WINDOWS;
pub use throws::RANKS;

/// Distances counted: 0 (ready) to `SH - 1` and beyond (the last bucket).
const SH: usize = 7;
/// Tiles left in a personal wall: 0 to `WALL - 1` and beyond.
const WALL: usize = 32;
/// Hands of self-play measured.
const HANDS: u64 = 1500;

/// Discards counted by age: the seat's latest, the two before, the three before those,
/// older.
pub const AGES: usize = 4;
/// How a discarded tile stands to a hand: 0 nothing near, 1 a tile two away in its suit,
/// 2 a tile next to it, 3 one copy, 4 two copies or more.
const TIES: usize = 5;

/// What strong's seats are like at a point of a hand: how near to ready by tiles left in
/// their wall and sets declared, and how the tiles they threw stand to what they hold.
pub struct Readiness {
    /// counts[wall][melds][shanten]
    counts: Vec<[[u32; SH]; 5]>,
    /// ties[age][tie]: each earlier discard of a seat against the hand it holds now.
    ties: [[u32; TIES]; AGES],
}

/// The age bucket of the discard `back` places before a seat's latest.
fn age(back: usize) -> usize {
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
pub(crate) fn counts(tiles: &[mcr::Tile]) -> Counts {
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
    /// Measured once per process: strong at all four seats on fixed deals.
    pub fn measured() -> &'static Readiness {
        static R: OnceLock<Readiness> = OnceLock::new();
        R.get_or_init(|| Readiness::measure(HANDS))
    }

    fn measure(hands: u64) -> Readiness {
        let mut r = Readiness {
            counts: vec![[[0; SH]; 5]; WALL],
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

/// How strongly the discards' evidence counts: the discards of one seat are not
/// independent of each other (a hand keeps its shape from turn to turn), so each one's
/// likelihood ratio is raised to this power.
pub const DISCARD_WEIGHT: f64 = 0.5;

/// The first `n` of the `raw` worlds, each with its importance weight: how much more (or
/// less) likely its other seats' distances from a route are for `strong`'s seats at the same
/// point ([`Readiness`]) than among the raw worlds, which are counted seat by seat from all
/// of `raw` (drawn only to count them: they cost no playout). A weight is at most
/// [`CAP`] times the mean, so that one world cannot stand for all. The worlds stay distinct,
/// so that the statistics over them ([`weighted_gain`]) see how much they really say.
pub fn weigh(view: &View, raw: Vec<Hidden>, n: usize) -> Vec<(Hidden, f64)> {
    weigh_with(view, raw, n, DISCARD_WEIGHT)
}

/// [`weigh`], with the discards' evidence raised to `discard_weight` (0: the distances
/// from a route alone).
pub fn weigh_with(
    view: &View,
    raw: Vec<Hidden>,
    n: usize,
    discard_weight: f64,
) -> Vec<(Hidden, f64)> {
    let readiness = Readiness::measured();
    let me = view.seat.index();
    let others: Vec<usize> = (0..4).filter(|&s| s != me).collect();
    let melds: [usize; 4] = std::array::from_fn(|s| view.melds[s].len().min(4));
    // Each raw world's concealed counts for each other seat, and its distance from a route.
    let hands: Vec<Vec<Counts>> = raw
        .iter()
        .map(|h| others.iter().map(|&s| counts(&h.hands[s])).collect())
        .collect();
    let shanten: Vec<Vec<usize>> = raw
        .iter()
        .zip(&hands)
        .map(|(h, cs)| {
            others
                .iter()
                .zip(cs)
                .map(|(&s, c)| {
                    // The seat's sets: the open ones, and its concealed kongs as sampled.
                    let mut kongs = h.kongs[s].iter();
                    let sets: Vec<Meld> = view.melds[s]
                        .iter()
                        .filter_map(|m| match m {
                            SeenMeld::Open(m) => Some(*m),
                            SeenMeld::HiddenKong => kongs.next().map(|&t| Meld::concealed_kong(t)),
                        })
                        .collect();
                    near(c, &sets, Wind::from_index(s), view.prevalent)
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
        if discard_weight <= 0.0 || view.discards[s].is_empty() {
            continue;
        }
        // The seat's discards against each world's hand for it, against how they stand
        // among all the raw worlds.
        let ties: Vec<Vec<(usize, usize)>> = hands
            .iter()
            .map(|cs| {
                view.discards[s]
                    .iter()
                    .rev()
                    .enumerate()
                    .map(|(back, t)| (age(back), tie(&cs[k], t.index())))
                    .collect()
            })
            .collect();
        let mut seen = [[0.5f64; TIES]; AGES];
        for (a, t) in ties.iter().flatten() {
            seen[*a][*t] += 1.0;
        }
        let totals: [f64; AGES] = std::array::from_fn(|a| seen[a].iter().sum());
        for (w, world) in weights.iter_mut().zip(&ties) {
            let log: f64 = world
                .iter()
                .map(|&(a, t)| (readiness.tie_share(a, t) / (seen[a][t] / totals[a])).ln())
                .sum();
            *w *= (discard_weight * log).exp();
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

/// Mean and standard error of `v` (0 and 0 when empty, a single value with error 0).
#[cfg(test)]
pub(crate) fn mean_se(v: &[f64]) -> (f64, f64) {
    if v.len() < 2 {
        return (v.first().copied().unwrap_or(0.0), 0.0);
    }
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// Deals a diagnostic plays: `DEALS` from the environment, or `default`.
#[cfg(test)]
pub(crate) fn deals_from_env(default: u64) -> u64 {
    env_number("DEALS").unwrap_or(default)
}

/// The number in the environment variable `name`, if set; a diagnostic's knob, so a
/// value that is not a number stops the run, naming the variable.
#[cfg(test)]
pub(crate) fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}: a number")),
    )
}

/// A table of `rules` on the walls of `seed`, strong at every seat, stopped at East's
/// `turn`-th turn without a win on offer; `None` when the hand ends first.
#[cfg(test)]
pub(crate) fn strong_until_east_turn(rules: &TableRules, seed: u64, turn: usize) -> Option<Table> {
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
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

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

    /// How much nearer to the true hands the weights bring the worlds: at East's turns of
    /// all-strong hands, the tiles each sampled hand of another seat shares with its true
    /// hand, weighted, for equal weights, the distances alone and the discards at a few
    /// strengths, with the worlds' effective number. No playouts: quick enough to tune by.
    /// `cargo test --release -p agents nearer -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn weights_bring_the_worlds_nearer_the_true_hands() {
        let deals = deals_from_env(40);
        let rules = TableRules::seeds();
        // (name, weighing: Some(discard strength), chains: Some((strength, chains, burn))).
        type Model = (&'static str, Option<f64>, Option<(f64, usize, usize)>);
        let models: [Model; 8] = [
            ("equal weights", None, None),
            ("distances", Some(0.0), None),
            ("discards 0.5", Some(0.5), None),
            ("discards 1", Some(1.0), None),
            ("chain 0", None, Some((0.0, 48, 400))),
            ("chain 1", None, Some((1.0, 48, 400))),
            ("chain 2", None, Some((2.0, 48, 400))),
            ("12 chains 1", None, Some((1.0, 12, 400))),
        ];
        let mut shared = [0.0f64; 8];
        let mut effective = [0.0f64; 8];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut decisions = 0usize;
        for d in 0..deals {
            let mut t = Table::new(
                Setup::generate(WallModel::Personal, 9000 + d),
                rules.clone(),
            );
            let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
            let expert = crate::expert::ExpertBot::new(rules.clone(), d, 8);
            while let Some(seat) = t.next_to_act() {
                let view = t.view(seat);
                let others_threw = (1..4).all(|s| view.discards[s].len() >= 3);
                if seat == Wind::East
                    && matches!(view.decision, Some(Decision::Turn { .. }))
                    && others_threw
                {
                    decisions += 1;
                    let raw = expert.samples(&view, 192);
                    for (m, (_, weighed, chain)) in models.iter().enumerate() {
                        let worlds: Vec<(Hidden, f64)> = match (weighed, chain) {
                            (Some(dw), _) => weigh_with(&view, raw.clone(), 48, *dw),
                            (_, Some((alpha, chains, burn))) => {
                                let how = Chains {
                                    chains: *chains,
                                    burn: *burn,
                                    alpha: *alpha,
                                    ..crate::expert::OFF
                                };
                                settle(&view, raw.clone(), 48, how, &rules.scoring, &mut rng)
                            }
                            _ => raw.iter().take(48).map(|h| (h.clone(), 1.0)).collect(),
                        };
                        let total: f64 = worlds.iter().map(|w| w.1).sum();
                        let mut s = 0.0;
                        for (h, w) in &worlds {
                            for o in 1..4 {
                                let mut truth: Counts = [0; mcr::tile::KINDS];
                                for x in t.concealed(Wind::from_index(o)) {
                                    truth[x.index()] += 1;
                                }
                                let mut c: Counts = [0; mcr::tile::KINDS];
                                for x in &h.hands[o] {
                                    c[x.index()] += 1;
                                }
                                s += w
                                    * (0..mcr::tile::KINDS)
                                        .map(|i| c[i].min(truth[i]) as f64)
                                        .sum::<f64>();
                            }
                        }
                        shared[m] += s / total;
                        effective[m] +=
                            total * total / worlds.iter().map(|w| w.1 * w.1).sum::<f64>();
                    }
                }
                let a = bots[seat.index()].act(&view);
                t.apply(seat, a).unwrap();
            }
        }
        let n = decisions as f64;
        for (m, (name, ..)) in models.iter().enumerate() {
            println!(
                "{name:<14} tiles shared with the true hands (three seats) {:.3}, {:+.1} % over equal weights; effective worlds {:.1} of 48 ({decisions} decisions)",
                shared[m] / n,
                100.0 * (shared[m] / shared[0] - 1.0),
                effective[m] / n
            );
        }
    }
}
