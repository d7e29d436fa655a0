//! Route drills: a 14-tile hand just after a draw, in a hand four `medium` bots played
//! from a seeded deal, "which discard keeps a route to 8 points?". The answer is the strong
//! planner's: every discard with how far it leaves the hand from a ready hand worth 8, the
//! fans of the routes at that distance and the live tiles that bring it nearer, and the
//! discard `strong` plays there.
//!
//! A position is chosen where the choice matters: from the fifth turn of a seat on, one to
//! three tiles from ready, where some discards keep the nearest route and others lose it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use agents::agent::Agent;
use agents::routes::{discard_routes, DiscardRoute};
use agents::strong::PlanBot;
use serde_json::{json, Value};
use table::deal::Deal;
use table::engine::{Action, Decision};
use table::log::{start_of, HandLog};
use table::rules::TableRules;

use super::fans::Draw;
use super::position::{position, Position};

/// A route drill: the hand's log and the decision asked.
#[derive(Clone, Debug)]
pub struct RouteDrill {
    /// The hand the position comes from.
    pub log: HandLog,
    /// The decision (0-based, as `log.actions` counts).
    pub at: usize,
}

/// Deals tried for one seed before settling for the last turn seen (never reached in
/// practice: most hands have several such turns).
const TRIES: u64 = 20;

fn choice_matters(options: &[DiscardRoute]) -> bool {
    let Some(near) = options.first().map(|o| o.distance) else {
        return false;
    };
    // At most half the discards keep the nearest route: a discard picked at random is more
    // likely wrong than right.
    let keep = options.iter().filter(|o| o.distance == near).count();
    (1..=3).contains(&near) && 2 * keep <= options.len() && options.len() >= 4
}

fn find(seed: u64) -> RouteDrill {
    let rules = TableRules::seeds();
    let mut d = Draw::new(seed);
    let mut last = None;
    for _ in 0..TRIES {
        let deal = d.next();
        let mut four: [Box<dyn Agent + Send>; 4] =
            std::array::from_fn(|_| Box::new(PlanBot::medium()) as Box<dyn Agent + Send>);
        let log = agents::drive::play_hand(Deal::generate(deal), rules.clone(), &mut four);
        let Ok(mut table) = start_of(&log) else {
            continue;
        };
        let mut turns = [0usize; 4];
        for (i, a) in log.actions.iter().enumerate() {
            let view = table.view(a.seat);
            if let Some(Decision::Turn { drew: Some(_), .. }) = view.decision {
                turns[a.seat.index()] += 1;
                if turns[a.seat.index()] >= 5 && !view.legal.contains(&Action::Hu) {
                    last = Some((log.clone(), i));
                    if choice_matters(&discard_routes(&view, &rules.scoring)) {
                        return RouteDrill { log, at: i };
                    }
                }
            }
            if table.apply(a.seat, a.action).is_err() {
                break;
            }
        }
    }
    let (log, at) = last.expect("a hand with a fifth turn");
    RouteDrill { log, at }
}

/// The route drill of `seed` (kept once made: making one plays a hand or more).
pub fn drill(seed: u64) -> Arc<RouteDrill> {
    static MADE: OnceLock<Mutex<HashMap<u64, Arc<RouteDrill>>>> = OnceLock::new();
    let made = MADE.get_or_init(Default::default);
    if let Some(d) = made.lock().ok().and_then(|m| m.get(&seed).cloned()) {
        return d;
    }
    let d = Arc::new(find(seed));
    if let Ok(mut m) = made.lock() {
        if m.len() >= 512 {
            m.clear();
        }
        m.insert(seed, d.clone());
    }
    d
}

/// The position asked.
pub fn asked(seed: u64) -> Position {
    let d = drill(seed);
    position(&d.log, d.at).expect("a route drill's decision is in its log")
}

/// The planner's answer: every discard as it weighs them (nearest first) and the discard
/// `strong` plays.
pub fn answer(seed: u64) -> (Vec<DiscardRoute>, Action) {
    let d = drill(seed);
    let mut table = start_of(&d.log).expect("a route drill's log replays");
    for a in &d.log.actions[..d.at] {
        table
            .apply(a.seat, a.action)
            .expect("a route drill's log replays");
    }
    let seat = d.log.actions[d.at].seat;
    let view = table.view(seat);
    let options = discard_routes(&view, &table.rules().scoring);
    let best = PlanBot::strong().act(&view);
    (options, best)
}

/// The answer as the page shows it: [`answer`]'s discards and `strong`'s.
pub fn answer_json(options: &[DiscardRoute], best: Action) -> Value {
    let options: Vec<Value> = options
        .iter()
        .map(|o| {
            json!({
                "tile": o.tile,
                "distance": o.distance,
                "ready": o.distance == 0,
                "no_route": o.distance >= agents::plan::CLOSED,
                "routes": o.routes.iter().map(|f| json!({"name": f.name(), "chinese": f.chinese()})).collect::<Vec<_>>(),
                "live": o.live,
            })
        })
        .collect();
    json!({"best": best, "options": options})
}

/// A route drill's grade, from [`answer`]'s discards and `strong`'s: `strong`'s discard 5,
/// another that keeps the nearest route 4, one that loses it 1.
pub fn grade(options: &[DiscardRoute], best: Action, discard: Action) -> u8 {
    let near = options.first().map_or(0, |o| o.distance);
    if discard == best {
        return 5;
    }
    match discard {
        Action::Discard(t) if options.iter().any(|o| o.tile == t && o.distance == near) => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drill's answer is the strong planner's: its discard is one of those left
    /// nearest, no discard is reckoned nearer than the hand's shanten allows, a discard
    /// reckoned ready is ready, and the position is a turn after a draw.
    #[test]
    fn a_route_drill_is_strongs_plan() {
        for seed in 0..4 {
            let p = asked(seed);
            assert!(matches!(
                p.decision,
                Some(Decision::Turn { drew: Some(_), .. })
            ));
            let (options, best) = answer(seed);
            assert!(choice_matters(&options), "seed {seed}");
            let near = options[0].distance;
            let Action::Discard(b) = best else {
                panic!("seed {seed}: strong played {best}")
            };
            assert!(options.iter().any(|o| o.tile == b && o.distance == near));
            assert_eq!(grade(&options, best, best), 5);
            // The hand at the decision, from the engine.
            let d = drill(seed);
            let mut table = start_of(&d.log).unwrap();
            for a in &d.log.actions[..d.at] {
                table.apply(a.seat, a.action).unwrap();
            }
            let view = table.view(p.seat);
            let tiles = view.hand.tiles();
            let melds: Vec<mcr::Meld> = view.melds[p.seat.index()]
                .iter()
                .filter_map(|m| match m {
                    table::engine::SeenMeld::Open(m) => Some(*m),
                    table::engine::SeenMeld::HiddenKong => None,
                })
                .collect();
            assert_eq!(tiles.len() + 3 * melds.len(), 14, "seed {seed}");
            for o in &options {
                let mut left = tiles.clone();
                let i = left.iter().position(|&t| t == o.tile).unwrap();
                left.remove(i);
                let sh = mcr::shanten(&left, &melds).min();
                assert!(o.distance >= sh, "seed {seed}: {o:?} against shanten {sh}");
                if o.distance == 0 {
                    assert!(!mcr::winning_tiles(&left, &melds).is_empty());
                }
            }
        }
    }
}
