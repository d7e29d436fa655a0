//! Helpers shared by the table's scenario tests.

use table::engine::{Action, Table};
use table::log::Event;

/// Plays "discard what you drew, pass every claim" until `stop` says so or the hand ends.
pub fn auto(table: &mut Table, stop: impl Fn(&Table) -> bool) {
    while !table.is_over() && !stop(table) {
        let seat = table.to_act()[0];
        let legal = table.legal_actions(seat);
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            let drew = table.events().iter().rev().find_map(|e| match e {
                Event::Draw { seat: s, tile, .. } if *s == seat => Some(*tile),
                _ => None,
            });
            match drew {
                Some(d) if legal.contains(&Action::Discard(d)) => Action::Discard(d),
                _ => *legal
                    .iter()
                    .find(|a| matches!(a, Action::Discard(_)))
                    .unwrap(),
            }
        };
        table.apply(seat, action).unwrap();
    }
}
