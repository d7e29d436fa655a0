//! Regular-shape shanten by groups: each suit (and the honours) is reduced once to the
//! best number of partial sets for every count of complete sets, with and without the
//! pair; the groups are then combined. Group results are remembered per thread.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::tile::Counts;

/// `[pair][sets]` → the most partial sets (−1: not reachable).
type GroupBest = [[i8; 5]; 2];

/// A multiplicative hash: the keys are small packed integers, SipHash is wasted on them.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Memo = HashMap<u32, GroupBest, std::hash::BuildHasherDefault<KeyHasher>>;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

fn search(
    c: &mut [u8],
    suited: bool,
    i: usize,
    sets: usize,
    partials: i8,
    pair: usize,
    best: &mut GroupBest,
) {
    let mut i = i;
    while i < c.len() && c[i] == 0 {
        i += 1;
    }
    if i == c.len() {
        let b = &mut best[pair][sets];
        *b = (*b).max(partials.min(8));
        return;
    }
    if c[i] >= 3 && sets < 4 {
        c[i] -= 3;
        search(c, suited, i, sets + 1, partials, pair, best);
        c[i] += 3;
    }
    if suited && i + 2 < c.len() && c[i + 1] > 0 && c[i + 2] > 0 && sets < 4 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        search(c, suited, i, sets + 1, partials, pair, best);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if pair == 0 {
            search(c, suited, i, sets, partials, 1, best);
        }
        search(c, suited, i, sets, partials + 1, pair, best);
        c[i] += 2;
    }
    // Partial chows: two in a row, or with a gap.
    for gap in 1..=2 {
        if suited && i + gap < c.len() && c[i + gap] > 0 {
            c[i] -= 1;
            c[i + gap] -= 1;
            search(c, suited, i, sets, partials + 1, pair, best);
            c[i] += 1;
            c[i + gap] += 1;
        }
    }
    c[i] -= 1;
    search(c, suited, i, sets, partials, pair, best);
    c[i] += 1;
}

fn group(c: &[u8], suited: bool) -> GroupBest {
    // Counts packed three bits each; the top bit tells suits from honours.
    let key = c.iter().rev().fold(0u32, |k, &x| k * 8 + x.min(7) as u32) | (suited as u32) << 31;
    if let Some(b) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return b;
    }
    let mut best = [[-1i8; 5]; 2];
    let mut v = c.to_vec();
    search(&mut v, suited, 0, 0, 0, 0, &mut best);
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() > 1 << 20 {
            m.clear();
        }
        m.insert(key, best);
    });
    best
}

/// Regular-shape shanten of concealed counts with `melds` declared sets.
pub fn shanten_regular(c: &Counts, melds: usize) -> i32 {
    let groups = [
        group(&c[0..9], true),
        group(&c[9..18], true),
        group(&c[18..27], true),
        group(&c[27..34], false),
    ];
    // Combine: state [pair][sets] → most partial sets.
    let mut acc: GroupBest = [[-1; 5]; 2];
    acc[0][0] = 0;
    for g in &groups {
        let mut next: GroupBest = [[-1; 5]; 2];
        for p in 0..2 {
            for m in 0..5 {
                if acc[p][m] < 0 {
                    continue;
                }
                for q in 0..2 - p {
                    for n in 0..5 - m {
                        if g[q][n] < 0 {
                            continue;
                        }
                        let t = acc[p][m] + g[q][n];
                        let cell = &mut next[p + q][m + n];
                        *cell = (*cell).max(t);
                    }
                }
            }
        }
        acc = next;
    }
    let mut best = 8;
    for (p, row) in acc.iter().enumerate() {
        for (m, &t) in row.iter().enumerate() {
            let sets = m + melds;
            if t < 0 || sets > 4 {
                continue;
            }
            let t = (t as usize).min(4 - sets);
            best = best.min(8 - 2 * sets as i32 - t as i32 - p as i32);
        }
    }
    best
}
