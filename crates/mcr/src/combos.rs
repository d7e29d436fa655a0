//! Fans made of several chows or several pungs, with the combination principles.
//!
//! A fan of four sets takes them all. Otherwise the best three-set fan is taken and the
//! fourth set may pair once with one of its three (non-repeat: the three do not pair
//! among themselves). Without a three-set fan, two-set fans are chosen so that every set
//! joins the already-combined sets only once (the chosen pairs form no cycle) and no set
//! takes part twice in the same fan (non-identical).

use crate::fan::Fan;

/// A chow or pung reduced to what combinations look at: suit 0..=2 and rank 1..=9
/// (lowest rank of a chow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// Suit: 0 characters, 1 bamboo, 2 dots.
    pub suit: u8,
    /// Rank 1–9 (a chow's lowest).
    pub rank: u8,
}

fn chow4(k: &[Key; 4], pair: Option<Key>) -> Option<Fan> {
    let same_suit = k.iter().all(|x| x.suit == k[0].suit);
    if !same_suit {
        return three_suited_terminal_chows(k, pair?);
    }
    let mut r = [k[0].rank, k[1].rank, k[2].rank, k[3].rank];
    r.sort_unstable();
    if r[0] == r[3] {
        return Some(Fan::QuadrupleChow);
    }
    let d = r[1] - r[0];
    if (d == 1 || d == 2) && r[2] - r[1] == d && r[3] - r[2] == d {
        return Some(Fan::FourPureShiftedChows);
    }
    if r == [1, 1, 7, 7]
        && pair
            == Some(Key {
                suit: k[0].suit,
                rank: 5,
            })
    {
        return Some(Fan::PureTerminalChows);
    }
    None
}

/// Three-Suited Terminal Chows: 123+789 in two suits, pair of 5 in the third.
fn three_suited_terminal_chows(k: &[Key; 4], p: Key) -> Option<Fan> {
    if p.rank != 5 {
        return None;
    }
    let mut seen = [[0u8; 2]; 3];
    for x in k {
        match x.rank {
            1 => seen[x.suit as usize][0] += 1,
            7 => seen[x.suit as usize][1] += 1,
            _ => return None,
        }
    }
    let ok = (0..3).all(|s| {
        if s == p.suit as usize {
            seen[s] == [0, 0]
        } else {
            seen[s] == [1, 1]
        }
    });
    ok.then_some(Fan::ThreeSuitedTerminalChows)
}

/// The lowest, middle and highest of three ranks (no sort: three is too few to branch on).
#[inline]
fn order(a: u8, b: u8, c: u8) -> (u8, u8, u8) {
    let lo = a.min(b).min(c);
    let hi = a.max(b).max(c);
    (lo, a + b + c - lo - hi, hi)
}

/// The fan three chows make together, if any (the most valuable).
pub fn chow_triple(a: Key, b: Key, c: Key) -> Option<Fan> {
    let (lo, mid, hi) = order(a.rank, b.rank, c.rank);
    if a.suit == b.suit && b.suit == c.suit {
        if lo == hi {
            return Some(Fan::PureTripleChow);
        }
        if lo == 1 && mid == 4 && hi == 7 {
            return Some(Fan::PureStraight);
        }
        let d = mid - lo;
        if (d == 1 || d == 2) && hi - mid == d {
            return Some(Fan::PureShiftedChows);
        }
        return None;
    }
    if a.suit == b.suit || b.suit == c.suit || a.suit == c.suit {
        return None;
    }
    if lo == hi {
        return Some(Fan::MixedTripleChow);
    }
    if lo == 1 && mid == 4 && hi == 7 {
        return Some(Fan::MixedStraight);
    }
    if mid == lo + 1 && hi == mid + 1 {
        return Some(Fan::MixedShiftedChows);
    }
    None
}

/// The fan two chows make together, if any.
pub fn chow_pair(a: Key, b: Key) -> Option<Fan> {
    if a.suit == b.suit {
        let (lo, hi) = if a.rank <= b.rank {
            (a.rank, b.rank)
        } else {
            (b.rank, a.rank)
        };
        match hi - lo {
            0 => Some(Fan::PureDoubleChow),
            3 => Some(Fan::ShortStraight),
            6 => Some(Fan::TwoTerminalChows),
            _ => None,
        }
    } else if a.rank == b.rank {
        Some(Fan::MixedDoubleChow)
    } else {
        None
    }
}

fn pung4(k: &[Key; 4], _pair: Option<Key>) -> Option<Fan> {
    if !k.iter().all(|x| x.suit == k[0].suit) {
        return None;
    }
    let mut r = [k[0].rank, k[1].rank, k[2].rank, k[3].rank];
    r.sort_unstable();
    (r[1] == r[0] + 1 && r[2] == r[1] + 1 && r[3] == r[2] + 1).then_some(Fan::FourPureShiftedPungs)
}

/// The fan three pungs make together, if any.
pub fn pung_triple(a: Key, b: Key, c: Key) -> Option<Fan> {
    let (lo, mid, hi) = order(a.rank, b.rank, c.rank);
    let shifted = mid == lo + 1 && hi == mid + 1;
    if a.suit == b.suit && b.suit == c.suit {
        return shifted.then_some(Fan::PureShiftedPungs);
    }
    if a.suit == b.suit || b.suit == c.suit || a.suit == c.suit {
        return None;
    }
    if lo == hi {
        return Some(Fan::TriplePung);
    }
    shifted.then_some(Fan::MixedShiftedPungs)
}

/// The fan two pungs make together, if any.
pub fn pung_pair(a: Key, b: Key) -> Option<Fan> {
    (a.suit != b.suit && a.rank == b.rank).then_some(Fan::DoublePung)
}

/// The six pairs of four sets.
const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// `ACYCLIC[m]`: the pairs in bit mask `m` form no cycle (so each set joins the others
/// only once), and there are at most three of them.
const ACYCLIC: [bool; 64] = {
    let mut t = [false; 64];
    let mut m = 0;
    while m < 64 {
        let mut parent = [0usize, 1, 2, 3];
        let mut ok = true;
        let mut i = 0;
        while i < 6 {
            if m & (1 << i) != 0 {
                let (mut a, mut b) = PAIRS[i];
                while parent[a] != a {
                    a = parent[a];
                }
                while parent[b] != b {
                    b = parent[b];
                }
                if a == b {
                    ok = false;
                }
                parent[a] = b;
            }
            i += 1;
        }
        t[m] = ok;
        m += 1;
    }
    t
};

/// `TOUCH[i]`: the pairs (other than pair i) that share a set with pair i.
const TOUCH: [u8; 6] = {
    let mut t = [0u8; 6];
    let mut i = 0;
    while i < 6 {
        let mut j = 0;
        while j < 6 {
            let (a, b) = PAIRS[i];
            let (c, d) = PAIRS[j];
            if i != j && (a == c || a == d || b == c || b == d) {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Best set of two-set fans for up to four sets; returns the fans and their points.
fn best_pairs<V: Fn(Fan) -> u32>(
    keys: &[Key],
    two: fn(Key, Key) -> Option<Fan>,
    value: &V,
) -> ([Option<Fan>; 3], u32) {
    let n = keys.len();
    let mut fans: [Option<Fan>; 6] = [None; 6];
    let mut any = 0u8;
    for (i, &(a, b)) in PAIRS.iter().enumerate() {
        if b < n {
            fans[i] = two(keys[a], keys[b]);
            if fans[i].is_some() {
                any |= 1 << i;
            }
        }
    }
    let mut best = ([None; 3], 0u32);
    if any == 0 {
        return best;
    }
    if any.count_ones() == 1 {
        let f = fans[any.trailing_zeros() as usize];
        return ([f, None, None], f.map_or(0, value));
    }
    let mut sub = any;
    while sub != 0 {
        if ACYCLIC[sub as usize] {
            // Non-identical: two chosen pairs sharing a set may not be the same fan.
            let mut ok = true;
            let mut total = 0;
            let mut list = [None; 3];
            let mut li = 0;
            let mut m = sub;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let mut near = TOUCH[i] & sub;
                while near != 0 {
                    let j = near.trailing_zeros() as usize;
                    near &= near - 1;
                    ok &= fans[i] != fans[j];
                }
                let f = fans[i];
                total += f.map_or(0, value);
                list[li] = f;
                li += 1;
            }
            if ok && total > best.1 {
                best = (list, total);
            }
        }
        sub = (sub - 1) & any;
    }
    best
}

type Four = fn(&[Key; 4], Option<Key>) -> Option<Fan>;
type Three = fn(Key, Key, Key) -> Option<Fan>;
type Two = fn(Key, Key) -> Option<Fan>;

fn combine<V: Fn(Fan) -> u32, O: FnMut(Fan)>(
    keys: &[Key],
    pair: Option<Key>,
    four: Four,
    three: Three,
    two: Two,
    value: &V,
    out: &mut O,
) {
    let n = keys.len();
    if n < 2 {
        return;
    }
    if n == 4 {
        let k = [keys[0], keys[1], keys[2], keys[3]];
        if let Some(f) = four(&k, pair) {
            out(f);
            return;
        }
    }
    if n >= 3 {
        // Best three-set fan, plus one pairing of the remaining set.
        let mut best: Option<(Fan, Option<Fan>, u32)> = None;
        let triples: &[[usize; 4]] = if n == 4 {
            &[[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]]
        } else {
            &[[0, 1, 2, 3]]
        };
        for t in triples {
            if let Some(f) = three(keys[t[0]], keys[t[1]], keys[t[2]]) {
                let mut extra: Option<Fan> = None;
                if n == 4 {
                    for &j in &t[..3] {
                        if let Some(g) = two(keys[t[3]], keys[j]) {
                            if extra.is_none_or(|e| value(g) > value(e)) {
                                extra = Some(g);
                            }
                        }
                    }
                }
                let v = value(f) + extra.map_or(0, value);
                if best.is_none_or(|b| v > b.2) {
                    best = Some((f, extra, v));
                }
            }
        }
        if let Some((f, e, _)) = best {
            out(f);
            if let Some(e) = e {
                out(e);
            }
            return;
        }
    }
    if n >= 2 {
        let (list, _) = best_pairs(keys, two, value);
        for f in list.into_iter().flatten() {
            out(f);
        }
    }
}

/// Fans among the chows of a reading. `pair` is the pair when it is a numbered tile.
pub fn chow_fans<V: Fn(Fan) -> u32, O: FnMut(Fan)>(
    keys: &[Key],
    pair: Option<Key>,
    value: &V,
    out: &mut O,
) {
    combine(keys, pair, chow4, chow_triple, chow_pair, value, out)
}

/// Fans among the numbered pungs and kongs of a reading.
pub fn pung_fans<V: Fn(Fan) -> u32, O: FnMut(Fan)>(keys: &[Key], value: &V, out: &mut O) {
    combine(keys, None, pung4, pung_triple, pung_pair, value, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> Key {
        let b = s.as_bytes();
        Key {
            rank: b[0] - b'0',
            suit: match b[1] {
                b'm' => 0,
                b's' => 1,
                _ => 2,
            },
        }
    }

    fn chows(v: &[&str], pair: Option<&str>) -> Vec<Fan> {
        let keys: Vec<Key> = v.iter().map(|s| k(s)).collect();
        let mut out = Vec::new();
        let val = |f: Fan| f.base_points() as u32;
        chow_fans(&keys, pair.map(k), &val, &mut |f| out.push(f));
        out.sort();
        out
    }

    #[test]
    fn two_pure_double_chows_and_a_short_straight() {
        // 123m 123m 456m 456m: three of the six pairs may count (no cycle), each chow
        // at most once per fan: 3 one-point fans either way.
        let got = chows(&["1m", "1m", "4m", "4m"], None);
        assert_eq!(got.len(), 3);
        assert!(got
            .iter()
            .all(|f| matches!(f, Fan::PureDoubleChow | Fan::ShortStraight)));
    }

    #[test]
    fn non_identical_limits_mixed_double_chows() {
        // 123m 123m 123p: one pure double, and 123p joins once: one mixed double.
        assert_eq!(
            chows(&["1m", "1m", "1p"], None),
            vec![Fan::PureDoubleChow, Fan::MixedDoubleChow]
        );
    }

    #[test]
    fn straight_plus_fourth() {
        assert_eq!(
            chows(&["1m", "4m", "7m", "1p"], None),
            vec![Fan::PureStraight, Fan::MixedDoubleChow]
        );
        assert_eq!(
            chows(&["1m", "1m", "7m", "7m"], Some("5m")),
            vec![Fan::PureTerminalChows]
        );
        assert_eq!(
            chows(&["1m", "7m", "1s", "7s"], Some("5p")),
            vec![Fan::ThreeSuitedTerminalChows]
        );
    }
}
