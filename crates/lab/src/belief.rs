//! Diagnostics of the worlds against strong's own hands (`lab live`, `lab claimable`,
//! `lab thrown`, `lab ranks`, `lab danger-rows`; their figures in docs/expert-belief.md):
//! strong's self-play, and at some of its decisions the other seats' true hands beside
//! the chains' worlds.

use std::path::Path;

use agents::belief::{age, counts, live_bucket, live_waits, near, sets, settle, Chains, Throws};
use agents::belief::{AGES, LIVE};
use agents::expert::{CHAINS, PASSES};
use mcr::tile::Counts;
use mcr::{Meld, Wind};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use table::engine::View;
use table::rules::TableRules;

use crate::common::{self_play, shares, without_and_with_ranks, QUICK, THROWS};

/// How many live winning tiles the ready hands have (live as the ready seat sees
/// them: four less its own copies and those on the table), true hands against the
/// worlds' ready hands without and with the live waits weighed by `weights`.
pub fn how_live_the_waits_are(deals: u64, weights: [f64; LIVE]) {
    let rules = TableRules::seeds();
    let scoring = &rules.scoring;
    let bucket = |view: &View, o: usize, c: &Counts, sets: &[Meld]| {
        let flowers = view.bonus[o].len() as u8;
        let w = Wind::from_index(o);
        let waits = agents::strong::waits_at(w, view.prevalent, flowers, c, sets, scoring);
        live_bucket(live_waits(&waits, c, &agents::strong::public_counts(view)))
    };
    let mut at = [[0usize; LIVE]; 3];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    self_play(deals, &rules, |n, t, seat, view, expert| {
        if n % 2 != 0 || view.wall_left[seat.index()] >= 18 {
            return;
        }
        for o in Wind::ALL.into_iter().filter(|&o| o != seat) {
            let c = counts(&t.concealed(o));
            if near(&c, t.melds(o), o, view.prevalent) == 0 {
                at[0][bucket(view, o.index(), &c, t.melds(o))] += 1;
            }
        }
        let raw = expert.samples(view, 64);
        for (k, live) in [[0.0; LIVE], weights].into_iter().enumerate() {
            let how = Chains {
                passes: PASSES,
                live,
                ..QUICK
            };
            for (h, _) in settle(view, raw.clone(), 16, how, scoring, &mut rng) {
                for o in (0..4).filter(|&o| o != seat.index()) {
                    let c = counts(&h.hands[o]);
                    let sets = sets(view, &h, o);
                    let w = Wind::from_index(o);
                    if near(&c, &sets, w, view.prevalent) == 0 {
                        at[k + 1][bucket(view, o, &c, &sets)] += 1;
                    }
                }
            }
        }
    });
    let names = ["true hands", "worlds", "worlds weighed by live waits"];
    for (name, row) in names.iter().zip(at) {
        let s = shares(&row);
        println!("{name}: live winning tiles 0, 1-2, 3-4, 5-6, 7+: {row:?} {s:.3?}");
    }
    let logs: Vec<String> = (0..LIVE)
        .map(|b| format!("{:.2}", (shares(&at[0])[b] / shares(&at[1])[b]).ln()))
        .collect();
    println!("log ratios, true hands over worlds: {logs:?}");
}

/// How many discards a hand would claim, strong's way (a claim that brings its nearest
/// route nearer): kinds it would pung and kinds it would chow (were it the next seat),
/// for strong's true hands not ready against the chains' worlds' hands.
pub fn how_claimable_the_hands_are(deals: u64) {
    let rules = TableRules::seeds();
    let scoring = &rules.scoring;
    let claimable = |c: &Counts, sets: &[Meld], w: Wind, prevalent: Wind| -> (usize, usize) {
        let d = near(c, sets, w, prevalent);
        if d == 0 || sets.len() >= 4 {
            return (0, 0);
        }
        let nearer = |conc: Counts, m: Meld| {
            let mut melds = sets.to_vec();
            melds.push(m);
            near(&conc, &melds, w, prevalent) < d
        };
        let (mut pungs, mut chows) = (0, 0);
        for i in 0..mcr::tile::KINDS {
            let t = agents::plan::tile(i);
            if c[i] >= 2 {
                let mut conc = *c;
                conc[i] -= 2;
                pungs += nearer(conc, Meld::pung(t, 1)) as usize;
            }
            if i >= 27 {
                continue;
            }
            let r = i % 9;
            let chow = (0..3).filter(|&k| r >= k && r - k <= 6).any(|k| {
                let low = i - k;
                let others: Vec<usize> = (low..low + 3).filter(|&j| j != i).collect();
                if others.iter().any(|&j| c[j] == 0) {
                    return false;
                }
                let mut conc = *c;
                for &j in &others {
                    conc[j] -= 1;
                }
                let m = Meld::chow(agents::plan::tile(low), (k + 1) as u8).expect("a chow");
                nearer(conc, m)
            });
            chows += chow as usize;
        }
        (pungs, chows)
    };
    // [true, worlds][pung kinds 0..3+][chow kinds 0, 1-2, 3-4, 5+]
    let mut at = [[[0usize; 4]; 4]; 2];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    self_play(deals, &rules, |n, t, seat, view, expert| {
        if n % 3 != 0 {
            return;
        }
        let mut tally = |k: usize, (p, ch): (usize, usize)| {
            let chows = match ch {
                0 => 0,
                1 | 2 => 1,
                3 | 4 => 2,
                _ => 3,
            };
            at[k][p.min(3)][chows] += 1;
        };
        for o in Wind::ALL.into_iter().filter(|&o| o != seat) {
            let c = counts(&t.concealed(o));
            if near(&c, t.melds(o), o, view.prevalent) > 0 {
                tally(0, claimable(&c, t.melds(o), o, view.prevalent));
            }
        }
        let raw = expert.samples(view, 32);
        for (h, _) in settle(view, raw, 8, CHAINS, scoring, &mut rng) {
            for o in (0..4).filter(|&o| o != seat.index()) {
                let c = counts(&h.hands[o]);
                let sets = sets(view, &h, o);
                let w = Wind::from_index(o);
                if near(&c, &sets, w, view.prevalent) > 0 {
                    tally(1, claimable(&c, &sets, w, view.prevalent));
                }
            }
        }
    });
    for (name, grid) in ["true hands", "worlds"].iter().zip(at) {
        let n = grid.iter().flatten().sum::<usize>().max(1) as f64;
        let pung: Vec<String> = grid
            .iter()
            .map(|r| format!("{:.3}", r.iter().sum::<usize>() as f64 / n))
            .collect();
        let chow: Vec<String> = (0..4)
            .map(|j| format!("{:.3}", grid.iter().map(|r| r[j]).sum::<usize>() as f64 / n))
            .collect();
        println!("{name} ({n}): kinds it would pung 0, 1, 2, 3+: {pung:?}; kinds it would chow 0, 1-2, 3-4, 5+: {chow:?}");
    }
}

/// How each of a seat's earlier discards stands to the hand it holds now, as strong
/// would weigh it (`PlanBot::throw_rank` on the hand now with the discard back in it):
/// strong's choice, tied with it, one tile worse, two or more; by the discard's age
/// (the latest, the two before, the three before those, older), for the true hands
/// against the chains' worlds without and with the ranks read (the latest
/// [`crate::common::DEPTH_TRIED`]), and what a rank costs.
pub fn how_strong_would_have_thrown(deals: u64) {
    let rules = TableRules::seeds();
    let scoring = &rules.scoring;
    // [true, worlds, worlds with the ranks][age][rank]
    let mut at = [[[0usize; 4]; AGES]; 3];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut calls = 0usize;
    let mut spent = std::time::Duration::ZERO;
    let mut tally = |at: &mut [[usize; 4]; AGES], view: &View, o: Wind, c: &Counts, m: &[Meld]| {
        let start = std::time::Instant::now();
        let ranks = Throws::of(view, usize::MAX, THROWS, scoring).ranks(o.index(), c, m);
        for (back, r) in ranks.into_iter().enumerate() {
            at[age(back)][r] += 1;
            calls += 1;
        }
        spent += start.elapsed();
    };
    self_play(deals, &rules, |n, t, seat, view, expert| {
        if n % 3 != 0 {
            return;
        }
        for o in Wind::ALL.into_iter().filter(|&o| o != seat) {
            let c = counts(&t.concealed(o));
            tally(&mut at[0], view, o, &c, t.melds(o));
        }
        let raw = expert.samples(view, 32);
        for (k, how) in without_and_with_ranks().into_iter().enumerate() {
            for (h, _) in settle(view, raw.clone(), 8, how, scoring, &mut rng) {
                for o in (0..4).filter(|&o| o != seat.index()) {
                    let c = counts(&h.hands[o]);
                    let sets = sets(view, &h, o);
                    tally(&mut at[k + 1], view, Wind::from_index(o), &c, &sets);
                }
            }
        }
    });
    println!("{calls} ranks in {spent:?}");
    let names = ["true hands", "worlds", "worlds with the ranks"];
    for (name, grid) in names.iter().zip(at) {
        for (a, row) in grid.iter().enumerate() {
            let s = shares(row);
            println!("{name}, age {a}: chosen, tied, 1 worse, 2+ worse: {row:?} {s:.3?}");
        }
    }
    for (a, (truth, worlds)) in at[0].iter().zip(&at[1]).enumerate() {
        let (t, w) = (shares(truth), shares(worlds));
        let logs: Vec<String> = (0..4)
            .map(|r| format!("{:.2}", (t[r] / w[r]).ln()))
            .collect();
        println!("age {a}: log ratios, true hands over worlds: {logs:?}");
    }
}

/// The worlds with and without the ranks of the discards read: tiles their hands share
/// with the true hands (three seats), how many of a decision's worlds give a seat a hand
/// of their own, and how often a seat is ready, against strong's true hands.
pub fn what_the_ranks_change(deals: u64) {
    let rules = TableRules::seeds();
    let scoring = &rules.scoring;
    let mut shared = [0.0f64; 2];
    let mut distinct = [0.0f64; 2];
    let mut ready = [0usize; 3];
    let (mut decisions, mut hands) = (0usize, 0usize);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    self_play(deals, &rules, |n, t, seat, view, expert| {
        if n % 3 != 0 || (0..4).any(|s| view.discards[s].len() < 3) {
            return;
        }
        decisions += 1;
        let truth: Vec<Counts> = (0..4)
            .map(|o| counts(&t.concealed(Wind::from_index(o))))
            .collect();
        for o in (0..4).filter(|&o| o != seat.index()) {
            let w = Wind::from_index(o);
            hands += 1;
            ready[0] += (near(&truth[o], t.melds(w), w, view.prevalent) == 0) as usize;
        }
        let raw = expert.samples(view, 64);
        for (k, how) in without_and_with_ranks().into_iter().enumerate() {
            let worlds = settle(view, raw.clone(), 16, how, scoring, &mut rng);
            let m = worlds.len().max(1) as f64;
            for o in (0..4).filter(|&o| o != seat.index()) {
                let mut seen: Vec<Counts> = Vec::new();
                for (h, _) in &worlds {
                    let c = counts(&h.hands[o]);
                    shared[k] += (0..mcr::tile::KINDS)
                        .map(|i| c[i].min(truth[o][i]) as f64)
                        .sum::<f64>()
                        / m;
                    let w = Wind::from_index(o);
                    ready[k + 1] += (near(&c, &sets(view, h, o), w, view.prevalent) == 0) as usize;
                    if !seen.contains(&c) {
                        seen.push(c);
                    }
                }
                distinct[k] += seen.len() as f64 / m;
            }
        }
    });
    let n = decisions.max(1) as f64;
    let h = hands.max(1) as f64;
    println!(
        "{decisions} decisions, {hands} hands of other seats; ready: true hands {:.3}",
        ready[0] as f64 / h
    );
    for (k, name) in ["without the ranks", "with the ranks"].iter().enumerate() {
        println!(
            "{name}: tiles shared with the true hands (three seats) {:.3}; distinct hands a seat {:.3} of the worlds; ready {:.3}",
            shared[k] / n,
            distinct[k] / h,
            ready[k + 1] as f64 / (16.0 * h)
        );
    }
}

/// Which tiles would deal in, as the worlds see it and as [`crate::danger`]'s facts do,
/// against the truth: at every second turn of strong's self-play, a row per other seat
/// and kind: whether that seat's true hand wins on it by discard, whether the deciding
/// seat holds one, the share of the chains' 64 worlds in which the seat's hand wins on it,
/// then the encoded facts. `tools/danger.py` fits the model to these rows.
pub fn how_dangerous_the_discards_are(deals: u64, out: &Path) -> Result<(), String> {
    use std::io::Write;
    let rules = TableRules::seeds();
    let scoring = &rules.scoring;
    let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut file = std::io::BufWriter::new(file);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut turns, mut deal, mut last) = (0u64, 0u64, u64::MAX);
    self_play(deals, &rules, |n, t, seat, view, expert| {
        if n < last {
            deal += 1;
        }
        last = n;
        if !matches!(view.decision, Some(table::engine::Decision::Turn { .. })) {
            return;
        }
        turns += 1;
        if turns % 2 != 0 {
            return;
        }
        let raw = expert.samples(view, 64 * 4);
        let worlds = settle(view, raw, 64, CHAINS, scoring, &mut rng);
        let m = worlds.len().max(1) as f64;
        let own = view.hand.counts();
        for o in (0..4).filter(|&o| o != seat.index()) {
            let w = Wind::from_index(o);
            let wins =
                |c: &Counts, sets: &[Meld]| crate::danger::discard_wins(view, w, c, sets, scoring);
            let truth = wins(&counts(&t.concealed(w)), t.melds(w));
            let mut p = [0.0f64; 34];
            for (h, _) in &worlds {
                let x = wins(&counts(&h.hands[o]), &sets(view, h, o));
                for k in 0..34 {
                    p[k] += f64::from(u8::from(x[k])) / m;
                }
            }
            for k in 0..34 {
                let y = u8::from(truth[k]);
                write!(file, "{deal},{turns},{y},{},{:.4}", own[k], p[k]).unwrap();
                for x in crate::danger::encode(view, o, k) {
                    write!(file, ",{x}").unwrap();
                }
                writeln!(file).unwrap();
            }
        }
    });
    println!("{turns} turns, {deal} deals");
    Ok(())
}
