//! The expert's tests and its diagnostics (ignored: `cargo test --release -p agents NAME --
//! --ignored --nocapture`).

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

/// How much a better belief could add: the expert at each seat in turn (strong at the
/// others) on the same deals as four strong, with its worlds drawn as it draws them, with
/// the other hands as they really are (the walls still dealt at random: a perfect belief),
/// and with the whole table as it is (one world: what a search with strong's playouts
/// could reach knowing everything). Per deal, the mean over the four seats of the seat's
/// points and IMP (against a field of four) minus strong's there.
/// `DEALS=n FIRST=seed cargo test --release -p agents oracle_hands -- --ignored --nocapture`.
#[test]
#[ignore]
fn oracle_hands_against_sampled_hands() {
    const MODES: [&str; 9] = [
        "sampled worlds",
        "true hands",
        "the whole table",
        "the true walls' tiles, the hands' tiles dealt at random among the hands",
        "the chains' worlds, each seat as far from a route as it really is",
        "true hands on claims, the chains' worlds on turns",
        "true hands where another seat is ready, the chains' worlds elsewhere",
        "where another seat is ready, the ready seats' true hands and the rest at random",
        "where another seat is ready, the other seats' true hands and the ready ones at random",
    ];
    let rules = TableRules::seeds();
    let first = super::searched::first_from_env(9000);
    let deals = first..first + crate::belief::deals_from_env(40);
    // MODES=1,2 plays only those (1 sampled worlds, 2 true hands, 3 the whole table, 4
    // which tiles are in the hands but not who holds which, 5 the chains knowing each
    // seat's true distance from a route, 6 true hands on claims only, 7 true hands where
    // another seat is ready, 8 there only the ready seats' true hands and the rest dealt at
    // random, 9 there the other seats' true hands and the ready ones' dealt at random);
    // ALPHA sets the discards' strength in the chains.
    let modes: Vec<usize> = std::env::var("MODES").map_or(vec![1, 2, 3, 4, 5, 6, 7, 8, 9], |m| {
        m.split(',').filter_map(|x| x.trim().parse().ok()).collect()
    });
    let alpha: Option<f64> = std::env::var("ALPHA").ok().and_then(|a| a.parse().ok());
    // PASSES=a,b,c,d,e sets the log weights of a world's ready hand by the age of the first
    // turn that refutes it, then where none does (0,0,0,0,0: the order unread, as before).
    let passes: Option<Vec<f64>> = std::env::var("PASSES")
        .ok()
        .map(|p| p.split(',').filter_map(|x| x.trim().parse().ok()).collect());
    // LIVE=a,b,c,d,e sets the log weights of a world's ready hand by its live winning
    // tiles (0, 1-2, 3-4, 5-6, 7 or more; all 0: unread).
    let live: Option<Vec<f64>> = std::env::var("LIVE")
        .ok()
        .map(|p| p.split(',').filter_map(|x| x.trim().parse().ok()).collect());
    // DEPTH=n ranks each seat's latest n discards in the chains (0: unread, as in play).
    let depth: Option<usize> = env_number("DEPTH");
    // GATE=x sets the standard errors a departure from strong's choice must clear.
    let gate: Option<f64> = env_number("GATE");
    // RANKS_BY=x multiplies the ranks' log weights (`expert::THROWS`) by x.
    let ranks_by: Option<f64> = env_number("RANKS_BY");
    // PLAYOUTS=n sets the playouts a decision (the diagnostics' 192 unless set).
    let playouts: usize = env_number("PLAYOUTS").unwrap_or(DIAGNOSED_PLAYOUTS);
    // DANGER=1: on turns the search is told which discards deal in now (the true hands);
    // READ_DANGER=1: it reads their chance from the model of public facts (`belief::danger`).
    let danger = std::env::var_os("DANGER").is_some();
    // MIX=x (with DANGER=1): the chance told is x times the exact answer and 1 - x times
    // the model's, a belief between the two.
    let mix: Option<f64> = env_number("MIX");
    let per_deal = super::searched::on_both_cores(deals, |part| {
        part.map(|d| {
            let setup = Setup::generate(WallModel::Personal, d);
            let play = |mode: usize, me: Wind| -> [i32; 4] {
                let mut t = Table::new(setup.clone(), rules.clone());
                let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
                let mut expert = ExpertBot::new(rules.clone(), d, playouts);
                if let Some(p) = &passes {
                    for (x, y) in expert.chains.passes.iter_mut().zip(p) {
                        *x = *y;
                    }
                }
                if let Some(p) = &live {
                    for (x, y) in expert.chains.live.iter_mut().zip(p) {
                        *x = *y;
                    }
                }
                if let Some(a) = alpha {
                    expert.chains.alpha = a;
                }
                if let Some(d) = depth {
                    expert.chains.depth = d;
                }
                if let Some(g) = gate {
                    expert.gate = g;
                }
                if let Some(x) = ranks_by {
                    for w in expert.chains.throws.iter_mut().flatten() {
                        *w *= x;
                    }
                }
                expert.check_latest = std::env::var_os("CHECK").is_some();
                if std::env::var_os("READ_DANGER").is_some() {
                    expert.read_danger = true;
                }
                let mut rng = ChaCha8Rng::seed_from_u64(d);
                while let Some(seat) = t.next_to_act() {
                    let view = t.view(seat);
                    let a = if seat != me || mode == 0 {
                        bots[seat.index()].act(&view)
                    } else if mode == 1
                        && danger
                        && matches!(view.decision, Some(Decision::Turn { .. }))
                    {
                        let mut q = true_danger(&t, seat, &rules.scoring);
                        if let Some(x) = mix {
                            let model = crate::belief::danger::deal_in(&view);
                            for (a, b) in q.iter_mut().zip(model) {
                                *a = x * *a + (1.0 - x) * b;
                            }
                        }
                        with_danger(&mut expert, &view, &q)
                    } else if mode == 1
                        || (mode == 6 && matches!(view.decision, Some(Decision::Turn { .. })))
                        || (mode >= 7 && !another_ready(&t, seat))
                    {
                        expert.act(&view)
                    } else {
                        let planned = expert.plan.act(&view);
                        match expert.to_search(&view, planned) {
                            None => planned,
                            Some(cands) if mode == 5 => {
                                let per = expert.per_candidate(&cands);
                                let known: [usize; 4] = std::array::from_fn(|s| {
                                    let w = Wind::from_index(s);
                                    let mut c = [0u8; mcr::tile::KINDS];
                                    for x in t.concealed(w) {
                                        c[x.index()] += 1;
                                    }
                                    crate::belief::near(&c, t.melds(w), w, view.prevalent)
                                });
                                let raw = expert.samples(&view, per * OVERSAMPLE);
                                let worlds: Vec<(Table, f64)> = crate::belief::settle_knowing(
                                    &view,
                                    raw,
                                    per,
                                    CHAINS,
                                    &rules.scoring,
                                    &mut rng,
                                    Some(known),
                                )
                                .into_iter()
                                .filter_map(|(h, w)| {
                                    Some((Table::from_view(&view, rules.clone(), &h).ok()?, w))
                                })
                                .collect();
                                expert.decisions += 1;
                                expert.choose(&view, &cands, &worlds)
                            }
                            Some(cands) if mode == 2 || mode == 4 || mode >= 6 => {
                                let per = expert.per_candidate(&cands);
                                let worlds = match mode {
                                    4 => pooled_worlds(&t, &view, per, &mut rng),
                                    8 | 9 => {
                                        let ready = |w: Wind| {
                                            (mcr::wait::shanten(&t.concealed(w), t.melds(w))).min()
                                                == 0
                                        };
                                        let known = |w: Wind| ready(w) == (mode == 8);
                                        (0..per)
                                            .filter_map(|_| {
                                                let h = oracle_part(&t, &view, &known, &mut rng)?;
                                                Table::from_view(&view, rules.clone(), &h).ok()
                                            })
                                            .map(|x| (x, 1.0))
                                            .collect()
                                    }
                                    _ => oracle_worlds(&t, &view, per, &mut rng),
                                };
                                expert.choose(&view, &cands, &worlds)
                            }
                            Some(cands) => {
                                // One world, the table itself: the best outcome, strong's
                                // choice on a tie.
                                let out = |c: Action| {
                                    let mut x = t.clone();
                                    x.apply(seat, c).unwrap();
                                    playout(x, &rules.scoring, seat).0
                                };
                                let base = out(planned);
                                (cands.iter().skip(1).map(|&c| (out(c), c)))
                                    .filter(|&(p, _)| p > base)
                                    .max_by_key(|&(p, _)| p)
                                    .map_or(planned, |(_, c)| c)
                            }
                        }
                    };
                    t.apply(seat, a).unwrap();
                }
                t.result().map(|r| r.points).unwrap_or([0; 4])
            };
            let base = play(0, Wind::East);
            let mut out = [(0.0, 0.0); 9];
            for (m, o) in out.iter_mut().enumerate() {
                if !modes.contains(&(m + 1)) {
                    continue;
                }
                for me in Wind::ALL {
                    let d = play(m + 1, me)[me.index()] - base[me.index()];
                    o.0 += f64::from(d) / 4.0;
                    o.1 += f64::from(super::searched::field_imp(d)) / 4.0;
                }
            }
            out
        })
        .collect()
    });
    for (m, name) in MODES.iter().enumerate() {
        if !modes.contains(&(m + 1)) {
            continue;
        }
        let pts: Vec<f64> = per_deal.iter().map(|o: &[(f64, f64); 9]| o[m].0).collect();
        let imp: Vec<f64> = per_deal.iter().map(|o| o[m].1).collect();
        let ((p, p_se), (i, i_se)) = (crate::belief::mean_se(&pts), crate::belief::mean_se(&imp));
        println!(
            "expert with {name}: a seat's points minus strong's {p:+.2} ± {p_se:.2}, IMP {i:+.3} ± {i_se:.3} (SE, {} deals, every seat)",
            pts.len()
        );
    }
    if modes.contains(&1) && modes.contains(&2) {
        let gap: Vec<f64> = per_deal.iter().map(|o| o[1].1 - o[0].1).collect();
        let (g, g_se) = crate::belief::mean_se(&gap);
        println!("true hands minus sampled worlds, same deals: IMP {g:+.3} ± {g_se:.3}");
    }
    // Each deal's sampled-worlds IMP, to compare runs of variants deal by deal.
    if let Ok(path) = std::env::var("OUT") {
        let lines: Vec<String> = per_deal.iter().map(|o| format!("{}", o[0].1)).collect();
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
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
        if let Some(g) = std::env::var("GATE").ok().and_then(|g| g.parse().ok()) {
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

/// `n` worlds of the real table's other hands, each with walls of its own, weighing 1.
pub(super) fn oracle_worlds(
    real: &Table,
    view: &View,
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<(Table, f64)> {
    (0..n)
        .filter_map(|_| oracle(real, view, rng))
        .filter_map(|h| Table::from_view(view, real.rules().clone(), &h).ok())
        .map(|t| (t, 1.0))
        .collect()
}

/// Whether a seat other than `me` is ready (one tile from a winning shape) at `t`.
fn another_ready(t: &Table, me: Wind) -> bool {
    (Wind::ALL.into_iter())
        .filter(|&w| w != me)
        .any(|w| mcr::wait::shanten(&t.concealed(w), t.melds(w)).min() == 0)
}

/// `n` worlds with the tiles the other hands hold, as they really are, dealt again at
/// random among those hands, each with walls of its own.
fn pooled_worlds(real: &Table, view: &View, n: usize, rng: &mut ChaCha8Rng) -> Vec<(Table, f64)> {
    (0..n)
        .filter_map(|_| {
            let mut h = oracle(real, view, rng)?;
            let mut tiles: Vec<Tile> = h.hands.iter().flatten().copied().collect();
            crate::belief::shuffle(&mut tiles, &mut crate::belief::below(rng));
            let mut it = tiles.into_iter();
            for hand in h.hands.iter_mut() {
                let k = hand.len();
                *hand = it.by_ref().take(k).collect();
            }
            Table::from_view(view, real.rules().clone(), &h).ok()
        })
        .map(|t| (t, 1.0))
        .collect()
}

/// The hidden tiles as they are, but for the walls (dealt at random from the rest);
/// `None` when another seat has a concealed kong.
fn oracle(real: &Table, view: &View, rng: &mut ChaCha8Rng) -> Option<Hidden> {
    oracle_part(real, view, &|_| true, rng)
}

/// The hidden tiles with the hands of the seats that `known` picks as they are, the other
/// hands and the walls dealt at random from the rest; `None` when another seat has a
/// concealed kong.
fn oracle_part(
    real: &Table,
    view: &View,
    known: &dyn Fn(Wind) -> bool,
    rng: &mut ChaCha8Rng,
) -> Option<Hidden> {
    let sizes = HiddenSizes::of(view, real.rules().wall);
    if sizes.kongs.iter().any(|&k| k > 0) {
        return None;
    }
    let mut left = unseen(view);
    let mut h = Hidden::default();
    let others = || Wind::ALL.into_iter().filter(|&w| w != view.seat);
    for w in others().filter(|&w| known(w)) {
        h.hands[w.index()] = real.concealed(w);
        for t in &h.hands[w.index()] {
            left[t.index()] -= 1;
        }
    }
    let mut tiles: Vec<Tile> = Vec::new();
    for (i, &n) in left.iter().enumerate() {
        tiles.extend(std::iter::repeat_n(Tile::from_index(i)?, n as usize));
    }
    crate::belief::shuffle(&mut tiles, &mut crate::belief::below(rng));
    let mut it = tiles.into_iter();
    for w in others().filter(|&w| !known(w)) {
        let n = real.concealed(w).len();
        h.hands[w.index()] = it.by_ref().take(n).collect();
    }
    for s in 0..4 {
        h.walls[s] = it.by_ref().take(sizes.walls[s]).collect();
    }
    Some(h)
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

/// The number in the environment variable `name`, if set; a diagnostic's knob, so a
/// value that is not a number stops the run, naming the variable.
fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}: a number")),
    )
}

/// Whether each kind, discarded by `me` now, deals in (another seat's true hand wins on it).
fn true_danger(t: &Table, me: Wind, rules: &mcr::Rules) -> [f64; 34] {
    let mut q = [0.0; 34];
    for o in Wind::ALL.into_iter().filter(|&o| o != me) {
        let mut c = [0u8; mcr::tile::KINDS];
        for x in t.concealed(o) {
            c[x.index()] += 1;
        }
        let prevalent = t.view(me).prevalent;
        for w in crate::strong::waits_at(o, prevalent, 0, &c, t.melds(o), rules) {
            if w.discard_ok {
                q[w.tile.index()] = 1.0;
            }
        }
    }
    q
}

/// The expert's turn with the chance each discard deals in now given (`q`, by kind).
fn with_danger(expert: &mut ExpertBot, view: &View, q: &[f64; 34]) -> Action {
    let planned = expert.plan.act(view);
    let Some(cands) = expert.to_search(view, planned) else {
        return planned;
    };
    let worlds = expert.worlds(view, expert.per_candidate(&cands));
    expert.decisions += 1;
    let outcomes = expert.play_out(view, &cands, &worlds);
    let weights: Vec<f64> = worlds.iter().map(|(_, w)| *w).collect();
    expert.pick_with(&cands, &outcomes, &weights, Some(q)).0
}
