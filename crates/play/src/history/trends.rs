//! A player over time, as the expert's reviews see them: agreement and estimated cost per
//! hand by month, and which kind of decision costs them most, with the hands where it
//! cost most. Read from the stored reviews (never worked out for a page); practice hands
//! (hints, deals anyone may know) are left out, as everywhere that counts; a stand-in's
//! moves were set aside by the reviewer.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use store::StoreError;

use super::fields::{spec_of, Specs};
use crate::Hall;

/// Reviews read for a profile (the newest).
pub const READ_REVIEWS: usize = 2000;

/// What a decision was, as the profile groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A discard on the turn.
    Discard,
    /// A chow, pung or kong of a discard.
    ClaimMade,
    /// A discard let go that could have been claimed.
    ClaimPassed,
    /// A kong declared on the turn.
    Kong,
}

impl DecisionKind {
    /// The kind of a decision from the move played (as a review stores it).
    pub fn of(played: &Value) -> Option<DecisionKind> {
        Some(match played["action"].as_str()? {
            "discard" => DecisionKind::Discard,
            "chow" | "pung" | "kong" => DecisionKind::ClaimMade,
            "pass" => DecisionKind::ClaimPassed,
            "concealed_kong" | "promoted_kong" => DecisionKind::Kong,
            _ => return None,
        })
    }

    /// In words, for the page (translated there).
    pub fn words(self) -> &'static str {
        match self {
            DecisionKind::Discard => "discarding",
            DecisionKind::ClaimMade => "claims made",
            DecisionKind::ClaimPassed => "claims passed",
            DecisionKind::Kong => "kongs declared",
        }
    }
}

/// One reviewed hand in the player's record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewedHand {
    /// Where it was played.
    pub table: i64,
    /// Its number there.
    pub hand_no: u32,
    /// When it finished (UTC).
    pub at: String,
    /// Share of the weighed decisions where the move was the expert's.
    pub agreement: f64,
    /// Estimated match points lost to the expert's moves.
    pub cost: f64,
}

/// A month of reviewed hands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Period {
    /// `YYYY-MM`.
    pub month: String,
    /// Hands reviewed.
    pub hands: usize,
    /// Average agreement.
    pub agreement: f64,
    /// Average estimated cost per hand.
    pub cost: f64,
}

/// The cost of one kind of decision over the player's reviewed hands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindCost {
    /// The kind.
    pub kind: DecisionKind,
    /// Decisions of that kind weighed.
    pub decisions: usize,
    /// Of them, not the expert's move.
    pub differed: usize,
    /// Estimated cost, summed.
    pub cost: f64,
    /// The costliest of them: (table, hand number, move number, cost), costliest first.
    pub worst: Vec<(i64, u32, usize, f64)>,
}

/// The player's reviews over time.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trends {
    /// Reviewed hands counted.
    pub hands: usize,
    /// By month, newest first.
    pub periods: Vec<Period>,
    /// By kind of decision, costliest first.
    pub kinds: Vec<KindCost>,
    /// The newest reviewed hands.
    pub recent: Vec<ReviewedHand>,
    /// Wins the player let go where the reviewer would have declared them: (table, hand
    /// number, move number), the newest first. The search does not weigh a win against
    /// playing on, so these have no cost.
    pub wins_passed: Vec<(i64, u32, usize)>,
}

/// The moves of a stored review where a win was let go that the reviewer would have
/// declared (its notes: the search does not weigh them).
fn wins_let_go(review: &Value) -> Vec<usize> {
    review["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| n["suggested"]["action"] == "hu" && n["played"]["action"] != "hu")
        .filter_map(|n| n["index"].as_u64().map(|i| i as usize))
        .collect()
}

/// The trends of `person` from their stored reviews.
pub fn trends(hall: &Hall, person: i64, recent: usize) -> Result<Trends, StoreError> {
    let mut specs = Specs::new();
    let mut hands = Vec::new();
    let mut kinds: BTreeMap<DecisionKind, KindCost> = BTreeMap::new();
    let mut wins_passed = Vec::new();
    for r in hall.store.reviews_of_person(person, READ_REVIEWS)? {
        if !spec_of(hall, &mut specs, r.table).is_some_and(|s| s.counts()) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&r.review) else {
            continue;
        };
        let letter = ["E", "S", "W", "N"].get(r.seat).copied().unwrap_or("");
        let Some(seat) = v["seats"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["seat"] == letter))
        else {
            continue;
        };
        let review = &seat["review"];
        for index in wins_let_go(review) {
            wins_passed.push((r.table, r.hand_no, index));
        }
        let weighed = review["decisions_weighed"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for w in &weighed {
            let Some(kind) = DecisionKind::of(&w["played"]) else {
                continue;
            };
            let cost = w["cost"].as_f64().unwrap_or(0.0);
            let k = kinds.entry(kind).or_insert_with(|| KindCost {
                kind,
                decisions: 0,
                differed: 0,
                cost: 0.0,
                worst: Vec::new(),
            });
            k.decisions += 1;
            if w["played"] != w["best"] {
                k.differed += 1;
            }
            k.cost += cost;
            if cost > 0.0 {
                let index = w["index"].as_u64().unwrap_or(0) as usize;
                k.worst.push((r.table, r.hand_no, index, cost));
            }
        }
        hands.push(ReviewedHand {
            table: r.table,
            hand_no: r.hand_no,
            at: r.at.clone(),
            agreement: seat["agreement"].as_f64().unwrap_or(1.0),
            cost: review["expected_loss"].as_f64().unwrap_or(0.0),
        });
    }
    let mut by_month: BTreeMap<String, Vec<&ReviewedHand>> = BTreeMap::new();
    for h in &hands {
        by_month
            .entry(h.at.chars().take(7).collect())
            .or_default()
            .push(h);
    }
    let periods = by_month
        .into_iter()
        .rev()
        .map(|(month, hs)| {
            let n = hs.len() as f64;
            Period {
                month,
                hands: hs.len(),
                agreement: hs.iter().map(|h| h.agreement).sum::<f64>() / n,
                cost: hs.iter().map(|h| h.cost).sum::<f64>() / n,
            }
        })
        .collect();
    let mut kinds: Vec<KindCost> = kinds.into_values().collect();
    for k in &mut kinds {
        k.worst.sort_by(|a, b| b.3.total_cmp(&a.3));
        k.worst.truncate(3);
    }
    kinds.sort_by(|a, b| b.cost.total_cmp(&a.cost));
    Ok(Trends {
        hands: hands.len(),
        periods,
        kinds,
        recent: hands.into_iter().take(recent).collect(),
        wins_passed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each decision kind from the move played; a win let go is found among the notes,
    /// a win taken or another move suggested is not.
    #[test]
    fn decisions_are_told_apart_and_wins_let_go_found() {
        let kind = |a: &str| DecisionKind::of(&serde_json::json!({"action": a, "tile": "5p"}));
        assert_eq!(kind("discard"), Some(DecisionKind::Discard));
        assert_eq!(kind("pung"), Some(DecisionKind::ClaimMade));
        assert_eq!(kind("chow"), Some(DecisionKind::ClaimMade));
        assert_eq!(kind("pass"), Some(DecisionKind::ClaimPassed));
        assert_eq!(kind("concealed_kong"), Some(DecisionKind::Kong));
        assert_eq!(kind("hu"), None);
        let review = serde_json::json!({"notes": [
            {"index": 7, "played": {"action": "pass"}, "suggested": {"action": "hu"}},
            {"index": 9, "played": {"action": "discard", "tile": "1m"}, "suggested": {"action": "discard", "tile": "9m"}},
            {"index": 12, "played": {"action": "discard", "tile": "2s"}, "suggested": {"action": "hu"}},
        ]});
        assert_eq!(wins_let_go(&review), [7, 12]);
        assert!(wins_let_go(&serde_json::json!({})).is_empty());
    }
}
