//! Hand logs: one JSON object per hand, and replay.
//!
//! # Format
//!
//! ```json
//! {
//!   "format": "dupmj-hand/1",
//!   "rules": "seeds",
//!   "deal": { "version": 1, "seed": 7, "prevalent": "E", "seats": { "E": { "hand": [...], "wall": [...] }, ... } },
//!   "actions": [ { "seat": "E", "action": "discard", "tile": "9m" }, { "seat": "S", "action": "pass" }, ... ],
//!   "events": [
//!     { "type": "draw", "seat": "E", "tile": "5p", "label": "A", "replacement": false },
//!     { "type": "bonus", "seat": "S", "bonus": "H3", "label": "107", "end": "back" },
//!     { "type": "discard_bonus", "seat": "S", "bonus": "H5" },
//!     { "type": "discard", "seat": "E", "tile": "9m" },
//!     { "type": "chow", "seat": "S", "tile": "9m", "low": "7m" },
//!     { "type": "pung", "seat": "W", "tile": "E" },
//!     { "type": "kong", "seat": "N", "tile": "5s", "kind": "concealed" },
//!     { "type": "last_tile_point", "seat": "W" },
//!     { "type": "hu", "win": { "seat": "S", "hand": "[789m1]…", "self_drawn": false, "value": 12, "fans": [...] } },
//!     { "type": "end", "result": { "kind": "discard", "discarder": "E", "wins": [...], "points": [-20, 36, -8, -8] } }
//!   ],
//!   "result": { ... the same as the end event ... }
//! }
//! ```
//!
//! A regular hand (rules `regular`) has the wall instead of the seats in `deal`
//! (`{"version":1,"seed":7,"prevalent":"E","wall":["5p","H3",…]}`, live draw order); its
//! draws carry `"end": "live"` or `"back"` and their label is the wall position (1–144).
//! A `bonus` event is a bonus tile set aside: dealt (no `end`) or drawn from that end;
//! `discard_bonus` is one discarded instead (a rule option).
//!
//! `actions` are the decisions in the order the engine received them (passes included);
//! `events` is what happened. Replay feeds the actions to a fresh engine, checks each one is
//! legal, and compares the events and the result it produces with the logged ones.

use mcr::Wind;
use serde::{Deserialize, Serialize};

use crate::engine::{Action, HandResult, Table};
use crate::rules::TableRules;
use crate::wall::Setup;

/// Log format tag.
pub const FORMAT: &str = "dupmj-hand/1";

pub use crate::record::{Event, FanRecord, WinRecord};

/// A decision as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a decision: {\"seat\": …, \"action\": …}")]
pub struct Decision {
    /// The seat deciding.
    pub seat: Wind,
    /// What it did.
    #[serde(flatten)]
    pub action: Action,
}

/// One hand, complete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    expecting = "a hand log: an object with \"rules\", \"deal\", \"decisions\", \"events\" and \"result\""
)]
pub struct HandLog {
    /// The format tag (`dupmj-hand/1`).
    pub format: String,
    /// The table rules' name.
    pub rules: String,
    /// Which meaning of that name ([`TableRules::version`]); logs from before versions
    /// were written have none, which is version 1.
    #[serde(default = "first_version", skip_serializing_if = "is_first_version")]
    pub rules_version: u32,
    /// The deal (deal JSON) or the regular wall.
    pub deal: serde_json::Value,
    /// Every decision, in order.
    pub actions: Vec<Decision>,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// The result, when the hand finished.
    pub result: Option<HandResult>,
}

fn first_version() -> u32 {
    1
}

fn is_first_version(v: &u32) -> bool {
    *v == 1
}

impl HandLog {
    /// The log of a table (finished or not) and the decisions that led there.
    pub fn of(table: &Table, actions: Vec<Decision>) -> HandLog {
        HandLog {
            format: FORMAT.into(),
            rules: table.rules().name.into(),
            rules_version: table.rules().version,
            deal: table.setup().to_json(),
            actions,
            events: table.events().to_vec(),
            result: table.result().cloned(),
        }
    }
}

/// Why a log does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError(pub String);

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReplayError {}

/// The table of a logged hand before its first decision (its rules and deal read back).
pub fn start_of(log: &HandLog) -> Result<Table, ReplayError> {
    let rules = TableRules::by_name_version(&log.rules, log.rules_version).ok_or_else(|| {
        match TableRules::by_name(&log.rules) {
            Some(now) => ReplayError(format!(
                "rules '{}' version {}: this program knows versions 1 to {}",
                log.rules, log.rules_version, now.version
            )),
            None => ReplayError(format!("unknown rules '{}'", log.rules)),
        }
    })?;
    start_with(log, rules)
}

fn start_with(log: &HandLog, rules: TableRules) -> Result<Table, ReplayError> {
    let setup =
        Setup::from_json(rules.wall, &log.deal).map_err(|e| ReplayError(format!("deal: {e}")))?;
    Table::start(setup, rules).map_err(|e| ReplayError(e.0))
}

/// Replays a log through the engine; the rebuilt table on success. A log written under
/// an earlier meaning of its rules' name ([`TableRules::earlier`]) replays under that one.
pub fn replay(log: &HandLog) -> Result<Table, ReplayError> {
    if log.format != FORMAT {
        return Err(ReplayError(format!(
            "format '{}' is not {FORMAT}",
            log.format
        )));
    }
    let now = start_of(log).and_then(|t| replay_from(log, t));
    match (now, TableRules::earlier(&log.rules)) {
        (Err(e), Some(before)) => start_with(log, before)
            .and_then(|t| replay_from(log, t))
            .map_err(|_| e),
        (now, _) => now,
    }
}

fn replay_from(log: &HandLog, mut table: Table) -> Result<Table, ReplayError> {
    for (i, d) in log.actions.iter().enumerate() {
        table
            .apply(d.seat, d.action)
            .map_err(|e| ReplayError(format!("action {} ({} {}): {e}", i + 1, d.seat, d.action)))?;
        // Events so far must match the log; a drawn hand's end is replaced when an error
        // on its last discard follows.
        let mut n = table.events().len();
        if table.is_over()
            && log
                .actions
                .get(i + 1)
                .is_some_and(|d| d.action == Action::Fault)
        {
            n -= 1;
        }
        if let Some(k) = (0..n).find(|&k| log.events.get(k) != Some(&table.events()[k])) {
            return Err(ReplayError(format!(
                "event {} differs after action {}: log has {}, the engine gives {}",
                k + 1,
                i + 1,
                log.events
                    .get(k)
                    .map_or("nothing".into(), |e| serde_json::to_string(e)
                        .unwrap_or_default()),
                serde_json::to_string(&table.events()[k]).unwrap_or_default()
            )));
        }
    }
    if table.events().len() != log.events.len() {
        return Err(ReplayError(format!(
            "the log has {} events, the actions give {}",
            log.events.len(),
            table.events().len()
        )));
    }
    if table.result() != log.result.as_ref() {
        return Err(ReplayError(result_difference(
            log.result.as_ref(),
            table.result(),
        )));
    }
    Ok(table)
}

/// Says which field of a logged result differs from the replayed one.
fn result_difference(logged: Option<&HandResult>, replayed: Option<&HandResult>) -> String {
    let (Some(l), Some(r)) = (logged, replayed) else {
        return format!(
            "the log says the hand {}, the replay says it {}",
            if logged.is_some() {
                "ended"
            } else {
                "is unfinished"
            },
            if replayed.is_some() {
                "ended"
            } else {
                "is unfinished"
            }
        );
    };
    let field = if l.kind != r.kind {
        format!("kind: logged {}, replayed {}", l.kind, r.kind)
    } else if l.discarder != r.discarder {
        format!(
            "discarder: logged {:?}, replayed {:?}",
            l.discarder, r.discarder
        )
    } else if l.points != r.points {
        format!("points: logged {:?}, replayed {:?}", l.points, r.points)
    } else {
        "wins: the logged wins differ from the replayed ones".into()
    };
    format!("the logged result differs from the replayed one: {field}")
}
