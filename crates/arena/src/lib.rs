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
//! seat (rules §5) and converted to IMP. A bot's IMP per hand on a deal is the unit of its
//! confidence interval: deals are independent, the hands of one deal are not.
//! Deals run in parallel; results are combined in deal order, so they do not depend on the
//! number of threads.

#![deny(missing_docs)]

pub mod part;
pub mod report;

use std::sync::atomic::{AtomicBool, Ordering};

use mcr::Wind;
use rayon::prelude::*;
use report::DealFigures;
pub use report::{BotReport, DealOutcome, Meta, NoiseFloor, Report, Tally};

use agents::agent::Agent;
use agents::drive::{play_hand, play_table};
use table::log::HandLog;
use table::points::imp_of_dif;
use table::rules::TableRules;
use table::wall::Setup;

/// How the bots are seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Rotate: the first bot against three copies of the second, in every seat.
    Rotate,
    /// Permute: four bots in all 24 seatings of every deal.
    Permute,
    /// A movement: for each deal of its cycle, the tables with the entrant at each seat
    /// (E, S, W, N). Deal i uses entry i mod the cycle's length.
    Field(Vec<Vec<[usize; 4]>>),
}

/// Makes a bot for one hand from a seed.
pub type BotFactory = Box<dyn Fn(u64) -> Box<dyn Agent + Send> + Send + Sync>;

/// A named bot of the lineup.
pub struct Entrant {
    /// Its name in the report.
    pub name: String,
    /// Makes a player for one hand from a seed.
    pub make: BotFactory,
    /// For a bot in another process: its pool, which counts errors and timeouts.
    pub pool: Option<std::sync::Arc<agents::pool::BotPool>>,
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
    let mut results = Vec::new(); // (seating, result)
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
        results.push((*seating, result));
    }
    tally_deal(&results, entrants.len(), logs)
}

/// One deal's outcome from its tables' results (each with its seating: the entrant index
/// by seat): every result against the mean of all results at that seat, in IMP (rules §5).
pub fn tally_deal(
    results: &[([usize; 4], table::HandResult)],
    entrants: usize,
    logs: Vec<HandLog>,
) -> DealOutcome {
    let mut per = vec![DealFigures::default(); entrants];
    for seat in Wind::ALL {
        let s = seat.index();
        let n = results.len() as i64;
        let sum: i64 = results.iter().map(|(_, r)| r.points[s] as i64).sum();
        for (seating, r) in results {
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
            .filter(|(seating, _)| (seating[s] == 0) == first)
            .map(|(_, r)| r.points[s] as f64)
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let first_hands = results
        .iter()
        .flat_map(|(seating, r)| {
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

/// Receives every hand log with its deal index, in deal order.
pub type LogSink<'a> = &'a mut dyn FnMut(u64, &HandLog);

/// Settings of a run.
pub struct Run<'a> {
    /// How the entrants are seated.
    pub mode: Mode,
    /// Deals to play.
    pub deals: u64,
    /// Seed of the first deal.
    pub seed: u64,
    /// The table rules.
    pub rules: TableRules,
    /// The bots compared.
    pub entrants: &'a [Entrant],
    /// Set from another thread (Ctrl-C) to stop after the deals under way.
    pub stop: &'a AtomicBool,
    /// Called once per finished deal.
    pub progress: &'a (dyn Fn() + Sync),
    /// Called with every hand log, in deal order, when set.
    pub on_log: Option<LogSink<'a>>,
}

/// The mode's name in reports: `rotate`, `permute` or `field`.
pub fn mode_name(m: &Mode) -> &'static str {
    match m {
        Mode::Rotate => "rotate",
        Mode::Permute => "permute",
        Mode::Field(_) => "field",
    }
}

/// Runs the arena.
pub fn run(mut r: Run) -> Report {
    let all: Vec<u64> = (0..r.deals).collect();
    let outcomes: Vec<DealOutcome> = play(&mut r, &all).into_iter().map(|(_, o)| o).collect();
    let finished = outcomes.len() as u64;
    report::build(&meta(&r), &tallies(&r), &outcomes, finished == r.deals)
}

/// Plays shard `index` of `count` (0-based): deals `index`, `index + count`, … of the run.
pub fn run_shard(mut r: Run, index: u64, count: u64) -> part::Part {
    let mine: Vec<u64> = (index..r.deals).step_by(count.max(1) as usize).collect();
    let outcomes = play(&mut r, &mine);
    part::Part {
        format: part::FORMAT.into(),
        meta: meta(&r),
        shard: (index + 1, count),
        complete: outcomes.len() == mine.len(),
        tallies: tallies(&r),
        outcomes,
    }
}

/// The report's description of a run.
pub fn meta(r: &Run) -> Meta {
    Meta {
        mode: mode_name(&r.mode).into(),
        rules: r.rules.name.into(),
        seed: r.seed,
        deals: r.deals,
    }
}

fn tallies(r: &Run) -> Vec<Tally> {
    r.entrants.iter().map(Tally::of).collect()
}

/// Plays `deals` (in order) in parallel chunks; the finished prefix, each with its index.
fn play(r: &mut Run, deals: &[u64]) -> Vec<(u64, DealOutcome)> {
    let keep_logs = r.on_log.is_some();
    // Deals in chunks, so that a stop request ends the run soon and logs stay in order.
    let mut outcomes = Vec::new();
    for chunk in deals.chunks(64) {
        if r.stop.load(Ordering::Relaxed) {
            break;
        }
        let batch: Vec<Option<DealOutcome>> = chunk
            .par_iter()
            .map(|&i| {
                if r.stop.load(Ordering::Relaxed) {
                    return None;
                }
                let tables = seatings(&r.mode, r.entrants.len(), i);
                let o = play_deal(i, r.seed, &r.rules, r.entrants, &tables, keep_logs);
                (r.progress)();
                Some(o)
            })
            .collect();
        // Keep the finished prefix only, so every report covers the first k deals.
        let before = outcomes.len();
        for (&i, o) in chunk.iter().zip(batch) {
            let Some(o) = o else { break };
            if let Some(cb) = r.on_log.as_mut() {
                for log in &o.logs {
                    cb(i, log);
                }
            }
            outcomes.push((i, o));
        }
        if outcomes.len() - before < chunk.len() {
            break;
        }
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::registry::builtin;

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
