//! The search with worlds nearer the truth than its belief: worlds from the other hands as
//! they really are, and `oracle_hands`, the harness that measures what each kind of
//! knowledge would be worth against the expert as it plays (ignored: `cargo test --release
//! -p agents oracle_hands -- --ignored --nocapture`; figures in docs/expert-belief.md).

use super::*;
use crate::belief::env_number;
use table::wall::Setup;

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
    let alpha: Option<f64> = env_number("ALPHA");
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
pub(super) fn oracle(real: &Table, view: &View, rng: &mut ChaCha8Rng) -> Option<Hidden> {
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

/// Whether each kind, discarded by `me` now, deals in (another seat's true hand wins on it).
fn true_danger(t: &Table, me: Wind, rules: &mcr::Rules) -> [f64; 34] {
    let view = t.view(me);
    let mut q = [0.0; 34];
    for o in Wind::ALL.into_iter().filter(|&o| o != me) {
        let c = crate::belief::counts(&t.concealed(o));
        let wins = crate::belief::danger::discard_wins(&view, o, &c, t.melds(o), rules);
        for (q, w) in q.iter_mut().zip(wins) {
            if w {
                *q = 1.0;
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
