//! Each discard of a turn as the strong planner sees it: how far it leaves the hand from a
//! ready hand worth 8 points, by which routes, and how many live tiles bring it nearer. The
//! review's reasons and the route drills read it.

use mcr::Tile;
use table::engine::{Action, View};

use crate::plan;
use crate::strong::{self, Seat};

/// One discard of a turn as the planner sees it: how far the hand is left from a ready
/// hand worth 8 points, the fans of the routes at that distance, and how many live tiles
/// bring it nearer (winning tiles, once ready).
#[derive(Clone, Debug, PartialEq)]
pub struct DiscardRoute {
    /// The tile discarded.
    pub tile: Tile,
    /// Tiles from ready ([`plan::CLOSED`] and up: no route left).
    pub distance: i32,
    /// The fans of the routes at that distance, the planner's first choice first.
    pub routes: Vec<mcr::Fan>,
    /// Live tiles that bring the hand nearer, or win once it is ready.
    pub live: u32,
}

/// Every legal discard of a turn, as the strong planner weighs routes to 8 points: the
/// nearest first, more live tiles first among equals, then by tile.
pub fn discard_routes(view: &View, rules: &mcr::Rules) -> Vec<DiscardRoute> {
    let s = Seat::of(view);
    let mut out: Vec<DiscardRoute> = Vec::new();
    for &a in view.legal.iter() {
        let Action::Discard(t) = a else { continue };
        if out.iter().any(|d| d.tile == t) {
            continue;
        }
        let st = after_discard(&s, t, rules);
        let mut c = s.conc;
        c[t.index()] -= 1;
        let active = strong::active_routes(&s, &c, &s.melds);
        let shape = plan::Shape {
            conc: &c,
            melds: &s.melds,
            seat: s.seat,
            prevalent: s.prevalent,
        };
        let (near, first) = plan::best(&active, &shape);
        let mut routes: Vec<mcr::Fan> = first.map(|r| r.fan).into_iter().collect();
        for r in &active {
            if plan::distance(r, &shape) == near && !routes.contains(&r.fan) {
                routes.push(r.fan);
            }
        }
        out.push(DiscardRoute {
            tile: t,
            distance: st.distance,
            routes,
            live: st.tiles,
        });
    }
    out.sort_by(|a, b| {
        (a.distance, std::cmp::Reverse(a.live), a.tile).cmp(&(
            b.distance,
            std::cmp::Reverse(b.live),
            b.tile,
        ))
    });
    out
}

/// How a hand stands after a discard, in the terms the review's reasons use.
pub(crate) struct Standing {
    pub(crate) distance: i32,
    pub(crate) fan: Option<mcr::Fan>,
    /// Live winning tiles (ready) or live tiles that bring it nearer.
    pub(crate) tiles: u32,
}

pub(crate) fn after_discard(s: &Seat, t: Tile, rules: &mcr::Rules) -> Standing {
    let mut c = s.conc;
    c[t.index()] -= 1;
    let routes = strong::active_routes(s, &c, &s.melds);
    let e = strong::evaluate(s, &c, &s.melds, &routes, rules);
    let shape = plan::Shape {
        conc: &c,
        melds: &s.melds,
        seat: s.seat,
        prevalent: s.prevalent,
    };
    let (_, route) = plan::best(&routes, &shape);
    let tiles = if e.distance == 0 {
        winning_live(s, &c, rules)
    } else {
        useful_live(s, &c, &routes, e.distance)
    };
    Standing {
        distance: e.distance,
        fan: route.map(|r| r.fan),
        tiles,
    }
}

fn winning_live(s: &Seat, c: &mcr::tile::Counts, rules: &mcr::Rules) -> u32 {
    strong::waits(s, c, &s.melds, rules)
        .iter()
        .filter(|w| w.discard_ok || w.self_drawn_ok)
        .map(|w| s.live[w.tile.index()] as u32)
        .sum()
}

fn useful_live(s: &Seat, c: &mcr::tile::Counts, routes: &[plan::Route], d: i32) -> u32 {
    let mut n = 0;
    let mut c = *c;
    for (i, &live) in s.live.iter().enumerate() {
        if live == 0 {
            continue;
        }
        c[i] += 1;
        let shape = plan::Shape {
            conc: &c,
            melds: &s.melds,
            seat: s.seat,
            prevalent: s.prevalent,
        };
        if plan::best(routes, &shape).0 < d {
            n += live as u32;
        }
        c[i] -= 1;
    }
    n
}
