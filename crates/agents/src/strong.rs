//! The planning bots `medium` and `strong`: they play toward hands worth at least 8 points.
//!
//! Every decision measures the hand against the fan routes of [`crate::plan`]. A discard is
//! chosen by the distance it leaves to the nearest route; a ready hand is judged by its real
//! waits, scored by the calculator, so a wait that cannot reach 8 points is no wait. `strong`
//! breaks ties by the live tiles that bring the hand closer (its acceptance) and, when
//! another seat looks ready and its own hand is far, prefers the safer of equal discards;
//! `medium` breaks ties by keeping connected tiles. Both claim only when the claim brings a
//! route nearer, and always take a win.

use mcr::tile::{Counts, KINDS};
use mcr::{Meld, MeldKind, Tile, WinContext, Wind};

use crate::agent::Agent;

mod acceptance;
mod claim;
#[cfg(test)]
mod tests;
use crate::plan::{self, Route, Shape, CLOSED};
use acceptance::tie_score;
use table::engine::{Action, Decision, SeenMeld, View};

/// How much the planner does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Plans toward hands worth 8 points.
    Medium,
    /// Plans, and keeps the most live tiles among equal discards.
    Strong,
}

/// A planning bot.
pub struct PlanBot {
    /// How far it looks.
    pub level: Level,
    /// Fan values, for judging ready hands.
    pub rules: mcr::Rules,
    /// How many of the discards tied on distance, the least useful first, `strong` weighs
    /// by acceptance ([`ACCEPTANCE_OF`]).
    pub acceptance_of: usize,
    name: &'static str,
    /// The hand left after the last discard and what was learnt of it: the hand does not
    /// change until the next turn, while claims on every discard ask about it.
    memo: Option<Memo>,
    /// Turns played: every fourth one looks at every route again.
    turns: u32,
}

#[derive(Clone, Debug)]
struct Memo {
    conc: Counts,
    melds: usize,
    eval: Eval,
    /// Routes within two tiles of the best: the only ones a claim or a draw can bring to
    /// the front.
    routes: Vec<Route>,
}

impl PlanBot {
    /// The `medium` bot.
    pub fn medium() -> PlanBot {
        PlanBot {
            level: Level::Medium,
            rules: mcr::Rules::seeds(),
            acceptance_of: ACCEPTANCE_OF,
            name: "medium",
            memo: None,
            turns: 0,
        }
    }
    /// The `strong` bot. It has no defence: discarding the safest of equally good tiles
    /// when another seat looked ready measured no better (docs/bots.md).
    pub fn strong() -> PlanBot {
        PlanBot {
            level: Level::Strong,
            rules: mcr::Rules::seeds(),
            acceptance_of: ACCEPTANCE_OF,
            name: "strong",
            memo: None,
            turns: 0,
        }
    }
}

/// The tied discards `strong` weighs by acceptance: the three least useful. Weighing
/// every one played +0.032 IMP/hand [0.005, 0.060] better over 20,000 deals (docs/bots.md);
/// `strong` keeps three, the bar the other bots and every earlier figure were measured
/// against, and the expert's own plan weighs them all.
pub const ACCEPTANCE_OF: usize = 3;

/// What one seat knows, in the form the planner uses.
pub struct Seat {
    /// Counts of the concealed tiles.
    pub conc: Counts,
    /// The declared sets.
    pub melds: Vec<Meld>,
    /// Copies not yet seen by this seat (4 minus its own tiles, discards, open melds).
    pub live: [u8; KINDS],
    /// The seat wind.
    pub seat: Wind,
    /// The prevalent wind.
    pub prevalent: Wind,
    /// Bonus tiles set aside (regular games).
    pub flowers: u8,
}

/// Copies of each kind not seen by a seat holding `conc`: 4 minus those tiles, every
/// discard on the table and every open meld of `view`.
pub fn live_beside(view: &View, conc: &Counts) -> [u8; KINDS] {
    let public = public_counts(view);
    std::array::from_fn(|i| 4u8.saturating_sub(conc[i] + public[i]))
}

/// The tiles on the table for every seat to see: the discards and the open sets.
pub fn public_counts(view: &View) -> Counts {
    let mut seen = [0; KINDS];
    for pile in view.discards {
        for t in pile {
            seen[t.index()] += 1;
        }
    }
    for ms in view.melds {
        for m in ms.iter() {
            if let SeenMeld::Open(m) = m {
                for t in m.tiles() {
                    seen[t.index()] += 1;
                }
            }
        }
    }
    seen
}

impl Seat {
    /// What the view shows, in the planner's form.
    pub fn of(view: &View) -> Seat {
        let conc = *view.hand.counts();
        let melds: Vec<Meld> = view.melds[view.seat.index()]
            .iter()
            .filter_map(|m| match m {
                SeenMeld::Open(m) => Some(*m),
                SeenMeld::HiddenKong => None,
            })
            .collect();
        Seat {
            conc,
            melds,
            live: live_beside(view, &conc),
            seat: view.seat,
            prevalent: view.prevalent,
            flowers: view.bonus[view.seat.index()].len() as u8,
        }
    }

    fn shape<'a>(&'a self, conc: &'a Counts, melds: &'a [Meld]) -> Shape<'a> {
        Shape {
            conc,
            melds,
            seat: self.seat,
            prevalent: self.prevalent,
        }
    }
}

/// How good a hand of 13 (after a discard) is: its distance to the nearest route, and when
/// ready the live winning tiles weighted by what they score (0 when no wait reaches 8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    /// Tiles to exchange to the nearest route (0: ready).
    pub distance: i32,
    /// For a ready hand, its live winning tiles weighted by value.
    pub ready: f64,
}

/// The routes among `from` within `band` tiles of the best for a hand.
pub fn active_routes_in(
    from: &[Route],
    s: &Seat,
    conc: &Counts,
    melds: &[Meld],
    band: i32,
) -> Vec<Route> {
    within(&measured(from, s, conc, melds, band), band)
}

/// Each route of `from` with its distance for a hand, as far as `band` asks: a route
/// whose floor ([`plan::floor`]) is more than `band` above the best distance so far cannot
/// be within `band` of the best, and is given [`CLOSED`] without being measured.
fn measured(
    from: &[Route],
    s: &Seat,
    conc: &Counts,
    melds: &[Meld],
    band: i32,
) -> Vec<(Route, i32)> {
    let h = s.shape(conc, melds);
    let mut best = CLOSED;
    from.iter()
        .map(|r| {
            if plan::floor(r, &h) > best.saturating_add(band) {
                return (*r, CLOSED);
            }
            let d = plan::distance(r, &h);
            best = best.min(d);
            (*r, d)
        })
        .collect()
}

/// The measured routes within `band` tiles of the best.
fn within(m: &[(Route, i32)], band: i32) -> Vec<Route> {
    within_floored(m, band)
        .into_iter()
        .map(|(r, _)| r)
        .collect()
}

/// The measured routes within `band` tiles of the best, with their distances.
fn within_floored(m: &[(Route, i32)], band: i32) -> Vec<(Route, i32)> {
    let best = m.iter().map(|x| x.1).min().unwrap_or(CLOSED);
    let mut out = Vec::with_capacity(m.len());
    out.extend(
        m.iter()
            .filter(|(_, x)| *x < CLOSED && *x <= best + band)
            .copied(),
    );
    out
}

/// The routes near enough to matter for a hand: within one tile of the best.
pub fn active_routes(s: &Seat, conc: &Counts, melds: &[Meld]) -> Vec<Route> {
    active_routes_in(plan::routes(), s, conc, melds, 1)
}

/// Judges a ready hand by its real waits: live copies of every wait that reaches 8 points,
/// weighted by the value won on a discard (self-drawn when only that reaches 8).
pub fn ready_value(s: &Seat, conc: &Counts, melds: &[Meld], rules: &mcr::Rules) -> f64 {
    waits(s, conc, melds, rules)
        .iter()
        .map(|w| {
            let live = s.live[w.tile.index()] as f64;
            let value = if w.discard_ok {
                w.discard.unwrap_or(8)
            } else if w.self_drawn_ok {
                // Only self-drawn reaches 8: about a third of the wins.
                return live * (w.self_drawn.unwrap_or(8) as f64 + 24.0) / 32.0 / 3.0;
            } else {
                return 0.0;
            };
            live * (value as f64 + 24.0) / 32.0
        })
        .sum()
}

/// The waits of a hand of 13 with what each scores for this seat (none when not ready).
pub fn waits(s: &Seat, conc: &Counts, melds: &[Meld], rules: &mcr::Rules) -> Vec<mcr::Wait> {
    waits_at(s.seat, s.prevalent, s.flowers, conc, melds, rules)
}

/// [`waits`] for a hand of seat wind `seat` with `flowers` bonus tiles set aside.
pub fn waits_at(
    seat: Wind,
    prevalent: Wind,
    flowers: u8,
    conc: &Counts,
    melds: &[Meld],
    rules: &mcr::Rules,
) -> Vec<mcr::Wait> {
    let standing: Vec<Tile> = (0..KINDS)
        .flat_map(|i| std::iter::repeat_n(plan::tile(i), conc[i] as usize))
        .collect();
    let ctx = WinContext {
        self_drawn: false,
        last_of_kind: false,
        kong: false,
        last_tile: false,
        seat_wind: seat,
        prevalent_wind: prevalent,
        flowers,
    };
    mcr::waits(&standing, melds, ctx, rules)
        .map(|(_, w)| w)
        .unwrap_or_default()
}

/// Evaluates a hand of 13 (concealed counts and declared sets) against `routes`.
pub fn evaluate(
    s: &Seat,
    conc: &Counts,
    melds: &[Meld],
    routes: &[Route],
    rules: &mcr::Rules,
) -> Eval {
    let (d, _) = plan::best(routes, &s.shape(conc, melds));
    judge(s, conc, melds, d, rules)
}

/// As [`evaluate`], the routes with floors (see [`plan::best_floored`]).
fn evaluate_floored(
    s: &Seat,
    conc: &Counts,
    melds: &[Meld],
    routes: &[(Route, i32)],
    rules: &mcr::Rules,
) -> Eval {
    let (d, _) = plan::best_floored(routes, &s.shape(conc, melds));
    judge(s, conc, melds, d, rules)
}

/// The evaluation of a hand of 13 whose nearest route is `d` tiles away.
fn judge(s: &Seat, conc: &Counts, melds: &[Meld], mut d: i32, rules: &mcr::Rules) -> Eval {
    let generic_ready = d <= 2 && mcr::wait::shanten_regular(conc, melds.len()) == 0;
    if d <= 0 || generic_ready {
        let ready = ready_value(s, conc, melds, rules);
        if ready > 0.0 {
            return Eval { distance: 0, ready };
        }
        d = d.max(1);
    }
    Eval {
        distance: d,
        ready: 0.0,
    }
}

/// How useful a tile is to keep: copies and neighbours (the tie-break of `medium`).
fn keep_score(c: &Counts, i: usize) -> i32 {
    let mut k = 3 * c[i] as i32;
    if i < 27 {
        let r = i % 9;
        for (d, w) in [(-2i32, 1), (-1, 2), (1, 2), (2, 1)] {
            let j = r as i32 + d;
            if (0..9).contains(&j) {
                k += w * c[i - r + j as usize].min(1) as i32;
            }
        }
        if r != 0 && r != 8 {
            k += 1;
        }
    }
    k
}

/// The routes within a tile of the best for a seat's fourteen tiles, every route measured
/// afresh, lowest distance first (each a floor for the hand less any one tile).
fn fresh_routes(s: &Seat) -> Vec<(Route, i32)> {
    let mut routes = within_floored(&measured(plan::routes(), s, &s.conc, &s.melds, 2), 1);
    routes.sort_by_key(|&(_, floor)| floor);
    routes
}

/// Seats that look ready: two or more declared sets, or a wall nearly drawn.
pub fn threats(view: &View) -> Vec<Wind> {
    Wind::ALL
        .into_iter()
        .filter(|&o| o != view.seat)
        .filter(|&o| view.melds[o.index()].len() >= 2 || view.wall_left[o.index()] <= 5)
        .collect()
}

impl PlanBot {
    /// The best discard of the hand held now (14 tiles with the sets), and its evaluation.
    fn choose_discard(
        &self,
        s: &Seat,
        conc: &Counts,
        melds: &[Meld],
        routes: &[(Route, i32)],
        allowed: impl Fn(usize) -> bool,
    ) -> Option<(usize, Eval)> {
        // Lowest floor first: the nearest route of each discard is then usually the first
        // measured, and the floors rule out the rest. Only distances are read from these
        // routes, never which route comes first, so the order changes no choice.
        let mut sorted = routes.to_vec();
        sorted.sort_by_key(|&(_, floor)| floor);
        let routes = &sorted[..];
        let mut c = *conc;
        let mut evals: Vec<(usize, Eval)> = Vec::with_capacity(14);
        for i in 0..KINDS {
            if conc[i] == 0 || !allowed(i) {
                continue;
            }
            c[i] -= 1;
            evals.push((i, evaluate_floored(s, &c, melds, routes, &self.rules)));
            c[i] += 1;
        }
        let best_ready = evals
            .iter()
            .filter(|(_, e)| e.distance == 0)
            .max_by(|a, b| a.1.ready.total_cmp(&b.1.ready));
        if let Some(&best) = best_ready {
            return Some(best);
        }
        let min_d = evals.iter().map(|(_, e)| e.distance).min()?;
        let tied: Vec<(usize, Eval)> = evals
            .iter()
            .copied()
            .filter(|(_, e)| e.distance == min_d)
            .collect();
        let pick = match self.level {
            Level::Medium => tied.iter().min_by_key(|(i, _)| keep_score(conc, *i)),
            Level::Strong => {
                // Acceptance for the least useful few of the tied discards, on the routes
                // at the best distance.
                let mut few = tied.clone();
                few.sort_by_key(|(i, _)| keep_score(conc, *i));
                few.truncate(self.acceptance_of);
                return (few.iter())
                    .max_by_key(|(i, _)| tie_score(s, conc, melds, routes, min_d, *i))
                    .copied();
            }
        };
        pick.copied()
    }

    /// The tile strong would throw holding `s` (fourteen tiles with its sets), every route
    /// measured afresh (a turn's own choice starts from the routes of its last discard,
    /// which one seldom changes): for the expert's check of another seat's latest discard.
    pub fn fresh_discard(&self, s: &Seat) -> Option<usize> {
        let routes = fresh_routes(s);
        (self.choose_discard(s, &s.conc, &s.melds, &routes, |_| true)).map(|(i, _)| i)
    }

    /// How tile `x` stands among the discards strong would weigh holding `s` (fourteen
    /// tiles with its sets): 0 its choice, 1 as near a route as its choice, 2 one tile
    /// further, 3 two or more (a tile not held: 3).
    pub(crate) fn throw_rank(&self, s: &Seat, x: usize) -> usize {
        if s.conc[x] == 0 {
            return 3;
        }
        let routes = fresh_routes(s);
        let Some((chosen, best)) = self.choose_discard(s, &s.conc, &s.melds, &routes, |_| true)
        else {
            return 3;
        };
        if chosen == x {
            return 0;
        }
        let mut c = s.conc;
        c[x] -= 1;
        let e = evaluate_floored(s, &c, &s.melds, &routes, &self.rules);
        (1 + (e.distance - best.distance).max(0) as usize).min(3)
    }

    fn on_turn(&mut self, view: &View, s: &Seat) -> Action {
        let legal = |i: usize| view.legal.contains(&Action::Discard(plan::tile(i)));
        // Routes worth looking at this turn: within two tiles of the best, from those near
        // the hand at the last discard (a draw moves a route by one tile at most), and from
        // every route each fourth turn so that a far route can come back.
        self.turns += 1;
        let from: Vec<Route> = match &self.memo {
            Some(m) if m.melds == s.melds.len() && !self.turns.is_multiple_of(4) => {
                m.routes.clone()
            }
            _ => plan::routes().to_vec(),
        };
        let m = measured(&from, s, &s.conc, &s.melds, 2);
        let band = within(&m, 2);
        let Some((discard, eval)) =
            self.choose_discard(s, &s.conc, &s.melds, &within_floored(&m, 1), legal)
        else {
            return crate::drive::safe_default(view.legal);
        };
        // A kong that leaves the hand no further from a route is a free draw.
        for a in view.legal {
            let (conc, meld) = match *a {
                Action::ConcealedKong(t) => {
                    let mut c = s.conc;
                    c[t.index()] -= 4;
                    (c, Meld::concealed_kong(t))
                }
                Action::PromotedKong(t) => {
                    let mut c = s.conc;
                    c[t.index()] -= 1;
                    (c, Meld::promoted_kong(t, 1))
                }
                _ => continue,
            };
            let mut melds: Vec<Meld> = s
                .melds
                .iter()
                .copied()
                .filter(|m| !(matches!(a, Action::PromotedKong(t) if m.tile == *t && m.kind == MeldKind::Pung)))
                .collect();
            melds.push(meld);
            let routes = active_routes(s, &conc, &melds);
            let after = evaluate(s, &conc, &melds, &routes, &self.rules);
            if after.distance <= eval.distance && (eval.distance > 0 || after.ready >= eval.ready) {
                return *a;
            }
        }
        let mut after = s.conc;
        after[discard] -= 1;
        self.remember(s, after, eval, &band);
        Action::Discard(plan::tile(discard))
    }

    fn remember(&mut self, s: &Seat, conc: Counts, eval: Eval, from: &[Route]) {
        self.memo = Some(Memo {
            conc,
            melds: s.melds.len(),
            eval,
            routes: active_routes_in(from, s, &conc, &s.melds, 2),
        });
    }

    /// Judges the hand held now unless the last turn already did.
    fn ensure_memo(&mut self, s: &Seat) {
        let fresh = matches!(&self.memo, Some(m) if m.conc == s.conc && m.melds == s.melds.len());
        if !fresh {
            let e = evaluate(s, &s.conc, &s.melds, plan::routes(), &self.rules);
            self.remember(s, s.conc, e, plan::routes());
        }
    }
}

impl Agent for PlanBot {
    fn name(&self) -> &str {
        self.name
    }

    fn act(&mut self, view: &View) -> Action {
        if view.legal.contains(&Action::Hu) {
            return Action::Hu;
        }
        if view.legal.contains(&Action::Bonus) {
            return Action::Bonus;
        }
        let s = Seat::of(view);
        match view.decision {
            Some(Decision::Turn { .. }) => self.on_turn(view, &s),
            Some(Decision::Claim { tile, .. }) => self.on_claim(view, &s, tile),
            Some(Decision::RobKong { .. }) | None => Action::Pass,
        }
    }
}
