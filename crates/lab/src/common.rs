//! What the experiments share: the budget they were measured at, the chains with the
//! extra evidence unread, strong's self-play, and plain statistics.

use agents::agent::Agent;
use agents::belief::{Chains, AGES, LIVE, RANKS, WINDOWS};
use agents::expert::{ExpertBot, CHAINS};
use agents::strong::PlanBot;
use mcr::Wind;
use table::engine::{Table, View};
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

/// The playouts the diagnostics were measured with (docs/expert.md quotes them at this
/// budget, the default until the default bought four times as many).
pub const DIAGNOSED_PLAYOUTS: usize = 192;

/// The expert's chains with the evidence beyond distances and discard ties unread: the
/// diagnostics' base.
pub const OFF: Chains = Chains {
    passes: [0.0; WINDOWS + 1],
    live: [0.0; LIVE],
    throws: [[0.0; RANKS]; AGES],
    depth: 0,
    ..CHAINS
};

/// Short chains for the diagnostics, with only the distances and the discards' ties read.
pub const QUICK: Chains = Chains {
    chains: 4,
    burn: 200,
    ..OFF
};

/// The log weights of a world's hand by the rank of each of its seat's latest discards,
/// by age (the latest, the two before, the three before those, older) then rank (strong's
/// choice, tied, one worse, two or more; [`Chains::throws`]): strong's true hands over the
/// chains' worlds (`lab thrown`, docs/expert-belief.md). Not read in play: ranking six
/// made the worlds' discards rank as strong's do, but played worse (−0.18 ± 0.11 IMP/hand).
pub const THROWS: [[f64; RANKS]; AGES] = [
    [1.18, -4.0, -4.0, -4.0],
    [0.94, -1.91, -2.40, -4.0],
    [0.77, -1.85, -1.92, -4.0],
    [0.67, -2.58, -0.79, -4.0],
];

/// The depth the ranks were tried at.
pub const DEPTH_TRIED: usize = 6;

/// The expert's chains without and with the ranks of the discards read (the latest
/// [`DEPTH_TRIED`]).
pub fn without_and_with_ranks() -> [Chains; 2] {
    let with = |depth| Chains {
        depth,
        throws: THROWS,
        ..CHAINS
    };
    [with(0), with(DEPTH_TRIED)]
}

/// Strong's self-play on `deals` deals from seed 700, calling `at` before each decision
/// with the count of decisions so far (from 1), the table, the deciding seat, its view
/// and an expert of that deal (for its raw samples).
pub fn self_play(
    deals: u64,
    rules: &TableRules,
    mut at: impl FnMut(u64, &Table, Wind, &View, &ExpertBot),
) {
    for seed in 0..deals {
        let setup = Setup::generate(WallModel::Personal, 700 + seed);
        let mut t = Table::new(setup, rules.clone());
        let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
        let expert = ExpertBot::new(rules.clone(), seed, 8);
        let mut decisions = 0;
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            decisions += 1;
            at(decisions, &t, seat, &view, &expert);
            let a = bots[seat.index()].act(&view);
            t.apply(seat, a).unwrap();
        }
    }
}

/// Mean and standard error of `v` (0 and 0 when empty, a single value with error 0).
pub fn mean_se(v: &[f64]) -> (f64, f64) {
    if v.len() < 2 {
        return (v.first().copied().unwrap_or(0.0), 0.0);
    }
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// Each count of `row` as a share of the row's total (0 for an empty row).
pub fn shares<const N: usize>(row: &[usize; N]) -> [f64; N] {
    let n = row.iter().sum::<usize>().max(1) as f64;
    row.map(|x| x as f64 / n)
}

/// IMP of a difference in points against a field of four (rules §5: three quarters of
/// it is the difference from the seat's average).
pub fn field_imp(points: i32) -> i32 {
    table::points::imp_of_dif(3 * i64::from(points), 4)
}

/// `each` run on the two halves of `deals` on two threads, the results in deal order.
pub fn on_both_cores<T: Send>(
    deals: std::ops::Range<u64>,
    each: impl Fn(std::ops::Range<u64>) -> Vec<T> + Sync,
) -> Vec<T> {
    let mid = deals.start + (deals.end - deals.start) / 2;
    std::thread::scope(|s| {
        let halves = [deals.start..mid, mid..deals.end].map(|part| {
            let each = &each;
            s.spawn(move || each(part))
        });
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}
