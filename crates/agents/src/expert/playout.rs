//! A candidate played out: each world to the end of the hand with `strong` at every seat,
//! and what the candidates gave, valued for the choice between them.

use mcr::tile::KINDS;
use mcr::Wind;
use table::engine::{Action, Decision, Table};

use crate::agent::Agent;
use crate::strong::PlanBot;

/// Plays `table` to its end with `strong`'s plan at every seat: the match points of `me`,
/// and whether the hand ended at once on a win from `me`'s discard (the claims on it come
/// before any seat's turn).
pub(super) fn playout(mut table: Table, rules: &mcr::Rules, me: Wind) -> (i32, bool) {
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

/// Points of `me` where no world dealt in at once but the model says a discard does: a
/// discarder pays 8 and the hand's points, about 13 on average (docs/bots.md).
const DEALT_IN: f64 = -21.0;

/// What every candidate gave in every world (strong's choice first), world by world:
/// the match points, and whether its discard was won on at once.
pub(crate) struct Outcomes {
    pub(crate) points: Vec<Vec<i32>>,
    pub(super) dealt_in: Vec<Vec<bool>>,
}

/// Candidate `i`'s mean points in the worlds; where it is a discard and `danger` is given,
/// its mean where the worlds did not deal in at once and its mean where they did
/// ([`DEALT_IN`] where none did), mixed by `danger`'s chance for its kind.
pub(super) fn value(
    candidate: Action,
    outcomes: &Outcomes,
    i: usize,
    weights: &[f64],
    danger: Option<&[f64; KINDS]>,
) -> f64 {
    let points = &outcomes.points[i];
    let mean = |keep: &dyn Fn(usize) -> bool| -> Option<f64> {
        let (mut sum, mut total) = (0.0, 0.0);
        for (j, (&p, &w)) in points.iter().zip(weights).enumerate() {
            if keep(j) {
                sum += f64::from(p) * w;
                total += w;
            }
        }
        (total > 0.0).then(|| sum / total)
    };
    let all = mean(&|_| true).unwrap_or(0.0);
    match (candidate, danger) {
        (Action::Discard(t), Some(q)) => {
            let dealt = &outcomes.dealt_in[i];
            let safe = mean(&|j| !dealt[j]).unwrap_or(all);
            let hit = mean(&|j| dealt[j]).unwrap_or(DEALT_IN);
            let q = q[t.index()];
            (1.0 - q) * safe + q * hit
        }
        _ => all,
    }
}
