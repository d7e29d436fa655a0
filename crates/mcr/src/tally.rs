//! Fan counts of one reading: a bit mask of the fans present, and the counts of the few
//! fans that can count more than once. Small (32 bytes), since a reading's tally is copied
//! and compared many times a hand.

use crate::fan::{Fan, ALL_FANS};

use Fan::*;

/// The fans that can count more than once, each with a byte of [`Tally::multi`].
const MULTI: [Fan; 8] = [
    PureDoubleChow,
    MixedDoubleChow,
    ShortStraight,
    TwoTerminalChows,
    DoublePung,
    PungOfTerminalsOrHonors,
    TileHog,
    FlowerTiles,
];

/// The bits of the [`MULTI`] fans in a mask.
const MULTI_BITS: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < MULTI.len() {
        m |= 1 << MULTI[i] as u8;
        i += 1;
    }
    m
};

/// `SLOT[n]`: the byte of fan number `n` in [`Tally::multi`], or `NONE`.
const NONE: u8 = 0xff;
const SLOT: [u8; 83] = {
    let mut t = [NONE; 83];
    let mut i = 0;
    while i < MULTI.len() {
        t[MULTI[i] as usize] = i as u8;
        i += 1;
    }
    t
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Tally {
    mask: u128,
    /// Counts of the [`MULTI`] fans, a byte each; 0 for a fan not in the mask.
    multi: u64,
}

impl Tally {
    pub const EMPTY: Tally = Tally { mask: 0, multi: 0 };

    #[inline]
    pub fn add(&mut self, f: Fan) {
        let slot = SLOT[f as usize];
        if slot != NONE {
            // An absent fan's count is 0 (see `remove`).
            self.multi += 1 << (slot as u32 * 8);
        } else {
            debug_assert!(!self.has(f), "{f:?} counted twice");
        }
        self.mask |= 1 << f as u8;
    }

    /// Sets the count of `f`; a count above 1 only for a fan that can count more than once.
    #[inline]
    pub fn set(&mut self, f: Fan, n: u8) {
        let slot = SLOT[f as usize];
        if slot != NONE {
            let shift = slot as u32 * 8;
            self.multi = (self.multi & !(0xff << shift)) | ((n as u64) << shift);
        } else {
            debug_assert!(n <= 1, "{f:?} counted {n} times");
        }
        if n > 0 {
            self.mask |= 1 << f as u8;
        } else {
            self.mask &= !(1u128 << f as u8);
        }
    }

    /// Adds every fan of `m`, none of which may count more than once.
    #[inline]
    pub fn insert(&mut self, m: u128) {
        debug_assert!(
            MULTI.iter().all(|&f| m & (1 << f as u8) == 0),
            "a fan that counts more than once"
        );
        debug_assert!(self.mask & m == 0, "a fan counted twice");
        self.mask |= m;
    }

    /// Adds the fans of `o`, which this tally has never counted (their counts are still
    /// zero, as in a fresh reading's).
    #[inline]
    pub fn merge(&mut self, o: &Tally) {
        debug_assert!(self.mask & o.mask == 0, "a fan counted in both");
        debug_assert!(
            (0..8).all(|b| (o.multi >> (8 * b)) & 0xff == 0 || (self.multi >> (8 * b)) & 0xff == 0),
            "a count left behind"
        );
        self.mask |= o.mask;
        self.multi |= o.multi;
    }

    #[inline]
    pub fn has(&self, f: Fan) -> bool {
        self.mask & (1 << f as u8) != 0
    }

    #[inline]
    pub fn mask(&self) -> u128 {
        self.mask
    }

    /// Drops every fan whose bit is set in `m` (and the count of any that counts more
    /// than once, so that an absent fan's count is always 0).
    #[inline]
    pub fn remove(&mut self, m: u128) {
        self.mask &= !m;
        // Rare (a fan that implies one of these): a branch that is seldom taken.
        if m & MULTI_BITS != 0 {
            for (s, &f) in MULTI.iter().enumerate() {
                if m >> f as u8 & 1 != 0 {
                    self.multi &= !(0xff << (8 * s));
                }
            }
        }
    }

    /// The count of fan number `n`, present in the mask.
    #[inline]
    fn count(&self, n: usize) -> u8 {
        let slot = SLOT[n];
        if slot == NONE {
            1
        } else {
            (self.multi >> (slot as u32 * 8)) as u8
        }
    }

    /// Present fans with their counts, in fan-number order.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((ALL_FANS[i - 1], self.count(i)))
        })
    }
}

/// Bytes of a tally's mask that hold fans (numbers 1 to 82).
const MASK_BYTES: usize = 11;

/// The points of every fan under some rules, laid out so that a tally's total takes no
/// loop over its fans (the loop's exit is a branch no predictor learns, once a reading):
/// a look-up per byte of the mask for the fans counted once, and one multiplication per
/// four [`MULTI`] counts. 5.6 KB, kept by [`crate::Rules`]: the two profiles' built once a
/// process and shared, house values' built with them.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Values {
    /// `by_byte[b][x]`: the points of the fans whose bits in byte `b` of the mask are the
    /// set bits of `x`, the [`MULTI`] fans left out.
    by_byte: [[u16; 256]; MASK_BYTES],
    /// The [`MULTI`] fans' points in 16-bit lanes, four slots a word, slot `i` of the four
    /// in lane `3 − i` (see [`dot`]).
    multi: [u64; 2],
}

impl std::fmt::Debug for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Values { .. }")
    }
}

impl Values {
    /// The layout of `points` (of one occurrence of each fan).
    pub fn new(points: impl Fn(Fan) -> u8) -> Values {
        // Each bit's points, then each byte's entries from one with a bit fewer.
        let mut bit = [0u16; MASK_BYTES * 8];
        for f in ALL_FANS {
            if SLOT[f as usize] == NONE {
                bit[f as usize] = u16::from(points(f));
            }
        }
        let mut by_byte = [[0u16; 256]; MASK_BYTES];
        for (b, table) in by_byte.iter_mut().enumerate() {
            for x in 1..256 {
                table[x] = table[x & (x - 1)] + bit[b * 8 + x.trailing_zeros() as usize];
            }
        }
        let mut multi = [0u64; 2];
        for (s, &f) in MULTI.iter().enumerate() {
            multi[s / 4] |= u64::from(points(f)) << (16 * (3 - s % 4));
        }
        Values { by_byte, multi }
    }
}

/// The sum of four byte counts (`four`, the count of slot `i` in byte `i`) times the
/// points in `lanes`: the counts spread to 16-bit lanes, then one multiplication adds
/// their products in lane 3 (each product at most 8 × 255, so no lane carries into it).
#[inline]
fn dot(four: u32, lanes: u64) -> u32 {
    let mut x = u64::from(four);
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    (x.wrapping_mul(lanes) >> 48) as u32
}

impl Tally {
    /// The points of this tally under `v`: each fan present times its count.
    #[inline]
    pub fn total(&self, v: &Values) -> u32 {
        let bytes = self.mask.to_le_bytes();
        let mut sum = 0u32;
        for (table, &x) in v.by_byte.iter().zip(&bytes) {
            sum += u32::from(table[x as usize]);
        }
        // An absent fan's count is 0 (see `remove`).
        let counts = self.multi;
        sum + dot(counts as u32, v.multi[0]) + dot((counts >> 32) as u32, v.multi[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_restart_after_a_removal_and_single_fans_count_once() {
        let mut t = Tally::EMPTY;
        t.add(PureDoubleChow);
        t.add(PureDoubleChow);
        t.add(AllChows);
        t.set(TileHog, 2);
        let got: Vec<_> = t.iter().collect();
        assert_eq!(got, vec![(AllChows, 1), (TileHog, 2), (PureDoubleChow, 2)]);
        t.remove(1 << PureDoubleChow as u8);
        t.add(PureDoubleChow);
        assert_eq!(
            t.iter().find(|x| x.0 == PureDoubleChow),
            Some((PureDoubleChow, 1))
        );
        t.set(TileHog, 0);
        assert!(!t.has(TileHog));
    }

    /// The total by look-ups against the sum over the fans present, worked out fan by fan,
    /// on many tallies: fans added and removed at random (counts up to 8 for flowers), under
    /// the standard values and under values where every fan is worth something different.
    #[test]
    fn the_total_by_look_ups_is_the_sum_of_each_fan_times_its_count() {
        let standard = |f: Fan| f.base_points();
        let odd = |f: Fan| (f as u8).wrapping_mul(37) | 1;
        let tables = [Values::new(standard), Values::new(odd)];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let mut t = Tally::EMPTY;
            for _ in 0..next() % 12 {
                let f = ALL_FANS[(next() % ALL_FANS.len() as u64) as usize];
                match next() % 5 {
                    0 => t.remove(1 << f as u8),
                    1 if SLOT[f as usize] != NONE => t.set(f, (next() % 9) as u8),
                    _ if SLOT[f as usize] != NONE || !t.has(f) => t.add(f),
                    _ => {}
                }
            }
            for (v, points) in tables.iter().zip([&standard as &dyn Fn(Fan) -> u8, &odd]) {
                let want: u32 = t
                    .iter()
                    .map(|(f, c)| u32::from(c) * u32::from(points(f)))
                    .sum();
                assert_eq!(t.total(v), want, "{t:?}");
            }
        }
    }
}
