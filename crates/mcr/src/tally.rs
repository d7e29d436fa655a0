//! Fan counts of one reading, with a bit mask so that scans touch only present fans.

use crate::fan::{Fan, ALL_FANS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tally {
    counts: [u8; 83],
    mask: u128,
}

impl Tally {
    pub const EMPTY: Tally = Tally {
        counts: [0; 83],
        mask: 0,
    };

    #[inline]
    pub fn add(&mut self, f: Fan) {
        // A count left behind by a removed fan is stale: start again from one.
        if self.has(f) {
            self.counts[f as usize] += 1;
        } else {
            self.counts[f as usize] = 1;
            self.mask |= 1 << f as u8;
        }
    }

    #[inline]
    pub fn set(&mut self, f: Fan, n: u8) {
        self.counts[f as usize] = n;
        if n > 0 {
            self.mask |= 1 << f as u8;
        } else {
            self.mask &= !(1u128 << f as u8);
        }
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

    /// Present fans with their counts, in fan-number order.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((ALL_FANS[i - 1], self.counts[i]))
        })
    }
}
