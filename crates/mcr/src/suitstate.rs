//! Whether one suit's tiles are sets only, or sets and one pair, read from two small
//! tables (15 KB, so they stay in the first-level cache) instead of one entry per
//! possible suit (2 MB, a cache miss per question).
//!
//! Reading a suit from rank 1 up, only two numbers carry over from one rank to the next:
//! the chows begun one rank below (they need this rank as their middle tile) and those
//! begun two below (they need it as their top). At most two of each are worth keeping,
//! since three equal chows read as three pungs. With the pair taken or not, that makes 18
//! states. [`LOW`] gives, for the counts of ranks 1–4, the states reachable from the
//! start; [`HIGH`] gives, for the counts of ranks 5–9, the states from which the suit can
//! end with nothing owed (with the pair taken on the way, or not).

/// The suit is sets only.
pub(crate) const SETS: u8 = 1;
/// The suit is sets and exactly one pair.
pub(crate) const SETS_PAIR: u8 = 2;

/// Ranks read by [`LOW`]; the rest are read by [`HIGH`].
pub(crate) const SPLIT: usize = 4;

const fn state(mid: u32, top: u32, pair: u32) -> u32 {
    pair * 9 + mid * 3 + top
}

/// The states after reading one rank holding `x` tiles, from the states in `from`.
const fn step(mut from: u32, x: u32) -> u32 {
    let mut out = 0u32;
    while from != 0 {
        let s = from.trailing_zeros();
        from &= from - 1;
        let (pair, mid, top) = (s / 9, (s / 3) % 3, s % 3);
        let used = mid + top;
        if x >= used {
            out |= 1 << state((x - used) % 3, mid, pair);
        }
        if pair == 0 && x >= used + 2 {
            out |= 1 << state((x - used - 2) % 3, mid, 1);
        }
    }
    out
}

/// What adding one tile of rank `r` (0..9) adds to the low index and to the high one.
pub(crate) const ADD_LOW: [u32; 9] = [1, 5, 25, 125, 0, 0, 0, 0, 0];
pub(crate) const ADD_HIGH: [u32; 9] = [0, 0, 0, 0, 1, 5, 25, 125, 625];

/// The counts of `n` ranks encoded in base 5 as `idx`.
const fn digits(mut idx: u32, n: usize) -> [u32; 5] {
    let mut d = [0u32; 5];
    let mut i = 0;
    while i < n {
        d[i] = idx % 5;
        idx /= 5;
        i += 1;
    }
    d
}

/// `LOW[idx]`: the states reachable after ranks 1–4 with these counts.
pub(crate) static LOW: [u32; 625] = {
    let mut t = [0u32; 625];
    let mut idx = 0;
    while idx < 625 {
        let d = digits(idx as u32, SPLIT);
        let mut s = 1u32 << state(0, 0, 0);
        let mut r = 0;
        while r < SPLIT {
            s = step(s, d[r]);
            r += 1;
        }
        t[idx] = s;
        idx += 1;
    }
    t
};

/// `HIGH[idx]`: bit s when, from state s, ranks 5–9 with these counts end with nothing
/// owed and the pair not taken (only the nine states before the pair can); bit 9 + s
/// when they end with the pair taken.
pub(crate) static HIGH: [u32; 3125] = {
    let mut t = [0u32; 3125];
    let mut idx = 0;
    while idx < 3125 {
        let d = digits(idx as u32, 9 - SPLIT);
        let mut start = 0;
        while start < 18 {
            let mut s = 1u32 << start;
            let mut r = 0;
            while r < 9 - SPLIT {
                s = step(s, d[r]);
                r += 1;
            }
            if s & (1 << state(0, 0, 0)) != 0 {
                t[idx] |= 1 << start;
            }
            if s & (1 << state(0, 0, 1)) != 0 {
                t[idx] |= 1 << (9 + start);
            }
            start += 1;
        }
        idx += 1;
    }
    t
};

/// [`SETS`], [`SETS_PAIR`] or 0 for the suit whose low and high indices are these.
#[inline]
pub(crate) fn state_of(low: u32, high: u32) -> u8 {
    let reach = LOW[low as usize];
    let end = HIGH[high as usize];
    // The two outcomes need different tile counts modulo 3, so at most one holds.
    ((reach & ends_as(end, SETS) != 0) as u8 * SETS)
        | ((reach & ends_as(end, SETS_PAIR) != 0) as u8 * SETS_PAIR)
}

/// The part of a [`HIGH`] entry that ends a suit as `want` ([`SETS`] or [`SETS_PAIR`]),
/// laid out as the states of [`LOW`]: a suit is `want` when its reach meets this.
#[inline]
pub(crate) fn ends_as(end: u32, want: u8) -> u32 {
    // SETS: the first nine bits (states before the pair); SETS_PAIR: the rest.
    let (shift, mask) = if want == SETS {
        (0, 0x1ff)
    } else {
        (9, 0x3_ffff)
    };
    (end >> shift) & mask
}

/// The (low, high) indices of nine counts, or None when a count passes 4.
#[inline]
pub(crate) fn indices(c: &[u8; 9]) -> Option<(u32, u32)> {
    let w = u64::from_le_bytes(c[..8].try_into().expect("eight ranks"));
    // A byte above 4 sets its top bit when 0x7b is added (counts stay far below 0x80).
    if (w + 0x7b7b_7b7b_7b7b_7b7b) & 0x8080_8080_8080_8080 != 0 || c[8] > 4 {
        return None;
    }
    // Base 5 by halves: bytes into pairs (r + 5 r'), pairs into fours.
    const BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    const PAIRS: u64 = 0x0000_ffff_0000_ffff;
    let p = (w & BYTES) + 5 * ((w >> 8) & BYTES);
    let q = (p & PAIRS) + 25 * ((p >> 16) & PAIRS);
    Some((q as u32, (q >> 32) as u32 + 625 * c[8] as u32))
}

/// Every suit of up to 14 tiles, 4 of a kind at most, as its nine counts (for tests).
#[cfg(test)]
pub(crate) fn every_small_suit() -> impl Iterator<Item = [u8; 9]> {
    (0..5u32.pow(9))
        .map(|idx| {
            let mut c = [0u8; 9];
            let mut v = idx;
            for x in c.iter_mut() {
                *x = (v % 5) as u8;
                v /= 5;
            }
            c
        })
        .filter(|c| c.iter().map(|&x| x as u32).sum::<u32>() <= 14)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets only, by trying every set at the lowest rank left (no tables).
    fn sets(c: &mut [u8; 9]) -> bool {
        let Some(r) = c.iter().position(|&x| x > 0) else {
            return true;
        };
        if c[r] >= 3 {
            c[r] -= 3;
            let ok = sets(c);
            c[r] += 3;
            if ok {
                return true;
            }
        }
        if r <= 6 && c[r + 1] > 0 && c[r + 2] > 0 {
            (0..3).for_each(|d| c[r + d] -= 1);
            let ok = sets(c);
            (0..3).for_each(|d| c[r + d] += 1);
            return ok;
        }
        false
    }

    fn with_pair(c: &mut [u8; 9]) -> bool {
        (0..9).any(|r| {
            if c[r] < 2 {
                return false;
            }
            c[r] -= 2;
            let ok = sets(c);
            c[r] += 2;
            ok
        })
    }

    #[test]
    fn every_suit_of_up_to_fourteen_tiles_agrees_with_a_plain_search() {
        let mut checked = 0;
        for mut c in every_small_suit() {
            let (lo, hi) = indices(&c).expect("counts at most 4");
            let want = if sets(&mut c) {
                SETS
            } else if with_pair(&mut c) {
                SETS_PAIR
            } else {
                0
            };
            assert_eq!(state_of(lo, hi), want, "suit counts {c:?}");
            checked += 1;
        }
        // Nine counts of 0..=4 summing to at most 14.
        assert_eq!(checked, 405_350);
    }
}
