//! `lab oracle`: what each kind of knowledge would be worth to the expert as it plays —
//! its own worlds, the other hands as they really are, the whole table, and mixes of them
//! (figures in docs/expert-belief.md).

use std::path::PathBuf;

use agents::agent::Agent;
use agents::expert::{playout, ExpertBot, ExpertConfig, CHAINS};
use agents::strong::PlanBot;
use mcr::Wind;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use table::engine::{Action, Decision, Table};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

use crate::common::{field_imp, mean_se, on_both_cores, DIAGNOSED_PLAYOUTS, THROWS};
use crate::searcher::Searcher;
use crate::truth::{another_ready, oracle_part, oracle_worlds, pooled_worlds, seated};

/// What `lab oracle` plays.
#[derive(clap::Args)]
pub struct Knobs {
    /// Deals to play
    #[arg(long, default_value_t = 40)]
    pub deals: u64,
    /// The first deal's seed
    #[arg(long, default_value_t = 9000)]
    pub first: u64,
    /// The modes to play, by number (default: all nine): 1 sampled worlds, 2 true hands,
    /// 3 the whole table, 4 which tiles are in the hands but not who holds which, 5 the
    /// chains knowing each seat's true distance from a route, 6 true hands on claims only,
    /// 7 true hands where another seat is ready, 8 there only the ready seats' true hands,
    /// 9 there the other seats' true hands and the ready ones' dealt at random
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(1..=9))]
    pub modes: Vec<u8>,
    /// The discards' strength in the chains
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Log weights of a world's ready hand by the age of the first turn that refutes it,
    /// then where none does (five numbers; 0,0,0,0,0: the order unread)
    #[arg(long, value_delimiter = ',', num_args = 5)]
    pub passes: Option<Vec<f64>>,
    /// Log weights of a world's ready hand by its live winning tiles (0, 1-2, 3-4, 5-6, 7
    /// or more; all 0: unread, as in play)
    #[arg(long, value_delimiter = ',', num_args = 5)]
    pub live: Option<Vec<f64>>,
    /// Ranks each seat's latest N discards in the chains (0: unread, as in play)
    #[arg(long)]
    pub depth: Option<usize>,
    /// Standard errors a departure from strong's choice must clear
    #[arg(long)]
    pub gate: Option<f64>,
    /// Multiplies the ranks' log weights by this
    #[arg(long)]
    pub ranks_by: Option<f64>,
    /// Playouts a decision
    #[arg(long, default_value_t = DIAGNOSED_PLAYOUTS)]
    pub playouts: usize,
    /// On turns the search is told which discards deal in now (the true hands)
    #[arg(long)]
    pub danger: bool,
    /// With --danger: the chance told is this times the exact answer and the rest the
    /// model's
    #[arg(long)]
    pub mix: Option<f64>,
    /// The search reads a discard's chance of dealing in from the model of public facts
    #[arg(long)]
    pub read_danger: bool,
    /// Worlds that disagree with the latest discard are left out
    #[arg(long)]
    pub check: bool,
    /// Write each deal's sampled-worlds IMP here, one a line
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// How much a better belief could add: the expert at each seat in turn (strong at the
/// others) on the same deals as four strong, with its worlds drawn as it draws them, with
/// the other hands as they really are (the walls still dealt at random: a perfect belief),
/// and with the whole table as it is (one world: what a search with strong's playouts
/// could reach knowing everything). Per deal, the mean over the four seats of the seat's
/// points and IMP (against a field of four) minus strong's there.
pub fn run(k: &Knobs) {
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
    let deals = k.first..k.first + k.deals;
    let modes: Vec<usize> = if k.modes.is_empty() {
        (1..=9).collect()
    } else {
        k.modes.iter().map(|&m| usize::from(m)).collect()
    };
    let (alpha, depth, gate, ranks_by, mix) = (k.alpha, k.depth, k.gate, k.ranks_by, k.mix);
    let (passes, live) = (k.passes.clone(), k.live.clone());
    let playouts = k.playouts;
    let danger = k.danger;
    let per_deal = on_both_cores(deals, |part| {
        part.map(|d| {
            let setup = Setup::generate(WallModel::Personal, d);
            let play = |mode: usize, me: Wind| -> [i32; 4] {
                let mut t = Table::new(setup.clone(), rules.clone());
                let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
                let mut config = ExpertConfig {
                    playouts,
                    ..ExpertConfig::default()
                };
                let chains = &mut config.chains;
                if let Some(p) = &passes {
                    for (x, y) in chains.passes.iter_mut().zip(p) {
                        *x = *y;
                    }
                }
                if let Some(p) = &live {
                    for (x, y) in chains.live.iter_mut().zip(p) {
                        *x = *y;
                    }
                }
                if let Some(a) = alpha {
                    chains.alpha = a;
                }
                if let Some(d) = depth {
                    chains.depth = d;
                    chains.throws = THROWS;
                }
                if let Some(x) = ranks_by {
                    for w in chains.throws.iter_mut().flatten() {
                        *w *= x;
                    }
                }
                if let Some(g) = gate {
                    config.gate = g;
                }
                let mut expert = Searcher {
                    bot: ExpertBot::with_config(rules.clone(), d, config),
                    check_latest: k.check,
                    read_danger: k.read_danger,
                };
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
                            let model = crate::danger::deal_in(&view);
                            for (a, b) in q.iter_mut().zip(model) {
                                *a = x * *a + (1.0 - x) * b;
                            }
                        }
                        expert.with_danger(&view, &q)
                    } else if mode == 1
                        || (mode == 6 && matches!(view.decision, Some(Decision::Turn { .. })))
                        || (mode >= 7 && !another_ready(&t, seat))
                    {
                        expert.act(&view)
                    } else {
                        let expert = &mut expert.bot;
                        let planned = expert.plan().act(&view);
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
                                    agents::belief::near(&c, t.melds(w), w, view.prevalent)
                                });
                                let raw = expert.samples(&view, per * expert.config().oversample);
                                let hidden = agents::belief::settle_knowing(
                                    &view,
                                    raw,
                                    per,
                                    CHAINS,
                                    &rules.scoring,
                                    &mut rng,
                                    Some(known),
                                );
                                let worlds = expert.seat_worlds(&view, hidden);
                                expert.searched_one();
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
                                                seated(&t, &view, &h)
                                            })
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
                    o.1 += f64::from(field_imp(d)) / 4.0;
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
        let ((p, p_se), (i, i_se)) = (mean_se(&pts), mean_se(&imp));
        println!(
            "expert with {name}: a seat's points minus strong's {p:+.2} ± {p_se:.2}, IMP {i:+.3} ± {i_se:.3} (SE, {} deals, every seat)",
            pts.len()
        );
    }
    if modes.contains(&1) && modes.contains(&2) {
        let gap: Vec<f64> = per_deal.iter().map(|o| o[1].1 - o[0].1).collect();
        let (g, g_se) = mean_se(&gap);
        println!("true hands minus sampled worlds, same deals: IMP {g:+.3} ± {g_se:.3}");
    }
    // Each deal's sampled-worlds IMP, to compare runs of variants deal by deal.
    if let Some(path) = &k.out {
        let lines: Vec<String> = per_deal.iter().map(|o| format!("{}", o[0].1)).collect();
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
}

/// Whether each kind, discarded by `me` now, deals in (another seat's true hand wins on it).
fn true_danger(t: &Table, me: Wind, rules: &mcr::Rules) -> [f64; 34] {
    let view = t.view(me);
    let mut q = [0.0; 34];
    for o in Wind::ALL.into_iter().filter(|&o| o != me) {
        let c = agents::belief::counts(&t.concealed(o));
        let wins = crate::danger::discard_wins(&view, o, &c, t.melds(o), rules);
        for (q, w) in q.iter_mut().zip(wins) {
            if w {
                *q = 1.0;
            }
        }
    }
    q
}
