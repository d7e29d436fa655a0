//! Fans made of several chows or several pungs, with the combination principles.
//!
//! A fan of four sets takes them all. Otherwise the best three-set fan is taken and the
//! fourth set may pair once with one of its three (non-repeat: the three do not pair
//! among themselves). Without a three-set fan, two-set fans are chosen so that every set
//! joins the already-combined sets only once (the chosen pairs form no cycle) and no set
//! takes part twice in the same fan (non-identical).

use crate::fan::Fan;

/// Every fan that combining chows or pungs can give: their values decide which
/// combination counts.
pub(crate) const COMBINATION_FANS: [Fan; 19] = [
    Fan::QuadrupleChow,
    Fan::FourPureShiftedChows,
    Fan::PureTerminalChows,
    Fan::ThreeSuitedTerminalChows,
    Fan::PureTripleChow,
    Fan::PureStraight,
    Fan::PureShiftedChows,
    Fan::MixedTripleChow,
    Fan::MixedStraight,
    Fan::MixedShiftedChows,
    Fan::PureDoubleChow,
    Fan::MixedDoubleChow,
    Fan::ShortStraight,
    Fan::TwoTerminalChows,
    Fan::FourPureShiftedPungs,
    Fan::PureShiftedPungs,
    Fan::TriplePung,
    Fan::MixedShiftedPungs,
    Fan::DoublePung,
];

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

/// The lowest, middle and highest of three ranks.
const fn order(a: u8, b: u8, c: u8) -> (u8, u8, u8) {
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    if c <= x {
        (c, x, y)
    } else if c <= y {
        (x, c, y)
    } else {
        (x, y, c)
    }
}

/// The fan whose number is `n`, none for 0.
#[inline]
fn fan_numbered(n: u8) -> Option<Fan> {
    static BY_NUMBER: [Option<Fan>; 83] = {
        let mut t = [None; 83];
        let mut i = 0;
        while i < 82 {
            t[i + 1] = Some(crate::fan::ALL_FANS[i]);
            i += 1;
        }
        t
    };
    BY_NUMBER[n as usize]
}

/// The number of the fan three chows make together (the most valuable), or 0.
const fn chow_triple_number(a: Key, b: Key, c: Key) -> u8 {
    let (lo, mid, hi) = order(a.rank, b.rank, c.rank);
    if a.suit == b.suit && b.suit == c.suit {
        if lo == hi {
            return Fan::PureTripleChow as u8;
        }
        if lo == 1 && mid == 4 && hi == 7 {
            return Fan::PureStraight as u8;
        }
        let d = mid - lo;
        if (d == 1 || d == 2) && hi - mid == d {
            return Fan::PureShiftedChows as u8;
        }
        return 0;
    }
    if a.suit == b.suit || b.suit == c.suit || a.suit == c.suit {
        return 0;
    }
    if lo == hi {
        return Fan::MixedTripleChow as u8;
    }
    if lo == 1 && mid == 4 && hi == 7 {
        return Fan::MixedStraight as u8;
    }
    if mid == lo + 1 && hi == mid + 1 {
        return Fan::MixedShiftedChows as u8;
    }
    0
}

/// The number of the fan two chows make together, or 0.
const fn chow_pair_number(a: Key, b: Key) -> u8 {
    if a.suit == b.suit {
        match a.rank.abs_diff(b.rank) {
            0 => Fan::PureDoubleChow as u8,
            3 => Fan::ShortStraight as u8,
            6 => Fan::TwoTerminalChows as u8,
            _ => 0,
        }
    } else if a.rank == b.rank {
        Fan::MixedDoubleChow as u8
    } else {
        0
    }
}

/// The number of the fan three pungs make together, or 0.
const fn pung_triple_number(a: Key, b: Key, c: Key) -> u8 {
    let (lo, mid, hi) = order(a.rank, b.rank, c.rank);
    let shifted = mid == lo + 1 && hi == mid + 1;
    if a.suit == b.suit && b.suit == c.suit {
        return if shifted {
            Fan::PureShiftedPungs as u8
        } else {
            0
        };
    }
    if a.suit == b.suit || b.suit == c.suit || a.suit == c.suit {
        return 0;
    }
    if lo == hi {
        return Fan::TriplePung as u8;
    }
    if shifted {
        Fan::MixedShiftedPungs as u8
    } else {
        0
    }
}

/// The number of the fan two pungs make together, or 0.
const fn pung_pair_number(a: Key, b: Key) -> u8 {
    if a.suit != b.suit && a.rank == b.rank {
        Fan::DoublePung as u8
    } else {
        0
    }
}

/// The fan three chows make together, if any (the most valuable).
pub fn chow_triple(a: Key, b: Key, c: Key) -> Option<Fan> {
    fan_numbered(chow_triple_number(a, b, c))
}

/// The fan two chows make together, if any.
pub fn chow_pair(a: Key, b: Key) -> Option<Fan> {
    fan_numbered(chow_pair_number(a, b))
}

/// The fan three pungs make together, if any.
pub fn pung_triple(a: Key, b: Key, c: Key) -> Option<Fan> {
    fan_numbered(pung_triple_number(a, b, c))
}

/// The fan two pungs make together, if any.
pub fn pung_pair(a: Key, b: Key) -> Option<Fan> {
    fan_numbered(pung_pair_number(a, b))
}

/// The fans of two and of three sets of one kind (chows or numbered pungs) by table, the
/// sets numbered suit × `ranks` + rank − 1: a reading asks for up to sixteen of them, and
/// which fan a pair of sets makes is data no branch predictor learns.
struct Tables<const N: usize, const N2: usize, const N3: usize> {
    two: [u8; N2],
    three: [u8; N3],
}

const fn key_of(code: usize, ranks: usize) -> Key {
    Key {
        suit: (code / ranks) as u8,
        rank: (code % ranks) as u8 + 1,
    }
}

const CHOW_KINDS: usize = 21;
const PUNG_KINDS: usize = 27;

/// The tables of chows (`chows`, 7 ranks a suit) or of numbered pungs (9 ranks a suit).
const fn tables<const N: usize, const N2: usize, const N3: usize>(
    chows: bool,
) -> Tables<N, N2, N3> {
    let ranks = if chows { 7 } else { 9 };
    let mut t = Tables {
        two: [0; N2],
        three: [0; N3],
    };
    let mut i = 0;
    while i < N3 {
        let (a, b, c) = (
            key_of(i / (N * N), ranks),
            key_of(i / N % N, ranks),
            key_of(i % N, ranks),
        );
        t.three[i] = if chows {
            chow_triple_number(a, b, c)
        } else {
            pung_triple_number(a, b, c)
        };
        if i < N2 {
            let (a, b) = (key_of(i / N, ranks), key_of(i % N, ranks));
            t.two[i] = if chows {
                chow_pair_number(a, b)
            } else {
                pung_pair_number(a, b)
            };
        }
        i += 1;
    }
    t
}

static CHOW_TABLES: Tables<CHOW_KINDS, 441, 9261> = tables(true);
static PUNG_TABLES: Tables<PUNG_KINDS, 729, 19683> = tables(false);

fn pung4(k: &[Key; 4], _pair: Option<Key>) -> Option<Fan> {
    if !k.iter().all(|x| x.suit == k[0].suit) {
        return None;
    }
    let mut r = [k[0].rank, k[1].rank, k[2].rank, k[3].rank];
    r.sort_unstable();
    (r[1] == r[0] + 1 && r[2] == r[1] + 1 && r[3] == r[2] + 1).then_some(Fan::FourPureShiftedPungs)
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

/// `PAIR_PAIRS[k]`: the k-th of the 15 couples of two different pairs of [`PAIRS`].
const PAIR_PAIRS: [(usize, usize); 15] = {
    let mut t = [(0, 0); 15];
    let mut k = 0;
    let mut i = 0;
    while i < 6 {
        let mut j = i + 1;
        while j < 6 {
            t[k] = (i, j);
            k += 1;
            j += 1;
        }
        i += 1;
    }
    t
};

/// `TOUCHING[m]`: the couples of [`PAIR_PAIRS`] whose two pairs are both in bit mask `m`
/// and share a set.
const TOUCHING: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut m = 0;
    while m < 64 {
        let mut k = 0;
        while k < 15 {
            let (i, j) = PAIR_PAIRS[k];
            if m & (1 << i) != 0 && m & (1 << j) != 0 && TOUCH[i] & (1 << j) != 0 {
                t[m] |= 1 << k;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Best set of two-set fans for up to four sets, `two[i]` the fan number of pair `i` of
/// [`PAIRS`] (0: none); returns the fans and their points.
fn best_pairs<V: Fn(Fan) -> u32>(two: [u8; 6], value: &V) -> ([Option<Fan>; 3], u32) {
    let fans = two.map(fan_numbered);
    let any = two
        .iter()
        .enumerate()
        .fold(0u8, |m, (i, &f)| m | ((f != 0) as u8) << i);
    let mut best = ([None; 3], 0u32);
    if any == 0 {
        return best;
    }
    if any & (any - 1) == 0 {
        let f = fans[any.trailing_zeros() as usize];
        return ([f, None, None], f.map_or(0, value));
    }
    // Couples of pairs that make the same fan: two of them sharing a set may not both
    // count (non-identical).
    let same = PAIR_PAIRS
        .iter()
        .enumerate()
        .fold(0u16, |m, (k, &(i, j))| m | ((two[i] == two[j]) as u16) << k);
    let points = fans.map(|f| f.map_or(0, value));
    let mut sub = any;
    while sub != 0 {
        let s = sub as usize;
        if ACYCLIC[s] && TOUCHING[s] & same == 0 {
            let total: u32 = (0..6).map(|i| (s >> i & 1) as u32 * points[i]).sum();
            if total > best.1 {
                let mut list = [None; 3];
                let mut m = sub;
                for slot in list.iter_mut() {
                    if m == 0 {
                        break;
                    }
                    *slot = fans[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                best = (list, total);
            }
        }
        sub = (sub - 1) & any;
    }
    best
}

type Four = fn(&[Key; 4], Option<Key>) -> Option<Fan>;

fn combine<const N: usize, const N2: usize, const N3: usize, V, O>(
    keys: &[Key],
    pair: Option<Key>,
    four: Four,
    tables: &Tables<N, N2, N3>,
    ranks: usize,
    value: &V,
    out: &mut O,
) where
    V: Fn(Fan) -> u32,
    O: FnMut(Fan),
{
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
    let mut code = [0usize; 4];
    for (c, k) in code.iter_mut().zip(keys) {
        // Keys are numbered sets; the bound only spares the look-ups a check.
        *c = (k.suit as usize * ranks + k.rank as usize)
            .saturating_sub(1)
            .min(N - 1);
    }
    let two = |a: usize, b: usize| tables.two[code[a] * N + code[b]];
    let three = |a: usize, b: usize, c: usize| tables.three[(code[a] * N + code[b]) * N + code[c]];
    if n >= 3 {
        // Best three-set fan, plus one pairing of the remaining set.
        let mut best: Option<(Fan, Option<Fan>, u32)> = None;
        let triples: &[[usize; 4]] = if n == 4 {
            &[[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]]
        } else {
            &[[0, 1, 2, 3]]
        };
        for t in triples {
            if let Some(f) = fan_numbered(three(t[0], t[1], t[2])) {
                let mut extra: Option<Fan> = None;
                if n == 4 {
                    for &j in &t[..3] {
                        if let Some(g) = fan_numbered(two(t[3], j)) {
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
    let mut pairs = [0u8; 6];
    for (p, &(a, b)) in pairs.iter_mut().zip(&PAIRS) {
        if b < n {
            *p = two(a, b);
        }
    }
    let (list, _) = best_pairs(pairs, value);
    for f in list.into_iter().flatten() {
        out(f);
    }
}

/// Fans among the chows of a reading. `pair` is the pair when it is a numbered tile.
pub fn chow_fans<V: Fn(Fan) -> u32, O: FnMut(Fan)>(
    keys: &[Key],
    pair: Option<Key>,
    value: &V,
    out: &mut O,
) {
    combine(keys, pair, chow4, &CHOW_TABLES, 7, value, out)
}

/// Fans among the numbered pungs and kongs of a reading.
pub fn pung_fans<V: Fn(Fan) -> u32, O: FnMut(Fan)>(keys: &[Key], value: &V, out: &mut O) {
    combine(keys, None, pung4, &PUNG_TABLES, 9, value, out)
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
