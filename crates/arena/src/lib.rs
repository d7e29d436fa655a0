//! # arena — measuring bots on the same deals
//!
//! The duplicate arena: bots play the same deals in every seat, and each is compared with
//! whoever held the same tiles.
//!
//! - `rotate`: a challenger and three copies of a baseline; each deal is played four times
//!   with the challenger in each seat ("1 vs 3").
//! - `permute`: four bots, each deal played with all 24 seatings.
//!
//! For every deal and seat, each result is compared with the average of all results at that
//! seat (SPEC §5) and converted to IMP. A bot's IMP per hand on a deal is the unit of its
//! confidence interval: deals are independent, the hands of one deal are not.
//! Deals run in parallel; results are combined in deal order, so they do not depend on the
//! number of threads.

use std::sync::atomic::{AtomicBool, Ordering};

use mcr::Wind;
use rayon::prelude::*;
use serde::Serialize;

use agents::bots::Agent;
use agents::play::{play_hand, play_table};
use table::log::HandLog;
use table::points::imp_of_dif;
use table::rules::TableRules;
use table::wall::Setup;

/// How the bots are seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Rotate,
    Permute,
    /// A movement: for each deal of its cycle, the tables with the entrant at each seat
    /// (E, S, W, N). Deal i uses entry i mod the cycle's length.
    Field(Vec<Vec<[usize; 4]>>),
}

/// Makes a bot for one hand from a seed.
pub type BotFactory = Box<dyn Fn(u64) -> Box<dyn Agent + Send> + Send + Sync>;

/// A named bot of the lineup.
pub struct Entrant {
    pub name: String,
    pub make: BotFactory,
    /// For a bot in another process: its pool, which counts errors and timeouts.
    pub pool: Option<std::sync::Arc<agents::external::BotPool>>,
}

/// The seatings of deal `deal`: for each table, the entrant index by seat.
pub fn seatings(mode: &Mode, entrants: usize, deal: u64) -> Vec<[usize; 4]> {
    match mode {
        Mode::Field(cycle) => cycle[(deal % cycle.len() as u64) as usize].clone(),
        Mode::Rotate => (0..4)
            .map(|k| std::array::from_fn(|s| if s == k { 0 } else { 1 }))
            .collect(),
        Mode::Permute => {
            let mut out = Vec::new();
            let n = entrants.min(4);
            for a in 0..4 {
                for b in 0..4 {
                    for c in 0..4 {
                        for d in 0..4 {
                            let p = [a, b, c, d];
                            let mut seen = [false; 4];
                            if p.iter().all(|&x| !std::mem::replace(&mut seen[x], true)) {
                                out.push(p.map(|x| x % n));
                            }
                        }
                    }
                }
            }
            out
        }
    }
}

/// One entrant's figures on one deal.
#[derive(Clone, Debug, Default, PartialEq)]
struct DealFigures {
    hands: u32,
    ms: i64,
    imp: i64,
    wins: u32,
    self_drawn: u32,
    dealt_in: u32,
    win_value: u64,
    draws: u32,
}

/// What one deal produced.
struct DealOutcome {
    per_entrant: Vec<DealFigures>,
    /// Per seat: the first entrant's mean ms there, and the others' mean ms at that seat
    /// (other tables, same tiles).
    seat_first: [f64; 4],
    seat_others: [f64; 4],
    /// The first entrant's match points in each of its hands, with its seat.
    first_hands: Vec<(usize, f64)>,
    logs: Vec<HandLog>,
}

fn play_deal(
    deal_index: u64,
    seed: u64,
    rules: &TableRules,
    entrants: &[Entrant],
    tables: &[[usize; 4]],
    keep_logs: bool,
) -> DealOutcome {
    // Duplicate deals or regular walls, as the rules say: the same tiles at every table.
    let deal = Setup::generate(rules.wall, seed.wrapping_add(deal_index));
    let mut results = Vec::new(); // (table, seat, entrant, result)
    let mut logs = Vec::new();
    for (t, seating) in tables.iter().enumerate() {
        let mut agents: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| {
            let bot_seed = (seed ^ deal_index.rotate_left(20))
                ^ ((t as u64) << 8 | s as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (entrants[seating[s]].make)(bot_seed)
        });
        let result = if keep_logs {
            let log = play_hand(deal.clone(), rules.clone(), &mut agents);
            let r = log.result.clone().expect("finished");
            logs.push(log);
            r
        } else {
            play_table(deal.clone(), rules.clone(), &mut agents)
                .0
                .result()
                .cloned()
                .expect("finished")
        };
        results.push((t, *seating, result));
    }
    let mut per = vec![DealFigures::default(); entrants.len()];
    for seat in Wind::ALL {
        let s = seat.index();
        let n = results.len() as i64;
        let sum: i64 = results.iter().map(|(_, _, r)| r.points[s] as i64).sum();
        for (_, seating, r) in &results {
            let f = &mut per[seating[s]];
            let ms = r.points[s] as i64;
            let imp = imp_of_dif(ms * n - sum, n);
            f.hands += 1;
            f.ms += ms;
            f.imp += imp as i64;
            if r.kind == table::Outcome::Draw {
                f.draws += 1;
            }
            if r.discarder == Some(seat) {
                f.dealt_in += 1;
            }
            if let Some(w) = r.wins.iter().find(|w| w.seat == seat) {
                f.wins += 1;
                f.win_value += w.value as u64;
                if w.self_drawn {
                    f.self_drawn += 1;
                }
            }
        }
    }
    let seat_mean = |s: usize, first: bool| {
        let v: Vec<f64> = results
            .iter()
            .filter(|(_, seating, _)| (seating[s] == 0) == first)
            .map(|(_, _, r)| r.points[s] as f64)
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let first_hands = results
        .iter()
        .flat_map(|(_, seating, r)| {
            (0..4)
                .filter(|&s| seating[s] == 0)
                .map(|s| (s, r.points[s] as f64))
        })
        .collect();
    DealOutcome {
        first_hands,
        per_entrant: per,
        seat_first: std::array::from_fn(|s| seat_mean(s, true)),
        seat_others: std::array::from_fn(|s| seat_mean(s, false)),
        logs,
    }
}

/// One entrant's line of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotReport {
    pub name: String,
    pub hands: u64,
    pub mean_ms: f64,
    /// Mean IMP per hand. IMP do not add up to zero at a deal-seat (one big win against
    /// several small losses gives a negative sum), so everyone's mean is a little below 0.
    pub imp_per_hand: f64,
    /// Mean IMP per hand minus that of the other entrants' hands on the same deals, with its
    /// 95% confidence interval from the per-deal differences: 0 in expectation for equal bots.
    pub imp_vs_others: f64,
    pub imp_ci95: (f64, f64),
    pub win_rate: f64,
    pub deal_in_rate: f64,
    pub self_drawn_share: f64,
    pub average_win: f64,
    pub draw_rate: f64,
    pub errors: u64,
    pub timeouts: u64,
}

/// The arena's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub mode: String,
    pub rules: String,
    pub seed: u64,
    pub deals: u64,
    /// False when stopped early; `deals` counts the deals finished.
    pub complete: bool,
    pub bots: Vec<BotReport>,
    /// Standard deviation of the per-deal IMP per hand of the first entrant.
    pub per_deal_sd: f64,
    /// The first entrant's result at a seat minus the others' at that seat, in IMP, on the
    /// same deal (paired) and on the next deal (unpaired), one value per deal and seat: the
    /// standard deviations show what playing the same tiles removes.
    pub paired_sd: f64,
    pub unpaired_sd: f64,
    /// The first entrant's match points hand by hand, as a regular game scores them: their
    /// standard deviation; then its hands minus the others' mean at the same seat of the same
    /// deal (duplicate) and of the next deal (as regular play compares players who held
    /// other tiles). `hands_ratio`, the ratio of the last two variances, is how many times
    /// more hands the comparison without duplicate needs for the same precision.
    pub per_hand_sd_ms: f64,
    pub paired_sd_ms: f64,
    pub unpaired_sd_ms: f64,
    pub hands_ratio: f64,
}

/// Receives every hand log with its deal index, in deal order.
pub type LogSink<'a> = &'a mut dyn FnMut(u64, &HandLog);

/// Settings of a run.
pub struct Run<'a> {
    pub mode: Mode,
    pub deals: u64,
    pub seed: u64,
    pub rules: TableRules,
    pub entrants: &'a [Entrant],
    /// Set from another thread (Ctrl-C) to stop after the deals under way.
    pub stop: &'a AtomicBool,
    /// Called once per finished deal.
    pub progress: &'a (dyn Fn() + Sync),
    /// Called with every hand log, in deal order, when set.
    pub on_log: Option<LogSink<'a>>,
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Runs the arena.
pub fn run(mut r: Run) -> Report {
    let keep_logs = r.on_log.is_some();
    // Deals in chunks, so that a stop request ends the run soon and logs stay in order.
    let chunk = 64u64;
    let mut outcomes: Vec<DealOutcome> = Vec::new();
    let mut start = 0u64;
    while start < r.deals && !r.stop.load(Ordering::Relaxed) {
        let end = (start + chunk).min(r.deals);
        let batch: Vec<Option<DealOutcome>> = (start..end)
            .into_par_iter()
            .map(|i| {
                if r.stop.load(Ordering::Relaxed) {
                    return None;
                }
                let tables = seatings(&r.mode, r.entrants.len(), i);
                let o = play_deal(i, r.seed, &r.rules, r.entrants, &tables, keep_logs);
                (r.progress)();
                Some(o)
            })
            .collect();
        // Keep the finished prefix only, so every report covers deals 0..k.
        for (k, o) in batch.into_iter().enumerate() {
            match o {
                Some(o) => {
                    if let Some(cb) = r.on_log.as_mut() {
                        for log in &o.logs {
                            cb(start + k as u64, log);
                        }
                    }
                    outcomes.push(o);
                }
                None => break,
            }
        }
        start = end;
        if (outcomes.len() as u64) < start {
            break;
        }
    }
    let finished = outcomes.len() as u64;
    let bots = r
        .entrants
        .iter()
        .enumerate()
        .map(|(e, entrant)| {
            let mut tot = DealFigures::default();
            let mut raw = Vec::new();
            let mut per_deal = Vec::new();
            for o in &outcomes {
                let f = &o.per_entrant[e];
                if f.hands == 0 {
                    continue;
                }
                let (others_imp, others_hands) = o
                    .per_entrant
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != e)
                    .fold((0i64, 0u32), |(i, h), (_, x)| (i + x.imp, h + x.hands));
                let own = f.imp as f64 / f.hands as f64;
                raw.push(own);
                per_deal.push(own - others_imp as f64 / others_hands.max(1) as f64);
                tot.hands += f.hands;
                tot.ms += f.ms;
                tot.imp += f.imp;
                tot.wins += f.wins;
                tot.self_drawn += f.self_drawn;
                tot.dealt_in += f.dealt_in;
                tot.win_value += f.win_value;
                tot.draws += f.draws;
            }
            let (mean, sd) = mean_sd(&per_deal);
            let raw_mean = mean_sd(&raw).0;
            let half = if per_deal.len() > 1 {
                1.96 * sd / (per_deal.len() as f64).sqrt()
            } else {
                f64::NAN
            };
            let h = tot.hands.max(1) as f64;
            BotReport {
                name: entrant.name.clone(),
                hands: tot.hands as u64,
                mean_ms: tot.ms as f64 / h,
                imp_per_hand: raw_mean,
                imp_vs_others: mean,
                imp_ci95: (mean - half, mean + half),
                win_rate: tot.wins as f64 / h,
                deal_in_rate: tot.dealt_in as f64 / h,
                self_drawn_share: tot.self_drawn as f64 / tot.wins.max(1) as f64,
                average_win: tot.win_value as f64 / tot.wins.max(1) as f64,
                draw_rate: tot.draws as f64 / h,
                errors: entrant
                    .pool
                    .as_ref()
                    .map_or(0, |p| p.errors.load(Ordering::Relaxed)),
                timeouts: entrant
                    .pool
                    .as_ref()
                    .map_or(0, |p| p.timeouts.load(Ordering::Relaxed)),
            }
        })
        .collect();
    let first: Vec<f64> = outcomes
        .iter()
        .filter(|o| o.per_entrant[0].hands > 0)
        .map(|o| o.per_entrant[0].imp as f64 / o.per_entrant[0].hands as f64)
        .collect();
    // The first entrant's result at a seat against the others' at the same seat of the
    // same deal (the duplicate comparison) and of the next deal (as if they had been dealt
    // other tiles), in IMP, one value per deal and seat: averaging the four seats of a deal
    // would already cancel most of the tiles' luck, which is what the rotation is for.
    let imp = |d: f64| imp_of_dif((d * 4.0).round() as i64, 4) as f64;
    let k = outcomes.len();
    let versus =
        |i: usize, j: usize, s: usize| imp(outcomes[i].seat_first[s] - outcomes[j].seat_others[s]);
    let cells = || (0..k).flat_map(|i| (0..4).map(move |s| (i, s)));
    let paired: Vec<f64> = cells().map(|(i, s)| versus(i, i, s)).collect();
    let unpaired: Vec<f64> = cells().map(|(i, s)| versus(i, (i + 1) % k, s)).collect();
    let alone: Vec<f64> = outcomes
        .iter()
        .flat_map(|o| o.first_hands.iter().map(|&(_, ms)| ms))
        .collect();
    let against = |shift: usize| -> Vec<f64> {
        let n = outcomes.len();
        (0..n)
            .flat_map(|i| {
                let others = &outcomes[(i + shift) % n].seat_others;
                outcomes[i]
                    .first_hands
                    .iter()
                    .map(move |&(s, ms)| ms - others[s])
            })
            .collect()
    };
    let per_hand_sd_ms = mean_sd(&alone).1;
    let paired_sd_ms = mean_sd(&against(0)).1;
    let unpaired_sd_ms = mean_sd(&against(1)).1;
    Report {
        per_hand_sd_ms,
        paired_sd_ms,
        unpaired_sd_ms,
        hands_ratio: if paired_sd_ms > 0.0 {
            (unpaired_sd_ms / paired_sd_ms).powi(2)
        } else {
            f64::NAN
        },
        mode: match r.mode {
            Mode::Rotate => "rotate".into(),
            Mode::Permute => "permute".into(),
            Mode::Field(_) => "field".into(),
        },
        rules: r.rules.name.into(),
        seed: r.seed,
        deals: finished,
        complete: finished == r.deals,
        bots,
        per_deal_sd: mean_sd(&first).1,
        paired_sd: mean_sd(&paired).1,
        unpaired_sd: mean_sd(&unpaired).1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::bots::builtin;

    fn entrants(names: &[&str]) -> Vec<Entrant> {
        names
            .iter()
            .map(|n| {
                let n = n.to_string();
                Entrant {
                    name: n.clone(),
                    make: Box::new(move |s| builtin(&n, s).unwrap()),
                    pool: None,
                }
            })
            .collect()
    }

    fn report(threads: usize, mode: Mode, names: &[&str], deals: u64) -> Report {
        let e = entrants(names);
        let stop = AtomicBool::new(false);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            run(Run {
                mode,
                deals,
                seed: 5,
                rules: TableRules::seeds(),
                entrants: &e,
                stop: &stop,
                progress: &|| {},
                on_log: None,
            })
        })
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let a = report(1, Mode::Rotate, &["greedy", "random"], 40);
        let b = report(2, Mode::Rotate, &["greedy", "random"], 40);
        assert_eq!(a, b);
        let c = report(
            2,
            Mode::Permute,
            &["greedy", "random", "greedy", "random"],
            6,
        );
        assert_eq!(c.bots.iter().map(|b| b.hands).sum::<u64>(), 6 * 24 * 4);
    }

    #[test]
    fn the_better_bot_wins_and_a_stop_is_honoured() {
        let r = report(2, Mode::Rotate, &["greedy", "random"], 60);
        assert!(r.bots[0].imp_ci95.0 > 0.0, "{:?}", r.bots[0]);
        let e = entrants(&["greedy", "greedy"]);
        let stop = AtomicBool::new(true);
        let r = run(Run {
            mode: Mode::Rotate,
            deals: 100,
            seed: 1,
            rules: TableRules::seeds(),
            entrants: &e,
            stop: &stop,
            progress: &|| {},
            on_log: None,
        });
        assert!(!r.complete);
        assert_eq!(r.deals, 0);
    }

    #[test]
    fn seatings_cover_every_seat() {
        let rot = seatings(&Mode::Rotate, 2, 0);
        assert_eq!(rot.len(), 4);
        for s in 0..4 {
            assert_eq!(rot.iter().filter(|t| t[s] == 0).count(), 1);
        }
        let perm = seatings(&Mode::Permute, 4, 0);
        assert_eq!(perm.len(), 24);
        for e in 0..4 {
            for s in 0..4 {
                assert_eq!(perm.iter().filter(|t| t[s] == e).count(), 6);
            }
        }
    }
}
