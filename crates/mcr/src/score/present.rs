//! Fans that depend only on which kinds of tile the hand holds, read from a bit mask
//! of the kinds present (one bit per kind, in `Tile` index order).

use super::{Counts, Fan, Tally};

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
/// 2 3 4 6 8 bamboo and the green dragon (as `Tile::is_green`).
pub(super) const GREEN: u64 = bits(&[10, 11, 12, 14, 16, 32]);
/// As `Tile::is_reversible`.
pub(super) const REVERSIBLE: u64 = bits(&[18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33]);

/// Bit mask of the kinds present in `c`.
pub(crate) fn presence(c: &Counts) -> u64 {
    crate::tile::presence(c)
}

/// The ranks present in any suit, as a 9-bit mask, and what it allows: `RANK_ONLY[r]`
/// has bit 0 when ranks `r` are simples only, 1 upper tiles (7–9), 2 upper four (6–9, not
/// 7–9 only), 3 middle tiles, 4 lower tiles, 5 lower four, 6 terminals only, 7 no rank.
static RANK_ONLY: [u8; 512] = {
    /// Ranks `r` lie within lo..=hi.
    const fn within(r: usize, lo: u32, hi: u32) -> bool {
        r & !(((1 << hi) - 1) & !((1 << (lo - 1)) - 1)) == 0
    }
    let mut t = [0u8; 512];
    let mut r = 0;
    while r < 512 {
        let upper = within(r, 7, 9);
        let lower = within(r, 1, 3);
        t[r] = within(r, 2, 8) as u8
            | (upper as u8) << 1
            | ((!upper && within(r, 6, 9)) as u8) << 2
            | (within(r, 4, 6) as u8) << 3
            | (lower as u8) << 4
            | ((!lower && within(r, 1, 4)) as u8) << 5
            | ((r & !0x101 == 0) as u8) << 6
            | ((r == 0) as u8) << 7;
        r += 1;
    }
    t
};

const fn bit(f: Fan) -> u128 {
    1 << f as u8
}

/// The fans of [`RANK_ONLY`]'s flags: `[0..128]` for a hand without honours (the low seven
/// flags), `[128..132]` with honours (the top two).
static RANK_FANS: [u128; 132] = {
    const NO_HONORS: [Fan; 7] = [
        Fan::AllSimples,
        Fan::UpperTiles,
        Fan::UpperFour,
        Fan::MiddleTiles,
        Fan::LowerTiles,
        Fan::LowerFour,
        Fan::AllTerminals,
    ];
    let mut t = [0u128; 132];
    let mut i = 0;
    while i < 128 {
        let mut k = 0;
        while k < 7 {
            if i & (1 << k) != 0 {
                t[i] |= bit(NO_HONORS[k]);
            }
            k += 1;
        }
        i += 1;
    }
    // Terminals and honours, or honours alone.
    t[128 + 1] = bit(Fan::AllTerminalsAndHonors);
    t[128 + 2] = bit(Fan::AllHonors);
    t[128 + 3] = bit(Fan::AllHonors);
    t
};

/// Fans of the suits and honours present: `SUIT_FANS[suits | winds << 3 | dragons << 4]`,
/// `suits` a bit per suit present.
static SUIT_FANS: [u128; 32] = {
    let mut t = [0u128; 32];
    let mut i = 0;
    while i < 32 {
        let nsuits = (i as u32 & 7).count_ones();
        let (winds, dragons) = (i & 8 != 0, i & 16 != 0);
        let honors = winds || dragons;
        let mut m = 0;
        if nsuits == 1 {
            m |= if honors {
                bit(Fan::HalfFlush)
            } else {
                bit(Fan::FullFlush)
            };
        }
        if nsuits == 2 {
            m |= bit(Fan::OneVoidedSuit);
        }
        if !honors {
            m |= bit(Fan::NoHonors);
        }
        if nsuits == 3 && winds && dragons {
            m |= bit(Fan::AllTypes);
        }
        t[i] = m;
        i += 1;
    }
    t
};

/// Fans that depend only on which tiles the hand holds (any reading), by table: which of
/// them a hand has is nothing a branch predictor can learn.
pub(super) fn trait_fans(present: u64) -> Tally {
    let only = |allowed: u64| present & !allowed == 0;
    let honors = present & HONORS != 0;
    let ranks = ((present | present >> 9 | present >> 18) & 0x1ff) as usize;
    let flags = RANK_ONLY[ranks] as usize;
    let rank_fans = if honors {
        RANK_FANS[128 + (flags >> 6)]
    } else {
        RANK_FANS[flags & 0x7f]
    };
    let groups = (present & SUIT_M != 0) as usize
        | ((present & SUIT_S != 0) as usize) << 1
        | ((present & SUIT_P != 0) as usize) << 2
        | ((present & WINDS != 0) as usize) << 3
        | ((present & DRAGONS != 0) as usize) << 4;
    let mut t = Tally::EMPTY;
    t.insert(
        rank_fans
            | SUIT_FANS[groups]
            | (only(GREEN) as u128) << Fan::AllGreen as u8
            | (only(REVERSIBLE) as u128) << Fan::ReversibleTiles as u8,
    );
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIMPLES: u64 = ranks(2, 8);

    const fn ranks(lo: u8, hi: u8) -> u64 {
        let mut m = 0u64;
        let mut r = lo;
        while r <= hi {
            m |= (1 << (r - 1)) | (1 << (r + 8)) | (1 << (r + 17));
            r += 1;
        }
        m
    }

    /// The fans of the kinds present, read one by one from the definitions.
    fn plain(present: u64) -> Vec<Fan> {
        let only = |allowed: u64| present & !allowed == 0;
        let honors = present & HONORS != 0;
        let nsuits = [SUIT_M, SUIT_S, SUIT_P]
            .iter()
            .filter(|&&s| present & s != 0)
            .count();
        let mut v = Vec::new();
        let mut when = |yes: bool, f: Fan| {
            if yes {
                v.push(f)
            }
        };
        when(nsuits == 1 && !honors, Fan::FullFlush);
        when(nsuits == 1 && honors, Fan::HalfFlush);
        when(nsuits == 2, Fan::OneVoidedSuit);
        when(!honors, Fan::NoHonors);
        when(
            nsuits == 3 && present & WINDS != 0 && present & DRAGONS != 0,
            Fan::AllTypes,
        );
        when(only(SIMPLES), Fan::AllSimples);
        when(only(HONORS), Fan::AllHonors);
        when(!only(HONORS) && only(TERMINALS), Fan::AllTerminals);
        when(
            !only(HONORS) && !only(TERMINALS) && only(TERMINALS | HONORS) && honors,
            Fan::AllTerminalsAndHonors,
        );
        when(only(ranks(7, 9)), Fan::UpperTiles);
        when(!only(ranks(7, 9)) && only(ranks(6, 9)), Fan::UpperFour);
        when(only(ranks(4, 6)), Fan::MiddleTiles);
        when(only(ranks(1, 3)), Fan::LowerTiles);
        when(!only(ranks(1, 3)) && only(ranks(1, 4)), Fan::LowerFour);
        when(only(GREEN), Fan::AllGreen);
        when(only(REVERSIBLE), Fan::ReversibleTiles);
        v.sort();
        v
    }

    #[test]
    fn fans_of_the_kinds_present_by_table_match_their_definitions() {
        // Every set of ranks with every set of suits and honour kinds (the fans look at
        // no more), and random sets of kinds.
        let mut checked = 0;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for ranks in 1u64..512 {
            for groups in 0..32u64 {
                let mut present = 0;
                for s in 0..3 {
                    if groups >> s & 1 != 0 {
                        present |= ranks << (9 * s);
                    }
                }
                present |= ((groups >> 3 & 1) * WINDS) | ((groups >> 4 & 1) * DRAGONS);
                if present == 0 {
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                for p in [present, seed & ((1 << 34) - 1) | 1] {
                    let mut got: Vec<Fan> = trait_fans(p).iter().map(|(f, _)| f).collect();
                    got.sort();
                    assert_eq!(got, plain(p), "kinds {p:#x}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 30_000);
    }
}
