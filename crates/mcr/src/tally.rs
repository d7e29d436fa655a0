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
    /// Counts of the [`MULTI`] fans, a byte each.
    multi: u64,
}

impl Tally {
    pub const EMPTY: Tally = Tally { mask: 0, multi: 0 };

    #[inline]
    pub fn add(&mut self, f: Fan) {
        let slot = SLOT[f as usize];
        if slot != NONE {
            let shift = slot as u32 * 8;
            // A count left behind by a removed fan is stale: start again from one.
            let old = if self.has(f) {
                (self.multi >> shift) & 0xff
            } else {
                0
            };
            self.multi = (self.multi & !(0xff << shift)) | ((old + 1) << shift);
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

    /// Drops every fan whose bit is set in `m`.
    #[inline]
    pub fn remove(&mut self, m: u128) {
        self.mask &= !m;
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
}
