//! Regular-shape shanten by groups.
//!
//! A hand of four sets and a pair is measured in blocks: a complete set is a block worth 2,
//! a partial set (a pair kept as such, two of a run) a block worth 1, at most four blocks
//! counting the declared sets, and the pair worth 1 more. Shanten is 8 minus the best total.
//! Each suit (and the honours) is reduced once to its best value for every number of
//! blocks, with and without the pair; the four groups are then combined.
//!
//! Group results come from a table indexed directly by the group's counts in base 5, built
//! once for the whole process.

use std::sync::OnceLock;

use crate::tile::Counts;

/// `[pair][blocks]` → the best value with at most that many blocks ([`NEG`]: none).
type Best = [[i8; 5]; 2];

/// An unreachable value: low enough that no sum of reachable ones meets it, high enough
/// that two of it still fit in an `i8`.
const NEG: i8 = -40;

/// The suits' table and the honours' table.
type Tables = (Box<[Best]>, Box<[Best]>);

const POW5: [usize; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// The best of every possible suit (5⁹ contents) and every honour group (5⁷), built once
/// in index order: removing tiles lowers the index, so each entry is worked out from its
/// first tile's blocks and entries already built (about 20 MB, a fraction of a second).
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| (build(9, true), build(7, false)))
}

/// Adds what a block is worth to the best of what is left after it.
#[inline]
fn take(best: &mut Best, rest: &Best, blocks: usize, value: i8, pair: bool) {
    for (p, row) in rest.iter().enumerate() {
        if pair && p == 1 {
            continue;
        }
        let q = p + pair as usize;
        for k in blocks..5 {
            best[q][k] = best[q][k].max(row[k - blocks] + value);
        }
    }
}

/// The options of a group's first tile `i`: (tiles taken, blocks, value, pair).
fn blocks_of(c: &[u8], i: usize, suited: bool, mut f: impl FnMut(&[usize], usize, i8, bool)) {
    let n = c.len();
    f(&[i], 0, 0, false);
    if c[i] >= 3 {
        f(&[i, i, i], 1, 2, false);
    }
    if suited && i + 2 < n && c[i + 1] > 0 && c[i + 2] > 0 {
        f(&[i, i + 1, i + 2], 1, 2, false);
    }
    if c[i] >= 2 {
        f(&[i, i], 0, 0, true);
        f(&[i, i], 1, 1, false);
    }
    for gap in 1..=2 {
        if suited && i + gap < n && c[i + gap] > 0 {
            f(&[i, i + gap], 1, 1, false);
        }
    }
}

fn settle(best: &mut Best) {
    for x in best.iter_mut().flatten() {
        if *x < 0 {
            *x = NEG;
        }
    }
}

const EMPTY: Best = [[0; 5], [NEG; 5]];

fn build(n: usize, suited: bool) -> Box<[Best]> {
    let mut t = vec![EMPTY; POW5[n]].into_boxed_slice();
    let mut c = [0u8; 9];
    for idx in 1..POW5[n] {
        // Count in base 5.
        let mut k = 0;
        while c[k] == 4 {
            c[k] = 0;
            k += 1;
        }
        c[k] += 1;
        let i = c[..n].iter().position(|&x| x > 0).expect("idx > 0");
        let mut best = [[NEG; 5]; 2];
        blocks_of(&c[..n], i, suited, |tiles, blocks, value, pair| {
            let rest = idx - tiles.iter().map(|&j| POW5[j]).sum::<usize>();
            take(&mut best, &t[rest], blocks, value, pair);
        });
        settle(&mut best);
        t[idx] = best;
    }
    t
}

/// A group with a count above 4 (a fifth copy asked about when judging waits): worked
/// out the same way, by recursion, without the table.
fn group_uncached(c: &mut [u8], suited: bool) -> Best {
    let Some(i) = c.iter().position(|&x| x > 0) else {
        return EMPTY;
    };
    let mut best = [[NEG; 5]; 2];
    let mut options: Vec<(Vec<usize>, usize, i8, bool)> = Vec::new();
    blocks_of(c, i, suited, |tiles, blocks, value, pair| {
        options.push((tiles.to_vec(), blocks, value, pair))
    });
    for (tiles, blocks, value, pair) in options {
        tiles.iter().for_each(|&k| c[k] -= 1);
        let rest = group_uncached(c, suited);
        tiles.iter().for_each(|&k| c[k] += 1);
        take(&mut best, &rest, blocks, value, pair);
    }
    settle(&mut best);
    best
}

/// Base 5 of eight counts (lowest first) held in the bytes of `w`, by halves: bytes into
/// pairs (x + 5 y), pairs into fours, fours into the eight.
#[inline]
fn base5(w: u64) -> usize {
    const BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    const PAIRS: u64 = 0x0000_ffff_0000_ffff;
    let p = (w & BYTES) + 5 * ((w >> 8) & BYTES);
    let q = (p & PAIRS) + 25 * ((p >> 16) & PAIRS);
    ((q & 0xffff_ffff) + 625 * (q >> 32)) as usize
}

/// The four groups' table indices (suits, then honours), or `None` when a count passes 4.
#[inline(always)]
fn indices(c: &Counts) -> Option<[usize; 4]> {
    let word = |at: usize| {
        let (w, _) = c[at..].split_first_chunk::<8>().expect("eight counts");
        u64::from_le_bytes(*w)
    };
    let (w0, w1, w2) = (word(0), word(9), word(18));
    // The honours are the last seven counts: the word before them, less its first byte.
    let wh = word(26) >> 8;
    // A byte above 4 sets its top bit when 0x7b is added (counts stay far below 0x80).
    const ADD: u64 = 0x7b7b_7b7b_7b7b_7b7b;
    const TOP: u64 = 0x8080_8080_8080_8080;
    let big = ((w0 + ADD) | (w1 + ADD) | (w2 + ADD) | (wh + (ADD >> 8))) & TOP;
    if big != 0 || c[8] > 4 || c[17] > 4 || c[26] > 4 {
        return None;
    }
    let ninth = 390_625;
    Some([
        base5(w0) + ninth * c[8] as usize,
        base5(w1) + ninth * c[17] as usize,
        base5(w2) + ninth * c[26] as usize,
        base5(wh),
    ])
}

/// Combines two groups: the best with at most `k` blocks in all, for every `k` up to
/// `kmax`.
#[inline]
fn combine(a: &Best, b: &Best, kmax: usize) -> Best {
    let mut out: Best = [[NEG; 5]; 2];
    for k in 0..=kmax {
        let (mut o0, mut o1) = (NEG, NEG);
        for j in 0..=k {
            o0 = o0.max(a[0][j] + b[0][k - j]);
            o1 = o1.max((a[0][j] + b[1][k - j]).max(a[1][j] + b[0][k - j]));
        }
        out[0][k] = o0.max(NEG);
        out[1][k] = o1.max(NEG);
    }
    out
}

/// The four groups' results (suits, then honours) for their table indices.
#[inline]
fn groups(idx: &[usize; 4]) -> [Best; 4] {
    let (suits, honours) = tables();
    [suits[idx[0]], suits[idx[1]], suits[idx[2]], honours[idx[3]]]
}

/// The four groups' results worked out without the table (a count above 4).
fn groups_uncached(c: &Counts) -> [Best; 4] {
    let mut v = *c;
    let (s, h) = v.split_at_mut(27);
    let (a, rest) = s.split_at_mut(9);
    let (b, d) = rest.split_at_mut(9);
    [
        group_uncached(a, true),
        group_uncached(b, true),
        group_uncached(d, true),
        group_uncached(h, false),
    ]
}

/// The best total of two halves sharing `blocks` blocks.
#[inline]
fn finish(left: &Best, right: &Best, blocks: usize) -> i32 {
    let mut best = NEG as i32;
    for (j, (&l0, &l1)) in left[0].iter().zip(&left[1]).enumerate().take(blocks + 1) {
        let k = blocks - j;
        let (l0, l1) = (l0 as i32, l1 as i32);
        let no_pair = l0 + right[0][k] as i32;
        let pair = (l0 + right[1][k] as i32).max(l1 + right[0][k] as i32);
        best = best.max(no_pair).max(pair + 1);
    }
    best
}

/// Regular-shape shanten of concealed counts with `melds` declared sets.
pub fn shanten_regular(c: &Counts, melds: usize) -> i32 {
    let g = match indices(c) {
        Some(idx) => groups(&idx),
        None => groups_uncached(c),
    };
    let blocks = 4 - melds.min(4);
    // A group that adds nothing (no tiles, or lone honours) changes nothing: combine only
    // the others. Both rows never decrease with more blocks, so the last entries tell.
    let adds = |b: &&Best| b[0][4] != 0 || b[1][4] != NEG;
    let mut live = g.iter().filter(adds);
    let (left, right) = match (live.next(), live.next(), live.next(), live.next()) {
        (None, ..) => (EMPTY, EMPTY),
        (Some(a), None, ..) => (*a, EMPTY),
        (Some(a), Some(b), None, _) => (*a, *b),
        (Some(a), Some(b), Some(c), None) => (combine(a, b, blocks), *c),
        (Some(a), Some(b), Some(c), Some(d)) => (combine(a, b, blocks), combine(c, d, blocks)),
    };
    // Only `blocks` in all is wanted now: split them between the two halves.
    8 - 2 * melds.min(4) as i32 - finish(&left, &right, blocks)
}

/// The tiles among `cands` whose addition lowers [`shanten_regular`] of `c`. Adding a tile
/// changes one group: the other three are combined once per group, and each candidate
/// costs one look-up, instead of a whole shanten per candidate.
pub fn shanten_regular_improvers(c: &Counts, melds: usize, cands: u64) -> (i32, u64) {
    let blocks = 4 - melds.min(4);
    let base = shanten_regular(c, melds);
    let Some(idx) = indices(c).filter(|_| c.iter().all(|&x| x < 4)) else {
        // A candidate could make a fifth copy: one shanten per candidate.
        let mut d = *c;
        let mut out = 0u64;
        let mut m = cands;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            d[i] += 1;
            if shanten_regular(&d, melds) < base {
                out |= 1 << i;
            }
            d[i] -= 1;
        }
        return (base, out);
    };
    let (suits, honours) = tables();
    let g = groups(&idx);
    let starts = [0usize, 9, 18, 27];
    let mut out = 0u64;
    for k in 0..4 {
        let lo = starts[k];
        let width = if k < 3 { 9 } else { 7 };
        let mut m = (cands >> lo) & ((1u64 << width) - 1);
        if m == 0 {
            continue;
        }
        let [a, b, c] = match k {
            0 => [1, 2, 3],
            1 => [0, 2, 3],
            2 => [0, 1, 3],
            _ => [0, 1, 2],
        };
        let rest = combine(&combine(&g[a], &g[b], blocks), &g[c], blocks);
        let table = if k < 3 { suits } else { honours };
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            let with = &table[idx[k] + POW5[r]];
            if 8 - 2 * melds.min(4) as i32 - finish(with, &rest, blocks) < base {
                out |= 1 << (lo + r);
            }
        }
    }
    (base, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_base_five_by_group() {
        let plain = |c: &[u8]| c.iter().rev().fold(0usize, |k, &x| k * 5 + x as usize);
        let mut x = 12345u64;
        for _ in 0..20_000 {
            let mut c = [0u8; 34];
            for v in c.iter_mut() {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *v = ((x >> 33) % 5) as u8;
            }
            let want = [
                plain(&c[0..9]),
                plain(&c[9..18]),
                plain(&c[18..27]),
                plain(&c[27..34]),
            ];
            assert_eq!(indices(&c), Some(want), "{c:?}");
            // A fifth copy anywhere is refused.
            let at = (x >> 40) as usize % 34;
            c[at] = 5;
            assert_eq!(indices(&c), None, "{c:?}");
        }
    }
}
