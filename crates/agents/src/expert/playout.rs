//! A candidate played out: each world to the end of the hand with `strong` at every seat,
//! and what the candidates gave, valued for the choice between them.

use mcr::Wind;
use table::engine::{Action, Decision, Table};

use crate::agent::Agent;
use crate::strong::PlanBot;

/// Plays `table` to its end with `strong`'s plan at every seat: the match points of `me`,
/// and whether the hand ended at once on a win from `me`'s discard (the claims on it come
/// before any seat's turn).
pub fn playout(mut table: Table, rules: &mcr::Rules, me: Wind) -> (i32, bool) {
    let mut bots: [PlanBot; 4] = std::array::from_fn(|_| {
        let mut b = PlanBot::strong();
        b.rules = rules.clone();
        b
    });
    let (mut dealt_in, mut at_once) = (false, true);
    while let Some(seat) = table.next_to_act() {
        let action = {
            let view = table.view(seat);
            at_once &= !matches!(view.decision, Some(Decision::Turn { .. }));
            let a = bots[seat.index()].act(&view);
            if view.legal.contains(&a) {
                a
            } else {
                view.legal[0]
            }
        };
        dealt_in |= at_once && action == Action::Hu;
        if table.apply(seat, action).is_err() {
            break;
        }
    }
    let points = table.result().map(|r| r.points[me.index()]).unwrap_or(0);
    (points, dealt_in)
}

/// What every candidate gave in every world (strong's choice first), world by world:
/// the match points, and whether its discard was won on at once.
pub struct Outcomes {
    /// By candidate, the seat's match points in each world.
    pub points: Vec<Vec<i32>>,
    /// By candidate, whether the hand ended at once on a win from its discard.
    pub dealt_in: Vec<Vec<bool>>,
}

/// The weighted mean of `points` (`weights` world by world; 0 with no weight).
pub fn mean_points(points: &[i32], weights: &[f64]) -> f64 {
    let (mut sum, mut total) = (0.0, 0.0);
    for (&p, &w) in points.iter().zip(weights) {
        sum += f64::from(p) * w;
        total += w;
    }
    if total > 0.0 {
        sum / total
    } else {
        0.0
    }
}
