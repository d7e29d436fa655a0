//! The arena's report, computed from the deals' outcomes in deal order (the same whether
//! the deals were played in one run or in shards brought together).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use table::log::HandLog;
use table::points::imp_of_dif;

/// What the report says of the run itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// The seating mode.
    pub mode: String,
    /// The table rules' name.
    pub rules: String,
    /// Seed of the first deal.
    pub seed: u64,
    /// Deals asked for.
    pub deals: u64,
}

/// An entrant's name and the problems of its process, if any.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// The entrant.
    pub name: String,
    /// Its bad answers.
    pub errors: u64,
    /// Its late answers.
    pub timeouts: u64,
}

impl Tally {
    /// The counts of an entrant so far.
    pub fn of(e: &crate::Entrant) -> Tally {
        use std::sync::atomic::Ordering;
        Tally {
            name: e.name.clone(),
            errors: e
                .pool
                .as_ref()
                .map_or(0, |p| p.errors.load(Ordering::Relaxed)),
            timeouts: e
                .pool
                .as_ref()
                .map_or(0, |p| p.timeouts.load(Ordering::Relaxed)),
        }
    }
}

/// One entrant's figures on one deal.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DealFigures {
    /// Hands played.
    pub hands: u32,
    /// Match points.
    pub ms: i64,
    /// IMP.
    pub imp: i64,
    /// Hands won.
    pub wins: u32,
    /// Of which self-drawn.
    pub self_drawn: u32,
    /// Hands it dealt in (discarded the winning tile).
    pub dealt_in: u32,
    /// The sum of its winning hands' values.
    pub win_value: u64,
    /// Hands drawn.
    pub draws: u32,
}

/// What one deal produced: everything the report is computed from, so that the deals of a
/// sharded run can be brought together again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealOutcome {
    /// Each entrant's figures on this deal.
    pub per_entrant: Vec<DealFigures>,
    /// Per seat: the first entrant's mean ms there, and the others' mean ms at that seat
    /// (other tables, same tiles).
    pub seat_first: [f64; 4],
    /// The mean of the other entrants at that seat.
    pub seat_others: [f64; 4],
    /// The first entrant's match points in each of its hands, with its seat.
    pub first_hands: Vec<(usize, f64)>,
    /// The hand logs, when asked for (never part of a partial result).
    #[serde(skip)]
    pub logs: Vec<HandLog>,
}

/// One entrant's line of the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotReport {
    /// The bot.
    pub name: String,
    /// Hands played.
    pub hands: u64,
    /// Match points per hand.
    pub mean_ms: f64,
    /// Mean IMP per hand. IMP do not add up to zero at a deal-seat (one big win against
    /// several small losses gives a negative sum), so everyone's mean is a little below 0.
    pub imp_per_hand: f64,
    /// Mean IMP per hand minus that of the other entrants' hands on the same deals, with its
    /// 95% confidence interval from the per-deal differences: 0 in expectation for equal bots.
    pub imp_vs_others: f64,
    /// The 95% interval of IMP per hand against the others.
    pub imp_ci95: (f64, f64),
    /// Share of hands won.
    pub win_rate: f64,
    /// Share of hands dealt in.
    pub deal_in_rate: f64,
    /// Share of wins that were self-drawn.
    pub self_drawn_share: f64,
    /// Mean value of its winning hands.
    pub average_win: f64,
    /// Share of its hands drawn.
    pub draw_rate: f64,
    /// Bad answers (outside bots).
    pub errors: u64,
    /// Late answers (outside bots).
    pub timeouts: u64,
}

/// The arena's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The seating mode.
    pub mode: String,
    /// The table rules' name.
    pub rules: String,
    /// Seed of the first deal.
    pub seed: u64,
    /// Deals played.
    pub deals: u64,
    /// False when stopped early; `deals` counts the deals finished.
    pub complete: bool,
    /// One line per bot.
    pub bots: Vec<BotReport>,
    /// Standard deviation of the per-deal IMP per hand of the first entrant.
    pub per_deal_sd: f64,
    /// The first entrant's result at a seat minus the others' at that seat, in IMP, on the
    /// same deal (paired) and on the next deal (unpaired), one value per deal and seat: the
    /// standard deviations show what playing the same tiles removes.
    pub paired_sd: f64,
    /// The same on the next deal (unpaired).
    pub unpaired_sd: f64,
    /// The first entrant's match points hand by hand, as a regular game scores them: their
    /// standard deviation; then its hands minus the others' mean at the same seat of the same
    /// deal (duplicate) and of the next deal (as regular play compares players who held
    /// other tiles). `hands_ratio`, the ratio of the last two variances, is how many times
    /// more hands the comparison without duplicate needs for the same precision.
    pub per_hand_sd_ms: f64,
    /// Its hands minus the others' at the same seat of the same deal.
    pub paired_sd_ms: f64,
    /// The same against the next deal.
    pub unpaired_sd_ms: f64,
    /// How many times more hands the comparison without duplicate needs.
    pub hands_ratio: f64,
    /// Deals needed to tell the first entrant from the others by 0.1, 0.25 and 0.5 IMP per
    /// hand: its 95% interval clear of 0 four times in five (80% power), from the per-deal
    /// standard deviation of its IMP against the others.
    pub noise_floor: Vec<NoiseFloor>,
}

/// How many deals a difference of `imp_per_hand` takes to show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoiseFloor {
    /// The difference to show.
    pub imp_per_hand: f64,
    /// Deals it takes.
    pub deals: u64,
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

/// Deals for a 95% interval clear of 0 with 80% power: ((1.96 + 0.84) · sd / δ)².
fn deals_needed(sd: f64, delta: f64) -> u64 {
    if !sd.is_finite() {
        return 0;
    }
    ((1.96 + 0.8416) * sd / delta).powi(2).ceil() as u64
}

/// The report of `outcomes` (every deal played, in deal order).
pub fn build(meta: &Meta, tallies: &[Tally], outcomes: &[DealOutcome], complete: bool) -> Report {
    let finished = outcomes.len() as u64;
    let mut first_sd = f64::NAN;
    let bots = tallies
        .iter()
        .enumerate()
        .map(|(e, entrant)| {
            let mut tot = DealFigures::default();
            let mut raw = Vec::new();
            let mut per_deal = Vec::new();
            for o in outcomes {
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
            if e == 0 {
                first_sd = sd;
            }
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
                errors: entrant.errors,
                timeouts: entrant.timeouts,
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
        noise_floor: [0.1, 0.25, 0.5]
            .iter()
            .map(|&d| NoiseFloor {
                imp_per_hand: d,
                deals: deals_needed(first_sd, d),
            })
            .collect(),
        mode: meta.mode.clone(),
        rules: meta.rules.clone(),
        seed: meta.seed,
        deals: finished,
        complete,
        bots,
        per_deal_sd: mean_sd(&first).1,
        paired_sd: mean_sd(&paired).1,
        unpaired_sd: mean_sd(&unpaired).1,
    }
}

impl Report {
    /// The report as the command line prints it.
    pub fn text(&self) -> String {
        let r = self;
        let mut s = String::new();
        let stopped = if r.complete {
            String::new()
        } else {
            " (stopped early)".into()
        };
        let _ = writeln!(
            s,
            "arena {} on {} deals{stopped}, rules {}, seed {}",
            r.mode, r.deals, r.rules, r.seed
        );
        let _ = writeln!(
            s,
            "{:<10} {:>7} {:>8} {:>9} {:>10} {:>19} {:>6} {:>8} {:>10} {:>7} {:>6} {:>6} {:>8}",
            "bot",
            "hands",
            "ms/hand",
            "IMP/hand",
            "vs others",
            "95% CI",
            "win",
            "deal-in",
            "self-drawn",
            "avg win",
            "draws",
            "errors",
            "timeouts"
        );
        for b in &r.bots {
            let _ = writeln!(
                s,
                "{:<10} {:>7} {:>8.2} {:>9.3} {:>10.3} {:>19} {:>5.1}% {:>7.1}% {:>9.1}% {:>7.1} {:>5.1}% {:>6} {:>8}",
                b.name,
                b.hands,
                b.mean_ms,
                b.imp_per_hand,
                b.imp_vs_others,
                if b.imp_ci95.0.is_nan() {
                    "n/a (one deal)".to_string()
                } else {
                    format!("[{:.3}, {:.3}]", b.imp_ci95.0, b.imp_ci95.1)
                },
                100.0 * b.win_rate,
                100.0 * b.deal_in_rate,
                100.0 * b.self_drawn_share,
                b.average_win,
                100.0 * b.draw_rate,
                b.errors,
                b.timeouts
            );
        }
        let _ = writeln!(
            s,
            "per-deal IMP/hand of {}: standard deviation {:.3}",
            r.bots[0].name, r.per_deal_sd
        );
        let _ = writeln!(
            s,
            "{} minus the others at its seat, in IMP per deal and seat: standard deviation {:.3} on the same deal, {:.3} on another deal",
            r.bots[0].name, r.paired_sd, r.unpaired_sd
        );
        let _ = writeln!(
            s,
            "{}'s match points per hand: standard deviation {:.2} hand by hand (as a regular game scores them); minus the others at its seat {:.2} on the same tiles, {:.2} on other tiles: without duplicate, {:.2}× the hands",
            r.bots[0].name, r.per_hand_sd_ms, r.paired_sd_ms, r.unpaired_sd_ms, r.hands_ratio
        );
        let floor: Vec<String> = r
            .noise_floor
            .iter()
            .map(|f| format!("{} IMP/hand {} deals", f.imp_per_hand, f.deals))
            .collect();
        let _ = writeln!(
            s,
            "noise floor for {} (95% interval clear of 0, 80% power): {}",
            r.bots[0].name,
            floor.join(", ")
        );
        s
    }
}
