//! The built-in bots by name: what `--bots`, the online rooms and the environments
//! accept, and how each is built from a seed.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use std::sync::Arc;

use crate::agent::Agent;
use crate::bots::{GreedyBot, RandomBot};
use crate::botzone::BotzoneAgent;
use crate::expert::ExpertBot;
use crate::external::ExternalAgent;
use crate::pool::{BotPool, Protocol};
use crate::strong::PlanBot;

/// The built-in bots, weakest first: `random`, `greedy` (also `easy`), `greedy-r`,
/// `medium`, `strong`, and `expert` (search over sampled worlds, [`crate::expert`]).
pub const BUILTIN: [&str; 7] = [
    "random", "easy", "greedy", "greedy-r", "medium", "strong", "expert",
];

/// Creates a built-in bot by name with a seed: `random`, `greedy` (`easy`), `greedy-r`
/// (greedy with seeded random choices between equally good discards, for null tests),
/// `medium` and `strong` ([`crate::strong`]), and `expert` at its default budget
/// ([`crate::expert::THINK_MS`]).
pub fn builtin(name: &str, seed: u64) -> Option<Box<dyn Agent + Send>> {
    builtin_thinking(name, seed, crate::expert::THINK_MS)
}

/// [`builtin`], with a budget of `think_ms` milliseconds per decision for a bot that
/// searches (`expert`); the others ignore it.
pub fn builtin_thinking(name: &str, seed: u64, think_ms: u32) -> Option<Box<dyn Agent + Send>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" | "easy" => Some(Box::new(GreedyBot { rng: None })),
        "medium" => Some(Box::new(PlanBot::medium())),
        "strong" => Some(Box::new(PlanBot::strong())),
        "expert" => Some(Box::new(ExpertBot::thinking(
            table::rules::TableRules::seeds(),
            seed,
            think_ms,
        ))),
        "greedy-r" => Some(Box::new(GreedyBot {
            rng: Some(ChaCha8Rng::seed_from_u64(seed)),
        })),
        _ => None,
    }
}

impl BotPool {
    /// An agent for one hand. A JSON Lines bot reuses an idle process when there is one;
    /// a Botzone bot starts afresh every hand, as on Botzone.
    pub fn agent(self: &Arc<BotPool>) -> Box<dyn Agent + Send> {
        match self.protocol {
            Protocol::JsonLines => {
                let proc = self.idle.lock().ok().and_then(|mut v| v.pop());
                Box::new(ExternalAgent {
                    pool: self.clone(),
                    proc,
                    fault: None,
                })
            }
            Protocol::Botzone(how) => Box::new(BotzoneAgent::new(self.clone(), how)),
        }
    }
}
