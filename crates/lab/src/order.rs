//! `lab order`: what the order of the discards says of another seat's ready hand, true
//! hands against the worlds drawn without and with it.

use agents::belief::{counts, near, sets, settle, Chains, History, WINDOWS};
use agents::expert::PASSES;
use mcr::tile::Counts;
use mcr::{Meld, Wind};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use table::engine::View;
use table::rules::TableRules;

use crate::common::{self_play, shares, QUICK};

/// How often the turns of each age refute true ready hands and the worlds' ready
/// hands, drawn without the order and with it (`PASSES`, set from these
/// shares so that the worlds drawn with it are refuted as often as true hands):
/// strong's self-play from deal 700, every other decision with fewer than 18 tiles left
/// in the deciding seat's wall.
pub fn run(deals: u64) {
    let rules = TableRules::seeds();
    let scoring = &rules.scoring;
    let refuted = |view: &View, s: usize, c: &Counts, sets: &[Meld]| {
        History::of(view, s).refuted_at(view, s, c, sets, scoring)
    };
    // By age, and last, not refuted: true hands, the worlds without the order, with it.
    let mut at = [[0usize; WINDOWS + 1]; 3];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    self_play(deals, &rules, |n, t, seat, view, expert| {
        if n % 2 != 0 || view.wall_left[seat.index()] >= 18 {
            return;
        }
        for o in Wind::ALL.into_iter().filter(|&o| o != seat) {
            let c = counts(&t.concealed(o));
            if near(&c, t.melds(o), o, view.prevalent) == 0 {
                at[0][refuted(view, o.index(), &c, t.melds(o)).unwrap_or(WINDOWS)] += 1;
            }
        }
        let raw = expert.samples(view, 64);
        for (k, passes) in [[0.0; WINDOWS + 1], PASSES].into_iter().enumerate() {
            let how = Chains { passes, ..QUICK };
            for (h, _) in settle(view, raw.clone(), 16, how, scoring, &mut rng) {
                for o in (0..4).filter(|&o| o != seat.index()) {
                    let c = counts(&h.hands[o]);
                    let sets = sets(view, &h, o);
                    let w = Wind::from_index(o);
                    if near(&c, &sets, w, view.prevalent) == 0 {
                        let age = refuted(view, o, &c, &sets);
                        at[k + 1][age.unwrap_or(WINDOWS)] += 1;
                    }
                }
            }
        }
    });
    let [truth, before, after] = at.map(|row| shares(&row));
    let names = ["true hands", "worlds", "worlds with the order"];
    for ((name, row), s) in names.iter().zip(at).zip([truth, before, after]) {
        let n: usize = row.iter().sum();
        println!("{name}: {n} ready, first refuted by age (then none) {row:?}, {s:.3?}");
    }
    let logs: Vec<String> = (0..=WINDOWS)
        .map(|a| format!("{:.2}", (truth[a] / before[a]).ln()))
        .collect();
    println!("log ratios, true hands over worlds without the order: {logs:?}");
    assert_eq!(at[0][0], 0, "no true hand refuted by its latest turn");
    let older = |s: [f64; WINDOWS + 1]| s[1..WINDOWS].iter().sum::<f64>();
    assert!(older(truth) < 0.6 * older(before), "{at:?}");
    assert!(
        1.0 - after[WINDOWS] < 0.7 * (1.0 - before[WINDOWS]),
        "{at:?}"
    );
}
