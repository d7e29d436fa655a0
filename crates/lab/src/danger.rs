//! How likely a discard is to deal in now: for each other seat and kind, a logistic model
//! of public facts (the copies still unseen, whether the seat let the kind pass since its
//! latest discard, what it threw of the kind and its neighbours, its declared sets, how far
//! its discards lean to the kind's suit, its wall), fitted to strong's self-play by
//! `tools/danger.py` ([`WEIGHTS`]). It ranks the discards that deal in far better than the
//! expert's worlds do, yet the expert played no better reading it, so it is not in the
//! library (docs/expert-belief.md, "What a discard risks"); `lab oracle --read-danger`
//! plays the expert reading it ([`crate::searcher`]).

use mcr::tile::KINDS;
use table::engine::{SeenMeld, View};

/// Features of a (seat, kind) pair: binned facts, one-hot.
pub const FEATURES: usize = 107;

mod weights;
pub(crate) use weights::WEIGHTS;

/// Sets `x[at + bin]` for the bin of `v` among `edges` (the count of edges at or below
/// it), and returns the next free position.
fn bin(x: &mut [f64; FEATURES], at: usize, v: f64, edges: &[f64]) -> usize {
    let b = edges.iter().filter(|&&e| e <= v).count();
    x[at + b] = 1.0;
    at + edges.len() + 1
}

/// The facts about seat `o` and kind `k` as `view`'s seat sees them, encoded.
pub fn encode(view: &View, o: usize, k: usize) -> [f64; FEATURES] {
    let mut x = [0.0; FEATURES];
    let own = view.hand.counts();
    let public = agents::strong::public_counts(view);
    let mine: Vec<usize> = (view.thrown.iter().enumerate())
        .filter(|(_, (s, _))| s.index() == o)
        .map(|(i, _)| i)
        .collect();
    let since = mine.last().map_or(0, |&i| i + 1);
    let before = if mine.len() >= 2 {
        mine[mine.len() - 2] + 1
    } else {
        0
    };
    let disc: Vec<usize> = mine.iter().map(|&i| view.thrown[i].1.index()).collect();
    let nd = disc.len();
    let recent = &disc[nd.saturating_sub(3)..];
    let passed_now = view.thrown[since..].iter().any(|(_, t)| t.index() == k);
    let passed_before = (view.thrown[before..since.saturating_sub(1).max(before)].iter())
        .any(|(_, t)| t.index() == k);
    let suit = (k < 27).then_some(k / 9);
    let near = |set: &[usize], d: usize| -> f64 {
        let Some(s) = suit else { return 0.0 };
        (set.iter())
            .filter(|&&t| t < 27 && t / 9 == s && t.abs_diff(k) == d)
            .count() as f64
    };
    let share = {
        let n = match suit {
            Some(s) => disc.iter().filter(|&&t| t < 27 && t / 9 == s).count(),
            None => disc.iter().filter(|&&t| t >= 27).count(),
        };
        n as f64 / nd.max(1) as f64
    };
    let melds = view.melds[o].len() as f64;
    let in_suit = (view.melds[o].iter())
        .filter_map(|m| match m {
            SeenMeld::Open(m) => m.tiles().next(),
            SeenMeld::HiddenKong => None,
        })
        .filter(|t| match suit {
            Some(s) => t.index() < 27 && t.index() / 9 == s,
            None => t.index() >= 27,
        })
        .count() as f64;
    let wall = view.wall_left[o] as f64;
    let live = 4u8.saturating_sub(own[k] + public[k]) as f64;
    let value = k >= 31 || k == 27 + o || k == 27 + view.prevalent.index();
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let mut at = bin(&mut x, 0, live, &[1.0, 2.0, 3.0, 4.0]);
    for f in [passed_now, passed_before, disc.last() == Some(&k)] {
        x[at] = flag(f);
        at += 1;
    }
    let copies = |set: &[usize]| set.iter().filter(|&&t| t == k).count() as f64;
    at = bin(&mut x, at, copies(&disc), &[1.0, 2.0]);
    at = bin(&mut x, at, copies(recent), &[1.0]);
    for d in 1..=3 {
        at = bin(&mut x, at, near(&disc, d), &[1.0, 2.0]);
    }
    for d in 1..=2 {
        at = bin(&mut x, at, near(recent, d), &[1.0]);
    }
    at = bin(&mut x, at, melds, &[1.0, 2.0, 3.0, 4.0]);
    at = bin(&mut x, at, in_suit, &[1.0, 2.0]);
    at = bin(&mut x, at, wall, &[3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0]);
    at = bin(&mut x, at, share, &[0.1, 0.2, 0.3, 0.45, 0.6]);
    at = bin(&mut x, at, nd as f64, &[4.0, 8.0, 12.0]);
    x[at + k] = 1.0;
    at += KINDS;
    x[at] = flag(value);
    at += 1;
    at = bin(&mut x, at, public[k] as f64, &[1.0, 2.0, 3.0]);
    // How near to ready a seat is shows in its sets and its wall together.
    let m = [1.0, 2.0, 3.0].iter().filter(|&&e| e <= melds).count();
    let w = [6.0, 12.0, 18.0].iter().filter(|&&e| e <= wall).count();
    x[at + 4 * m + w] = 1.0;
    debug_assert_eq!(at + 16, FEATURES);
    x
}

/// The chance that seat `o` wins on a discard of kind `k` now.
pub fn wins_on(view: &View, o: usize, k: usize) -> f64 {
    let x = encode(view, o, k);
    let z = WEIGHTS[FEATURES] + x.iter().zip(&WEIGHTS).map(|(a, b)| a * b).sum::<f64>();
    1.0 / (1.0 + (-z).exp())
}

/// The chance that a discard of each kind deals in now, to any other seat.
pub fn deal_in(view: &View) -> [f64; KINDS] {
    let me = view.seat.index();
    std::array::from_fn(|k| {
        let safe: f64 = (0..4)
            .filter(|&o| o != me)
            .map(|o| 1.0 - wins_on(view, o, k))
            .product();
        1.0 - safe
    })
}

/// The kinds a hand of seat `seat` (concealed `c`, declared `sets`) wins on by discard:
/// what "deals in" means for the model's rows and for the harness told the exact answer.
pub fn discard_wins(
    view: &View,
    seat: mcr::Wind,
    c: &mcr::tile::Counts,
    sets: &[mcr::Meld],
    rules: &mcr::Rules,
) -> [bool; KINDS] {
    let flowers = view.bonus[seat.index()].len() as u8;
    let mut x = [false; KINDS];
    for w in agents::strong::waits_at(seat, view.prevalent, flowers, c, sets, rules) {
        x[w.tile.index()] |= w.discard_ok;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcr::Wind;
    use table::rules::TableRules;

    /// Views of East's turns in strong's self-play, later and later in the hand.
    fn views(each: impl FnMut(&View)) {
        let rules = TableRules::seeds();
        let mut each = each;
        for seed in 0..24u64 {
            for turn in [3, 6, 9, 12] {
                if let Some(t) = agents::belief::strong_until_east_turn(&rules, 300 + seed, turn) {
                    each(&t.view(Wind::East));
                }
            }
        }
    }

    /// Each fact lands in one bin of its group: 16 one-hot groups (the unseen copies, the
    /// copies and neighbours thrown, the sets, the wall, the suit's share, the discards, the
    /// kind, the copies seen, sets by wall), the kind's own place among the kinds, and no
    /// more ones than the groups and four yes-or-no facts.
    #[test]
    fn every_fact_lands_in_one_bin() {
        let mut seen = 0;
        views(|v| {
            for o in 1..4 {
                for k in 0..KINDS {
                    let x = encode(v, o, k);
                    assert!(x.iter().all(|&f| f == 0.0 || f == 1.0));
                    let ones = x.iter().filter(|&&f| f == 1.0).count();
                    assert!((16..=20).contains(&ones), "seat {o} kind {k}: {ones}");
                    assert_eq!(x[52 + k], 1.0, "kind {k} at its place");
                    assert_eq!((52..52 + KINDS).filter(|&i| x[i] == 1.0).count(), 1);
                    seen += 1;
                }
            }
        });
        assert!(seen > 3000, "{seen}");
    }

    /// Strong always takes a win, and its hand is the same from its latest discard to its
    /// next turn, so a kind it let pass since then cannot deal in to it: the model rates
    /// such kinds far below the others (by the rows it was fitted to, none of them dealt in).
    #[test]
    fn a_kind_let_pass_is_rated_safe() {
        let (mut passed, mut others) = (Vec::new(), Vec::new());
        views(|v| {
            for o in 1..4 {
                let since = (v.thrown.iter())
                    .rposition(|(s, _)| s.index() == o)
                    .map_or(0, |i| i + 1);
                for k in 0..KINDS {
                    let p = wins_on(v, o, k);
                    if v.thrown[since..].iter().any(|(_, t)| t.index() == k) {
                        passed.push(p);
                    } else {
                        others.push(p);
                    }
                }
            }
        });
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        assert!(passed.len() > 200, "{} kinds let pass", passed.len());
        assert!(
            passed.iter().all(|&p| p < 0.02),
            "{:?}",
            passed.iter().cloned().fold(0.0, f64::max)
        );
        assert!(
            mean(&passed) * 10.0 < mean(&others),
            "{} against {}",
            mean(&passed),
            mean(&others)
        );
    }

    /// A chance for every kind, each between 0 and 1, and no higher than the chances of the
    /// three seats added up.
    #[test]
    fn the_chance_of_dealing_in_is_a_chance() {
        views(|v| {
            let q = deal_in(v);
            for (k, &p) in q.iter().enumerate() {
                let sum: f64 = (1..4).map(|o| wins_on(v, o, k)).sum();
                assert!(
                    (0.0..1.0).contains(&p) && p <= sum + 1e-12,
                    "kind {k}: {p} {sum}"
                );
            }
        });
    }
}
