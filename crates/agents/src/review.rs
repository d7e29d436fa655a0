//! The move reviewer: a logged hand replayed from one seat, each decision put to a bot, and
//! every place where the bot would have played otherwise explained in the planner's terms.

use mcr::{Tile, Wind};
use table::engine::{Action, Decision as Ask, View};
use table::log::{start_of, HandLog, ReplayError};

use crate::bots::Agent;
use crate::plan;
use crate::strong::{self, Seat};

/// One decision where the bot differs from the player.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// Position of the decision among the hand's logged decisions (1-based).
    pub index: usize,
    /// What was asked: "turn, drew 5p", "claim 7s from W", …
    pub situation: String,
    /// What was played.
    pub played: Action,
    /// What the reviewing bot would play.
    pub suggested: Action,
    /// Why, in the planner's terms.
    pub reason: String,
}

/// A reviewed hand: how many decisions the seat made and where the bot differs.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The seat reviewed.
    pub seat: Wind,
    /// Its decisions in the hand.
    pub decisions: usize,
    /// Where the reviewing bot would have played otherwise.
    pub notes: Vec<Note>,
}

/// Replays `log` and asks `bot` at every decision of `seat`.
pub fn review(log: &HandLog, seat: Wind, bot: &mut dyn Agent) -> Result<Review, ReplayError> {
    let mut table = start_of(log)?;
    let scoring = table.rules().scoring.clone();
    let mut out = Review {
        seat,
        decisions: 0,
        notes: Vec::new(),
    };
    for (i, d) in log.actions.iter().enumerate() {
        if d.seat == seat {
            out.decisions += 1;
            let view = table.view(seat);
            let suggested = bot.act(&view);
            if suggested != d.action && view.legal.contains(&suggested) {
                out.notes.push(Note {
                    index: i + 1,
                    situation: situation(&view),
                    played: d.action,
                    suggested,
                    reason: reason(&view, d.action, suggested, &scoring),
                });
            }
        }
        table
            .apply(d.seat, d.action)
            .map_err(|e| ReplayError(format!("action {} ({} {}): {e}", i + 1, d.seat, d.action)))?;
    }
    Ok(out)
}

fn situation(view: &View) -> String {
    match view.decision {
        Some(Ask::Turn { drew: Some(t), .. }) => format!("turn, drew {t}"),
        Some(Ask::Turn { .. }) => "turn after a claim".into(),
        Some(Ask::Claim { from, tile }) => format!("{tile} discarded by {from}"),
        Some(Ask::RobKong { from, tile }) => format!("{from} adds {tile} to a pung"),
        None => "no decision".into(),
    }
}

/// How a hand stands after an action on the turn, in words the reason uses.
struct Standing {
    distance: i32,
    fan: Option<mcr::Fan>,
    /// Live winning tiles (ready) or live tiles that bring it nearer.
    tiles: u32,
}

fn after_discard(s: &Seat, t: Tile, rules: &mcr::Rules) -> Standing {
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

fn describe(st: &Standing) -> String {
    let fan = st
        .fan
        .map_or("any hand of 8".to_string(), |f| f.name().to_string());
    if st.distance == 0 {
        format!("ready on {} live winning tiles worth 8 or more", st.tiles)
    } else if st.distance >= plan::CLOSED {
        "no route to 8 points".into()
    } else {
        format!(
            "{} from ready toward {fan}, {} live tiles bring it nearer",
            tiles_word(st.distance),
            st.tiles
        )
    }
}

fn tiles_word(n: i32) -> String {
    if n == 1 {
        "1 tile".into()
    } else {
        format!("{n} tiles")
    }
}

/// Why the suggested action beats the played one, as the planner sees it.
fn reason(view: &View, played: Action, suggested: Action, rules: &mcr::Rules) -> String {
    let s = Seat::of(view);
    match (played, suggested) {
        (_, Action::Hu) => "a win is always taken".into(),
        (Action::Discard(p), Action::Discard(b)) => {
            let (mine, theirs) = (after_discard(&s, b, rules), after_discard(&s, p, rules));
            let better = mine.distance < theirs.distance
                || (mine.distance == theirs.distance && mine.tiles > theirs.tiles);
            if better || mine.distance > theirs.distance {
                return format!(
                    "discarding {b} leaves the hand {}; discarding {p} leaves it {}",
                    describe(&mine),
                    describe(&theirs)
                );
            }
            let threats = strong::threats(view);
            if mine.distance >= 2 && !threats.is_empty() {
                let who: Vec<String> = threats.iter().map(|w| w.to_string()).collect();
                format!(
                    "either leaves the hand {}; {b} is the safer discard while {} look{} ready",
                    describe(&theirs),
                    who.join(" and "),
                    if who.len() == 1 { "s" } else { "" }
                )
            } else {
                format!(
                    "either leaves the hand {}; {b} is the less connected tile",
                    describe(&theirs)
                )
            }
        }
        (_, Action::Pass) => {
            "the claim does not bring a route to 8 points nearer; passing keeps the hand as it is"
                .into()
        }
        (Action::Pass, claim) => format!("{claim} brings a route to 8 points nearer"),
        (_, other) => format!("the planner prefers {other}"),
    }
}
