//! Drills from a person's own hands: positions taken from their reviewed decisions that
//! cost the most, or where the field (everyone who held the same tiles) split and the
//! branches ended far apart; the question as they saw it then, and the answer with the
//! expert's candidates, what they played, and what the field did and got.
//!
//! Only a deal open to everyone under the secrecy rule gives drills (a challenge's once it
//! is revealed, an event's once every sitting has played it), and only a move the person
//! made themselves (a stand-in's moves are set aside by the review).

use std::collections::HashSet;

use mcr::Wind;
use serde::Deserialize;
use serde_json::{json, Value};
use store::{ReviewState, StoredHand};
use table::engine::Action;
use table::log::HandLog;

use super::position::position;
use crate::room::HandSummary;
use crate::spec::TableSpec;
use crate::{Hall, PlayError};

/// Expected match points a move must have given up to make a drill, and at least twice
/// its standard error (a cost the expert is sure of).
pub const COST_MIN: f64 = 1.0;
/// IMP between the field's best and worst branch at a decision to make a drill.
pub const SPLIT_IMP: f64 = 3.0;
/// Drills taken from one hand at most: its costliest decisions, then the widest split.
pub const PER_HAND: usize = 3;
/// Hands looked through at one visit (the rest at the next).
pub const AT_ONCE: usize = 12;

/// The part of a weighed decision a drill reads.
#[derive(Deserialize)]
struct Weighed {
    index: usize,
    best: Action,
    cost: f64,
    error: f64,
    candidates: Vec<Candidate>,
}

#[derive(Deserialize)]
struct Candidate {
    action: Action,
    points: f64,
}

fn weighed_of(review: &Value, seat: Wind) -> Vec<Weighed> {
    crate::reviewer::seat_report(review, seat)
        .and_then(|r| serde_json::from_value(r["review"]["decisions_weighed"].clone()).ok())
        .unwrap_or_default()
}

fn spec_of(hall: &Hall, table: i64) -> Result<TableSpec, PlayError> {
    serde_json::from_str(&hall.store.play_table(table)?.spec)
        .map_err(|e| PlayError::Internal(format!("table {table}: {e}")))
}

/// Whether the deal of hand `hand_no` (1-based) of `table` is open to everyone.
fn public(hall: &Hall, table: i64, hand_no: u32) -> Result<bool, PlayError> {
    let spec = spec_of(hall, table)?;
    Ok(crate::secrecy::deal_state(hall, &spec, hand_no as usize - 1, true)?.public)
}

/// The drills one reviewed hand gives (`at` 0-based): the costliest sure mistakes, then
/// the decision where the field's branches ended furthest apart.
fn drills_of(hall: &Hall, h: &StoredHand, seat: Wind, review: &Value) -> Vec<usize> {
    let mut w = weighed_of(review, seat);
    w.retain(|w| w.cost >= COST_MIN && w.cost > 2.0 * w.error);
    w.sort_by(|a, b| b.cost.total_cmp(&a.cost));
    let mut at: Vec<usize> = w.iter().take(PER_HAND - 1).map(|w| w.index - 1).collect();
    if let Ok(Some(field)) = crate::field::field_of(hall, h, seat) {
        let split = field
            .moments
            .iter()
            .filter(|m| m.branches.len() >= 2)
            .map(|m| {
                let imps = m.branches.iter().map(|b| b.mean_imp);
                let spread = imps.clone().fold(f64::MIN, f64::max) - imps.fold(f64::MAX, f64::min);
                (m.index - 1, spread)
            })
            .filter(|&(i, spread)| spread >= SPLIT_IMP && !at.contains(&i))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        at.extend(split.map(|(i, _)| i));
    }
    at
}

/// Looks through `person`'s newest finished hands not yet looked through (at most
/// [`AT_ONCE`]) and gives them the drills found, due on `day`. A hand whose deal is still
/// secret or whose review is still to come is left for a later visit. How many drills
/// were given.
pub fn mine(hall: &Hall, person: i64, day: i64) -> Result<usize, PlayError> {
    let done: HashSet<i64> = hall.store.mined_hands(person)?.into_iter().collect();
    let mut looked = 0;
    let mut given = 0;
    for (h, seat) in hall.store.hands_of_person(person, 0, 200)? {
        if looked >= AT_ONCE {
            break;
        }
        if done.contains(&h.id) || !public(hall, h.play_table, h.hand_no)? {
            continue;
        }
        let keys: Vec<String> = match hall.store.review_of(h.id)? {
            Some(ReviewState::Queued) => continue,
            Some(ReviewState::Done(text)) => {
                let review: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                drills_of(hall, &h, Wind::from_index(seat), &review)
                    .into_iter()
                    .map(|at| format!("play:{}:{}:{at}", h.play_table, h.hand_no))
                    .collect()
            }
            _ => Vec::new(),
        };
        looked += 1;
        given += keys.len();
        hall.store.mark_mined(person, h.id, &keys, day)?;
    }
    Ok(given)
}

/// A drill's hand, checked: `person` held a seat there and made the move asked, and the
/// deal is open to everyone.
struct Own {
    hand: StoredHand,
    summary: HandSummary,
    log: HandLog,
    seat: Wind,
    /// Every finished hand of its table (the scores before it are theirs).
    table_hands: Vec<StoredHand>,
}

fn own(hall: &Hall, person: i64, table: i64, hand_no: u32, at: usize) -> Result<Own, PlayError> {
    let table_hands = hall.store.hands_of_table(table)?;
    let hand = table_hands
        .iter()
        .find(|h| h.hand_no == hand_no)
        .cloned()
        .ok_or_else(|| PlayError::NotFound(format!("table {table} has no hand {hand_no}")))?;
    let summary: HandSummary = serde_json::from_str(&hand.summary)
        .map_err(|e| PlayError::Internal(format!("hand {hand_no} of table {table}: {e}")))?;
    let seat = summary
        .persons
        .iter()
        .position(|&p| p == Some(person))
        .map(Wind::from_index)
        .ok_or_else(|| {
            PlayError::NotFound(format!(
                "hand {hand_no} of table {table} is not one of yours"
            ))
        })?;
    if !public(hall, table, hand_no)? {
        return Err(PlayError::NotFound(format!(
            "hand {hand_no} of table {table}: its deal is still secret, so it makes no drill yet"
        )));
    }
    let log: HandLog = serde_json::from_str(&hand.log)
        .map_err(|e| PlayError::Internal(format!("hand {hand_no} of table {table}: {e}")))?;
    let mine = log.actions.get(at).is_some_and(|d| d.seat == seat)
        && !summary.bot_moves[seat.index()].contains(&(at + 1));
    if !mine {
        return Err(PlayError::NotFound(format!(
            "move {} of hand {hand_no} of table {table} is not one you made",
            at + 1
        )));
    }
    Ok(Own {
        hand,
        summary,
        log,
        seat,
        table_hands,
    })
}

/// Each place's points at `table` before hand `hand_no`, by seat of that hand.
fn scores_before(o: &Own) -> [i32; 4] {
    let mut by_place = [0i32; 4];
    for h in &o.table_hands {
        if h.hand_no >= o.hand.hand_no {
            continue;
        }
        if let Ok(s) = serde_json::from_str::<HandSummary>(&h.summary) {
            for w in 0..4 {
                if let Some(p) = by_place.get_mut(s.places[w]) {
                    *p += s.points[w];
                }
            }
        }
    }
    std::array::from_fn(|w| by_place.get(o.summary.places[w]).copied().unwrap_or(0))
}

/// The question of drill `play:table:hand_no:at` for `person`.
pub fn question(
    hall: &Hall,
    person: i64,
    table: i64,
    hand_no: u32,
    at: usize,
) -> Result<Value, PlayError> {
    let o = own(hall, person, table, hand_no, at)?;
    let p = position(&o.log, at)?;
    Ok(json!({
        "board": p.board,
        "seat": o.seat,
        "names": o.summary.names,
        "scores": scores_before(&o),
        "label": o.summary.label,
        "decision": p.decision,
        "legal": p.legal,
    }))
}

/// The answer to drill `play:table:hand_no:at` when `person` answers `answer`: its grade
/// and what the page shows (the expert's candidates best first with what each gives up,
/// the move played then, the field's branches at that position, the hand's replay).
pub fn answer(
    hall: &Hall,
    person: i64,
    (table, hand_no, at): (i64, u32, usize),
    answer: Action,
) -> Result<(u8, Value), PlayError> {
    let o = own(hall, person, table, hand_no, at)?;
    let p = position(&o.log, at)?;
    if !p.legal.contains(&answer) {
        return Err(PlayError::Invalid(format!(
            "answer: {answer} was not allowed there (allowed: {})",
            p.legal
                .iter()
                .map(Action::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let review = match hall.store.review_of(o.hand.id)? {
        Some(ReviewState::Done(text)) => serde_json::from_str(&text).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let w = weighed_of(&review, o.seat)
        .into_iter()
        .find(|w| w.index == at + 1);
    let field = match crate::field::field_of(hall, &o.hand, o.seat)? {
        Some(f) => f.moments.iter().find(|m| m.index == at + 1).map(|m| {
            m.branches
                .iter()
                .map(|b| {
                    let names: Vec<&str> = b
                        .holders
                        .iter()
                        .take(6)
                        .map(|&h| f.holders[h].name.as_str())
                        .collect();
                    let yours = b.holders.iter().any(|&h| f.holders[h].me);
                    (
                        b.action,
                        b.mean_imp,
                        json!({"move": b.action, "holders": b.holders.len(),
                        "mean_imp": b.mean_imp, "names": names, "yours": yours}),
                    )
                })
                .collect::<Vec<_>>()
        }),
        None => None,
    };
    let (grade, candidates, best) = match &w {
        Some(w) => {
            let top = w
                .candidates
                .iter()
                .map(|c| c.points)
                .fold(f64::MIN, f64::max);
            let mine = w.candidates.iter().find(|c| c.action == answer);
            let grade = match mine {
                _ if answer == w.best => 5,
                Some(c) if top - c.points <= COST_MIN / 2.0 => 4,
                _ if answer == p.played => 1,
                _ => 2,
            };
            let mut list: Vec<&Candidate> = w.candidates.iter().collect();
            list.sort_by(|a, b| b.points.total_cmp(&a.points));
            let list: Vec<Value> = list
                .iter()
                .map(|c| json!({"move": c.action, "points": c.points, "gives_up": top - c.points}))
                .collect();
            (grade, list, Some(w.best))
        }
        // Not weighed by the expert (a review kept before it weighed every decision): the
        // field's best branch is the answer.
        None => {
            let best = field.as_ref().and_then(|f| {
                f.iter()
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(action, _, _)| *action)
            });
            let grade = if Some(answer) == best { 5 } else { 1 };
            (grade, Vec::new(), best)
        }
    };
    let field: Option<Vec<Value>> = field.map(|f| f.into_iter().map(|(_, _, v)| v).collect());
    Ok((
        grade,
        json!({
            "best": best,
            "candidates": candidates,
            "played": p.played,
            "field": field,
            "replay": format!("/play/t/{table}/hands/{hand_no}"),
        }),
    ))
}
