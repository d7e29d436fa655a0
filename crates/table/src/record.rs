//! What a hand produced, as the engine records it and a log keeps it: the events in order,
//! each win with its fans, and the result. The engine writes these; [`crate::log`] reads
//! them back and replays them.

use std::borrow::Cow;
use std::fmt;

use mcr::{Hand, Scoring, Tile, Wind};
use serde::{Deserialize, Serialize};

use crate::wall::{Bonus, WallEnd};

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Nobody won (a washout in a regular game).
    Draw,
    /// A win from the wall.
    SelfDrawn,
    /// One or more wins on a discard or a robbed kong.
    Discard,
    /// A bot's error ended the hand ([`crate::engine::Action::Fault`]).
    Fault,
}

impl Outcome {
    /// The outcome as the log writes it: `draw`, `self_drawn` or `discard`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Draw => "draw",
            Outcome::SelfDrawn => "self_drawn",
            Outcome::Discard => "discard",
            Outcome::Fault => "fault",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a hand: how it ended and each seat's match points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    /// How the hand ended.
    pub kind: Outcome,
    /// The discarder (or the promoter of a robbed kong).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub discarder: Option<Wind>,
    /// Every win, in the order of the seats after the discarder.
    pub wins: Vec<WinRecord>,
    /// The seat whose error ended the hand.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub offender: Option<Wind>,
    /// Match points by seat (E, S, W, N).
    pub points: [i32; 4],
}

/// One fan of a win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a fan: {\"no\": …, \"name\": …, \"points\": …, \"count\": …}")]
pub struct FanRecord {
    /// Its number (1–81; 82 the extra fan of the profiles).
    pub no: u8,
    /// Its English name.
    pub name: String,
    /// Points of one occurrence.
    pub points: u32,
    /// How many times it counts.
    pub count: u32,
}

/// A win: the seat, the hand (notation of rules §1 with its flags), fans and value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a win record")]
pub struct WinRecord {
    /// The winner.
    pub seat: Wind,
    /// The winning hand in the notation.
    pub hand: String,
    /// The win flags as words (`self seat=E wind=E`).
    pub flags: String,
    /// Won from the wall.
    pub self_drawn: bool,
    /// The hand's value in points.
    pub value: u32,
    /// The fans scored.
    pub fans: Vec<FanRecord>,
}

impl WinRecord {
    /// The fans as "name points" joined by ", ", a repeated fan as "name points{times}count".
    pub fn fan_list(&self, times: &str) -> String {
        self.fans
            .iter()
            .map(|f| match f.count {
                n if n > 1 => format!("{} {}{times}{n}", f.name, f.points),
                _ => format!("{} {}", f.name, f.points),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The record of `seat` winning with `hand`, scored as `s`.
    pub fn new(seat: Wind, hand: &Hand, s: &Scoring) -> WinRecord {
        WinRecord {
            seat,
            hand: hand.to_string(),
            flags: mcr::notation::format_flags(&hand.ctx),
            self_drawn: hand.ctx.self_drawn,
            value: s.total,
            fans: s
                .fans
                .iter()
                .map(|l| FanRecord {
                    no: l.fan.number(),
                    name: l.fan.name().into(),
                    points: l.points,
                    count: l.count,
                })
                .collect(),
        }
    }
}

/// Something that happened at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat drew a tile.
    Draw {
        /// Who.
        seat: Wind,
        /// The tile.
        tile: Tile,
        /// Its label (rules §2), or its wall position in a regular hand.
        label: Cow<'static, str>,
        /// A replacement after a kong or a bonus tile.
        replacement: bool,
        /// The end of a shared wall the tile came from (none for personal walls).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        end: Option<WallEnd>,
    },
    /// A bonus tile set aside: dealt to the seat (`end` none) or just drawn.
    Bonus {
        /// Who.
        seat: Wind,
        /// The bonus tile.
        bonus: Bonus,
        /// Its label.
        label: Cow<'static, str>,
        /// The end of the wall it was drawn from (none when dealt).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        end: Option<WallEnd>,
    },
    /// A bonus tile just drawn, discarded instead of set aside; nobody may claim it.
    DiscardBonus {
        /// Who.
        seat: Wind,
        /// The bonus tile.
        bonus: Bonus,
    },
    /// A seat discarded a tile.
    Discard {
        /// Who.
        seat: Wind,
        /// The tile.
        tile: Tile,
    },
    /// A seat chowed the last discard.
    Chow {
        /// Who.
        seat: Wind,
        /// The discard claimed.
        tile: Tile,
        /// The lowest tile of the run.
        low: Tile,
    },
    /// A seat punged the last discard.
    Pung {
        /// Who.
        seat: Wind,
        /// The tile.
        tile: Tile,
    },
    /// A seat declared a kong.
    Kong {
        /// Who.
        seat: Wind,
        /// The tile.
        tile: Tile,
        /// "concealed", "melded" or "promoted".
        kind: Cow<'static, str>,
    },
    /// The last tile of the wall was reached as `seat` got the turn.
    LastTilePoint {
        /// The seat taking the turn.
        seat: Wind,
    },
    /// A seat won.
    Hu {
        /// The win, scored.
        win: Box<WinRecord>,
    },
    /// The hand ended.
    End {
        /// How, with each seat's match points.
        result: Box<HandResult>,
    },
}

/// Serde for a meld as bracket notation (`"[555p2]"`).
pub mod meld_text {
    use mcr::Meld;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes a set in brackets.
    pub fn serialize<S: Serializer>(m: &Meld, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&mcr::notation::format_meld(m))
    }

    /// Reads a set in brackets.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Meld, D::Error> {
        let text = String::deserialize(d)?;
        let h = mcr::notation::parse_hand_text(&format!("{text}1m"))
            .map_err(serde::de::Error::custom)?;
        h.melds
            .first()
            .copied()
            .ok_or_else(|| serde::de::Error::custom("not a meld"))
    }
}
