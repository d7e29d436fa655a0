//! Whether a sampled world agrees with what the other seats just did, read as `strong`
//! plays (the arena's and the self-play's opponents): the seat that made the latest
//! discard would have thrown that tile from the hand the world gives it, and a seat that
//! let it pass could not have won on it (strong always takes a win).

use mcr::tile::Counts;
use mcr::{Tile, Wind};
use table::engine::{Decision, Hidden, View};

use agents::belief::{counts, sets};
use agents::strong::{PlanBot, Seat};

/// The latest discard and whose it was, where the view shows it still stands as the
/// seat's last act, with the seats that let it pass with the hands they hold now.
pub fn latest(view: &View) -> Option<(Wind, Tile, Vec<Wind>)> {
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
        live: agents::strong::live_beside(view, &held),
        seat: s,
        prevalent: view.prevalent,
        flowers: view.bonus[s.index()].len() as u8,
    }
}

/// Whether world `h` agrees with the latest discard (see the module's comment); `plan`
/// is strong with the table's scoring rules. A view that shows no latest discard agrees.
pub fn consistent(view: &View, h: &Hidden, plan: &PlanBot) -> bool {
    discard_agrees(view, h, plan) && passes_agree(view, h, plan)
}

/// Whether the seat that made the latest discard would have thrown it from its hand in `h`.
pub fn discard_agrees(view: &View, h: &Hidden, plan: &PlanBot) -> bool {
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
pub fn passes_agree(view: &View, h: &Hidden, plan: &PlanBot) -> bool {
    let Some((_, x, passed)) = latest(view) else {
        return true;
    };
    passed.into_iter().filter(|&p| p != view.seat).all(|p| {
        let c = counts(&h.hands[p.index()]);
        let s = seat_of(view, h, p, c, None);
        !agents::strong::waits(&s, &c, &s.melds, &plan.rules)
            .iter()
            .any(|w| w.tile == x && w.discard_ok)
    })
}

/// The other seats as the worlds model them: `strong` as it is, under `rules`.
pub fn others(rules: &mcr::Rules) -> PlanBot {
    let mut strong = PlanBot::strong();
    strong.rules = rules.clone();
    strong
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::agent::Agent;
    use agents::expert::{ExpertBot, CHAINS};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    use table::engine::{Action, Table};
    use table::rules::TableRules;
    use table::wall::{Setup, WallModel};

    use crate::common::DIAGNOSED_PLAYOUTS;

    /// The hands as they really are agree with the latest discard as strong reads it, at
    /// every decision of strong's self-play where the view shows one; and most of the
    /// chains' worlds do too.
    #[test]
    fn the_true_hands_agree_with_the_latest_discard() {
        let rules = TableRules::seeds();
        let (mut checked, mut agreed, mut worlds, mut worlds_agreed) = (0, 0, 0, 0);
        let (mut discard_ok, mut passes_ok) = (0, 0);
        for d in 0..4 {
            let mut t = Table::new(
                Setup::generate(WallModel::Personal, 4400 + d),
                rules.clone(),
            );
            let mut bots: [PlanBot; 4] = std::array::from_fn(|_| PlanBot::strong());
            let expert = ExpertBot::new(rules.clone(), d, DIAGNOSED_PLAYOUTS);
            let others = others(&rules.scoring);
            let mut rng = ChaCha8Rng::seed_from_u64(d);
            while let Some(seat) = t.next_to_act() {
                let view = t.view(seat);
                if latest(&view).is_some() && !view.legal.contains(&Action::Hu) {
                    if let Some(h) = crate::truth::oracle(&t, &view, &mut rng) {
                        checked += 1;
                        agreed += consistent(&view, &h, &others) as usize;
                    }
                    if checked % 8 == 0 {
                        for (h, _) in agents::belief::settle(
                            &view,
                            expert.samples(&view, 48),
                            12,
                            CHAINS,
                            &rules.scoring,
                            &mut rng,
                        ) {
                            worlds += 1;
                            worlds_agreed += consistent(&view, &h, &others) as usize;
                            discard_ok += discard_agrees(&view, &h, &others) as usize;
                            passes_ok += passes_agree(&view, &h, &others) as usize;
                        }
                    }
                }
                let a = bots[seat.index()].act(&view);
                t.apply(seat, a).unwrap();
            }
        }
        println!(
            "true hands agree {agreed} of {checked}; chains' worlds {worlds_agreed} of {worlds} \
             (the discard {discard_ok}, the passes {passes_ok})"
        );
        assert!(checked > 100, "{checked} decisions checked");
        assert_eq!(agreed, checked);
    }
}
