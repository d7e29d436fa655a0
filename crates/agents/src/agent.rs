//! The seam every player goes through: an [`Agent`] sees only its seat's [`View`] and
//! answers with one of the legal actions listed there. The engine, the arena, the online
//! rooms and the environments for learning all drive players through this trait alone.

use table::engine::{Action, View};
use table::seen::SeenEvent;

/// A player: view in, action out.
pub trait Agent {
    /// The bot's name, as reports print it.
    fn name(&self) -> &str;
    /// The action for a seat's view; only called when the seat has a decision.
    fn act(&mut self, view: &View) -> Action;
    /// Whether this agent follows the hand event by event; if so, [`Agent::observe`] is
    /// called after every change of the table (from the deal on).
    fn follows_events(&self) -> bool {
        false
    }
    /// What the seat saw since the last call, and what it may do now (empty when it has
    /// no decision; [`Agent::act`] follows when it has one).
    fn observe(&mut self, _seen: &[SeenEvent], _legal: &[Action]) {}
    /// An error of the agent's own protocol since the last call (a crash, a time-out, an
    /// unreadable or illegal answer): under rules with an error penalty it ends the hand.
    fn take_fault(&mut self) -> Option<String> {
        None
    }
    /// The rules of the hand about to be played (a bot that simulates the hand needs
    /// them); called before the hand starts.
    fn set_rules(&mut self, _rules: &table::rules::TableRules) {}
    /// For a bot that searches: the move it would play at `view` in place of `played`
    /// (`played` itself unless another is clearly better on the sampled worlds, by the
    /// standard the bot leaves its plan by), and what it expects of both on the same
    /// worlds. `None` for the others, and where the
    /// search does not weigh the choice (one legal move, a win on offer).
    fn appraise(&mut self, _view: &View, _played: Action) -> Option<Appraisal> {
        None
    }
    /// Whether a decision may take long (a search): a server then asks it away from the
    /// task that answers the table's players.
    fn thinks(&self) -> bool {
        false
    }
}

/// What a searching bot expects of the moves it weighed at one decision: the match points
/// of the seat, averaged over the same sampled worlds played out to the end of the hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Appraisal {
    /// The move expected to do best.
    pub best: Action,
    /// Its expected match points.
    pub best_points: f64,
    /// The expected match points of the move appraised.
    pub played_points: f64,
    /// The standard error of the difference between the two (paired on the worlds).
    pub error: f64,
    /// Worlds the averages are over.
    pub worlds: usize,
    /// Every move weighed, the one appraised first, each with its expected match points.
    pub candidates: Vec<Candidate>,
}

/// One move weighed at a decision.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Candidate {
    /// The move.
    pub action: Action,
    /// Its expected match points over the sampled worlds.
    pub points: f64,
    /// The standard error of its difference from the move appraised (paired on the
    /// worlds; 0 for that move itself).
    pub error: f64,
}
