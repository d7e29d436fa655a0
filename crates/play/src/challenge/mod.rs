//! Challenges on the server: publishing one (its deals, commitment and par), taking up a
//! deal of it, who may see which of its tables and hands, the comparison at a deal-seat,
//! standings, the reveal, and the sweeper that plays out what is left when a window closes
//! and publishes scheduled challenges.
//!
//! The rules that need no server (rotation, comparison, commitment) are in
//! [`tournament::challenge`].

mod publish;
mod results;
mod sweep;

pub use crate::when::{now_s, utc};

pub use publish::{
    announce, play_par, play_par_in_background, publish, publish_in_background, take_up,
    PAR_GRACE_S,
};
pub use results::{deal_seats, deal_seats_of, ending, results_at, Shown};
pub use sweep::{close_now, sweep};

use std::collections::HashMap;
use std::sync::Arc;

use agents::drive::play_hand;
use agents::registry::builtin;
use mcr::Wind;
use serde::{Deserialize, Serialize};
use store::StoredHand;
use table::log::HandLog;
use table::rules::TableRules;
use table::set::{SetKey, SetKind};
use table::wall::Setup;
use tournament::challenge::{self as rules, Reveal, Rotation, REVEAL_FORMAT};

use crate::room::HandSummary;
use crate::spec::{ChallengeRef, DealRef, Hands, Place, TableSpec, BOT_LEVELS};
use crate::Hall;
use crate::PlayError;

/// The par bot of a challenge that names none (those published before the choice), and
/// the reviewer of its hands on the web (quick enough to answer a page).
pub const PAR_BOT: &str = "strong";

/// The bot levels a challenge may seat: all but `expert`, since the par is played with
/// them at three seats of every deal-seat (with three searching bots, half an hour for 32
/// deals).
pub const CHALLENGE_LEVELS: [&str; 4] = ["random", "easy", "medium", "strong"];

/// The bots a challenge may take as its par: every level. An `expert` par takes minutes to
/// play (every deal-seat searched); the web plays it in the background.
pub const PAR_LEVELS: [&str; 5] = BOT_LEVELS;

fn default_par() -> String {
    PAR_BOT.into()
}
fn one() -> usize {
    1
}
pub use tournament::challenge::MAX_COPIES;
/// Most deals in a challenge.
pub const MAX_DEALS: usize = 32;
/// Longest window, in hours (a month).
pub const MAX_HOURS: u32 = 24 * 31;

/// A challenge as kept. Its key (or `seed` and `salt`) is secret until it is revealed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeSpec {
    /// The name shown to players.
    pub name: String,
    /// How many deals (a multiple of 4): the slots every player plays.
    pub deals: usize,
    /// How many copies of each slot: each player is given one of them at random, and each
    /// copy is compared within itself (1: every player plays the same deals).
    #[serde(default = "one")]
    pub copies: usize,
    /// The window, in seconds since 1970 (UTC).
    pub opens: i64,
    /// When the window closes, in seconds since 1970 (UTC).
    pub closes: i64,
    /// The level of the three bots at each table.
    pub level: String,
    /// The bot whose own results are the par at every deal-seat (one of the bot levels).
    #[serde(default = "default_par")]
    pub par: String,
    /// How players are seated over the deals.
    pub rotation: Rotation,
    /// Seconds per decision.
    pub limit_s: u32,
    /// Extra seconds each player may draw on over their table.
    pub bank_s: u32,
    /// The published commitment: to the key of its deal set (`table::set`), or for
    /// challenges published before deal sets, hex SHA-256 over salt and deals.
    pub commitment: String,
    /// The key of its deal set (hex). Secret until revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Before deal sets: the seed of deal 1 (deal `i` used `seed + i`). Secret until
    /// revealed.
    #[serde(default)]
    pub seed: u64,
    /// Before deal sets: the commitment's salt. Secret until revealed.
    #[serde(default)]
    pub salt: String,
    /// The table of bots whose hands are the par.
    pub par_table: i64,
    /// Published by the server's schedule rather than by a director.
    #[serde(default)]
    pub scheduled: bool,
    /// When it was announced, in seconds since 1970 (UTC; 0 for challenges stored before
    /// it was kept): a par still missing [`PAR_GRACE_S`] later is played again.
    #[serde(default)]
    pub announced: i64,
    /// Bot accounts may play it (their names marked as bots in its standings).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
}

/// What a director (or the schedule) asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    /// The name shown to players (1 to 80 characters).
    pub name: String,
    /// How many deals: 4, 8, … [`MAX_DEALS`].
    pub deals: usize,
    /// How many copies of each deal: 1 to [`MAX_COPIES`].
    pub copies: usize,
    /// Hours from now until it opens (0: at once).
    pub opens_in_h: u32,
    /// Hours it stays open (1 to [`MAX_HOURS`]).
    pub hours: u32,
    /// The level of the three bots at each table.
    pub level: String,
    /// The bot whose results are the par at every deal-seat.
    pub par: String,
    /// How players are seated over the deals.
    pub rotation: Rotation,
    /// Seconds per decision.
    pub limit_s: u32,
    /// Extra seconds each player may draw on over their table.
    pub bank_s: u32,
    /// Asked for by the server's schedule, not a director.
    pub scheduled: bool,
    /// Bot accounts may play it.
    pub bots: bool,
}

/// Where a challenge is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Published, not yet open (or its par is not yet played).
    Upcoming,
    /// Open: players may take up its deals.
    Open,
    /// Closed, with hands still being played out.
    Closing,
    /// Closed and every hand over: the deals and their key are public.
    Revealed,
}

impl Stage {
    /// The stage as one lower-case word.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Upcoming => "upcoming",
            Stage::Open => "open",
            Stage::Closing => "closing",
            Stage::Revealed => "revealed",
        }
    }
}

/// Who holds a result at a deal-seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Who {
    /// A person, by id.
    Person(i64),
    /// The par: the table of bots that played every seat.
    Par,
}

impl NewChallenge {
    /// Checks every field a director could get wrong, naming it.
    pub fn check(&self) -> Result<(), PlayError> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 80 {
            return Err(PlayError::Invalid("name: 1 to 80 characters".into()));
        }
        if self.deals == 0 || self.deals > MAX_DEALS || !self.deals.is_multiple_of(4) {
            return Err(PlayError::Invalid(format!(
                "deals: 4, 8, … {MAX_DEALS} (a multiple of 4, so that every seat is sat equally), not {}",
                self.deals
            )));
        }
        if self.copies == 0 || self.copies > MAX_COPIES {
            return Err(PlayError::Invalid(format!(
                "copies: 1 to {MAX_COPIES} of each deal, not {}",
                self.copies
            )));
        }
        if self.hours == 0 || self.hours > MAX_HOURS {
            return Err(PlayError::Invalid(format!(
                "hours open: 1 to {MAX_HOURS}, not {}",
                self.hours
            )));
        }
        if self.opens_in_h > MAX_HOURS {
            return Err(PlayError::Invalid(format!(
                "opens in: 0 to {MAX_HOURS} hours, not {}",
                self.opens_in_h
            )));
        }
        for (what, level, offered) in [
            ("bots", &self.level, &CHALLENGE_LEVELS[..]),
            ("par", &self.par, &PAR_LEVELS[..]),
        ] {
            if !offered.contains(&level.as_str()) {
                let why = if BOT_LEVELS.contains(&level.as_str()) {
                    "is not offered as a challenge's bots: the par would be played with three searching bots at every deal-seat, half an hour for 32 deals"
                } else {
                    "is no bot"
                };
                return Err(PlayError::Invalid(format!(
                    "{what}: '{level}' {why} (choose {})",
                    offered.join(", ")
                )));
            }
        }
        Ok(())
    }
}

impl ChallengeSpec {
    /// The stage at `now`; `all_over` says whether every table of it is over.
    pub fn stage(&self, now: i64, all_over: bool) -> Stage {
        // Without its par (publishing stopped half-way) a challenge never opens.
        if now < self.opens || self.par_table == 0 {
            Stage::Upcoming
        } else if now < self.closes {
            Stage::Open
        } else if all_over {
            Stage::Revealed
        } else {
            Stage::Closing
        }
    }

    fn set_key(&self) -> Option<SetKey> {
        self.key.as_deref().and_then(|k| SetKey::parse(k).ok())
    }

    /// The seed of the deal at `index` (0-based) of the deal set: slot `index` with one
    /// copy (see [`ChallengeSpec::set_index`]).
    pub fn deal_seed(&self, index: usize) -> u64 {
        match self.set_key() {
            Some(k) => k.seed(index),
            None => self.seed + index as u64,
        }
    }

    /// Where copy `copy` of slot `slot` is in the deal set.
    pub fn set_index(&self, slot: usize, copy: usize) -> usize {
        rules::set_index(slot, copy, self.copies)
    }

    /// How many deals the set holds: every copy of every slot.
    pub fn set_len(&self) -> usize {
        self.deals * self.copies.max(1)
    }

    /// The label of the deal at set index `index` (`3`, or `3b` with several copies).
    pub fn label(&self, index: usize) -> String {
        let (slot, copy) = rules::slot_copy(index, self.copies);
        rules::label(slot, copy, self.copies)
    }

    /// How long after its announcement a challenge without its par is taken up again by
    /// the sweeper: [`PAR_GRACE_S`] for each copy (every copy's par is played).
    pub fn par_grace_s(&self) -> i64 {
        PAR_GRACE_S * self.copies.max(1) as i64
    }

    /// What is published once it is revealed: the key and every deal (`dupmj-set/1`), or
    /// for a challenge from before deal sets its seed, salt and deals (`dupmj-reveal/1`).
    pub fn reveal(&self) -> Result<serde_json::Value, PlayError> {
        let v = match self.set_key() {
            Some(k) => {
                let labels: Vec<String> = (0..self.set_len()).map(|i| self.label(i)).collect();
                serde_json::to_value(table::set::reveal(
                    &self.name,
                    SetKind::Duplicate,
                    &k,
                    &labels,
                ))
            }
            None => serde_json::to_value(Reveal {
                format: REVEAL_FORMAT.into(),
                name: self.name.clone(),
                commitment: self.commitment.clone(),
                salt: self.salt.clone(),
                seed: self.seed,
                deals: rules::deal_set(
                    &rules::deals(self.seed, self.deals)
                        .map_err(|e| PlayError::Invalid(e.to_string()))?,
                ),
            }),
        };
        Ok(v?)
    }
}

/// The key under which the store keeps results of one deal-seat of a challenge; `index` is
/// the deal's place in the set (the slot, with one copy), so each copy is compared alone.
pub fn deal_key(challenge: i64, index: usize, seat: Wind) -> String {
    format!("chal:{challenge}:{index}:{}", seat.index())
}

/// A challenge with its plays and whether every table of it is over.
pub struct Loaded {
    /// The challenge's id.
    pub id: i64,
    /// Its settings.
    pub spec: ChallengeSpec,
    /// Every table opened for it (people's and the par's).
    pub plays: Vec<store::ChallengePlay>,
    /// Tables of `plays` that are over.
    pub over: std::collections::HashSet<i64>,
    /// The copy each table of `plays` plays.
    pub copy_at: HashMap<i64, usize>,
}

impl Loaded {
    /// The stage at `now`.
    pub fn stage(&self, now: i64) -> Stage {
        self.spec.stage(
            now,
            self.plays.iter().all(|p| self.over.contains(&p.play_table)),
        )
    }

    /// The seat a person plays (or would play) deal `index` from.
    pub fn seat_for(&self, person: i64, index: usize) -> Wind {
        if let Some(p) = self.plays.iter().find(|p| p.person == person) {
            let offset = (p.seat as usize + 4 - p.deal_index as usize % 4) % 4;
            return rules::seat_of(index, offset);
        }
        let mut seen: Vec<i64> = Vec::new();
        for p in &self.plays {
            if !seen.contains(&p.person) {
                seen.push(p.person);
            }
        }
        rules::seat_of(index, self.spec.rotation.offset(seen.len()))
    }

    /// The person's play of a deal, if they took it up.
    pub fn play_of(&self, person: i64, index: usize) -> Option<&store::ChallengePlay> {
        self.plays
            .iter()
            .find(|p| p.person == person && p.deal_index as usize == index)
    }

    /// Whether the person has finished slot `index` (whichever copy they were given).
    pub fn finished(&self, person: i64, index: usize) -> bool {
        self.play_of(person, index)
            .is_some_and(|p| self.over.contains(&p.play_table))
    }

    /// The copy a play was given.
    pub fn copy_of(&self, play: &store::ChallengePlay) -> usize {
        self.copy_at.get(&play.play_table).copied().unwrap_or(0)
    }

    /// The set index of the deal the person was given at slot `index`, if they took it up.
    pub fn given(&self, person: i64, index: usize) -> Option<usize> {
        self.play_of(person, index)
            .map(|p| self.spec.set_index(index, self.copy_of(p)))
    }

    /// Whether the person has finished the deal at set index `set_index`: its slot, in that
    /// copy (another copy of a slot they played stays unknown to them).
    pub fn finished_deal(&self, person: i64, set_index: usize) -> bool {
        let (slot, _) = rules::slot_copy(set_index, self.spec.copies);
        self.finished(person, slot) && self.given(person, slot) == Some(set_index)
    }

    /// How many people have been given each copy of slot `index`.
    pub fn taken(&self, index: usize) -> Vec<usize> {
        let mut taken = vec![0; self.spec.copies.max(1)];
        for p in self.plays.iter().filter(|p| p.deal_index as usize == index) {
            if let Some(t) = taken.get_mut(self.copy_of(p)) {
                *t += 1;
            }
        }
        taken
    }
}

/// Reads a challenge with its plays and which of them are over.
pub fn load(hall: &Hall, id: i64) -> Result<Loaded, store::StoreError> {
    let stored = hall.store.challenge(id)?;
    let spec: ChallengeSpec = serde_json::from_str(&stored.spec)
        .map_err(|e| store::StoreError::Backend(format!("challenge {id}: {e}")))?;
    let plays = hall.store.challenge_plays(id)?;
    let mut over = std::collections::HashSet::new();
    let mut copy_at = HashMap::new();
    for p in &plays {
        let t = hall.store.play_table(p.play_table)?;
        if t.finished {
            over.insert(p.play_table);
        }
        if spec.copies > 1 {
            let copy = serde_json::from_str::<TableSpec>(&t.spec)
                .ok()
                .and_then(|s| s.challenge)
                .map_or(0, |c| c.copy);
            copy_at.insert(p.play_table, copy);
        }
    }
    Ok(Loaded {
        id,
        spec,
        plays,
        over,
        copy_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        // 2000-02-29 12:34 (a leap day in a century leap year): 951827640.
        assert_eq!(utc(951_827_640), "2000-02-29 12:34 UTC");
        // 2026-11-23 00:00: 20,780 days after 1970-01-01.
        assert_eq!(utc(20_780 * 86_400), "2026-11-23 00:00 UTC");
    }

    #[test]
    fn new_challenges_are_checked() {
        let ok = NewChallenge {
            name: "x".into(),
            deals: 8,
            copies: 1,
            opens_in_h: 0,
            hours: 24,
            level: "strong".into(),
            par: "strong".into(),
            rotation: Rotation::Same,
            limit_s: 15,
            bank_s: 30,
            scheduled: false,
            bots: false,
        };
        assert!(ok.check().is_ok());
        let bad = |f: &dyn Fn(&mut NewChallenge)| {
            let mut c = ok.clone();
            f(&mut c);
            match c.check().unwrap_err() {
                PlayError::Invalid(words) => words,
                e => panic!("a setting refused as {e:?}"),
            }
        };
        assert!(bad(&|c| c.deals = 6).starts_with("deals:"));
        assert!(bad(&|c| c.deals = 36).starts_with("deals:"));
        assert!(bad(&|c| c.hours = 0).starts_with("hours open:"));
        assert!(bad(&|c| c.copies = 0).starts_with("copies: 1 to 4"));
        assert!(bad(&|c| c.copies = 5).starts_with("copies: 1 to 4"));
        assert!(bad(&|c| c.level = "godlike".into()).contains("godlike"));
        assert!(bad(&|c| c.par = "oracle".into()).starts_with("par: 'oracle' is no bot"));
        assert!(bad(&|c| c.level = "expert".into()).starts_with("bots: 'expert' is not offered"));
        for par in ["medium", "expert"] {
            let c = NewChallenge {
                par: par.into(),
                ..ok.clone()
            };
            assert!(c.check().is_ok(), "{par} as the par");
        }
        assert!(bad(&|c| c.name = " ".into()).starts_with("name:"));
    }
}
