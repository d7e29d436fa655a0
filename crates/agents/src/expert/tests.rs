//! The expert's tests and its diagnostics (ignored: `cargo test --release -p agents NAME --
//! --ignored --nocapture`).

use super::oracle::{oracle, oracle_worlds};
use super::*;
use table::wall::Setup;

/// Two tables that differ only in what East cannot see give East the same view, the
/// same sampled worlds and the same decision: the sampler uses no hidden tile. On
/// personal walls and on a shared wall with bonus tiles.
#[test]
fn the_sampler_never_uses_a_hidden_tile() {
    for rules in [TableRules::seeds(), TableRules::regular()] {
        let mut searched = 0;
        for seed in 0..12u64 {
            let Some(real) = crate::belief::strong_until_east_turn(&rules, 70 + seed, 4) else {
                continue;
            };
            let view = real.view(Wind::East);
            // A second table: the same view, other hidden tiles (another sample).
            let other = ExpertBot::new(rules.clone(), 999, 8).samples(&view, 1);
            let twin = Table::from_view(&view, rules.clone(), &other[0]).unwrap();
            assert_eq!(twin.view(Wind::East), view, "{} seed {seed}", rules.name);
            let (mut a, mut b) = (
                ExpertBot::new(rules.clone(), 5, 64),
                ExpertBot::new(rules.clone(), 5, 64),
            );
            assert_eq!(a.samples(&view, 16), b.samples(&twin.view(Wind::East), 16));
            assert_eq!(a.act(&view), b.act(&twin.view(Wind::East)), "seed {seed}");
            searched += 1;
        }
        assert!(searched >= 8, "{}: {searched} decisions", rules.name);
    }
}

/// At a table people play, the expert answers claims at once with its plan's choice
/// (no search, so no pause tells who could claim); a decision stopped before it has
/// played out [`MIN_WORLDS`] worlds plays its plan's choice too: strong's, every tied
/// discard weighed ([`OWN_ACCEPTANCE_OF`]).
#[test]
fn claims_at_once_and_a_hard_stop_play_the_plans_choice() {
    let rules = TableRules::seeds();
    let (mut claims, mut stopped) = (0, 0);
    for seed in 0..6u64 {
        let mut t = Table::new(
            Setup::generate(WallModel::Personal, 500 + seed),
            rules.clone(),
        );
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        let mut plans: [PlanBot; 4] = std::array::from_fn(|_| {
            let mut plan = PlanBot::strong();
            plan.acceptance_of = OWN_ACCEPTANCE_OF;
            plan
        });
        let mut at_once = ExpertBot::new(rules.clone(), seed, 64).claims_at_once();
        let mut no_time = ExpertBot::new(rules.clone(), seed, 64);
        no_time.hard_stop = Some(std::time::Duration::ZERO);
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let strong = bots[seat.index()].act(&view);
            let own = plans[seat.index()].act(&view);
            let planned = at_once.plan.act(&view);
            if let Some(cands) = at_once.to_search(&view, planned) {
                assert!(matches!(view.decision, Some(Decision::Turn { .. })));
                if stopped < 4 {
                    assert_eq!(no_time.act(&view), own, "seed {seed}");
                    stopped += 1;
                }
                assert!(cands.len() > 1);
            } else if matches!(view.decision, Some(Decision::Claim { .. })) {
                assert_eq!(at_once.act(&view), own, "seed {seed}");
                claims += usize::from(view.legal.len() > 1);
            }
            t.apply(seat, strong).unwrap();
        }
    }
    assert!(
        claims >= 5 && stopped == 4,
        "{claims} claims, {stopped} stops"
    );
}

/// On a shared wall the worlds hold every unseen tile once: the playing tiles in the
/// hands and the undrawn row, the unseen bonus tiles at distinct places in the row.
#[test]
fn worlds_on_a_shared_wall_hold_the_unseen_tiles_and_bonus_tiles() {
    let rules = TableRules::regular();
    let mut checked = 0;
    for seed in 0..10u64 {
        let Some(real) = crate::belief::strong_until_east_turn(&rules, 300 + seed, 3) else {
            continue;
        };
        let view = real.view(Wind::East);
        let unseen_tiles = unseen(&view);
        let bonus = unseen_bonus(&view, WallModel::Shared);
        let mut undrawn_bonus = 8;
        for s in 0..4 {
            undrawn_bonus -= real.view(Wind::from_index(s)).bonus[s].len();
        }
        assert_eq!(bonus.len(), undrawn_bonus, "seed {seed}");
        for h in ExpertBot::new(rules.clone(), seed, 8).samples(&view, 8) {
            let mut c = [0u8; 34];
            for t in h.hands.iter().chain(&h.walls).flatten() {
                c[t.index()] += 1;
            }
            for t in h.kongs.iter().flatten() {
                c[t.index()] += 4;
            }
            assert_eq!(c, unseen_tiles, "seed {seed}");
            let row = h.walls[0].len() + h.bonus.len();
            assert_eq!(row, view.wall_left[0], "seed {seed}");
            let mut places: Vec<usize> = h.bonus.iter().map(|b| b.0).collect();
            places.sort_unstable();
            places.dedup();
            assert_eq!(places.len(), bonus.len(), "seed {seed}");
            assert!(places.iter().all(|&p| p < row), "seed {seed}");
            assert!(Table::from_view(&view, rules.clone(), &h).is_ok());
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked} worlds");
}

/// Whether the search's gains come true: at each decision where the expert (East)
/// leaves strong's choice, the gain it saw against the gain on the real table (the
/// real hands and walls, both moves played out with strong at every seat).
/// `cargo test --release -p agents calibration -- --ignored --nocapture`.
#[test]
#[ignore]
fn calibration_of_the_gains_it_sees() {
    let rules = TableRules::seeds();
    let deals = crate::belief::deals_from_env(20);
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
        let mut east = ExpertBot::new(rules.clone(), d, DIAGNOSED_PLAYOUTS);
        if let Some(g) = crate::belief::env_number("GATE") {
            east.gate = g;
        }
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let a = if seat != Wind::East {
                bots[seat.index()].act(&view)
            } else {
                let planned = east.plan.act(&view);
                if let Some(cands) = east.to_search(&view, planned) {
                    let per = east.per_candidate(&cands);
                    let worlds = if std::env::var_os("ORACLE").is_some() {
                        let mut rng = ChaCha8Rng::seed_from_u64(east.decisions);
                        oracle_worlds(&t, &view, per, &mut rng)
                    } else if std::env::var_os("WEIGHED").is_some() {
                        east.weighed_worlds(&view, per)
                    } else if std::env::var_os("UNIFORM").is_some() {
                        east.samples(&view, per)
                            .iter()
                            .filter_map(|h| Table::from_view(&view, rules.clone(), h).ok())
                            .map(|t| (t, 1.0))
                            .collect()
                    } else {
                        east.worlds(&view, per)
                    };
                    east.decisions += 1;
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
                        let mut rng = ChaCha8Rng::seed_from_u64(7 + east.decisions);
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
    let ((m, se), (seen, _)) = (crate::belief::mean_se(&real), crate::belief::mean_se(&seen));
    println!(
        "{} departures from strong in {deals} deals: gain seen {seen:+.2}, gain on the real table {m:+.2} ± {se:.2}",
        real.len(),
    );
    let (e, e_se) = crate::belief::mean_se(&expected);
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

/// The hands as they really are agree with the latest discard as strong reads it, at
/// every decision of strong's self-play where the view shows one; and most of the
/// chains' worlds do too.
#[test]
fn the_true_hands_agree_with_the_latest_discard() {
    let rules = TableRules::seeds();
    let (mut checked, mut agreed, mut worlds, mut worlds_agreed) = (0, 0, 0, 0);
    let (mut discard_ok, mut passes_ok) = (0, 0);
    for d in 0..crate::belief::deals_from_env(4) {
        let mut t = Table::new(
            Setup::generate(WallModel::Personal, 4400 + d),
            rules.clone(),
        );
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        let expert = ExpertBot::new(rules.clone(), d, DIAGNOSED_PLAYOUTS);
        let mut rng = ChaCha8Rng::seed_from_u64(d);
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            if consistent::latest(&view).is_some() && !view.legal.contains(&Action::Hu) {
                if let Some(h) = oracle(&t, &view, &mut rng) {
                    checked += 1;
                    agreed += consistent::consistent(&view, &h, &expert.others()) as usize;
                }
                if checked % 8 == 0 {
                    for (h, _) in crate::belief::settle(
                        &view,
                        expert.samples(&view, 48),
                        12,
                        CHAINS,
                        &expert.plan.rules,
                        &mut rng,
                    ) {
                        worlds += 1;
                        worlds_agreed +=
                            consistent::consistent(&view, &h, &expert.others()) as usize;
                        discard_ok +=
                            consistent::discard_agrees(&view, &h, &expert.others()) as usize;
                        passes_ok += consistent::passes_agree(&view, &h, &expert.others()) as usize;
                    }
                }
            }
            let a = bots[seat.index()].act(&view);
            t.apply(seat, a).unwrap();
        }
    }
    println!(
        "true hands agree {agreed} of {checked}; chains' worlds {worlds_agreed} of {worlds} \
         (the discard {discard_ok}, the passes {passes_ok})"
    );
    assert!(checked > 100, "{checked} decisions checked");
    assert_eq!(agreed, checked);
}
