//! Declared sets: chows, pungs and the three kinds of kong.

use std::fmt;

use crate::tile::{Suit, Tile};

/// What a declared set is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// A run of three, claimed from the previous player.
    Chow,
    /// Three of a kind claimed from a discard.
    Pung,
    /// Four of a kind formed from the player's own draws; stays hidden in scoring terms.
    ConcealedKong,
    /// Four of a kind made by claiming a discard onto a concealed pung.
    MeldedKong,
    /// A melded pung extended with a self-drawn fourth tile (can be robbed).
    PromotedKong,
}

/// A declared set.
///
/// `tile` is the lowest tile of a chow and the repeated tile otherwise. `from` follows the
/// notation of rules §1: for a pung or kong the player it was claimed from (1 previous,
/// 2 opposite, 3 next), for a chow which tile of the run was claimed (1 lowest); 0 means
/// not recorded (and is the only value for a concealed kong).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    /// Chow, pung or one of the kongs.
    pub kind: MeldKind,
    /// A chow's lowest tile, or the repeated tile.
    pub tile: Tile,
    /// Who it came from: 1 previous, 2 opposite, 3 next seat (a chow: which tile was claimed); 0 concealed.
    pub from: u8,
}

impl Meld {
    /// A chow starting at `low`, if `low` can start a run.
    pub fn chow(low: Tile, from: u8) -> Option<Meld> {
        (low.is_numbered() && low.rank() <= 7 && from <= 3).then_some(Meld {
            kind: MeldKind::Chow,
            tile: low,
            from,
        })
    }
    /// A pung claimed from seat `from`.
    pub fn pung(tile: Tile, from: u8) -> Meld {
        Meld {
            kind: MeldKind::Pung,
            tile,
            from,
        }
    }
    /// A concealed kong.
    pub fn concealed_kong(tile: Tile) -> Meld {
        Meld {
            kind: MeldKind::ConcealedKong,
            tile,
            from: 0,
        }
    }
    /// A kong claimed from a discard of seat `from`.
    pub fn melded_kong(tile: Tile, from: u8) -> Meld {
        Meld {
            kind: MeldKind::MeldedKong,
            tile,
            from,
        }
    }
    /// A kong promoted from a pung claimed from seat `from`.
    pub fn promoted_kong(tile: Tile, from: u8) -> Meld {
        Meld {
            kind: MeldKind::PromotedKong,
            tile,
            from,
        }
    }

    /// Whether it is a kong of any kind.
    pub fn is_kong(&self) -> bool {
        matches!(
            self.kind,
            MeldKind::ConcealedKong | MeldKind::MeldedKong | MeldKind::PromotedKong
        )
    }

    /// True for every set except a concealed kong.
    pub fn is_exposed(&self) -> bool {
        self.kind != MeldKind::ConcealedKong
    }

    /// The tiles of the set, lowest first (3 or 4 of them).
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        let n = if self.is_kong() { 4 } else { 3 };
        (0..n).map(move |i| match self.kind {
            MeldKind::Chow => self.tile.offset(i as i8).unwrap_or(self.tile),
            _ => self.tile,
        })
    }

    /// The number of tiles of the set.
    pub fn len(&self) -> usize {
        if self.is_kong() {
            4
        } else {
            3
        }
    }

    /// Never empty; present for symmetry with `len`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Checks that the `from` digit is in range and the chow is a real run.
    pub fn check(&self) -> Result<(), MeldError> {
        match self.kind {
            MeldKind::Chow => {
                if !(self.tile.is_numbered() && self.tile.rank() <= 7) {
                    return Err(MeldError::ChowStart(self.tile));
                }
                if self.from > 3 {
                    return Err(MeldError::ChowDigit(self.from));
                }
            }
            MeldKind::ConcealedKong => {
                if self.from != 0 {
                    return Err(MeldError::ConcealedClaimed);
                }
            }
            MeldKind::MeldedKong if self.from == 0 => return Err(MeldError::KongUnclaimed),
            _ => {
                if self.from > 3 {
                    return Err(MeldError::ClaimDigit(self.from));
                }
            }
        }
        Ok(())
    }

    /// Suit of the set.
    pub fn suit(&self) -> Suit {
        self.tile.suit()
    }
}
/// Why a meld is not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldError {
    /// A chow must start at a numbered tile of rank 1 to 7.
    ChowStart(Tile),
    /// A chow's digit (which of its tiles was claimed) is 1, 2 or 3.
    ChowDigit(u8),
    /// A concealed kong was claimed from somebody.
    ConcealedClaimed,
    /// A melded kong without a claim digit.
    KongUnclaimed,
    /// A pung's or kong's claim digit (previous, opposite, next) is 1, 2 or 3.
    ClaimDigit(u8),
}

impl fmt::Display for MeldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeldError::ChowStart(t) => write!(f, "a chow cannot start at {t}"),
            MeldError::ChowDigit(d) => write!(
                f,
                "chow digit {d} must be 1, 2 or 3 (which tile was claimed)"
            ),
            MeldError::ConcealedClaimed => f.write_str("a concealed kong is claimed from nobody"),
            MeldError::KongUnclaimed => f.write_str(
                "a melded kong needs its claim digit 1, 2 or 3 (without one it is concealed)",
            ),
            MeldError::ClaimDigit(d) => write!(
                f,
                "claim digit {d} must be 1, 2 or 3 (previous, opposite, next)"
            ),
        }
    }
}

impl std::error::Error for MeldError {}
