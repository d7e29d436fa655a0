//! The bots a room seats: a level's bot as people see it play, and the stand-ins that
//! play for an absent person.

use agents::{agent::Agent, registry::builtin};
use table::engine::Action;
use table::rules::TableRules;

use super::{default_of, DEFAULTS};

/// The bot of a level at a table people see: a built-in bot; the expert stopping its
/// search in time for the clock, and answering claims at once (claims are never paced, so
/// that a pause tells nobody who could claim).
pub(super) fn table_bot(level: &str, seed: u64) -> Option<Box<dyn Agent + Send>> {
    if level == "expert" {
        let rules = TableRules::seeds();
        let think = agents::expert::THINK_MS;
        let bot = agents::expert::ExpertBot::thinking(rules, seed, think).with_hard_stop(think);
        return Some(Box::new(bot.claims_at_once()));
    }
    builtin(level, seed)
}

/// A stand-in by name: a built-in bot, or [`DEFAULTS`].
pub(super) fn stand_in(name: &str, seed: u64) -> Box<dyn Agent + Send> {
    if name == DEFAULTS {
        return Box::new(Defaults);
    }
    table_bot(name, seed).expect("stand-ins are built-in bots")
}

/// Plays for an absent person exactly what their clock running out would.
struct Defaults;

impl Agent for Defaults {
    fn name(&self) -> &str {
        DEFAULTS
    }

    fn act(&mut self, view: &table::engine::View) -> Action {
        default_of(view.decision.as_ref(), view.legal)
    }
}
