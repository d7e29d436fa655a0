//! Table rules: how a hand is played and paid, by profile.

use serde::{Deserialize, Serialize};

/// How match points are paid (SPEC §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payments {
    /// Duplicate MCR (seeds/000 Rules 1 and 2): self-drawn HV+24 / −(⌈HV/3⌉+8) each;
    /// on a discard each winner HV+24, the discarder HV+8, every other player 8.
    Duplicate,
    /// Regular MCR: self-drawn each other pays HV+8; on a discard the discarder pays HV+8
    /// and the other two 8.
    Regular,
}

/// The rules of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRules {
    pub name: &'static str,
    /// Fan values and scoring conventions.
    pub scoring: mcr::Rules,
    pub payments: Payments,
    /// Every player who declares Hu on a discard wins (seeds/000 Rule 2). Otherwise only
    /// the first after the discarder in turn order (the Botzone judge).
    pub multiple_winners: bool,
    /// A kong may be declared after the last-tile point when the declarer's own wall still
    /// has tiles (seeds/003 §22.4). seeds/000 Rule 4 forbids it, and so does the default.
    pub kong_after_last_tile: bool,
    /// A discard may be konged by a player whose own wall is empty; the replacement draw
    /// then ends the hand as a draw (the Botzone judge). SPEC §3.5 forbids such a kong.
    pub kong_on_empty_wall: bool,
}

impl TableRules {
    /// The project's rules (SPEC §3, §4): duplicate payments, several winners.
    pub fn seeds() -> TableRules {
        TableRules {
            name: "seeds",
            scoring: mcr::Rules::seeds(),
            payments: Payments::Duplicate,
            multiple_winners: true,
            kong_after_last_tile: false,
            kong_on_empty_wall: false,
        }
    }

    /// The Botzone Chinese Standard Mahjong judge (`shared/botzone.md`).
    pub fn botzone() -> TableRules {
        TableRules {
            name: "botzone",
            scoring: mcr::Rules::reference(),
            payments: Payments::Regular,
            multiple_winners: false,
            kong_after_last_tile: false,
            kong_on_empty_wall: true,
        }
    }

    pub fn by_name(name: &str) -> Option<TableRules> {
        match name {
            "seeds" => Some(TableRules::seeds()),
            "botzone" => Some(TableRules::botzone()),
            _ => None,
        }
    }
}

impl Default for TableRules {
    fn default() -> TableRules {
        TableRules::seeds()
    }
}
