//! Fans that depend only on which kinds of tile the hand holds, read from a bit mask
//! of the kinds present (one bit per kind, in `Tile` index order).

use super::*;

pub(super) const fn bits(list: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < list.len() {
        m |= 1 << list[i];
        i += 1;
    }
    m
}

pub(super) const SUIT_M: u64 = 0x1ff;
pub(super) const SUIT_S: u64 = 0x1ff << 9;
pub(super) const SUIT_P: u64 = 0x1ff << 18;
pub(super) const WINDS: u64 = 0xf << 27;
pub(super) const DRAGONS: u64 = 0x7 << 31;
pub(super) const HONORS: u64 = WINDS | DRAGONS;
pub(super) const TERMINALS: u64 = bits(&[0, 8, 9, 17, 18, 26]);
pub(super) const SIMPLES: u64 = ranks(2, 8);
/// 2 3 4 6 8 bamboo and the green dragon (as `Tile::is_green`).
pub(super) const GREEN: u64 = bits(&[10, 11, 12, 14, 16, 32]);
/// As `Tile::is_reversible`.
pub(super) const REVERSIBLE: u64 = bits(&[18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33]);
pub(super) const fn ranks(lo: u8, hi: u8) -> u64 {
    let mut m = 0u64;
    let mut r = lo;
    while r <= hi {
        m |= (1 << (r - 1)) | (1 << (r + 8)) | (1 << (r + 17));
        r += 1;
    }
    m
}

/// Bit mask of the kinds present in `c`.
pub(crate) fn presence(c: &Counts) -> u64 {
    crate::tile::presence(c)
}

/// Fans that depend only on which tiles the hand holds (any reading). Built as a mask,
/// without a branch per fan: which of them a hand has is nothing a predictor can learn.
pub(super) fn trait_fans(present: u64) -> Tally {
    let only = |allowed: u64| present & !allowed == 0;
    let honors = present & HONORS != 0;
    let nsuits = (present & SUIT_M != 0) as u32
        + (present & SUIT_S != 0) as u32
        + (present & SUIT_P != 0) as u32;
    let all_honors = only(HONORS);
    let all_terminals = !all_honors & only(TERMINALS);
    let upper = only(ranks(7, 9));
    let lower = only(ranks(1, 3));
    let fans = [
        (Fan::FullFlush, nsuits == 1 && !honors),
        (Fan::HalfFlush, nsuits == 1 && honors),
        (Fan::OneVoidedSuit, nsuits == 2),
        (Fan::NoHonors, !honors),
        (
            Fan::AllTypes,
            nsuits == 3 && present & WINDS != 0 && present & DRAGONS != 0,
        ),
        (Fan::AllSimples, only(SIMPLES)),
        (Fan::AllHonors, all_honors),
        (Fan::AllTerminals, all_terminals),
        (
            Fan::AllTerminalsAndHonors,
            !all_honors & !all_terminals & only(TERMINALS | HONORS) & honors,
        ),
        (Fan::UpperTiles, upper),
        (Fan::UpperFour, !upper & only(ranks(6, 9))),
        (Fan::MiddleTiles, only(ranks(4, 6))),
        (Fan::LowerTiles, lower),
        (Fan::LowerFour, !lower & only(ranks(1, 4))),
        (Fan::AllGreen, only(GREEN)),
        (Fan::ReversibleTiles, only(REVERSIBLE)),
    ];
    let mut t = Tally::EMPTY;
    t.insert(
        fans.iter()
            .fold(0u128, |m, &(f, yes)| m | (yes as u128) << f as u8),
    );
    t
}
