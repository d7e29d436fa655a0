//! Driving tables to their end with agents: whole hands, and whole regular games.

use std::time::Instant;

use mcr::Wind;

use crate::agent::Agent;
use table::engine::{Action, Table};
use table::game::Game;
use table::log::{Decision, HandLog};
use table::rules::TableRules;
use table::seen::seen_since;
use table::wall::Setup;

/// Plays one hand, telling `record` every decision; returns the table, finished unless
/// the deadline passed first. An agent's illegal answer is replaced by a safe default:
/// pass on a claim, or the first legal discard — unless the rules end the hand on an
/// agent's error ([`Action::Fault`]).
fn drive(
    setup: Setup,
    rules: TableRules,
    agents: &mut [Box<dyn Agent + Send>; 4],
    deadline: Option<Instant>,
    mut record: impl FnMut(Decision),
) -> Table {
    for a in agents.iter_mut() {
        a.set_rules(&rules);
    }
    let mut table = Table::new(setup, rules);
    let mut followers = Followers {
        follows: std::array::from_fn(|s| agents[s].follows_events()),
        shown: [0; 4],
    };
    followers.tell(&mut table, agents, &mut record);
    while let Some(seat) = table.next_to_act() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let agent = &mut agents[seat.index()];
        let view = table.view(seat);
        let mut action = agent.act(&view);
        if agent.take_fault().is_some() && table.rules().error_penalty.is_some() {
            action = Action::Fault;
        } else if !view.legal.contains(&action) {
            action = safe_default(view.legal);
        }
        table.apply(seat, action).expect("a legal action applies");
        record(Decision { seat, action });
        followers.tell(&mut table, agents, &mut record);
    }
    table
}

/// The agents that follow the hand event by event, and how far each has been told.
struct Followers {
    follows: [bool; 4],
    shown: [usize; 4],
}

impl Followers {
    /// Tells each following agent what its seat saw since last time, seat by seat; the
    /// first error the rules punish ends the hand.
    fn tell(
        &mut self,
        table: &mut Table,
        agents: &mut [Box<dyn Agent + Send>; 4],
        record: &mut impl FnMut(Decision),
    ) {
        for seat in Wind::ALL {
            let s = seat.index();
            // A hand that ended drawn is still told its last discard, as Botzone does.
            if !self.follows[s] || table.is_over() && !ended_drawn(table) {
                continue;
            }
            let seen = seen_since(table, seat, &mut self.shown[s]);
            if seen.is_empty() {
                continue;
            }
            agents[s].observe(&seen, table.legal(seat));
            if agents[s].take_fault().is_some() && table.rules().error_penalty.is_some() {
                table
                    .apply(seat, Action::Fault)
                    .expect("the rules accept faults");
                record(Decision {
                    seat,
                    action: Action::Fault,
                });
            }
        }
    }
}

/// Whether the hand is over as a draw (the wall ran out), the one end after which
/// Botzone still asks every seat about the last discard.
fn ended_drawn(table: &Table) -> bool {
    table
        .result()
        .is_some_and(|r| r.kind == table::engine::Outcome::Draw)
}

/// Plays one hand without keeping a log: the finished table and the number of decisions.
pub fn play_table(
    setup: impl Into<Setup>,
    rules: TableRules,
    agents: &mut [Box<dyn Agent + Send>; 4],
) -> (Table, usize) {
    let mut n = 0;
    let table = drive(setup.into(), rules, agents, None, |_| n += 1);
    (table, n)
}

/// Plays one hand with one agent per seat (E, S, W, N) and returns its log.
pub fn play_hand(
    setup: impl Into<Setup>,
    rules: TableRules,
    agents: &mut [Box<dyn Agent + Send>; 4],
) -> HandLog {
    let mut actions = Vec::new();
    let table = drive(setup.into(), rules, agents, None, |d| actions.push(d));
    HandLog::of(&table, actions)
}

/// Makes player `p`'s agent for hand `k` (0-based) of a game.
pub type PlayerFactory<'a> = &'a mut dyn FnMut(usize, usize) -> Box<dyn Agent + Send>;

/// Plays the rest of a regular game: each hand with the players seated as the rotation
/// says, until the game is over or `deadline` passes (the hand then in play counts
/// nothing). Returns the hand logs when `keep_logs`, and the hands' decision counts.
pub fn play_game(
    game: &mut Game,
    make: PlayerFactory,
    deadline: Option<Instant>,
    keep_logs: bool,
) -> (Vec<HandLog>, usize) {
    let mut logs = Vec::new();
    let mut decisions = 0;
    while let Some(setup) = game.next_setup() {
        let k = game.played();
        let seats = game.next_seating();
        let mut agents: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| make(seats[s], k));
        let mut actions = Vec::new();
        let table = drive(setup, game.rules().clone(), &mut agents, deadline, |d| {
            decisions += 1;
            if keep_logs {
                actions.push(d);
            }
        });
        match table.result() {
            Some(r) => game.record(r).expect("the game has hands left"),
            None => {
                game.stop();
                break;
            }
        }
        if keep_logs {
            logs.push(HandLog::of(&table, actions));
        }
    }
    (logs, decisions)
}

/// Pass when passing is allowed, set a drawn bonus tile aside, otherwise the last legal discard (the drawn tile sorts
/// anywhere, so take the first one offered).
pub fn safe_default(legal: &[Action]) -> Action {
    if legal.contains(&Action::Pass) {
        return Action::Pass;
    }
    if legal.contains(&Action::Bonus) {
        return Action::Bonus;
    }
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Discard(_)))
        .unwrap_or(Action::Pass)
}

/// The seat wind order, for callers that index agents by seat.
pub const SEATS: [Wind; 4] = Wind::ALL;
