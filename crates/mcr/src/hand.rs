//! A winning hand: declared sets, concealed tiles, the winning tile and how it was won.

use std::fmt;

use crate::meld::{Meld, MeldError, MeldKind};
use crate::tile::{Counts, Tile, Wind, KINDS};

/// The circumstances of a win that the tiles alone do not show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct WinContext {
    /// Won with a tile drawn from the wall (including a kong replacement).
    pub self_drawn: bool,
    /// The winning tile is the last of its kind: the other three are visible.
    pub last_of_kind: bool,
    /// Self-drawn: won on a kong replacement tile. On a discard: robbed a promoted kong.
    pub kong: bool,
    /// Won on the last tile of the wall (drawn) or the discard after it (claimed).
    pub last_tile: bool,
    /// The winner's seat wind.
    pub seat_wind: Wind,
    /// The prevalent (round) wind.
    pub prevalent_wind: Wind,
    /// Flower and season tiles (0–8); duplicate play has none.
    pub flowers: u8,
}

/// Why a hand is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandError {
    /// More than four declared sets.
    TooManyMelds(usize),
    /// A declared set that is not a chow, pung or kong.
    BadMeld {
        /// Its place among the declared sets (0-based).
        index: usize,
        /// What is wrong with it.
        reason: MeldError,
    },
    /// The concealed part must hold 13 − 3 × melds tiles before the winning tile.
    WrongTileCount {
        /// Tiles the concealed part should hold.
        expected: usize,
        /// Tiles it holds.
        found: usize,
    },
    /// More than four copies of a tile in melds, concealed tiles and winning tile together.
    TooManyCopies {
        /// The tile.
        tile: Tile,
        /// How many copies the hand holds.
        count: u8,
    },
    /// More than eight bonus tiles.
    TooManyFlowers(u8),
    /// Two win flags that cannot both hold.
    Contradiction(String),
    /// The tiles do not form any winning shape.
    NotWinning,
}

impl fmt::Display for HandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandError::TooManyMelds(n) => write!(f, "{n} declared sets; a hand has at most 4"),
            HandError::BadMeld { index, reason } => {
                write!(f, "declared set {}: {reason}", index + 1)
            }
            HandError::WrongTileCount { expected, found } => write!(
                f,
                "wrong tile count: {found} concealed tiles plus the winning tile, expected {expected} plus the winning tile"
            ),
            HandError::TooManyCopies { tile, count } => {
                write!(f, "tile {tile} used {count} times; there are only 4")
            }
            HandError::TooManyFlowers(n) => write!(f, "{n} flowers; there are only 8"),
            HandError::Contradiction(s) => write!(f, "contradictory win flags: {s}"),
            HandError::NotWinning => write!(f, "not a winning hand: the tiles form no winning shape"),
        }
    }
}

impl std::error::Error for HandError {}

/// A complete hand at the moment of winning.
///
/// `concealed` holds the standing tiles before the win, sorted; the winning tile is separate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    melds: Vec<Meld>,
    /// The melds in four slots, those past the last meld a pung of East that nothing reads
    /// (a fixed layout, as the reference's hand keeps its packs: the scorer fills its four
    /// declared slots without a test per slot).
    slots: [Meld; 4],
    concealed: Vec<Tile>,
    win: Tile,
    /// The circumstances of the win.
    pub ctx: WinContext,
    /// Counts of the concealed tiles with the winning tile, and of the whole hand: kept
    /// because every scoring needs them.
    conc_counts: Counts,
    all_counts: Counts,
    /// Declared sets that were claimed (not concealed kongs), and the copies of the winning
    /// tile they show.
    claimed: u8,
    win_shown: u8,
}

impl Hand {
    /// Builds and checks a hand (counts, copies, flags). Whether it is a winning shape is
    /// checked by the fan calculator.
    pub fn new(
        melds: Vec<Meld>,
        mut concealed: Vec<Tile>,
        win: Tile,
        ctx: WinContext,
    ) -> Result<Hand, HandError> {
        if melds.len() > 4 {
            return Err(HandError::TooManyMelds(melds.len()));
        }
        for (index, m) in melds.iter().enumerate() {
            m.check()
                .map_err(|reason| HandError::BadMeld { index, reason })?;
        }
        let expected = 13 - 3 * melds.len();
        if concealed.len() != expected {
            return Err(HandError::WrongTileCount {
                expected,
                found: concealed.len(),
            });
        }
        if ctx.flowers > 8 {
            return Err(HandError::TooManyFlowers(ctx.flowers));
        }
        concealed.sort();
        let mut conc_counts = [0u8; KINDS];
        for t in &concealed {
            conc_counts[t.index()] += 1;
        }
        conc_counts[win.index()] += 1;
        let mut all_counts = conc_counts;
        for m in &melds {
            for t in m.tiles() {
                all_counts[t.index()] += 1;
            }
        }
        let exposed = melds.iter().filter(|m| m.is_exposed());
        let claimed = exposed.clone().count() as u8;
        let win_shown = exposed
            .flat_map(|m| m.tiles())
            .filter(|&t| t == win)
            .count() as u8;
        let mut slots = [Meld {
            kind: MeldKind::Pung,
            tile: Tile::EAST,
            from: 0,
        }; 4];
        slots[..melds.len()].copy_from_slice(&melds);
        let hand = Hand {
            melds,
            slots,
            concealed,
            win,
            ctx,
            conc_counts,
            all_counts,
            claimed,
            win_shown,
        };
        let all = hand.all_counts;
        if let Some(t) = Tile::all().find(|t| all[t.index()] > 4) {
            return Err(HandError::TooManyCopies {
                tile: t,
                count: all[t.index()],
            });
        }
        hand.check_flags()?;
        Ok(hand)
    }

    fn check_flags(&self) -> Result<(), HandError> {
        let c = &self.ctx;
        let in_melds = self
            .melds
            .iter()
            .flat_map(|m| m.tiles())
            .filter(|t| *t == self.win)
            .count();
        let in_concealed = self.concealed.iter().filter(|t| **t == self.win).count();
        if c.kong && c.self_drawn && !self.melds.iter().any(|m| m.is_kong()) {
            return Err(HandError::Contradiction(
                "a win on a kong replacement tile needs a kong in the hand".into(),
            ));
        }
        if c.kong && !c.self_drawn && in_melds + in_concealed > 0 {
            return Err(HandError::Contradiction(format!(
                "robbing a kong of {} while holding that tile",
                self.win
            )));
        }
        if c.kong && !c.self_drawn && c.last_tile {
            return Err(HandError::Contradiction(
                "robbing a kong cannot be the last tile (no kong after the last-tile point)".into(),
            ));
        }
        if c.last_of_kind && in_concealed > 0 {
            return Err(HandError::Contradiction(format!(
                "{} is marked last of its kind but the concealed hand holds {} more",
                self.win, in_concealed
            )));
        }
        Ok(())
    }

    /// The declared sets.
    pub fn melds(&self) -> &[Meld] {
        &self.melds
    }
    /// The melds in four slots, the slots past them a stand-in (see the field).
    pub(crate) fn meld_slots(&self) -> &[Meld; 4] {
        &self.slots
    }
    /// Standing tiles before the win, sorted.
    pub fn concealed(&self) -> &[Tile] {
        &self.concealed
    }
    /// The winning tile.
    pub fn win_tile(&self) -> Tile {
        self.win
    }

    /// True when no set was claimed (concealed kongs allowed).
    pub fn is_concealed(&self) -> bool {
        self.melds.iter().all(|m| m.kind == MeldKind::ConcealedKong)
    }

    /// The winning tile is the last of its kind: flagged, or forced because the hand's own
    /// exposed sets already show the other three copies.
    pub fn wins_on_last_of_kind(&self) -> bool {
        self.ctx.last_of_kind | (self.win_shown == 3)
    }

    /// How many declared sets were claimed (all but concealed kongs).
    pub fn claimed_sets(&self) -> usize {
        self.claimed as usize
    }

    /// Counts of the concealed tiles and the winning tile.
    pub fn concealed_counts(&self) -> Counts {
        self.conc_counts
    }

    /// Counts of every tile of the hand, melds included.
    pub fn all_counts(&self) -> Counts {
        self.all_counts
    }
}
