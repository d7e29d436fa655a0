//! Whether a sampled world agrees with what the other seats just did, read as `strong`
//! plays (the arena's and the self-play's opponents): the seat that made the latest
//! discard would have thrown that tile from the hand the world gives it, and a seat that
//! let it pass could not have won on it (strong always takes a win).

use mcr::tile::Counts;
use mcr::{Tile, Wind};
use table::engine::{Decision, Hidden, View};

use crate::belief::{counts, sets};
use crate::strong::{PlanBot, Seat};

/// The latest discard and whose it was, where the view shows it still stands as the
/// seat's last act, with the seats that let it pass with the hands they hold now.
pub(super) fn latest(view: &View) -> Option<(Wind, Tile, Vec<Wind>)> {
    match view.decision {
        Some(Decision::Claim { from, tile }) => Some((from, tile, Vec::new())),
        // A plain draw comes straight after the previous seat's discard, which nobody
        // claimed: the two seats between let it pass, their hands unchanged since.
        Some(Decision::Turn {
            drew: Some(_),
            replacement: false,
            ..
        }) => {
            let me = view.seat;
            let prev = me.next().next().next();
            let tile = *view.discards[prev.index()].last()?;
            Some((prev, tile, vec![me.next(), me.next().next()]))
        }
        _ => None,
    }
}

/// What seat `s` knew holding `conc` (the discard `x` not yet thrown), in the planner's form.
fn seat_of(view: &View, h: &Hidden, s: Wind, conc: Counts, x: Option<Tile>) -> Seat {
    // `x` was in the hand, not yet on the table: counted once, as the hand's.
    let mut held = conc;
    if let Some(x) = x {
        held[x.index()] -= 1;
    }
    Seat {
        conc,
        melds: sets(view, h, s.index()),
        live: crate::strong::live_beside(view, &held),
        seat: s,
        prevalent: view.prevalent,
        flowers: view.bonus[s.index()].len() as u8,
    }
}

/// Whether world `h` agrees with the latest discard (see the module's comment); `plan`
/// is strong with the table's scoring rules. A view that shows no latest discard agrees.
pub(super) fn consistent(view: &View, h: &Hidden, plan: &PlanBot) -> bool {
    discard_agrees(view, h, plan) && passes_agree(view, h, plan)
}

/// Whether the seat that made the latest discard would have thrown it from its hand in `h`.
pub(super) fn discard_agrees(view: &View, h: &Hidden, plan: &PlanBot) -> bool {
    let Some((from, x, _)) = latest(view) else {
        return true;
    };
    if from == view.seat {
        return true;
    }
    let mut c = counts(&h.hands[from.index()]);
    c[x.index()] += 1;
    let s = seat_of(view, h, from, c, Some(x));
    plan.fresh_discard(&s).is_none_or(|i| i == x.index())
}

/// Whether no seat that let the latest discard pass could have won on it in `h`.
pub(super) fn passes_agree(view: &View, h: &Hidden, plan: &PlanBot) -> bool {
    let Some((_, x, passed)) = latest(view) else {
        return true;
    };
    passed.into_iter().filter(|&p| p != view.seat).all(|p| {
        let c = counts(&h.hands[p.index()]);
        let s = seat_of(view, h, p, c, None);
        !crate::strong::waits(&s, &c, &s.melds, &plan.rules)
            .iter()
            .any(|w| w.tile == x && w.discard_ok)
    })
}
