//! The expert with the two experiments the library left out: worlds checked against the
//! latest discard ([`crate::consistent`]: it showed nothing in IMP), and a discard's
//! chance of dealing in read from the model of public facts ([`crate::danger`]: it ranks
//! the truth far better than the worlds do, yet played no better). Both measured in
//! docs/expert-belief.md; with both off it is the expert as it plays.

use agents::agent::Agent;
use agents::expert::{mean_points, ExpertBot, Outcomes};
use mcr::tile::KINDS;
use table::engine::{Action, Decision, Table, View};

/// Points of `me` where no world dealt in at once but the model says a discard does: a
/// discarder pays 8 and the hand's points, about 13 on average (docs/bots.md).
const DEALT_IN: f64 = -21.0;

/// The expert, searching as it does in play unless an experiment is on.
pub struct Searcher {
    /// The expert itself.
    pub bot: ExpertBot,
    /// Whether worlds that disagree with the latest discard are left out (they make up
    /// the number only when too few agree).
    pub check_latest: bool,
    /// Whether a discard's chance of dealing in now is read from the model of public
    /// facts rather than from the worlds.
    pub read_danger: bool,
}

impl Searcher {
    /// The move at `view`.
    pub fn act(&mut self, view: &View) -> Action {
        if !self.check_latest && !self.read_danger {
            return self.bot.act(view);
        }
        let planned = self.bot.plan().act(view);
        let Some(candidates) = self.bot.to_search(view, planned) else {
            return planned;
        };
        let worlds = self.worlds(view, self.bot.per_candidate(&candidates));
        self.bot.searched_one();
        if worlds.is_empty() {
            return candidates[0];
        }
        let danger = self.danger(view);
        self.decide(view, &candidates, &worlds, danger.as_ref())
    }

    /// The expert's turn with the chance each discard deals in now given (`q`, by kind).
    pub fn with_danger(&mut self, view: &View, q: &[f64; KINDS]) -> Action {
        let planned = self.bot.plan().act(view);
        let Some(candidates) = self.bot.to_search(view, planned) else {
            return planned;
        };
        let worlds = self.worlds(view, self.bot.per_candidate(&candidates));
        self.bot.searched_one();
        self.decide(view, &candidates, &worlds, Some(q))
    }

    fn decide(
        &self,
        view: &View,
        candidates: &[Action],
        worlds: &[(Table, f64)],
        danger: Option<&[f64; KINDS]>,
    ) -> Action {
        let outcomes = self.bot.play_out(view, candidates, worlds);
        let weights: Vec<f64> = worlds
            .iter()
            .take(outcomes.points[0].len())
            .map(|(_, w)| *w)
            .collect();
        self.pick(candidates, &outcomes, &weights, danger).0
    }

    /// The worlds for one decision: the expert's, or with `check_latest`, four times as
    /// many drawn and those that agree with the latest discard first, taken from the
    /// chains in turn (they come chain by chain).
    fn worlds(&self, view: &View, n: usize) -> Vec<(Table, f64)> {
        if !self.check_latest {
            return self.bot.worlds(view, n);
        }
        let drawn = 4 * n;
        let worlds = self.bot.belief_worlds(view, n, drawn);
        let per_chain = drawn.div_ceil(self.bot.config().chains.chains.max(1));
        let mut order: Vec<_> = worlds.into_iter().enumerate().collect();
        order.sort_by_key(|(i, _)| i % per_chain);
        let others = crate::consistent::others(&self.bot.rules().scoring);
        let (agree, rest): (Vec<_>, Vec<_>) = (order.into_iter().map(|(_, w)| w))
            .partition(|(h, _)| crate::consistent::consistent(view, h, &others));
        let kept = agree.into_iter().chain(rest).take(n).collect();
        self.bot.seat_worlds(view, kept)
    }

    /// On a turn, the chance that a discard of each kind deals in now, by the model.
    fn danger(&self, view: &View) -> Option<[f64; KINDS]> {
        let turn = matches!(view.decision, Some(Decision::Turn { .. }));
        (turn && self.read_danger).then(|| crate::danger::deal_in(&self.bot.belief_view(view)))
    }

    /// The expert's pick, with each discard's chance of dealing in now taken from
    /// `danger` rather than from the worlds ([`value`]). The standard error stays that of
    /// the worlds' own differences.
    fn pick(
        &self,
        candidates: &[Action],
        outcomes: &Outcomes,
        weights: &[f64],
        danger: Option<&[f64; KINDS]>,
    ) -> (Action, f64) {
        let Some(danger) = danger else {
            return self.bot.pick(candidates, &outcomes.points, weights);
        };
        let planned = candidates[0];
        let results = &outcomes.points;
        if results[0].len() < self.bot.config().min_worlds {
            return (planned, 0.0);
        }
        let base = value(planned, outcomes, 0, weights, danger);
        let mut best = (planned, 0.0);
        for (i, (c, r)) in candidates.iter().zip(results).enumerate().skip(1) {
            let d: Vec<f64> = r
                .iter()
                .zip(&results[0])
                .map(|(a, b)| (*a - *b) as f64)
                .collect();
            let (_, se) = agents::belief::weighted_gain(&d, weights);
            let mean = value(*c, outcomes, i, weights, danger) - base;
            if mean > self.bot.config().gate * se && mean > best.1 {
                best = (*c, mean);
            }
        }
        best
    }
}

/// Candidate `i`'s mean points in the worlds; for a discard, its mean where the worlds did
/// not deal in at once and its mean where they did ([`DEALT_IN`] where none did), mixed by
/// `danger`'s chance for its kind.
fn value(
    candidate: Action,
    outcomes: &Outcomes,
    i: usize,
    weights: &[f64],
    danger: &[f64; KINDS],
) -> f64 {
    let points = &outcomes.points[i];
    let all = mean_points(points, weights);
    let Action::Discard(t) = candidate else {
        return all;
    };
    let dealt = &outcomes.dealt_in[i];
    let part = |hit: bool| -> Option<f64> {
        let (mut sum, mut total) = (0.0, 0.0);
        for ((&p, &w), &d) in points.iter().zip(weights).zip(dealt) {
            if d == hit {
                sum += f64::from(p) * w;
                total += w;
            }
        }
        (total > 0.0).then(|| sum / total)
    };
    let safe = part(false).unwrap_or(all);
    let hit = part(true).unwrap_or(DEALT_IN);
    let q = danger[t.index()];
    (1.0 - q) * safe + q * hit
}
