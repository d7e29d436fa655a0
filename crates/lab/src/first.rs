//! `lab first-decision`: how long the first searched decision of a process takes (the
//! search, with whatever the process prepares before it), then a second one.

use std::time::Instant;

use agents::agent::Agent;
use agents::expert::ExpertBot;
use table::engine::Table;
use table::rules::TableRules;
use table::wall::{Setup, WallModel};

/// Plays deal `seed` with the default expert at East until its first decision with a
/// choice; prints the time from the start of the process's work to that answer, and of
/// the same decision asked again.
pub fn run(seed: u64) {
    let start = Instant::now();
    let rules = TableRules::seeds();
    let mut table = Table::new(Setup::generate(WallModel::Personal, seed), rules.clone());
    let mut expert = ExpertBot::thinking(rules, seed, agents::expert::THINK_MS);
    while let Some(seat) = table.next_to_act() {
        let view = table.view(seat);
        let action = expert.act(&view);
        if view.legal.len() > 1 {
            let first = start.elapsed();
            let again = Instant::now();
            expert.act(&table.view(seat));
            println!(
                "first searched decision {:.0} ms after the start; the same decision again {:.0} ms",
                first.as_secs_f64() * 1000.0,
                again.elapsed().as_secs_f64() * 1000.0
            );
            return;
        }
        if table.apply(seat, action).is_err() {
            break;
        }
    }
    println!("deal {seed}: no decision with a choice");
}
