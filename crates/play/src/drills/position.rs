//! A decision as the player saw it then: their own tiles and everything public, nothing
//! of another hand or the wall.

use serde::Serialize;
use serde_json::Value;
use table::engine::{Action, Decision};
use table::log::{start_of, HandLog};

use crate::view::{board, Eye};
use crate::PlayError;

/// A decision as the player saw it: their seat, the board as their seat saw it (their own
/// tiles and everything public, nothing of another hand or the wall), what was asked and
/// what they might do, and what they did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Position {
    /// The seat that decided.
    pub seat: mcr::Wind,
    /// The board from that seat ([`crate::view::board`]).
    pub board: Value,
    /// What was asked.
    pub decision: Option<Decision>,
    /// The moves allowed.
    pub legal: Vec<Action>,
    /// The move played.
    pub played: Action,
}

/// The position of the `at`-th move of a hand's log (0-based, as `log.actions` counts).
pub fn position(log: &HandLog, at: usize) -> Result<Position, PlayError> {
    let d = log.actions.get(at).ok_or_else(|| {
        PlayError::Invalid(format!(
            "move {}: the hand has {} moves",
            at + 1,
            log.actions.len()
        ))
    })?;
    let mut table = start_of(log).map_err(|e| PlayError::Internal(e.to_string()))?;
    for earlier in &log.actions[..at] {
        table
            .apply(earlier.seat, earlier.action)
            .map_err(|e| PlayError::Internal(format!("the log does not replay: {e}")))?;
    }
    let view = table.view(d.seat);
    Ok(Position {
        seat: d.seat,
        board: board(&table, Eye::Seat(d.seat)),
        decision: view.decision,
        legal: view.legal.to_vec(),
        played: d.action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position shows its seat's own tiles and the public facts only, and the move the
    /// log says was played there.
    #[test]
    fn a_position_is_what_its_seat_saw() {
        use table::wall::{Setup, WallModel};
        let setup = Setup::generate(WallModel::Personal, 77);
        let rules = table::rules::TableRules::seeds();
        let mut agents: [Box<dyn agents::agent::Agent + Send>; 4] = std::array::from_fn(|s| {
            agents::registry::builtin("strong", s as u64).expect("a built-in bot")
        });
        let log = agents::drive::play_hand(setup, rules, &mut agents);
        assert!(log.actions.len() > 20);
        for at in [0, 7, log.actions.len() / 2, log.actions.len() - 1] {
            let p = position(&log, at).unwrap();
            assert_eq!(p.seat, log.actions[at].seat);
            assert_eq!(p.played, log.actions[at].action);
            assert!(p.legal.contains(&p.played), "move {at}");
            for (i, s) in p.board["seats"].as_array().unwrap().iter().enumerate() {
                let mine = i == p.seat.index();
                assert_eq!(s.get("hand").is_some(), mine, "move {at}, seat {i}");
            }
        }
        assert!(position(&log, log.actions.len()).is_err());
    }
}
