//! Table rules: how a hand is played and paid, by profile.

use serde::{Deserialize, Serialize};

pub use crate::wall::WallModel;

/// How match points are paid (rules §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payments {
    /// Duplicate MCR (S0 Rules 1 and 2): self-drawn HV+24 / −(⌈HV/3⌉+8) each;
    /// on a discard each winner HV+24, the discarder HV+8, every other player 8.
    Duplicate,
    /// Regular MCR: self-drawn each other pays HV+8; on a discard the discarder pays HV+8
    /// and the other two 8.
    Regular,
}

/// What a bot's error costs when the rules end the hand on it (the Botzone judge: a crash,
/// a time-out, an unreadable or illegal answer, a Hu under the minimum).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorPenalty {
    /// Paid by the seat in error…
    pub offender: i32,
    /// …to each other seat.
    pub others: i32,
}

impl ErrorPenalty {
    /// The Botzone judge's: 30 from the offender, 10 to each other seat.
    pub const BOTZONE: ErrorPenalty = ErrorPenalty {
        offender: 30,
        others: 10,
    };
}

/// When East takes its fourteenth tile in a regular game, and so when a bonus tile there is
/// replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EastFourteenth {
    /// With the deal (seeds/002: East "draws 14 tiles", then the bonus tiles are declared
    /// in turn from East): a bonus tile there is replaced in East's deal turn, before
    /// South's bonus tiles.
    WithTheDeal,
    /// As East's first draw, after every seat's bonus tiles are replaced (the Botzone
    /// judge's flower game, whose requests give 13 tiles each and then East's draw).
    FirstDraw,
}

/// The rules of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRules {
    /// The rules' name (`seeds`, `botzone`, `regular`, …).
    pub name: &'static str,
    /// Which meaning of the name: a log records it, so that a hand written under an
    /// earlier meaning replays under that one ([`TableRules::by_name_version`]).
    pub version: u32,
    /// Fan values and scoring conventions.
    pub scoring: mcr::Rules,
    /// Who pays what for a win.
    pub payments: Payments,
    /// Every player who declares Hu on a discard wins (S0 Rule 2). Otherwise only
    /// the first after the discarder in turn order (the Botzone judge).
    pub multiple_winners: bool,
    /// A kong may be declared after the last-tile point when the declarer's own wall still
    /// has tiles (S3 §22.4). S0 Rule 4 forbids it, and so does the default.
    pub kong_after_last_tile: bool,
    /// A discard may be konged by a player whose own wall is empty; the replacement draw
    /// then ends the hand as a draw (an earlier Botzone judge). rules §3.5 forbids such a
    /// kong, and so does the judge's published source.
    pub kong_on_empty_wall: bool,
    /// The discard at the last-tile point may still be punged or chowed (never konged);
    /// the claimer's turn is a last-tile point again only if the seat after it has an
    /// empty wall, otherwise play goes on (the Botzone judge). rules §3.8 allows only Hu.
    pub claims_at_last_tile: bool,
    /// Personal walls (duplicate) or one shared wall with bonus tiles (regular).
    pub wall: WallModel,
    /// A bonus tile drawn during play may be discarded (unclaimable) instead of being set
    /// aside (S2); competition play declares them, and so does the default.
    pub bonus_discard: bool,
    /// A bot's error ends the hand with this payment ([`crate::engine::Action::Fault`]);
    /// none: the error is replaced by a safe move and play goes on.
    pub error_penalty: Option<ErrorPenalty>,
    /// When East's fourteenth tile comes (only a shared wall has bonus tiles to tell).
    pub east_fourteenth: EastFourteenth,
    /// A bonus tile drawn as a kong's replacement ends the kong's claim to Out with
    /// Replacement Tile: a win on the tile that replaces it is Self-Drawn only (seeds/004
    /// #46). Version 1 of the regular rules kept the kong's flag through it.
    pub bonus_breaks_kong_replacement: bool,
}

impl TableRules {
    /// The project's rules (rules §3, §4): duplicate payments, several winners.
    pub fn seeds() -> TableRules {
        TableRules {
            name: "seeds",
            version: 1,
            scoring: mcr::Rules::seeds(),
            payments: Payments::Duplicate,
            multiple_winners: true,
            kong_after_last_tile: false,
            kong_on_empty_wall: false,
            claims_at_last_tile: false,
            wall: WallModel::Personal,
            bonus_discard: false,
            error_penalty: None,
            east_fourteenth: EastFourteenth::WithTheDeal,
            bonus_breaks_kong_replacement: true,
        }
    }

    /// A regular MCR game (rules §8, S2): one shared wall of 144 tiles with bonus
    /// tiles, one winner per discard, regular payments, the `seeds` fan values; East's
    /// fourteenth tile comes with the deal, and a bonus tile drawn after a kong ends its
    /// claim to Out with Replacement Tile (version 2).
    pub fn regular() -> TableRules {
        TableRules {
            name: "regular",
            version: 2,
            scoring: mcr::Rules::seeds(),
            payments: Payments::Regular,
            multiple_winners: false,
            kong_after_last_tile: false,
            kong_on_empty_wall: false,
            claims_at_last_tile: false,
            wall: WallModel::Shared,
            bonus_discard: false,
            error_penalty: None,
            east_fourteenth: EastFourteenth::WithTheDeal,
            bonus_breaks_kong_replacement: true,
        }
    }

    /// [`TableRules::regular`] with the S2 option to discard a drawn bonus tile.
    pub fn regular_bonus_discard() -> TableRules {
        TableRules {
            name: "regular-bonus-discard",
            bonus_discard: true,
            ..TableRules::regular()
        }
    }

    /// [`TableRules::regular`] with East's fourteenth tile as its first draw, after every
    /// seat's bonus tiles: the order of the Botzone judge's flower game, whose requests
    /// (13 tiles each, then East's draw) assume it.
    pub fn regular_botzone() -> TableRules {
        TableRules {
            name: "regular-botzone",
            version: 1,
            east_fourteenth: EastFourteenth::FirstDraw,
            ..TableRules::regular()
        }
    }

    /// The Botzone Chinese Standard Mahjong judge, as its published source plays.
    pub fn botzone() -> TableRules {
        TableRules {
            name: "botzone",
            version: 1,
            scoring: mcr::Rules::reference(),
            payments: Payments::Regular,
            multiple_winners: false,
            kong_after_last_tile: false,
            kong_on_empty_wall: false,
            claims_at_last_tile: true,
            wall: WallModel::Personal,
            bonus_discard: false,
            error_penalty: Some(ErrorPenalty::BOTZONE),
            east_fourteenth: EastFourteenth::WithTheDeal,
            bonus_breaks_kong_replacement: true,
        }
    }

    /// What a rules name meant before its last change, for logs written then: `botzone`
    /// before the parity check with the judge's source (a kong on an empty own wall
    /// allowed, no claim but Hu on the last discard).
    pub fn earlier(name: &str) -> Option<TableRules> {
        match name {
            "botzone" => Some(TableRules {
                kong_on_empty_wall: true,
                claims_at_last_tile: false,
                ..TableRules::botzone()
            }),
            _ => None,
        }
    }

    /// The rules of that name, if any (their current version).
    pub fn by_name(name: &str) -> Option<TableRules> {
        match name {
            "seeds" => Some(TableRules::seeds()),
            "botzone" => Some(TableRules::botzone()),
            "regular" => Some(TableRules::regular()),
            "regular-bonus-discard" => Some(TableRules::regular_bonus_discard()),
            "regular-botzone" => Some(TableRules::regular_botzone()),
            _ => None,
        }
    }

    /// The rules of that name as they were in `version`, for logs and tables written then:
    /// version 1 of `regular` and `regular-bonus-discard` gave East its fourteenth tile
    /// as its first draw and kept a kong's Out with Replacement Tile through a bonus tile.
    pub fn by_name_version(name: &str, version: u32) -> Option<TableRules> {
        let now = TableRules::by_name(name)?;
        match (now.version, version) {
            (n, v) if n == v => Some(now),
            (2, 1) if now.wall == WallModel::Shared => Some(TableRules {
                version: 1,
                east_fourteenth: EastFourteenth::FirstDraw,
                bonus_breaks_kong_replacement: false,
                ..now
            }),
            _ => None,
        }
    }
}

/// Every profile name [`TableRules::by_name`] knows.
pub const PROFILES: [&str; 5] = [
    "seeds",
    "botzone",
    "regular",
    "regular-bonus-discard",
    "regular-botzone",
];

impl Default for TableRules {
    fn default() -> TableRules {
        TableRules::seeds()
    }
}
