//! A person's drills for the day, the problem of the day, and answering: the question of
//! a drill, its grade and answer, the schedule moved on, the answer kept.
//!
//! Each day a person is given new drills from their own hands (as [`super::mine`] finds
//! them) and [`BASICS`] fan and route drills of their own; the day's set is the drills due,
//! longest due first, at most [`SET_SIZE`]. The problem of the day is the same for
//! everyone on the site: a fan drill on even days, a route drill on odd ones, drawn from the
//! day and a salt the site keeps (so that it cannot be worked out before its day); its
//! answers are counted (each person's first) and shown once one has answered. Other drills
//! are asked and answered only by the person who has them.

use serde_json::{json, Value};
use store::{DrillAnswer, DrillProgress};
use table::engine::Action;

use super::fans::Draw;
use super::{fans, mine, routes, Card, DrillKey};
use crate::{Hall, PlayError};

/// Drills in a day's set at most.
pub const SET_SIZE: usize = 10;
/// New fan drills and new route drills each day.
pub const BASICS: usize = 2;

/// The day of `ms` (milliseconds since 1970): days since 1970, UTC.
pub fn day_of(ms: i64) -> i64 {
    ms.div_euclid(86_400_000)
}

/// Today.
pub fn today() -> i64 {
    day_of(store::now_ms())
}

/// The fan and route drills a person is given on a day: the same on every visit.
fn basics(person: i64, day: i64) -> Vec<String> {
    let mut d = Draw::new((person as u64).wrapping_mul(0x9e37_79b9) ^ (day as u64) << 20);
    let mut out = Vec::new();
    for _ in 0..BASICS {
        out.push(DrillKey::Fan(d.next() >> 11).to_string());
        out.push(DrillKey::Route(d.next() >> 11).to_string());
    }
    out
}

/// The problem of `day` under the site's `salt`, the same for everyone.
pub fn problem_of(day: i64, salt: i64) -> DrillKey {
    let seed = Draw::new(day as u64 ^ (salt as u64).rotate_left(17)).next() >> 11;
    if day % 2 == 0 {
        DrillKey::Fan(seed)
    } else {
        DrillKey::Route(seed)
    }
}

/// The problem of `day` on this site (its salt made the first time it is asked for).
pub fn problem(hall: &Hall, day: i64) -> Result<DrillKey, PlayError> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).map_err(|e| PlayError::Internal(format!("no randomness: {e}")))?;
    let salt = hall.store.drill_salt(i64::from_le_bytes(b) >> 1)?;
    Ok(problem_of(day, salt))
}

fn progress_json(p: &DrillProgress) -> Value {
    json!({"cards": p.cards, "answered": p.answered, "right": p.right, "due": p.due, "today": p.answered_today})
}

/// `person`'s set for `day`: new drills given first, then the drills due, their progress,
/// and the problem of the day with their answer to it if they gave one.
pub fn set(hall: &Hall, person: i64, day: i64) -> Result<Value, PlayError> {
    mine::mine(hall, person, day)?;
    hall.store.add_drills(person, &basics(person, day), day)?;
    let due = hall.store.drills_due(person, day, SET_SIZE)?;
    let progress = hall.store.drill_progress(person, day)?;
    let problem = DrillKey::Day(day).to_string();
    let answered = hall.store.first_answer(person, &problem)?;
    let drills: Vec<Value> = due
        .iter()
        .filter_map(|c| DrillKey::parse(&c.drill).ok().map(|k| (c, k)))
        .map(|(c, k)| json!({"key": c.drill, "kind": k.kind(), "answered": c.answered, "right": c.right}))
        .collect();
    Ok(json!({
        "day": day,
        "drills": drills,
        "progress": progress_json(&progress),
        "problem": {"key": problem, "kind": self::problem(hall, day)?.kind(), "answered": answered.is_some()},
    }))
}

fn route_question(seed: u64) -> Value {
    let p = routes::asked(seed);
    let mut legal: Vec<Action> = p
        .legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Discard(_)))
        .collect();
    legal.dedup();
    json!({"board": p.board, "seat": p.seat, "decision": p.decision, "legal": legal})
}

/// The day a problem may be seen: today's and earlier days', never a day to come.
fn open_day(hall: &Hall, day: i64) -> Result<DrillKey, PlayError> {
    if day > today() {
        return Err(PlayError::NotFound(format!(
            "drill: the problem of day {day} is not out yet"
        )));
    }
    problem(hall, day)
}

/// `person`'s card of `key`, or why they may not have it.
fn card_of(hall: &Hall, person: i64, key: DrillKey) -> Result<store::DrillCard, PlayError> {
    let name = key.to_string();
    hall.store
        .drill_card(person, &name)?
        .ok_or_else(|| PlayError::NotFound(format!("drill: '{name}' is not one of your drills")))
}

fn asked(hall: &Hall, person: i64, key: DrillKey) -> Result<Value, PlayError> {
    let rules = table::rules::TableRules::seeds().scoring;
    Ok(match key {
        DrillKey::Play { table, hand, at } => mine::question(hall, person, table, hand, at)?,
        DrillKey::Fan(seed) => fans::question(seed, &rules),
        DrillKey::Route(seed) => route_question(seed),
        DrillKey::Day(day) => {
            let inner = open_day(hall, day)?;
            let mut q = asked(hall, person, inner)?;
            q["of"] = json!(inner.kind());
            q
        }
    })
}

/// The question of drill `key` for `person`: one of their drills, or the problem of a day
/// that is out.
pub fn question(hall: &Hall, person: i64, key: DrillKey) -> Result<Value, PlayError> {
    if !matches!(key, DrillKey::Day(_)) {
        card_of(hall, person, key)?;
    }
    let mut q = asked(hall, person, key)?;
    q["key"] = json!(key.to_string());
    q["kind"] = json!(key.kind());
    Ok(q)
}

/// An answer as the page sends it.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A move (play and route drills).
    Move(Action),
    /// Points and the fans ticked, by number (fan drills).
    Fans {
        /// The points.
        points: u32,
        /// The fans.
        fans: Vec<u8>,
    },
}

impl Answer {
    /// The answer as kept and counted.
    fn words(&self) -> String {
        match self {
            Answer::Move(a) => a.to_string(),
            Answer::Fans { points, .. } => format!("{points} points"),
        }
    }
}

fn grade_and_answer(
    hall: &Hall,
    person: i64,
    key: DrillKey,
    given: &Answer,
) -> Result<(u8, Value), PlayError> {
    let rules = table::rules::TableRules::seeds().scoring;
    let wrong_kind = || {
        PlayError::Invalid(format!(
            "answer: drill {key} is answered with {}",
            match key {
                DrillKey::Fan(_) => "points and fans",
                _ => "a move",
            }
        ))
    };
    match (key, given) {
        (DrillKey::Play { table, hand, at }, Answer::Move(a)) => {
            mine::answer(hall, person, (table, hand, at), *a)
        }
        (DrillKey::Fan(seed), Answer::Fans { points, fans: f }) => {
            Ok(fans::answer(seed, &rules, *points, f))
        }
        (DrillKey::Route(seed), Answer::Move(a)) => {
            // The planner weighs every legal discard: those are the answers allowed.
            let (options, best) = routes::answer(seed);
            if !options.iter().any(|o| Action::Discard(o.tile) == *a) {
                return Err(PlayError::Invalid(format!(
                    "answer: {a} is not one of this hand's discards"
                )));
            }
            Ok((
                routes::grade(&options, best, *a),
                routes::answer_json(&options, best),
            ))
        }
        (DrillKey::Day(day), _) => grade_and_answer(hall, person, open_day(hall, day)?, given),
        _ => Err(wrong_kind()),
    }
}

/// `person` answers drill `key` on `day`: the grade (0 to 5, 3 and up right), the answer,
/// when the drill comes back, their progress, and for the problem of the day how everyone
/// answered. A drill of the set must be theirs; the problem of the day is everyone's.
pub fn answer(
    hall: &Hall,
    person: i64,
    key: DrillKey,
    given: &Answer,
    day: i64,
) -> Result<Value, PlayError> {
    let name = key.to_string();
    let card = match key {
        DrillKey::Day(_) => None,
        _ => Some(card_of(hall, person, key)?),
    };
    let (grade, mut out) = grade_and_answer(hall, person, key, given)?;
    let after = card.as_ref().map(|c| Card::after(c, grade, day));
    let kept = DrillAnswer {
        answer: given.words(),
        grade,
    };
    hall.store
        .answer_drill(person, &name, after.as_ref(), &kept, day)?;
    out["key"] = json!(name);
    out["kind"] = json!(key.kind());
    out["grade"] = json!(grade);
    out["right"] = json!(grade >= 3);
    out["answer"] = json!(kept.answer);
    out["back_in_days"] = json!(after.as_ref().map(|c| c.interval_days));
    out["progress"] = progress_json(&hall.store.drill_progress(person, day)?);
    if let DrillKey::Day(_) = key {
        let everyone: Vec<Value> = hall
            .store
            .answers_to(&name)?
            .into_iter()
            .map(|(a, n)| json!({"answer": a.answer, "right": a.grade >= 3, "count": n}))
            .collect();
        out["everyone"] = json!(everyone);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_problems() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(86_400_000 - 1), 0);
        assert_eq!(day_of(86_400_000), 1);
        assert_eq!(day_of(-1), -1);
        // Even days a fan drill, odd days a route drill, the same for everyone.
        assert_eq!(problem_of(20_000, 7).kind(), "fan");
        assert_eq!(problem_of(20_001, 7).kind(), "route");
        assert_eq!(problem_of(20_000, 7), problem_of(20_000, 7));
        assert_ne!(problem_of(20_000, 7), problem_of(20_002, 7));
        // Another site's salt, another problem: nobody works a day's problem out ahead.
        assert_ne!(problem_of(20_000, 7), problem_of(20_000, 8));
        // A person's basics are the same all day and differ from another's.
        assert_eq!(basics(1, 5), basics(1, 5));
        assert_ne!(basics(1, 5), basics(2, 5));
        assert_eq!(basics(1, 5).len(), 2 * BASICS);
    }
}
