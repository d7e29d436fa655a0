//! `strong`'s answers to a discard: a claim only when it brings a route to 8 points
//! nearer (a kong also when it keeps the hand as near), judged by the best discard after
//! it.

use mcr::{Meld, Tile};
use table::engine::{Action, View};

use super::{active_routes, evaluate, measured, within_floored, PlanBot, Seat};
use crate::plan;

impl PlanBot {
    pub(super) fn on_claim(&mut self, view: &View, s: &Seat, tile: Tile) -> Action {
        self.ensure_memo(s);
        self.claim(view, s, tile)
    }

    fn claim(&self, view: &View, s: &Seat, tile: Tile) -> Action {
        let memo = self.memo.as_ref().expect("judged by ensure_memo");
        let now = memo.eval;
        if now.distance == 0 {
            return Action::Pass;
        }
        // No claim can do better than the tile taken into the hand.
        let mut with = s.conc;
        with[tile.index()] += 1;
        let (d14, _) = plan::best(&memo.routes, &s.shape(&with, &s.melds));
        if d14 >= now.distance {
            return Action::Pass;
        }
        let mut best = (now.distance, Action::Pass);
        for a in view.legal {
            let Some(after) = self.after_claim(s, tile, *a) else {
                continue;
            };
            if after < best.0
                || (*a == Action::Kong && after <= now.distance && best.1 == Action::Pass)
            {
                best = (after, *a);
            }
        }
        best.1
    }

    /// The distance to the nearest route after claim `a` of `tile` (and, but for a kong,
    /// the best discard after it); `None` for a pass or a claim that cannot be made.
    fn after_claim(&self, s: &Seat, tile: Tile, a: Action) -> Option<i32> {
        let (taken, meld): (Vec<Tile>, Meld) = match a {
            Action::Pung => (vec![tile; 2], Meld::pung(tile, 1)),
            Action::Kong => (vec![tile; 3], Meld::melded_kong(tile, 1)),
            Action::Chow(low) => {
                let run: Vec<Tile> = (0..3)
                    .filter_map(|k| low.offset(k))
                    .filter(|t| *t != tile)
                    .collect();
                let pos = tile.rank() - low.rank() + 1;
                (run, Meld::chow(low, pos)?)
            }
            _ => return None,
        };
        let mut conc = s.conc;
        for t in &taken {
            conc[t.index()] -= 1;
        }
        let mut melds = s.melds.clone();
        melds.push(meld);
        if a == Action::Kong {
            let routes = active_routes(s, &conc, &melds);
            Some(evaluate(s, &conc, &melds, &routes, &self.rules).distance)
        } else {
            // Each route with its distance before the discard: its floor after it.
            let m = measured(plan::routes(), s, &conc, &melds, 1);
            let routes = within_floored(&m, 1);
            self.choose_discard(s, &conc, &melds, &routes, |_| true)
                .map(|(_, e)| e.distance)
        }
    }

    /// At a claim decision, the distance of the hand held now and after each legal answer
    /// (a pass keeps it): what strong's claim rules read (`lab claims`).
    pub fn claim_outlook(&mut self, view: &View) -> Option<(i32, Vec<(Action, i32)>)> {
        let Some(table::engine::Decision::Claim { tile, .. }) = view.decision else {
            return None;
        };
        let s = Seat::of(view);
        self.ensure_memo(&s);
        let now = self.memo.as_ref()?.eval.distance;
        let after = (view.legal.iter())
            .map(|&a| (a, self.after_claim(&s, tile, a).unwrap_or(now)))
            .collect();
        Some((now, after))
    }
}
