//! Stamps: a fixed set of short messages a person at the table may send ("good game",
//! "sorry"), shown beside their own seat for a moment. No free text is sent at a table,
//! so nothing can be said there that the set does not hold; each person may send a few
//! a minute. Stamps are not journaled: a table rebuilt from its journal has none.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{Refusal, Room};

/// The stamps, by the id the browser sends, with their English words.
pub const STAMPS: [(&str, &str); 6] = [
    ("hello", "Hello"),
    ("gg", "Good game"),
    ("nice", "Nice hand"),
    ("sorry", "Sorry"),
    ("thinking", "Thinking…"),
    ("thanks", "Thanks"),
];

/// Least time between two stamps of one person.
pub const GAP: Duration = Duration::from_secs(3);
/// Most stamps of one person a minute.
pub const PER_MINUTE: usize = 6;

/// The stamps of a table: each place's latest, and when each sent theirs this minute.
#[derive(Default)]
pub struct Stamps {
    latest: [Option<(&'static str, u64)>; 4],
    sent: [VecDeque<Instant>; 4],
    count: u64,
}

impl Stamps {
    /// Each place's latest stamp as the state shows it: the place, the stamp's id and its
    /// number (a browser shows a stamp whose number it has not seen).
    pub fn json(&self) -> Value {
        let list: Vec<Value> = self
            .latest
            .iter()
            .enumerate()
            .filter_map(|(place, s)| {
                s.map(|(stamp, n)| json!({"place": place, "stamp": stamp, "n": n}))
            })
            .collect();
        json!(list)
    }
}

impl Room {
    /// The person `person` sends stamp `id`: refused from someone not seated, for a
    /// stamp not in [`STAMPS`], and faster than [`GAP`] or [`PER_MINUTE`] allow.
    pub fn stamp(&mut self, person: i64, id: &str, now: Instant) -> Result<(), Refusal> {
        let place = self.place_of(person).ok_or(Refusal::NotSeated)?;
        let stamp = STAMPS
            .iter()
            .find(|(s, _)| *s == id)
            .map(|(s, _)| *s)
            .ok_or_else(|| Refusal::NoSuchStamp(id.chars().take(20).collect()))?;
        let st = &mut self.stamps;
        let sent = &mut st.sent[place];
        while sent
            .front()
            .is_some_and(|&t| now.duration_since(t) >= Duration::from_secs(60))
        {
            sent.pop_front();
        }
        if let Some(&last) = sent.back() {
            let since = now.duration_since(last);
            if since < GAP {
                return Err(Refusal::StampsTooFast((GAP - since).as_secs() + 1));
            }
        }
        if sent.len() >= PER_MINUTE {
            let first = sent.front().copied().unwrap_or(now);
            let wait = Duration::from_secs(60).saturating_sub(now.duration_since(first));
            return Err(Refusal::StampsTooFast(wait.as_secs() + 1));
        }
        sent.push_back(now);
        st.count += 1;
        st.latest[place] = Some((stamp, st.count));
        self.version += 1;
        Ok(())
    }
}
