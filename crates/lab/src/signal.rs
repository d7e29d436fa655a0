//! `lab rating-signal`: which evidence tells a player's level soonest. Each level plays a
//! deal-seat alone with three `strong` bots (as the site's challenges seat a person) and is
//! compared with the par, four `strong` on the same deal. For every hand it keeps the IMP
//! there (what the rating reads) and the loss the expert's review puts on the seat's
//! decisions (expected match points given up against the best move it saw). From their
//! spread it says how many hands each would need to put one level above the next at 95 %
//! (docs/rating.md, "What the goal of 500 hands would take").

use std::sync::Mutex;

use agents::expert::ExpertBot;
use agents::registry::builtin;
use mcr::Wind;
use table::deal::Deal;
use table::rules::TableRules;

use crate::common::mean_se;

#[derive(clap::Args)]
pub struct Knobs {
    /// Deals; every level holds one seat of each (the seat turns with the deal)
    #[arg(long, default_value_t = 100)]
    deals: u64,
    /// The first deal's seed
    #[arg(long, default_value_t = 90_000)]
    first: u64,
    /// The levels, weakest first
    #[arg(long, value_delimiter = ',', default_values_t = ["medium".to_string(), "strong".to_string()])]
    levels: Vec<String>,
    /// The reviewing expert's budget a decision
    #[arg(long, default_value_t = 50)]
    think_ms: u32,
    /// Threads
    #[arg(long, default_value_t = 2)]
    threads: u64,
}

/// One level's hand: its IMP against the par, the review's loss and the decisions weighed.
#[derive(Clone, Copy, Default)]
struct Hand {
    imp: f64,
    loss: f64,
    weighed: usize,
    /// Whether the hand went otherwise than the par's (any decision at the table differs).
    apart: bool,
}

/// Deal `seed` with `level` at `seat` among three `strong`, and the par's points there.
fn played(seed: u64, seat: Wind, level: &str, think_ms: u32) -> Result<Hand, String> {
    let rules = TableRules::seeds();
    let bots = |mine: &str| -> Result<[Box<dyn agents::agent::Agent + Send>; 4], String> {
        let mut out = Vec::new();
        for s in 0..4 {
            let name = if s == seat.index() { mine } else { "strong" };
            out.push(builtin(name, seed ^ s as u64).ok_or(format!("no bot named {name}"))?);
        }
        Ok(out.try_into().unwrap_or_else(|_| unreachable!()))
    };
    let points =
        |log: &table::log::HandLog| log.result.as_ref().map_or(0, |r| r.points[seat.index()]);
    let par = agents::drive::play_hand(Deal::generate(seed), rules.clone(), &mut bots("strong")?);
    let log = agents::drive::play_hand(Deal::generate(seed), rules.clone(), &mut bots(level)?);
    let imp = tournament::challenge::compare(&[(0, points(&log)), (1, points(&par))])[0].imp;
    let mut expert = ExpertBot::thinking(rules, seed ^ 0x5eed, think_ms);
    let review = agents::review::review(&log, seat, &mut expert).map_err(|e| e.0)?;
    Ok(Hand {
        imp: f64::from(imp),
        loss: review.expected_loss,
        weighed: review.weighed,
        apart: log.actions != par.actions,
    })
}

fn sd(v: &[f64]) -> f64 {
    let (_, se) = mean_se(v);
    se * (v.len() as f64).sqrt()
}

fn corr(a: &[f64], b: &[f64]) -> f64 {
    let (ma, mb) = (mean_se(a).0, mean_se(b).0);
    let cov: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let (sa, sb) = (sd(a), sd(b));
    if sa == 0.0 || sb == 0.0 {
        return 0.0;
    }
    cov / (a.len() as f64 - 1.0) / (sa * sb)
}

/// Hands per player that keep two players `d` apart at 95 %, each measured with spread
/// `spread` a hand: `d > 1.96 × √2 × spread / √n`.
fn hands_needed(d: f64, spread: f64) -> String {
    if d <= 0.0 {
        return "never (the lower level is ahead)".into();
    }
    format!("{:.0}", 2.0 * (1.96 * spread / d).powi(2))
}

pub fn run(k: &Knobs) -> Result<(), String> {
    let rows: Mutex<Vec<(u64, Vec<Hand>)>> = Mutex::new(Vec::new());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for t in 0..k.threads.max(1) {
            let (rows, failed) = (&rows, &failed);
            scope.spawn(move || {
                let mut i = t;
                while i < k.deals {
                    let seed = k.first + i;
                    let seat = Wind::from_index((i % 4) as usize);
                    // A bot's panic names its deal and level rather than ending the run
                    // unnamed.
                    let hands: Result<Vec<Hand>, String> = k
                        .levels
                        .iter()
                        .map(|l| {
                            std::panic::catch_unwind(|| played(seed, seat, l, k.think_ms))
                                .unwrap_or_else(|_| Err(format!("{l} at {seat}: a panic")))
                        })
                        .collect();
                    match hands {
                        Ok(h) => rows.lock().unwrap().push((seed, h)),
                        Err(e) => {
                            eprintln!("deal {seed}: {e}");
                            *failed.lock().unwrap() = Some(format!("deal {seed}: {e}"));
                        }
                    }
                    i += k.threads.max(1);
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap() {
        return Err(e);
    }
    let mut rows = rows.into_inner().unwrap();
    rows.sort_by_key(|r| r.0);
    let column =
        |l: usize, f: fn(&Hand) -> f64| -> Vec<f64> { rows.iter().map(|r| f(&r.1[l])).collect() };
    println!(
        "{} deals from seed {}, each level alone with three strong; par four strong; review {} ms a decision",
        rows.len(),
        k.first,
        k.think_ms
    );
    println!("level      IMP vs par (sd)        review's loss a hand (sd)   decisions weighed   corr(IMP, loss)   played otherwise than the par");
    for (l, name) in k.levels.iter().enumerate() {
        let (imp, loss) = (column(l, |h| h.imp), column(l, |h| h.loss));
        let weighed = column(l, |h| h.weighed as f64);
        let ((mi, si), (ml, sl)) = (mean_se(&imp), mean_se(&loss));
        println!(
            "{name:<8} {mi:>+6.3} ± {si:.3} ({:.2})   {ml:>6.1} ± {sl:.1} ({:.1})        {:>5.1}              {:+.2}             {:.0} %",
            sd(&imp),
            sd(&loss),
            mean_se(&weighed).0,
            corr(&imp, &loss),
            100.0 * mean_se(&column(l, |h| f64::from(u8::from(h.apart)))).0
        );
    }
    for l in 1..k.levels.len() {
        let (lo, hi) = (&k.levels[l - 1], &k.levels[l]);
        let imp: Vec<f64> = rows.iter().map(|r| r.1[l].imp - r.1[l - 1].imp).collect();
        let loss: Vec<f64> = rows.iter().map(|r| r.1[l - 1].loss - r.1[l].loss).collect();
        let (di, dl) = (mean_se(&imp), mean_se(&loss));
        let spread = |f: fn(&Hand) -> f64| sd(&column(l, f)).max(sd(&column(l - 1, f)));
        println!(
            "{hi} over {lo}: IMP {:+.3} ± {:.3} a hand, hands to separate {}; review's loss {:+.1} ± {:.1}, hands to separate {}",
            di.0,
            di.1,
            hands_needed(di.0, spread(|h| h.imp)),
            dl.0,
            dl.1,
            hands_needed(dl.0, spread(|h| h.loss)),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_needed_is_the_two_sample_bound() {
        // 0.26 IMP apart with 2.24 IMP of spread a hand: 2 × (1.96 × 2.24 / 0.26)² ≈ 570.
        assert_eq!(hands_needed(0.26, 2.24), "570");
        assert!(hands_needed(-0.1, 2.0).starts_with("never"));
    }

    #[test]
    fn correlation_of_a_line_and_its_mirror() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [8.0, 6.0, 4.0, 2.0];
        assert!((corr(&a, &a) - 1.0).abs() < 1e-12);
        assert!((corr(&a, &b) + 1.0).abs() < 1e-12);
        assert_eq!(corr(&a, &[5.0; 4]), 0.0);
    }
}
