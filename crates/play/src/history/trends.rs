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
    /// A win: let go (weighed against declaring it) or taken (weighed against playing on).
    Win,
}

impl DecisionKind {
    /// The kind of a weighed decision as a review stores it: a win where a win was among
    /// the moves weighed, else by the move played.
    pub fn of(weighed: &Value) -> Option<DecisionKind> {
        let played = &weighed["played"];
        let win = weighed["candidates"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["action"]["action"] == "hu"));
        if win {
            return Some(DecisionKind::Win);
        }
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
            DecisionKind::Win => "wins let go or taken short",
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
}

/// The trends of `person` from their stored reviews.
pub fn trends(hall: &Hall, person: i64, recent: usize) -> Result<Trends, StoreError> {
    let mut specs = Specs::new();
    let mut hands = Vec::new();
    let mut kinds: BTreeMap<DecisionKind, KindCost> = BTreeMap::new();
    for r in hall.store.reviews_of_person(person, READ_REVIEWS)? {
        if !spec_of(hall, &mut specs, r.table).is_some_and(|s| s.counts()) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&r.review) else {
            continue;
        };
        let Some(seat) = (r.seat < 4)
            .then(|| crate::reviewer::seat_report(&v, mcr::Wind::from_index(r.seat)))
            .flatten()
        else {
            continue;
        };
        let review = &seat["review"];
        let weighed = review["decisions_weighed"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for w in &weighed {
            let Some(kind) = DecisionKind::of(w) else {
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each decision kind from the move played, and a win let go from the moves weighed.
    #[test]
    fn decisions_are_told_apart() {
        let kind = |a: &str, hu: bool| {
            let mut cands = vec![serde_json::json!({"action": {"action": a, "tile": "5p"}})];
            if hu {
                cands.push(serde_json::json!({"action": {"action": "hu"}}));
            }
            DecisionKind::of(&serde_json::json!({
                "played": {"action": a, "tile": "5p"},
                "candidates": cands,
            }))
        };
        assert_eq!(kind("discard", false), Some(DecisionKind::Discard));
        assert_eq!(kind("pung", false), Some(DecisionKind::ClaimMade));
        assert_eq!(kind("chow", false), Some(DecisionKind::ClaimMade));
        assert_eq!(kind("pass", false), Some(DecisionKind::ClaimPassed));
        assert_eq!(kind("concealed_kong", false), Some(DecisionKind::Kong));
        assert_eq!(kind("pass", true), Some(DecisionKind::Win));
        assert_eq!(kind("discard", true), Some(DecisionKind::Win));
        assert_eq!(kind("hu", true), Some(DecisionKind::Win));
        assert_eq!(kind("hu", false), Some(DecisionKind::Win), "a win taken");
        assert_eq!(kind("fault", false), None);
    }
}
