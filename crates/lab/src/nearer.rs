//! `lab nearer`: how much nearer to the true hands each belief brings the worlds, and the
//! importance weights the chains replaced ([`weigh`]: 3 or 4 worlds that count out of 48).

use agents::agent::Agent;
use agents::belief::{age, counts, near, settle, tie, Chains, Readiness, AGES, SH, TIES};
use agents::expert::ExpertBot;
use agents::strong::PlanBot;
use mcr::tile::Counts;
use mcr::{Meld, Wind};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use table::engine::{Decision, Hidden, SeenMeld, Table, View};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::common::OFF;

/// How strongly the discards' evidence counts: the discards of one seat are not
/// independent of each other (a hand keeps its shape from turn to turn), so each one's
/// likelihood ratio is raised to this power.
pub const DISCARD_WEIGHT: f64 = 0.5;

/// The first `n` of the `raw` worlds, each with its importance weight: how much more (or
/// less) likely its other seats' distances from a route are for `strong`'s seats at the same
/// point ([`Readiness`]) than among the raw worlds, which are counted seat by seat from all
/// of `raw` (drawn only to count them: they cost no playout). A weight is at most
/// [`CAP`] times the mean, so that one world cannot stand for all. The worlds stay distinct,
/// so that the statistics over them ([`agents::belief::weighted_gain`]) see how much they really say.
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

/// How much nearer to the true hands the weights bring the worlds: at East's turns of
/// all-strong hands, the tiles each sampled hand of another seat shares with its true
/// hand, weighted, for equal weights, the distances alone and the discards at a few
/// strengths, with the worlds' effective number. No playouts: quick enough to tune by.
pub fn run(deals: u64) {
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
        let expert = ExpertBot::new(rules.clone(), d, 8);
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
                                ..OFF
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
                    effective[m] += total * total / worlds.iter().map(|w| w.1 * w.1).sum::<f64>();
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
