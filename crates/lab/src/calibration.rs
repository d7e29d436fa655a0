//! `lab calibration`: where the expert leaves strong's choice, the gain it saw against the
//! gain on the real table and the gain expected with the true hands.

use agents::agent::Agent;
use agents::expert::{playout, ExpertBot, ExpertConfig};
use agents::strong::PlanBot;
use mcr::Wind;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use table::engine::{Action, Decision, Table};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::common::{mean_se, DIAGNOSED_PLAYOUTS};
use crate::nearer::weigh;
use crate::truth::oracle_worlds;

/// Which worlds the expert searches in `lab calibration`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Worlds {
    /// Its own: the chains' worlds
    Chains,
    /// The other hands as they really are (walls dealt at random)
    Oracle,
    /// Uniform deals under importance weights (the belief before the chains)
    Weighed,
    /// Uniform deals, every world alike
    Uniform,
}

/// Whether the search's gains come true: at each decision where the expert (East)
/// leaves strong's choice, the gain it saw against the gain on the real table (the
/// real hands and walls, both moves played out with strong at every seat).
pub fn run(deals: u64, gate: Option<f64>, worlds: Worlds) {
    let rules = TableRules::seeds();
    let mut seen = Vec::new();
    let mut real = Vec::new();
    let mut expected: Vec<f64> = Vec::new();
    let mut by_kind = std::collections::BTreeMap::<&str, (usize, f64, f64)>::new();
    for d in 0..deals {
        let mut t = Table::new(
            Setup::generate(WallModel::Personal, 9000 + d),
            rules.clone(),
        );
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        let mut config = ExpertConfig {
            playouts: DIAGNOSED_PLAYOUTS,
            ..ExpertConfig::default()
        };
        if let Some(g) = gate {
            config.gate = g;
        }
        let mut east = ExpertBot::with_config(rules.clone(), d, config);
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let a = if seat != Wind::East {
                bots[seat.index()].act(&view)
            } else {
                let planned = east.plan().act(&view);
                if let Some(cands) = east.to_search(&view, planned) {
                    let per = east.per_candidate(&cands);
                    let worlds = match worlds {
                        Worlds::Oracle => {
                            let mut rng = ChaCha8Rng::seed_from_u64(east.searched());
                            oracle_worlds(&t, &view, per, &mut rng)
                        }
                        Worlds::Weighed => {
                            let raw = east.samples(&view, per * east.config().oversample);
                            east.seat_worlds(&view, weigh(&view, raw, per))
                        }
                        Worlds::Uniform => east
                            .samples(&view, per)
                            .iter()
                            .filter_map(|h| Table::from_view(&view, rules.clone(), h).ok())
                            .map(|t| (t, 1.0))
                            .collect(),
                        Worlds::Chains => east.worlds(&view, per),
                    };
                    east.searched_one();
                    let (a, gain) = east.choose_scored(&view, &cands, &worlds);
                    if a != planned {
                        let out = |c: Action| {
                            let mut x = t.clone();
                            x.apply(Wind::East, c).unwrap();
                            playout(x, &rules.scoring, Wind::East).0
                        };
                        let true_gain = (out(a) - out(planned)) as f64;
                        // The gain expected with the true hands, over walls dealt
                        // again: what a perfect belief would see.
                        let mut rng = ChaCha8Rng::seed_from_u64(7 + east.searched());
                        let truth = oracle_worlds(&t, &view, 64, &mut rng);
                        if !truth.is_empty() {
                            let g: f64 = truth
                                .iter()
                                .map(|(w, _)| {
                                    let run = |c: Action| {
                                        let mut x = w.clone();
                                        x.apply(Wind::East, c).unwrap();
                                        playout(x, &rules.scoring, Wind::East).0
                                    };
                                    (run(a) - run(planned)) as f64
                                })
                                .sum();
                            expected.push(g / truth.len() as f64);
                        }
                        seen.push(gain);
                        real.push(true_gain);
                        let kind = match view.decision {
                            Some(Decision::Turn { .. }) => "discard",
                            _ => "claim",
                        };
                        let e = by_kind.entry(kind).or_default();
                        e.0 += 1;
                        e.1 += gain;
                        e.2 += true_gain;
                    }
                    a
                } else {
                    planned
                }
            };
            t.apply(seat, a).unwrap();
        }
    }
    let ((m, se), (seen, _)) = (mean_se(&real), mean_se(&seen));
    println!(
        "{} departures from strong in {deals} deals: gain seen {seen:+.2}, gain on the real table {m:+.2} ± {se:.2}",
        real.len(),
    );
    let (e, e_se) = mean_se(&expected);
    println!(
        "  expected with the true hands (64 walls each, {} departures): {e:+.2} ± {e_se:.2}",
        expected.len()
    );
    for (k, (c, g, r)) in by_kind {
        println!(
            "  {k}: {c}, seen {:+.2}, real {:+.2}",
            g / c as f64,
            r / c as f64
        );
    }
}
