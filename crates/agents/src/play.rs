//! Playing whole hands with agents.

use mcr::Wind;

use crate::bots::Agent;
use table::deal::Deal;
use table::engine::{Action, Table};
use table::log::{Decision, HandLog};
use table::rules::TableRules;
use table::seen::{seen_by, SeenEvent};

/// Plays one hand, telling `record` every decision; returns the finished table. An
/// agent's illegal answer is replaced by a safe default: pass on a claim, or the first
/// legal discard.
fn drive(
    deal: Deal,
    rules: TableRules,
    agents: &mut [Box<dyn Agent + Send>; 4],
    mut record: impl FnMut(Decision),
) -> Table {
    let mut table = Table::new(deal, rules);
    // Per seat, how many of the table's events its agent has been shown.
    let mut shown = [0usize; 4];
    while let Some(seat) = table.next_to_act() {
        let agent = &mut agents[seat.index()];
        if agent.follows_events() {
            agent.observe(&seen_since(&table, seat, &mut shown[seat.index()]));
        }
        let view = table.view(seat);
        let mut action = agent.act(&view);
        if !view.legal.contains(&action) {
            action = safe_default(view.legal);
        }
        table.apply(seat, action).expect("a legal action applies");
        record(Decision { seat, action });
    }
    table
}

/// The events `seat` has not been shown yet, as it saw them; the first call starts with
/// its starting tiles.
fn seen_since(table: &Table, seat: Wind, shown: &mut usize) -> Vec<SeenEvent> {
    let mut out = Vec::new();
    if *shown == 0 {
        out.push(SeenEvent::Dealt {
            seat,
            prevalent: table.deal().prevalent,
            tiles: table.deal().hands[seat.index()].to_vec(),
        });
    }
    let events = table.events();
    out.extend(events[*shown..].iter().filter_map(|e| seen_by(e, seat)));
    *shown = events.len();
    out
}

/// Plays one hand without keeping a log: the finished table and the number of decisions.
pub fn play_table(
    deal: Deal,
    rules: TableRules,
    agents: &mut [Box<dyn Agent + Send>; 4],
) -> (Table, usize) {
    let mut n = 0;
    let table = drive(deal, rules, agents, |_| n += 1);
    (table, n)
}

/// Plays one hand with one agent per seat (E, S, W, N) and returns its log.
pub fn play_hand(
    deal: Deal,
    rules: TableRules,
    agents: &mut [Box<dyn Agent + Send>; 4],
) -> HandLog {
    let mut actions = Vec::new();
    let table = drive(deal, rules, agents, |d| actions.push(d));
    HandLog::of(&table, actions)
}

/// Pass when passing is allowed, otherwise the last legal discard (the drawn tile sorts
/// anywhere, so take the first one offered).
pub fn safe_default(legal: &[Action]) -> Action {
    if legal.contains(&Action::Pass) {
        return Action::Pass;
    }
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Discard(_)))
        .unwrap_or(Action::Pass)
}

/// The seat wind order, for callers that index agents by seat.
pub const SEATS: [Wind; 4] = Wind::ALL;
