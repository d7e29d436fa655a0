//! What the expert's departures from strong's choice are worth (`lab departures`,
//! `lab wider`, `lab claims`): every seat's searched decisions in strong's self-play, each
//! candidate played out in sampled worlds and on the real table.

use std::path::PathBuf;

use agents::agent::Agent;
use agents::expert::{playout, ExpertBot, ExpertConfig, CHAINS, PLAYOUTS};
use agents::strong::PlanBot;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use table::engine::{Action, Decision, Table};
use table::rules::TableRules;
use table::wall::Setup;

use crate::common::{field_imp, mean_se, on_both_cores, DIAGNOSED_PLAYOUTS};

/// Which decisions `lab departures` and `lab wider` search.
#[derive(clap::Args)]
pub struct Knobs {
    /// Deals of strong's self-play
    #[arg(long, default_value_t = 40)]
    pub deals: u64,
    /// The first deal's seed
    #[arg(long, default_value_t = 20_000)]
    pub first: u64,
    /// Worlds a candidate (0: as the default expert shares its playouts)
    #[arg(long, default_value_t = WORLDS)]
    pub per: usize,
    /// Walls dealt again with the true hands for each decision's expected points (0: none)
    #[arg(long, default_value_t = 0)]
    pub walls: usize,
    /// Write every decision here as JSON Lines
    #[arg(long)]
    pub dump: Option<PathBuf>,
}

/// One searched decision of a strong self-play hand: every candidate's points in each
/// sampled world (strong's choice first) and on the real table.
struct Searched {
    /// The deal and seat: departures on one hand are not independent.
    hand: (u64, usize),
    /// An answer to a discard or a promoted kong, not a turn.
    claim: bool,
    candidates: Vec<Action>,
    /// How many of the candidates, from the first, the expert itself searches.
    own: usize,
    results: Vec<Vec<i32>>,
    weights: Vec<f64>,
    truth: Vec<i32>,
    /// Every candidate's mean points over walls dealt again with the other hands as they
    /// really are (what a perfect belief would expect); empty unless `WALLS` asks for it.
    expected: Vec<f64>,
}

impl Searched {
    /// The results in the worlds `worlds` only.
    fn worlds(&self, worlds: std::ops::Range<usize>) -> (Vec<Vec<i32>>, Vec<f64>) {
        let r = self.results.iter().map(|r| r[worlds.clone()].to_vec());
        (r.collect(), self.weights[worlds].to_vec())
    }

    /// The results as IMP against strong's choice in the same world: strong's choice
    /// scores 0 everywhere.
    fn as_imp(&self) -> Searched {
        let base = &self.results[0];
        Searched {
            results: (self.results.iter())
                .map(|r| r.iter().zip(base).map(|(a, b)| field_imp(a - b)).collect())
                .collect(),
            candidates: self.candidates.clone(),
            weights: self.weights.clone(),
            truth: self.truth.clone(),
            expected: self.expected.clone(),
            ..*self
        }
    }

    /// The candidate `bot` leaves strong's choice for, among the first `n`, judging by
    /// the worlds `worlds`: its index and the mean gain it saw; `None` for strong's choice.
    fn departure(
        &self,
        bot: &ExpertBot,
        n: usize,
        worlds: std::ops::Range<usize>,
    ) -> Option<(usize, f64)> {
        let (r, w) = self.worlds(worlds);
        let (a, gain) = bot.pick(&self.candidates[..n], &r[..n], &w);
        let c = self.candidates.iter().position(|&x| x == a)?;
        (c > 0).then_some((c, gain))
    }

    /// Candidate `c`'s weighted mean gain over strong's choice in the worlds `worlds`.
    fn gain_in(&self, c: usize, worlds: std::ops::Range<usize>) -> f64 {
        self.gain_and_error(c, worlds).0
    }

    /// [`Searched::gain_in`] and its standard error, as the gate reads them.
    fn gain_and_error(&self, c: usize, worlds: std::ops::Range<usize>) -> (f64, f64) {
        let (r, w) = self.worlds(worlds);
        let d: Vec<f64> = (r[c].iter().zip(&r[0]))
            .map(|(a, b)| f64::from(a - b))
            .collect();
        agents::belief::weighted_gain(&d, &w)
    }
}

/// The searched decisions of every seat in strong's self-play on deals `deals`, with
/// `per` worlds for every candidate (`None`: as many as the default expert gives them); with
/// `wide`, every other legal move is a candidate too (after the expert's own); with
/// `walls` above 0, each candidate's expected points with the true hands over that many
/// walls dealt again.
fn searched_decisions(
    rules: &TableRules,
    deals: std::ops::Range<u64>,
    per: Option<usize>,
    wide: bool,
    walls: usize,
) -> Vec<Searched> {
    let mut out = Vec::new();
    for d in deals {
        let mut t = Table::new(Setup::generate(rules.wall, d), rules.clone());
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| {
            let mut b = PlanBot::strong();
            b.rules = rules.scoring.clone();
            b
        });
        let mut experts: [ExpertBot; 4] = std::array::from_fn(|s| {
            let playouts = per.map_or(PLAYOUTS, |_| DIAGNOSED_PLAYOUTS);
            ExpertBot::new(rules.clone(), d * 4 + s as u64, playouts)
        });
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let a = bots[seat.index()].act(&view);
            let e = &mut experts[seat.index()];
            if let Some(mut candidates) = e.to_search(&view, a) {
                let own = candidates.len();
                if wide {
                    let others: Vec<Action> = (view.legal.iter().copied())
                        .filter(|x| !candidates.contains(x))
                        .collect();
                    candidates.extend(others);
                }
                let n = per.unwrap_or_else(|| e.per_candidate(&candidates));
                let worlds = e.worlds(&view, n);
                e.searched_one();
                let results = e.play_out(&view, &candidates, &worlds).points;
                let truth = (candidates.iter())
                    .map(|&c| {
                        let mut x = t.clone();
                        x.apply(seat, c).unwrap();
                        playout(x, &rules.scoring, seat).0
                    })
                    .collect();
                let mut rng = ChaCha8Rng::seed_from_u64(7 + d * 4096 + e.searched());
                let oracle = crate::truth::oracle_worlds(&t, &view, walls, &mut rng);
                let expected = if oracle.is_empty() {
                    Vec::new()
                } else {
                    (e.play_out(&view, &candidates, &oracle).points.iter())
                        .map(|r| r.iter().map(|&p| f64::from(p)).sum::<f64>() / r.len() as f64)
                        .collect()
                };
                out.push(Searched {
                    hand: (d, seat.index()),
                    claim: !matches!(view.decision, Some(Decision::Turn { .. })),
                    candidates,
                    own,
                    weights: worlds.iter().map(|w| w.1).collect(),
                    results,
                    truth,
                    expected,
                });
            }
            t.apply(seat, a).unwrap();
        }
    }
    out
}

/// Worlds a candidate in the departure diagnostics.
pub const WORLDS: usize = 48;

/// The searched decisions of strong's self-play on `k.deals` deals from `k.first`, on
/// both cores, `k.per` worlds a candidate (0: as the default expert shares its playouts;
/// `wide`: every legal move a candidate); `k.walls` walls dealt again with the true hands
/// for each decision's expected points; `k.dump` receives them as JSON Lines. With the
/// deals and the first.
fn self_play_decisions(k: &Knobs, wide: bool) -> (Vec<Searched>, u64, u64) {
    let rules = TableRules::seeds();
    let (deals, first) = (k.deals, k.first);
    let per = Some(k.per).filter(|&p| p > 0);
    let walls = k.walls;
    let data = on_both_cores(first..first + deals, |part| {
        searched_decisions(&rules, part, per, wide, walls)
    });
    if let Some(path) = &k.dump {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        for s in &data {
            // Each other candidate's mean gain over strong's choice and its standard
            // error, as the gate reads them, so that a script judging gate rules on the
            // dump does not compute them again.
            let gains: Vec<(f64, f64)> = (1..s.results.len())
                .map(|c| s.gain_and_error(c, 0..s.weights.len()))
                .collect();
            let line = serde_json::json!({"hand": s.hand, "claim": s.claim, "own": s.own,
                "results": s.results, "weights": s.weights, "truth": s.truth,
                "expected": s.expected, "gains": gains});
            writeln!(f, "{line}").unwrap();
        }
    }
    (data, deals, first)
}

/// What the search's departures from strong's choice are worth, on the same searched
/// decisions of every seat in strong's self-play ([`WORLDS`] worlds a candidate, `--per 0`
/// as the default expert shares its playouts): each departure counted by what it changes
/// on the real table, the rest of the hand played by strong (a departure's worth in the
/// arena, if it were the hand's only one), in IMP against a field of four (rules §5) per
/// seat and hand; with `--walls n`, by the gain expected with the other hands as they really
/// are over `n` walls dealt again (what a perfect belief would expect, in points: far less
/// noisy than one real table), against gate 2's on the same decisions; and, chosen on half
/// of each decision's worlds, the gain it seemed to have there against the gain on the
/// other half and on the real table.
pub fn departures(k: &Knobs) {
    let (data, deals, first) = self_play_decisions(k, false);
    let in_imp: Vec<Searched> = data.iter().map(Searched::as_imp).collect();
    let hands = (deals * 4) as usize;
    let slot = |s: &Searched| ((s.hand.0 - first) * 4) as usize + s.hand.1;
    let claims = data.iter().filter(|s| s.claim).count();
    println!(
        "{} searched decisions ({claims} claims) on {hands} seat-hands of {deals} deals from {first}",
        data.len()
    );
    println!(
        "worlds of one chain against independent ones: a design effect of {:.3}",
        design_effect(&data)
    );
    let gated = |gate: f64| {
        let config = ExpertConfig {
            gate,
            playouts: DIAGNOSED_PLAYOUTS,
            ..ExpertConfig::default()
        };
        ExpertBot::with_config(TableRules::seeds(), 0, config)
    };
    // The gain expected with the true hands, per seat-hand, of `bot`'s departures.
    let expected_at = |bot: &ExpertBot| {
        let mut per_hand = vec![0.0; hands];
        for s in data.iter().filter(|s| !s.expected.is_empty()) {
            if let Some((c, _)) = s.departure(bot, s.candidates.len(), 0..s.weights.len()) {
                per_hand[slot(s)] += s.expected[c] - s.expected[0];
            }
        }
        per_hand
    };
    let at_two = expected_at(&gated(2.0));
    for gate in [1.0, 1.5, 2.0, 2.5] {
        let bot = gated(gate);
        for (name, judged) in [("points", &data), ("IMP", &in_imp)] {
            let mut per_hand = vec![0.0; hands];
            let mut n = 0;
            for s in judged {
                if let Some((c, _)) = s.departure(&bot, s.candidates.len(), 0..s.weights.len()) {
                    per_hand[slot(s)] += f64::from(field_imp(s.truth[c] - s.truth[0]));
                    n += 1;
                }
            }
            let (m, se) = mean_se(&per_hand);
            println!(
                "gate {gate:.1}, mean gain in {name:6}: {n:5} departures, on the real table {m:+.3} ± {se:.3} IMP a seat-hand"
            );
        }
        if data.iter().any(|s| !s.expected.is_empty()) {
            let per_hand = expected_at(&bot);
            let against: Vec<f64> = per_hand.iter().zip(&at_two).map(|(a, b)| a - b).collect();
            let ((m, se), (d, d_se)) = (mean_se(&per_hand), mean_se(&against));
            println!(
                "  expected with the true hands {m:+.3} ± {se:.3} points a seat-hand; against gate 2 on the same decisions {d:+.3} ± {d_se:.3}"
            );
        }
        for (kind, claim) in [("turns", false), ("claims", true)] {
            let (mut seen, mut fresh, mut real) = (Vec::new(), Vec::new(), Vec::new());
            let mut worlds = 0;
            for s in data.iter().filter(|s| {
                s.weights.len() >= 2 * ExpertConfig::default().min_worlds && s.claim == claim
            }) {
                let (n, half) = (s.weights.len(), s.weights.len() / 2);
                if let Some((c, gain)) = s.departure(&bot, s.candidates.len(), 0..half) {
                    seen.push(gain);
                    fresh.push(s.gain_in(c, half..n));
                    real.push(f64::from(s.truth[c] - s.truth[0]));
                    worlds += half;
                }
            }
            let ((sm, _), (fm, fse), (rm, rse)) = (mean_se(&seen), mean_se(&fresh), mean_se(&real));
            println!(
                "  {kind:6} chosen on half the worlds ({:.0} on average): {:4} departures, gain there {sm:+.2}, on the other half {fm:+.2} ± {fse:.2} ({:+.2} a seat-hand), on the real table {rm:+.2} ± {rse:.2} points",
                worlds as f64 / seen.len().max(1) as f64,
                seen.len(),
                fresh.iter().sum::<f64>() / hands as f64,
            );
        }
    }
}

/// How much the worlds one chain gives share their luck: for every candidate against
/// strong's choice, the variance of the chains' mean differences over the variance that
/// independent worlds would give them (1: independent; the gate's standard errors are
/// too small by its square root), averaged over the decisions with two worlds a chain or
/// more (the worlds come chain by chain).
fn design_effect(data: &[Searched]) -> f64 {
    let mut ratios = Vec::new();
    for s in (data.iter()).filter(|s| s.weights.len() >= 2 * CHAINS.chains) {
        let per = s.weights.len().div_ceil(CHAINS.chains);
        for r in &s.results[1..] {
            let d: Vec<f64> = (r.iter().zip(&s.results[0]))
                .map(|(a, b)| f64::from(a - b))
                .collect();
            let chains: Vec<f64> = (d.chunks(per))
                .map(|c| c.iter().sum::<f64>() / c.len() as f64)
                .collect();
            let (_, se) = mean_se(&d);
            let (_, chain_se) = mean_se(&chains);
            if se > 0.0 {
                ratios.push((chain_se / se).powi(2));
            }
        }
    }
    ratios.iter().sum::<f64>() / ratios.len().max(1) as f64
}

/// Whether moves the expert leaves unsearched on a turn are worth searching: every legal
/// move a candidate (strong's self-play, [`WORLDS`] worlds each), the move chosen on half
/// of the worlds among the expert's own candidates or among them all, measured on the
/// other half.
pub fn wider(k: &Knobs) {
    let (data, deals, first) = self_play_decisions(k, true);
    let turns: Vec<&Searched> = (data.iter())
        .filter(|s| !s.claim && s.weights.len() == WORLDS)
        .collect();
    let (own, all) = turns
        .iter()
        .fold((0, 0), |(o, a), s| (o + s.own, a + s.candidates.len()));
    println!(
        "{} turns searched in {deals} deals from {first}: {own} candidates of the expert's own, {all} legal moves",
        turns.len()
    );
    let hands = (deals * 4) as f64;
    for gate in [1.0, 2.0, 2.5] {
        let config = ExpertConfig {
            gate,
            playouts: DIAGNOSED_PLAYOUTS,
            ..ExpertConfig::default()
        };
        let bot = ExpertBot::with_config(TableRules::seeds(), 0, config);
        for (name, every) in [("its own candidates", false), ("every legal move", true)] {
            let mut fresh = Vec::new();
            for s in &turns {
                let n = if every { s.candidates.len() } else { s.own };
                if let Some((c, _)) = s.departure(&bot, n, 0..WORLDS / 2) {
                    fresh.push(s.gain_in(c, WORLDS / 2..WORLDS));
                }
            }
            let (m, se) = mean_se(&fresh);
            println!(
                "gate {gate:.1}, chosen among {name:18}: {:5} departures, on the other worlds {m:+.2} ± {se:.2} points ({:+.2} a seat-hand)",
                fresh.len(),
                fresh.iter().sum::<f64>() / hands
            );
        }
    }
}

/// Every claim decision of strong's self-play, each legal answer played out in the same
/// worlds, with what strong's planner knows of it (the distance now and after each
/// answer): written as JSON Lines to `out` for looking for rules strong's claims miss.
pub fn claims_by_kind(deals: u64, first: u64, out: &std::path::Path) {
    use std::io::Write;
    let rules = TableRules::seeds();
    let lines = on_both_cores(first..first + deals, |part| claim_lines(&rules, part));
    let path = out;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for l in &lines {
        writeln!(f, "{l}").unwrap();
    }
    println!(
        "{} claim decisions in {deals} deals from {first}",
        lines.len()
    );
}

/// [`claims_by_kind`]'s lines for the deals `deals`.
fn claim_lines(rules: &TableRules, deals: std::ops::Range<u64>) -> Vec<String> {
    let mut out = Vec::new();
    for d in deals {
        let mut t = Table::new(Setup::generate(rules.wall, d), rules.clone());
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        let mut experts: [ExpertBot; 4] = std::array::from_fn(|s| {
            ExpertBot::new(rules.clone(), d * 4 + s as u64, DIAGNOSED_PLAYOUTS)
        });
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let b = &mut bots[seat.index()];
            let a = b.act(&view);
            let claim = matches!(view.decision, Some(Decision::Claim { .. }));
            if claim && view.legal.len() > 1 && !view.legal.contains(&Action::Hu) {
                let (now, after) = b.claim_outlook(&view).unwrap();
                let mut cands = vec![a];
                cands.extend(view.legal.iter().copied().filter(|x| *x != a));
                let e = &mut experts[seat.index()];
                let worlds = e.worlds(&view, WORLDS);
                e.searched_one();
                let res = e.play_out(&view, &cands, &worlds).points;
                let w: Vec<f64> = worlds.iter().map(|x| x.1).collect();
                let alts: Vec<_> = (cands.iter().zip(&res))
                        .map(|(c, r)| {
                            let dd: Vec<f64> = (r.iter().zip(&res[0]))
                                .map(|(x, y)| f64::from(x - y))
                                .collect();
                            let (m, se) = agents::belief::weighted_gain(&dd, &w);
                            let aft = after.iter().find(|x| x.0 == *c).map(|x| x.1);
                            serde_json::json!({"a": format!("{c:?}"), "after": aft,
                                "gain": m, "se": se,
                                "mean": r.iter().map(|&x| f64::from(x)).sum::<f64>() / r.len() as f64})
                        })
                        .collect();
                let Some(Decision::Claim { tile, from, .. }) = view.decision else {
                    unreachable!()
                };
                let others_melds: usize = (0..4)
                    .filter(|&o| o != seat.index())
                    .map(|o| view.melds[o].len())
                    .sum();
                out.push(serde_json::json!({"deal": d, "seat": seat.index(),
                        "tile": tile.to_string(), "from": format!("{from:?}"),
                        "now": now, "wall": view.wall_left[seat.index()],
                        "melds": view.melds[seat.index()].len(),
                        "shanten": mcr::wait::shanten_regular(view.hand.counts(), view.melds[seat.index()].len()),
                        "others_melds": others_melds,
                        "alts": alts}).to_string());
            }
            t.apply(seat, a).unwrap();
        }
    }
    out
}
