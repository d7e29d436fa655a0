//! What a table for online play is: its hands (duplicate deals or a regular game), who
//! sits where, and its clock. Stored as JSON when the table is opened and never changed;
//! who took an open seat is in the table's journal.

use crate::PlayError;
use serde::{Deserialize, Serialize};

/// The stand-in that only plays the time-out defaults (see
/// [`crate::room::timeout_default`]).
pub const DEFAULTS: &str = "defaults";

/// Bot strengths a player may choose for a seat, weakest first (`expert` searches: about a
/// fifth of a second of a core per decision).
pub const BOT_LEVELS: [&str; 5] = ["random", "easy", "medium", "strong", "expert"];
/// Longest per-decision time limit and extra-seconds bank accepted, in seconds.
pub const MAX_LIMIT_S: u32 = 600;
/// Most extra seconds accepted, in seconds.
pub const MAX_BANK_S: u32 = 3600;
/// Most duplicate deals one table plays.
pub const MAX_DEALS: usize = 64;

/// One duplicate deal: its seed (never shown while the table plays: it is the deal) and the
/// label shown instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealRef {
    /// The deal's seed.
    pub seed: u64,
    /// The label players see (e.g. "deal 3").
    pub label: String,
}

/// What the table plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Hands {
    /// Duplicate deals, one hand each; player `p` always holds seat `p` (E, S, W, N).
    Duplicate {
        /// The deals, in the order played.
        deals: Vec<DealRef>,
    },
    /// A regular game from `seed`: `hands` hands (16 for a whole game), seats rotating as
    /// rules §8 says.
    Regular {
        /// The seed of the game's walls.
        seed: u64,
        /// How many hands are played.
        hands: usize,
    },
}

/// Who plays a place at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Place {
    /// A built-in bot.
    Bot {
        /// Its level, one of [`BOT_LEVELS`].
        level: String,
    },
    /// A person; the opener's place is taken from the start, the others by invitation.
    Person,
}

/// The deal of a challenge a table plays; its result is compared within the challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRef {
    /// The challenge's id.
    pub id: i64,
    /// 0-based.
    pub index: usize,
    /// A table of bots that played the par of every seat (one hand per deal-seat).
    #[serde(default)]
    pub par: bool,
    /// Which copy of the deal slot `index` is played (0 for a challenge of one copy).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub copy: usize,
    /// How many copies each slot of the challenge has (1 unless the director chose more).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub copies: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
fn one() -> usize {
    1
}
fn is_one(n: &usize) -> bool {
    *n == 1
}

impl ChallengeRef {
    /// The place of the deal played in the challenge's deal set (the slot with one copy).
    pub fn set_index(&self) -> usize {
        tournament::challenge::set_index(self.index, self.copy, self.copies)
    }

    /// The deal's label: the slot's number, with the copy's letter when there are several.
    pub fn label(&self) -> String {
        tournament::challenge::label(self.index, self.copy, self.copies)
    }
}

/// The sitting of an online event a table plays; its result goes to the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SittingRef {
    /// The event's id.
    pub event: i64,
    /// The round (1-based).
    pub round: u32,
    /// The hand within the round (1-based).
    pub hand: u32,
    /// The table (1-based).
    pub table: u32,
    /// The deal's name in the event.
    pub deal: String,
    /// The event's player at each seat (E, S, W, N), 1-based.
    pub players: [u32; 4],
    /// The bot that plays a seat nobody plays, and for a player who does not show.
    pub bot: String,
}

/// Where a practice table's deals come from: deals anyone may know, so nothing at it is
/// secret and nothing of it counts anywhere but in the comparison with other practice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum Practice {
    /// Deals from a seed typed in (anyone who knows the seed knows the deals).
    Seed,
    /// The deal set of an event whose director released it.
    Event {
        /// The event's id.
        id: i64,
    },
    /// The deal set of a challenge that has been revealed.
    Challenge {
        /// The challenge's id.
        id: i64,
    },
    /// The table's own secret deals, opened as practice so that hints may be shown: as
    /// secret as a rated table's, but nothing of it is compared or rated.
    Hints,
}

/// Everything that makes a table for online play, fixed when it opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSpec {
    /// What it plays.
    pub hands: Hands,
    /// By player: in duplicate the seat (E, S, W, N); in a regular game the seat of hand 1.
    pub places: [Place; 4],
    /// Who opened the table, and at which place.
    pub owner: i64,
    /// The opener's place (0–3).
    pub owner_place: usize,
    /// Seconds per decision.
    pub limit_s: u32,
    /// Extra seconds each person may draw on over the table.
    pub bank_s: u32,
    /// The challenge deal it plays, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeRef>,
    /// The online event's sitting it plays, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sitting: Option<SittingRef>,
    /// The key (hex) of the table's own deal set (`table::set`): its deals, or a regular
    /// game's walls, come from it, secret until played. Tables opened before deal sets
    /// count their seeds up from the first instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals_key: Option<String>,
    /// Deals anyone may know, played for practice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<Practice>,
    /// The version of its rules (`table::rules::TableRules::version`): tables opened
    /// before versions were kept play version 1, so that their journals replay as played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<u32>,
}

impl TableSpec {
    /// Checks everything a form could get wrong, naming the field.
    pub fn check(&self) -> Result<(), PlayError> {
        match &self.hands {
            Hands::Duplicate { deals } => {
                if deals.is_empty() || deals.len() > MAX_DEALS {
                    return Err(PlayError::Invalid(format!(
                        "deals: 1 to {MAX_DEALS}, not {}",
                        deals.len()
                    )));
                }
            }
            Hands::Regular { hands, .. } => {
                if *hands == 0 || *hands > 16 {
                    return Err(PlayError::Invalid(format!("hands: 1 to 16, not {hands}")));
                }
            }
        }
        for (i, p) in self.places.iter().enumerate() {
            if let Place::Bot { level } = p {
                if !BOT_LEVELS.contains(&level.as_str()) {
                    return Err(PlayError::Invalid(format!(
                        "place {}: no bot called '{level}' (choose {})",
                        i + 1,
                        BOT_LEVELS.join(", ")
                    )));
                }
            }
        }
        // A table of four bots (to watch) has no person; otherwise the opener plays.
        let any_person = self.places.contains(&Place::Person);
        if self.owner_place > 3 || (any_person && self.places[self.owner_place] != Place::Person) {
            return Err(PlayError::Invalid("your place must be a person's".into()));
        }
        if self.limit_s == 0 || self.limit_s > MAX_LIMIT_S {
            return Err(PlayError::Invalid(format!(
                "time limit: 1 to {MAX_LIMIT_S} seconds, not {}",
                self.limit_s
            )));
        }
        if self.bank_s > MAX_BANK_S {
            return Err(PlayError::Invalid(format!(
                "extra seconds: 0 to {MAX_BANK_S}, not {}",
                self.bank_s
            )));
        }
        Ok(())
    }

    /// Hands the table plays.
    pub fn hand_count(&self) -> usize {
        match &self.hands {
            Hands::Duplicate { deals } => deals.len(),
            Hands::Regular { hands, .. } => *hands,
        }
    }

    /// The seed of hand `k`'s wall in a regular game: from the table's deal set, or for
    /// older tables and practice counted up from the first.
    pub fn wall_seed(&self, k: usize) -> u64 {
        match (&self.hands, self.key()) {
            (_, Some(key)) => key.seed(k),
            (Hands::Regular { seed, .. }, None) => seed + k as u64,
            (Hands::Duplicate { deals }, None) => deals.get(k).map_or(0, |d| d.seed),
        }
    }

    /// The table's own deal set, if it has one (and its key reads).
    pub fn key(&self) -> Option<table::set::SetKey> {
        self.deals_key
            .as_deref()
            .and_then(|k| table::set::SetKey::parse(k).ok())
    }

    /// The version a new table of these hands records: a regular game's rules have
    /// versions; duplicate tables play `seeds`, version 1.
    pub fn current_rules_version(hands: &Hands) -> Option<u32> {
        match hands {
            Hands::Regular { .. } => Some(table::rules::TableRules::regular().version),
            Hands::Duplicate { .. } => None,
        }
    }

    /// The rules its hands are played under.
    pub fn rules(&self) -> table::rules::TableRules {
        let name = if self.is_duplicate() {
            "seeds"
        } else {
            "regular"
        };
        table::rules::TableRules::by_name_version(name, self.rules_version.unwrap_or(1))
            .unwrap_or_else(|| table::rules::TableRules::by_name(name).expect("a profile"))
    }

    /// Whether its results count: compared with a field, rated, kept in a player's record
    /// and statistics. Only a table opened as practice does not; nothing at a table that
    /// counts may be assisted.
    pub fn counts(&self) -> bool {
        self.practice.is_none()
    }

    /// Whether its hands go into the rating: duplicate deals at a table that counts, not a
    /// challenge's par table.
    pub fn rated(&self) -> bool {
        self.counts() && self.is_duplicate() && !self.challenge.as_ref().is_some_and(|c| c.par)
    }

    /// Whether its players may have the hints panel (shanten, best discards, waits): at
    /// practice tables only.
    pub fn hints_allowed(&self) -> bool {
        !self.counts()
    }

    /// Whether its deals are ones anyone may know (a seed typed in, a released set), so
    /// that nothing of them is secret.
    pub fn deals_known(&self) -> bool {
        matches!(
            self.practice,
            Some(Practice::Seed | Practice::Event { .. } | Practice::Challenge { .. })
        )
    }

    /// Whether it plays duplicate deals (not a regular game).
    pub fn is_duplicate(&self) -> bool {
        matches!(self.hands, Hands::Duplicate { .. })
    }

    /// Who plays for a person who has left: in a challenge the time-out defaults go on (an
    /// abandoned hand counts as played out by them); in an event the event's bot; elsewhere
    /// a medium bot.
    pub fn stand_in(&self) -> &str {
        match (&self.challenge, &self.sitting) {
            (Some(_), _) => DEFAULTS,
            (None, Some(s)) => &s.bot,
            (None, None) => "medium",
        }
    }

    /// The key under which a finished hand's result is compared with others: a challenge
    /// compares by deal and seat, an open table by deal.
    pub fn deal_key(&self, hand: usize, seat: usize) -> Option<String> {
        match (&self.hands, &self.challenge, &self.sitting) {
            (_, Some(c), _) => Some(format!("chal:{}:{}:{seat}", c.id, c.set_index())),
            (_, _, Some(s)) => Some(format!("event:{}:{}", s.event, s.deal)),
            (Hands::Duplicate { deals }, None, None) => Some(format!("dup:{}", deals[hand].seed)),
            (Hands::Regular { .. }, None, None) => None,
        }
    }

    /// What the table plays, in English, without any seed (a page says it in its own
    /// language from [`TableSpec::describe_parts`]).
    pub fn describe(&self) -> String {
        let (text, args) = self.describe_parts();
        let what = crate::text::fill(text, args);
        match &self.practice {
            Some(_) => crate::text::fill(crate::text::PRACTICE, [what]),
            None => what,
        }
    }

    /// What the table plays as an English text with `{}` and what fills them (see
    /// [`crate::text::TEXTS`]); a practice table's is then said as [`crate::text::PRACTICE`].
    pub fn describe_parts(&self) -> (&'static str, Vec<String>) {
        if let Some(c) = &self.challenge {
            return ("challenge {}, deal {}", vec![c.id.to_string(), c.label()]);
        }
        if let Some(s) = &self.sitting {
            return (
                "event {}, round {} hand {}, table {}",
                vec![
                    s.event.to_string(),
                    s.round.to_string(),
                    s.hand.to_string(),
                    s.table.to_string(),
                ],
            );
        }
        match &self.hands {
            Hands::Duplicate { deals } if deals.len() == 1 => {
                ("duplicate, deal {}", vec![deals[0].label.clone()])
            }
            Hands::Duplicate { deals } => ("duplicate, {} deals", vec![deals.len().to_string()]),
            Hands::Regular { hands: 16, .. } => ("regular game, 16 hands", vec![]),
            Hands::Regular { hands, .. } => ("regular game, {} hands", vec![hands.to_string()]),
        }
    }
}

#[cfg(test)]
mod tests {
    /// Every level people can seat has a rating anchor of its own, in the order of
    /// strength: a level missing from the anchors would be rated as `medium`.
    #[test]
    fn every_bot_level_has_its_own_anchor_in_order() {
        let anchors: Vec<f64> = super::BOT_LEVELS
            .iter()
            .map(|l| {
                let found = tournament::rating::ANCHORS.iter().find(|(a, _)| a == l);
                found.unwrap_or_else(|| panic!("no anchor for {l}")).1
            })
            .collect();
        assert!(anchors.windows(2).all(|w| w[0] < w[1]), "{anchors:?}");
    }
}
