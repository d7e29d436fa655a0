//! Every reading of one suit as sets and at most one pair, looked up by the suit's counts.
//! A hand's readings are then the product of its three suits' readings and its honours'
//! (which have one at most), found without a search: most suits have a single reading, and
//! a search spends most of its time in branches that end nowhere.
//!
//! The table holds each suit that some sets and at most one pair make (up to 14 tiles,
//! 4 of a kind at most), keyed by the suit's base-5 indices (as in [`crate::suitstate`]),
//! in an open-addressed hash table built once.

use std::sync::OnceLock;

/// One reading of a suit: its sets, lowest first (a chow by its lowest rank), and its pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SuitReading {
    /// `sets[..n]`: rank 0..=6 is a chow from that rank, 7 + r a pung of rank r.
    pub sets: [u8; 4],
    /// How many sets.
    pub n: u8,
    /// The pair's rank, or [`NO_PAIR`].
    pub pair: u8,
}

/// [`SuitReading::pair`] of a reading without a pair.
pub(crate) const NO_PAIR: u8 = 9;
/// The code of a pung of rank `r` in [`SuitReading::sets`].
pub(crate) const PUNG: u8 = 7;

/// The set that `code` stands for in group `group` (0–2 a suit, as in
/// [`SuitReading::sets`]; 3 the honours, `code` 0–6 a pung of that honour): whether it is
/// a chow, and its tile (a chow's lowest). Codes outside those give some valid tile.
pub(crate) const fn code_set(group: usize, code: usize) -> (bool, crate::tile::Tile) {
    let (chow, index) = if group >= 3 {
        (false, 27 + if code < 7 { code } else { 0 })
    } else if code < PUNG as usize {
        (true, group * 9 + code)
    } else {
        (false, group * 9 + (code - PUNG as usize) % 9)
    };
    match crate::tile::Tile::from_index(index) {
        Some(t) => (chow, t),
        None => panic!("a tile index below 34"),
    }
}

const EMPTY: SuitReading = SuitReading {
    sets: [0; 4],
    n: 0,
    pair: NO_PAIR,
};

struct Table {
    /// Key + 1 in the low half (0: a free slot); in the high half, where the key's
    /// readings start in `readings` (high bits) and how many (low byte).
    slots: Vec<u64>,
    readings: Vec<SuitReading>,
}

/// 32,768 slots of 8 bytes for 21,743 suits: a look-up reads one cache line, most often
/// the first slot tried.
const SLOT_BITS: u32 = 15;

fn slot(key: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b1) >> (32 - SLOT_BITS)) as usize
}

fn key_of(c: &[u8; 9]) -> Option<u32> {
    crate::suitstate::indices(c).map(|(low, high)| low * 3125 + high)
}

/// The readings of `c` in the order a search trying, at the lowest rank left, a pung, then
/// a chow, then the pair would find them (the order the scorer breaks ties by).
fn search(c: &mut [u8; 9], stack: &mut SuitReading, out: &mut Vec<SuitReading>) {
    let Some(r) = c.iter().position(|&x| x > 0) else {
        out.push(*stack);
        return;
    };
    let n = stack.n as usize;
    if n < 4 && c[r] >= 3 {
        c[r] -= 3;
        stack.sets[n] = PUNG + r as u8;
        stack.n += 1;
        search(c, stack, out);
        stack.n -= 1;
        c[r] += 3;
    }
    if n < 4 && r <= 6 && c[r + 1] > 0 && c[r + 2] > 0 {
        (0..3).for_each(|d| c[r + d] -= 1);
        stack.sets[n] = r as u8;
        stack.n += 1;
        search(c, stack, out);
        stack.n -= 1;
        (0..3).for_each(|d| c[r + d] += 1);
    }
    if stack.pair == NO_PAIR && c[r] >= 2 {
        c[r] -= 2;
        stack.pair = r as u8;
        search(c, stack, out);
        stack.pair = NO_PAIR;
        c[r] += 2;
    }
}

/// Every suit made of up to four sets and at most one pair, 4 of a kind at most.
fn each_suit(f: &mut impl FnMut([u8; 9])) {
    // Sets as codes in non-decreasing order, so each multiset comes once.
    fn go(c: &mut [u8; 9], from: u8, left: u8, f: &mut impl FnMut([u8; 9])) {
        for pair in 0..=9usize {
            if pair < 9 {
                c[pair] += 2;
            }
            if c.iter().all(|&x| x <= 4) {
                f(*c);
            }
            if pair < 9 {
                c[pair] -= 2;
            }
        }
        if left == 0 {
            return;
        }
        for code in from..16 {
            let ranks: &[usize] = &if code < PUNG {
                let r = code as usize;
                [r, r + 1, r + 2]
            } else {
                let r = (code - PUNG) as usize;
                [r, r, r]
            };
            ranks.iter().for_each(|&r| c[r] += 1);
            if c.iter().all(|&x| x <= 4) {
                go(c, code, left - 1, f);
            }
            ranks.iter().for_each(|&r| c[r] -= 1);
        }
    }
    go(&mut [0; 9], 0, 4, f);
}

fn build() -> Table {
    // Each suit once: a bit per possible key (5^9 of them) marks those already seen.
    let mut seen = vec![0u64; 5usize.pow(9).div_ceil(64)];
    let mut suits = Vec::new();
    each_suit(&mut |c| {
        let key = key_of(&c).expect("counts at most 4") as usize;
        if seen[key / 64] >> (key % 64) & 1 == 0 {
            seen[key / 64] |= 1 << (key % 64);
            suits.push(c);
        }
    });
    // Suits of few tiles, the commonest in a hand, first: they take their first slot
    // and are found at the first probe.
    suits.sort_by_key(|c| c.iter().map(|&x| x as u32).sum::<u32>());
    let mut table = Table {
        slots: vec![0; 1 << SLOT_BITS],
        readings: Vec::new(),
    };
    for mut c in suits {
        let key = key_of(&c).expect("counts at most 4");
        let start = table.readings.len();
        search(&mut c, &mut EMPTY.clone(), &mut table.readings);
        let len = table.readings.len() - start;
        let mut s = slot(key);
        while table.slots[s] != 0 {
            s = (s + 1) & ((1 << SLOT_BITS) - 1);
        }
        let span = (start as u64) << 8 | len as u64;
        table.slots[s] = span << 32 | (key as u64 + 1);
    }
    table
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The readings of a suit with these counts (none when no sets and pair make it).
#[inline]
pub(crate) fn readings(c: &[u8; 9]) -> &'static [SuitReading] {
    // An empty suit too is in the table (at key 0's first slot): a test for it first is
    // a branch no predictor learns, a suit in three being empty.
    let Some(key) = key_of(c) else {
        return &[];
    };
    let t = table();
    let mut s = slot(key);
    loop {
        let slot = t.slots[s];
        let k = slot as u32;
        if k == key + 1 {
            let start = (slot >> 40) as usize;
            return &t.readings[start..start + (slot >> 32 & 0xff) as usize];
        }
        if k == 0 {
            return &[];
        }
        s = (s + 1) & ((1 << SLOT_BITS) - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_suit_the_automaton_calls_complete_and_no_other() {
        let mut complete = 0;
        for c in crate::suitstate::every_small_suit().filter(|c| c != &[0; 9]) {
            let (lo, hi) = crate::suitstate::indices(&c).expect("counts at most 4");
            let state = crate::suitstate::state_of(lo, hi);
            let found = readings(&c);
            assert_eq!(state != 0, !found.is_empty(), "suit counts {c:?}");
            for r in found {
                let mut left = c;
                for &s in &r.sets[..r.n as usize] {
                    if s < PUNG {
                        (0..3).for_each(|d| left[s as usize + d] -= 1);
                    } else {
                        left[(s - PUNG) as usize] -= 3;
                    }
                }
                if r.pair != NO_PAIR {
                    left[r.pair as usize] -= 2;
                }
                assert_eq!(left, [0; 9], "reading {r:?} of {c:?}");
                assert_eq!(r.pair != NO_PAIR, state == crate::suitstate::SETS_PAIR);
            }
            complete += (state != 0) as u32;
        }
        // 21,742 complete suits, and the empty one.
        assert_eq!(complete, 21_742);
        assert_eq!(table().slots.iter().filter(|&&k| k != 0).count(), 21_743);
    }
}
