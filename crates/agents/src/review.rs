//! The move reviewer: a logged hand replayed from one seat, each decision put to a bot, and
//! every place where the bot would have played otherwise explained in the planner's terms.
//! A bot that searches (`expert`) also says what each of the two moves was worth on
//! average over the worlds it sampled, so that the review says what a mistake cost.

use mcr::Wind;
use serde::Serialize;
use table::engine::{Action, Decision as Ask, View};
use table::log::{start_of, HandLog, ReplayError};

use crate::agent::{Agent, Candidate};
use crate::plan;
use crate::routes::{after_discard, Standing};
use crate::strong::{self, Seat};

/// One decision where the bot differs from the player.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// From a bot that searches: the expected match points of the move played and of
    /// the suggested one over the same sampled worlds, and the standard error of their
    /// difference.
    pub expected: Option<(f64, f64, f64)>,
}

/// One decision with a choice, as a bot that searches weighed it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Weighed {
    /// Position of the decision among the hand's logged decisions (1-based), as in
    /// [`Note::index`].
    pub index: usize,
    /// What was asked.
    pub situation: String,
    /// What was played.
    pub played: Action,
    /// What the reviewing bot would play.
    pub best: Action,
    /// Every move weighed, the one played first.
    pub candidates: Vec<Candidate>,
    /// Expected match points the move played gives up against the best one (0 where they
    /// are the same move).
    pub cost: f64,
    /// The standard error of that cost.
    pub error: f64,
    /// Worlds the figures are over.
    pub worlds: usize,
}

/// A reviewed hand: how many decisions the seat made and where the bot differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    /// The seat reviewed.
    pub seat: Wind,
    /// Its decisions in the hand.
    pub decisions: usize,
    /// Where the reviewing bot would have played otherwise.
    pub notes: Vec<Note>,
    /// From a bot that searches: decisions it weighed, and the match points the moves
    /// played were expected to lose against the best ones it saw, summed over the hand.
    pub weighed: usize,
    /// See [`Review::weighed`].
    pub expected_loss: f64,
    /// Every decision weighed, in order.
    pub decisions_weighed: Vec<Weighed>,
    /// Decisions someone else made for the seat (a stand-in bot), by their numbers: left
    /// out of everything above ([`Review::set_aside`]).
    pub set_aside: Vec<usize>,
}

impl Review {
    /// Leaves out the decisions numbered `moves` (1-based, as [`Weighed::index`]): they
    /// were not the player's, so they neither count for agreement or cost nor appear as
    /// notes; their numbers are kept so a page can say so.
    pub fn set_aside(&mut self, moves: &[usize]) {
        let mine = |i: &usize| !moves.contains(i);
        self.decisions_weighed.retain(|w| mine(&w.index));
        self.notes.retain(|n| mine(&n.index));
        self.weighed = self.decisions_weighed.len();
        self.expected_loss = self.decisions_weighed.iter().map(|w| w.cost).sum();
        self.set_aside = moves.to_vec();
        self.set_aside.sort_unstable();
        self.set_aside.dedup();
    }

    /// The share of weighed decisions where the move played was the reviewer's (1 when
    /// nothing was weighed).
    pub fn agreement(&self) -> f64 {
        let n = self.decisions_weighed.len();
        if n == 0 {
            return 1.0;
        }
        let same = self
            .decisions_weighed
            .iter()
            .filter(|w| w.played == w.best)
            .count();
        same as f64 / n as f64
    }

    /// The review as tools and pages read it: the seat, the agreement, the indices of the
    /// three costliest decisions and the review itself.
    pub fn report(&self) -> serde_json::Value {
        let costliest: Vec<usize> = self.costliest(3).iter().map(|w| w.index).collect();
        serde_json::json!({
            "seat": self.seat,
            "agreement": self.agreement(),
            "costliest": costliest,
            "review": self,
        })
    }

    /// The `n` costliest decisions, costliest first (those that cost nothing left out).
    pub fn costliest(&self, n: usize) -> Vec<&Weighed> {
        let mut v: Vec<&Weighed> = self
            .decisions_weighed
            .iter()
            .filter(|w| w.cost > 0.0)
            .collect();
        v.sort_by(|a, b| b.cost.total_cmp(&a.cost));
        v.truncate(n);
        v
    }
}

/// Replays `log` and asks `bot` at every decision of `seat`.
pub fn review(log: &HandLog, seat: Wind, bot: &mut dyn Agent) -> Result<Review, ReplayError> {
    let mut table = start_of(log)?;
    let scoring = table.rules().scoring.clone();
    // A bot that simulates the hand plays it under the log's rules (a regular game's shared
    // wall, Botzone's scoring).
    bot.set_rules(table.rules());
    let mut out = Review {
        seat,
        decisions: 0,
        notes: Vec::new(),
        weighed: 0,
        expected_loss: 0.0,
        decisions_weighed: Vec::new(),
        set_aside: Vec::new(),
    };
    for (i, d) in log.actions.iter().enumerate() {
        if d.seat == seat {
            out.decisions += 1;
            let view = table.view(seat);
            let appraisal = bot.appraise(&view, d.action);
            let suggested = appraisal
                .as_ref()
                .map_or_else(|| bot.act(&view), |a| a.best);
            if let Some(a) = &appraisal {
                out.weighed += 1;
                out.expected_loss += a.best_points - a.played_points;
                out.decisions_weighed.push(Weighed {
                    index: i + 1,
                    situation: situation(&view),
                    played: d.action,
                    best: a.best,
                    candidates: a.candidates.clone(),
                    cost: a.best_points - a.played_points,
                    error: a.error,
                    worlds: a.worlds,
                });
            }
            if suggested != d.action && view.legal.contains(&suggested) {
                out.notes.push(Note {
                    index: i + 1,
                    situation: situation(&view),
                    played: d.action,
                    suggested,
                    reason: reason(&view, d.action, suggested, &scoring),
                    expected: appraisal
                        .as_ref()
                        .map(|a| (a.played_points, a.best_points, a.error)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expert::ExpertBot;
    use crate::registry::builtin;
    use table::rules::TableRules;

    /// A planted blunder of the other kind: in deal 153 (`medium` East, `strong` elsewhere)
    /// East's last discard, 4m, dealt in to South, whose two melded chows showed where the
    /// hand was going (15 points). Reviewed at that decision, the move played is expected
    /// to lose more than the 8 a deal-in pays at least, and its cost over the expert's
    /// discard is clear: many times its standard error.
    #[test]
    fn dealing_in_to_a_wait_the_melds_show_has_a_clear_cost() {
        let rules = TableRules::seeds();
        let seed = 153;
        let mut four = std::array::from_fn(|s| {
            builtin(
                ["medium", "strong", "strong", "strong"][s],
                seed * 4 + s as u64,
            )
            .unwrap()
        });
        let mut log =
            crate::drive::play_hand(table::deal::Deal::generate(seed), rules.clone(), &mut four);
        let r = log.result.clone().expect("the hand ends");
        assert_eq!(r.discarder, Some(Wind::East));
        assert_eq!(r.wins[0].seat, Wind::South);
        let i = log
            .actions
            .iter()
            .rposition(|d| d.seat == Wind::East)
            .unwrap();
        let mut t = start_of(&log).unwrap();
        for d in &log.actions[..i] {
            t.apply(d.seat, d.action).unwrap();
        }
        assert_eq!(
            t.melds(Wind::South).len(),
            2,
            "South's melds are on the table"
        );
        log.actions.truncate(i + 1);
        let mut expert = ExpertBot::new(rules, 3, crate::expert::PLAYOUTS);
        let rv = review(&log, Wind::East, &mut expert).unwrap();
        let w = rv
            .decisions_weighed
            .iter()
            .find(|w| w.index == i + 1)
            .expect("the deal-in is weighed");
        assert_ne!(w.best, w.played, "{w:?}");
        assert!(w.candidates[0].points < -8.0, "{w:?}");
        assert!(w.cost > 8.0 && w.cost > 5.0 * w.error, "{w:?}");
    }

    /// A win is weighed both ways: in the first deal of 1–60 that East wins by self-draw,
    /// the win taken stands against playing on; replaced by a discard of another tile, the
    /// win let go costs clearly (the expert would have declared it).
    #[test]
    fn a_win_let_go_has_a_clear_cost() {
        let rules = TableRules::seeds();
        for seed in 1..60 {
            let mut four = std::array::from_fn(|s| builtin("strong", seed * 4 + s as u64).unwrap());
            let mut log = crate::drive::play_hand(
                table::deal::Deal::generate(seed),
                rules.clone(),
                &mut four,
            );
            let Some(r) = &log.result else { continue };
            if !(r.wins.len() == 1 && r.wins[0].seat == Wind::East && r.wins[0].self_drawn) {
                continue;
            }
            let i = log.actions.len() - 1;
            assert_eq!(log.actions[i].action, Action::Hu);
            let mut t = start_of(&log).unwrap();
            for d in &log.actions[..i] {
                t.apply(d.seat, d.action).unwrap();
            }
            let view = t.view(Wind::East);
            let Some(other) = view
                .legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Discard(_)))
            else {
                continue;
            };
            // Taken, the win is weighed against playing on (discarding the tile drawn) and
            // stands.
            let mut expert = ExpertBot::new(rules.clone(), 3, crate::expert::PLAYOUTS / 4);
            let taken = review(&log, Wind::East, &mut expert).unwrap();
            let w = taken
                .decisions_weighed
                .iter()
                .find(|w| w.index == i + 1)
                .unwrap();
            assert_eq!(
                (w.played, w.best, w.cost),
                (Action::Hu, Action::Hu, 0.0),
                "{w:?}"
            );
            assert_eq!(w.candidates.len(), 2, "{w:?}");
            assert!(w.candidates[1].points < w.candidates[0].points, "{w:?}");
            log.actions[i].action = other;
            let mut expert = ExpertBot::new(rules.clone(), 3, crate::expert::PLAYOUTS / 4);
            let rv = review(&log, Wind::East, &mut expert).unwrap();
            let w = rv
                .decisions_weighed
                .iter()
                .find(|w| w.index == i + 1)
                .unwrap();
            assert_eq!(w.best, Action::Hu, "seed {seed}: {w:?}");
            assert!(w.cost > 8.0 && w.cost > 2.0 * w.error, "seed {seed}: {w:?}");
            return;
        }
        panic!("East won no hand of 1–59 by self-draw");
    }

    /// A hand whose East made exactly the expert's moves (the expert played it, with the
    /// reviewer's settings) costs nothing and agrees everywhere.
    #[test]
    fn the_experts_own_moves_cost_nothing() {
        let rules = TableRules::seeds();
        let playouts = crate::expert::PLAYOUTS / 8;
        let mut four: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| match s {
            0 => Box::new(ExpertBot::new(rules.clone(), 5, playouts)) as Box<dyn Agent + Send>,
            _ => builtin("strong", 50 + s as u64).unwrap(),
        });
        let log =
            crate::drive::play_hand(table::deal::Deal::generate(21), rules.clone(), &mut four);
        let mut reviewer = ExpertBot::new(rules.clone(), 5, playouts);
        let r = review(&log, Wind::East, &mut reviewer).unwrap();
        assert!(r.weighed > 3, "{r:?}");
        assert_eq!(r.expected_loss, 0.0, "{r:?}");
        assert_eq!(r.agreement(), 1.0);
        assert!(r.costliest(3).is_empty());
    }

    /// Reviewed by the expert, a random player's hand shows mistakes, each weighed one with
    /// the move played worth less than the suggested one by more than two standard errors,
    /// and the hand's expected loss is their sum; a bot that does not search weighs nothing.
    #[test]
    fn the_expert_reviewer_says_what_each_mistake_cost() {
        let rules = TableRules::seeds();
        let names = ["random", "medium", "medium", "medium"];
        let mut four = std::array::from_fn(|s| builtin(names[s], 40 + s as u64).unwrap());
        let log =
            crate::drive::play_hand(table::deal::Deal::generate(12), rules.clone(), &mut four);
        let mut expert = ExpertBot::new(rules.clone(), 1, crate::expert::PLAYOUTS);
        let r = review(&log, Wind::East, &mut expert).unwrap();
        assert!(r.weighed > 0 && r.weighed <= r.decisions, "{r:?}");
        let mut sum = 0.0;
        let mut weighed_notes = 0;
        for n in &r.notes {
            // A note without figures is a decision the search does not weigh (a win
            // passed by, as random does).
            let Some((played, best, se)) = n.expected else {
                assert!(n.reason.contains("win"), "{n:?}");
                continue;
            };
            assert!(best - played > 2.0 * se, "{n:?}");
            sum += best - played;
            weighed_notes += 1;
        }
        assert!(
            weighed_notes > 0,
            "a random player makes a clear mistake: {r:?}"
        );
        assert!(
            (r.expected_loss - sum).abs() < 1e-9,
            "{} against {sum}",
            r.expected_loss
        );
        // Every weighed decision: the move played is the first candidate, a move the
        // reviewer also plays costs nothing, and the costs add up to the hand's loss.
        assert_eq!(r.decisions_weighed.len(), r.weighed);
        let mut total = 0.0;
        for w in &r.decisions_weighed {
            assert_eq!(w.candidates[0].action, w.played, "{w:?}");
            assert_eq!(w.candidates[0].error, 0.0, "{w:?}");
            assert!(w.candidates.iter().any(|c| c.action == w.best), "{w:?}");
            if w.played == w.best {
                assert_eq!(w.cost, 0.0, "{w:?}");
            } else {
                assert!(w.cost > 2.0 * w.error, "{w:?}");
            }
            total += w.cost;
        }
        assert!((total - r.expected_loss).abs() < 1e-9);
        assert!(
            r.agreement() < 1.0 && r.agreement() > 0.0,
            "{}",
            r.agreement()
        );
        let worst = r.costliest(3);
        assert!(!worst.is_empty() && worst.windows(2).all(|p| p[0].cost >= p[1].cost));
        // The strong bot reviewed by itself: no notes, and nothing weighed.
        let mut strong = builtin("strong", 0).unwrap();
        let r = review(&log, Wind::South, strong.as_mut()).unwrap();
        assert_eq!((r.weighed, r.expected_loss), (0, 0.0));
        assert!(r.decisions_weighed.is_empty() && r.agreement() == 1.0);
    }

    /// A planted blunder: at a turn where East's discard kept it ready, East discards a
    /// tile that leaves it two or more from ready instead. The expert prices that decision
    /// clearly above nothing (seed 12: 5.2 ± 1.1 match points) and lists it among the
    /// hand's costliest.
    #[test]
    fn breaking_a_ready_hand_has_a_clear_cost() {
        let rules = TableRules::seeds();
        for seed in 1..40 {
            let mut four = std::array::from_fn(|s| builtin("strong", seed * 4 + s as u64).unwrap());
            let mut log = crate::drive::play_hand(
                table::deal::Deal::generate(seed),
                rules.clone(),
                &mut four,
            );
            // The first East discard that keeps the hand ready where another discard
            // would break it by two tiles or more.
            let mut table = start_of(&log).unwrap();
            let mut planted = None;
            for (i, d) in log.actions.iter().enumerate() {
                if d.seat == Wind::East {
                    let view = table.view(Wind::East);
                    if let Action::Discard(p) = d.action {
                        let seat = Seat::of(&view);
                        let scoring = table.rules().scoring.clone();
                        let kept = after_discard(&seat, p, &scoring).distance;
                        let broken = view.legal.iter().find_map(|a| match a {
                            Action::Discard(b)
                                if after_discard(&seat, *b, &scoring).distance >= 2 =>
                            {
                                Some(*b)
                            }
                            _ => None,
                        });
                        if let (0, Some(b)) = (kept, broken) {
                            planted = Some((i, b));
                            break;
                        }
                    }
                }
                table.apply(d.seat, d.action).unwrap();
            }
            let Some((i, b)) = planted else { continue };
            log.actions.truncate(i + 1);
            log.actions[i].action = Action::Discard(b);
            let mut expert = ExpertBot::new(rules.clone(), 3, crate::expert::PLAYOUTS);
            let r = review(&log, Wind::East, &mut expert).unwrap();
            let w = r
                .decisions_weighed
                .iter()
                .find(|w| w.index == i + 1)
                .expect("the blunder is weighed");
            assert_eq!(w.played, Action::Discard(b));
            assert!(w.cost > 2.0 * w.error && w.cost > 1.0, "seed {seed}: {w:?}");
            assert!(
                r.costliest(3).iter().any(|c| c.index == i + 1),
                "seed {seed}: {r:?}"
            );
            // Made by a stand-in, the same blunder is not the player's: gone from the
            // decisions, the cost and the agreement, its number kept.
            let mut aside = r.clone();
            aside.set_aside(&[i + 1]);
            assert!(aside.decisions_weighed.iter().all(|w| w.index != i + 1));
            assert_eq!(aside.weighed, r.weighed - 1);
            assert!((aside.expected_loss - (r.expected_loss - w.cost)).abs() < 1e-9);
            assert!(aside.agreement() > r.agreement());
            assert_eq!(aside.set_aside, [i + 1]);
            return;
        }
        panic!("no deal of 1–39 left East ready with a discard that breaks it");
    }
}
