//! The combination fans of every multiset of up to four chows, and of every set of up to
//! four numbered pungs, worked out once by [`crate::combos`] under the standard fan values
//! and looked up by the scorer: one load where combining them takes a few hundred
//! instructions and branches that no predictor learns.
//!
//! A multiset is numbered by the combinatorial number system: its codes sorted
//! (`c0 ≤ c1 ≤ …`), the chows' made strictly increasing by adding their position. Each
//! entry is an index into a short list of distinct outcomes. Chows that the combination
//! principles could combine in two ways worth the same with different fans (123 456 789 123
//! in one suit: the fourth chow makes a Pure Double Chow, a Short Straight or Two Terminal
//! Chows) take the first in the sets' order, as the reference does: their entry holds
//! what ascending order gives, and serves only a lookup in ascending order (concealed
//! chows come so). Four chows whose fans a pair of 5s changes (Pure Terminal Chows,
//! Three-Suited Terminal Chows) are marked; the caller combines those itself, and any
//! chows in an order the entry does not serve, as it does under house values. Pungs never
//! leave a choice: their fans of three sets are worth 24, 16 and 8, and of two sets there
//! is only Double Pung.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::combos::{self, Key};
use crate::fan::Fan;
use crate::tally::Tally;

/// Chows by code `suit × 7 + rank − 1` (a chow's lowest rank, 1–7).
const CHOW_KINDS: usize = 21;
/// Numbered pungs by code `suit × 9 + rank − 1`, the tile's index.
const PUNG_KINDS: usize = 27;

/// An entry that the caller combines itself (it depends on the pair).
const COMBINE: u16 = u16::MAX;
/// Marks an entry whose fans depend on the sets' order: it holds what they make in
/// ascending order, and only such a lookup may use it.
const ASCENDING_ONLY: u16 = 0x8000;

const fn binom(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// How the codes of one kind are numbered: `terms[i][c]` is what code `c` in sorted
/// position `i` adds to the index (a padding byte, 255, is clamped to the last column,
/// which adds 0); `start[n]` is where the multisets of `n` sets begin.
struct Numbering {
    terms: [[u16; 28]; 4],
    start: [usize; 6],
}

const fn numbering(kinds: usize, repeats: bool) -> Numbering {
    let mut terms = [[0u16; 28]; 4];
    let mut i = 0;
    while i < 4 {
        let mut c = 0;
        while c < kinds {
            let d = if repeats { c + i } else { c };
            terms[i][c] = binom(d, i + 1) as u16;
            c += 1;
        }
        i += 1;
    }
    let mut start = [0usize; 6];
    let mut n = 0;
    while n < 5 {
        let size = if repeats {
            binom(kinds + n - 1, n)
        } else {
            binom(kinds, n)
        };
        start[n + 1] = start[n] + size;
        n += 1;
    }
    Numbering { terms, start }
}

static CHOWS: Numbering = numbering(CHOW_KINDS, true);
static PUNGS: Numbering = numbering(PUNG_KINDS, false);

/// The first `n` codes of `c`, the rest 255 (sorted last, adding nothing to an index);
/// padded a word at a time (a loop's test per slot is a branch that `n` decides).
#[inline]
fn padded(c: [u8; 4], n: usize) -> [u8; 4] {
    let pad = (u64::from(u32::MAX) << (8 * n.min(4))) as u32;
    (u32::from_le_bytes(c) | pad).to_le_bytes()
}

/// The index of the first `n` codes of `c` (any order; the rest are ignored).
#[inline]
fn index(num: &Numbering, c: [u8; 4], n: usize) -> usize {
    index_of_padded(num, padded(c, n), n)
}

/// [`index`] of codes already [`padded`].
#[inline]
fn index_of_padded(num: &Numbering, mut c: [u8; 4], n: usize) -> usize {
    // A sorting network: five compare-exchanges, no branches.
    let mut swap = |a: usize, b: usize| {
        let (x, y) = (c[a].min(c[b]), c[a].max(c[b]));
        c[a] = x;
        c[b] = y;
    };
    swap(0, 1);
    swap(2, 3);
    swap(0, 2);
    swap(1, 3);
    swap(1, 2);
    let col = |x: u8| (x as usize).min(27);
    num.start[n.min(4)]
        + (num.terms[0][col(c[0])]
            + num.terms[1][col(c[1])]
            + num.terms[2][col(c[2])]
            + num.terms[3][col(c[3])]) as usize
}

struct Table {
    chows: Vec<u16>,
    pungs: Vec<u16>,
    outcomes: Vec<Tally>,
}

/// The code of a chow from numbered tile index `t` (its lowest tile, rank 1–7).
#[inline]
pub(crate) fn chow_code(t: usize) -> u8 {
    static CODES: [u8; 34] = {
        let mut c = [0u8; 34];
        let mut i = 0;
        while i < 27 {
            // Ranks 8 and 9 start no chow.
            let r = if i % 9 < 7 { i % 9 } else { 6 };
            c[i] = ((i / 9) * 7 + r) as u8;
            i += 1;
        }
        c
    };
    CODES[t]
}

/// The key of a chow's code.
pub(crate) fn chow_key(code: u8) -> Key {
    Key {
        suit: code / 7,
        rank: code % 7 + 1,
    }
}

/// The key of a numbered pung's code.
pub(crate) fn pung_key(code: u8) -> Key {
    Key {
        suit: code / 9,
        rank: code % 9 + 1,
    }
}

/// Every multiset of up to four codes below `kinds`, non-decreasing (strictly increasing
/// without `repeats`).
fn each_multiset(kinds: u8, repeats: bool, f: &mut impl FnMut(&[u8])) {
    fn go(c: &mut Vec<u8>, from: u8, kinds: u8, repeats: bool, f: &mut impl FnMut(&[u8])) {
        f(c);
        if c.len() == 4 {
            return;
        }
        for x in from..kinds {
            c.push(x);
            go(c, if repeats { x } else { x + 1 }, kinds, repeats, f);
            c.pop();
        }
    }
    go(&mut Vec::new(), 0, kinds, repeats, f);
}

fn build() -> Table {
    let value = |f: Fan| f.base_points() as u32;
    // Most sets make no fan: that outcome first, without hashing.
    let mut outcomes = vec![Tally::EMPTY];
    let mut seen: HashMap<Tally, u16> = HashMap::new();
    let mut intern = |t: Tally| {
        if t == Tally::EMPTY {
            return 0;
        }
        *seen.entry(t).or_insert_with(|| {
            outcomes.push(t);
            (outcomes.len() - 1) as u16
        })
    };
    let mut chows = vec![COMBINE; CHOWS.start[5]];
    each_multiset(CHOW_KINDS as u8, true, &mut |c| {
        let all = [0, 1, 2, 3].map(|i| chow_key(c.get(i).copied().unwrap_or(0)));
        let keys = &all[..c.len()];
        let with = |pair: Option<Key>| {
            let mut t = Tally::EMPTY;
            combos::chow_fans(keys, pair, &value, &mut |f| t.add(f));
            t
        };
        let plain = with(None);
        // Only a pair of 5s changes what four chows make, and only chows of 123 and 789
        // (Pure Terminal Chows, Three-Suited Terminal Chows).
        let terminal = keys.iter().all(|k| k.rank == 1 || k.rank == 7);
        let by_pair = c.len() == 4
            && terminal
            && (0..3).any(|suit| with(Some(Key { suit, rank: 5 })) != plain);
        let mut codes = [0; 4];
        codes[..c.len()].copy_from_slice(c);
        chows[index(&CHOWS, codes, c.len())] = if by_pair {
            COMBINE
        } else if leaves_a_choice(keys, &plain) {
            intern(plain) | ASCENDING_ONLY
        } else {
            intern(plain)
        };
    });
    let mut pungs = vec![0; PUNGS.start[5]];
    each_multiset(PUNG_KINDS as u8, false, &mut |c| {
        let all = [0, 1, 2, 3].map(|i| pung_key(c.get(i).copied().unwrap_or(0)));
        let mut t = Tally::EMPTY;
        combos::pung_fans(&all[..c.len()], &value, &mut |f| t.add(f));
        let mut codes = [0; 4];
        codes[..c.len()].copy_from_slice(c);
        pungs[index(&PUNGS, codes, c.len())] = intern(t);
    });
    Table {
        chows,
        pungs,
        outcomes,
    }
}

/// The best value among ways of combining sets, and whether two ways reach it with
/// different fans.
#[derive(Default)]
struct Best {
    value: u32,
    fans: [u8; 3],
    tied: bool,
}

impl Best {
    /// A way worth `value` with these fan numbers (0 for none; any order).
    fn offer(&mut self, value: u32, mut fans: [u8; 3]) {
        fans.sort_unstable();
        if value > self.value {
            *self = Best {
                value,
                fans,
                tied: false,
            };
        } else if value == self.value && fans != self.fans {
            self.tied = true;
        }
    }
}

/// Could the combination principles combine these chows (no pair of 5s) in two ways worth
/// the same with different fans? Every way is tried here, where [`combos::chow_fans`] keeps
/// the first best in the sets' order; `found` is what it gives for one order.
fn leaves_a_choice(keys: &[Key], found: &Tally) -> bool {
    let value = |f: Fan| f.base_points() as u32;
    let n = keys.len();
    // A fan of four sets takes them all, in any order.
    let four = [
        Fan::QuadrupleChow,
        Fan::FourPureShiftedChows,
        Fan::PureTerminalChows,
        Fan::ThreeSuitedTerminalChows,
    ];
    if n < 2 || four.iter().any(|&f| found.has(f)) {
        return false;
    }
    // The best fan of three sets, and the fourth set with one of the three.
    let mut best = Best::default();
    let triples: &[([usize; 3], usize)] = match n {
        3 => &[([0, 1, 2], 3)],
        _ => &[
            ([1, 2, 3], 0),
            ([0, 2, 3], 1),
            ([0, 1, 3], 2),
            ([0, 1, 2], 3),
        ],
    };
    for &(t, fourth) in triples.iter().filter(|_| n >= 3) {
        let Some(f) = combos::chow_triple(keys[t[0]], keys[t[1]], keys[t[2]]) else {
            continue;
        };
        let extra = |m: usize| {
            (fourth < n)
                .then(|| combos::chow_pair(keys[fourth], keys[m]))
                .flatten()
        };
        let top = t.iter().filter_map(|&m| extra(m)).map(value).max();
        match top {
            None => best.offer(value(f), [f.number(), 0, 0]),
            Some(top) => {
                for e in t
                    .iter()
                    .filter_map(|&m| extra(m))
                    .filter(|&e| value(e) == top)
                {
                    best.offer(value(f) + top, [f.number(), e.number(), 0]);
                }
            }
        }
    }
    if best.value > 0 {
        return best.tied;
    }
    // Fans of two sets: no set joins the others twice (no cycle), and no set takes part
    // twice in one fan.
    let mut pairs = [(0, 0, Fan::PureDoubleChow); 6];
    let mut np = 0;
    for a in 0..n {
        for b in a + 1..n {
            if let Some(f) = combos::chow_pair(keys[a], keys[b]) {
                pairs[np] = (a, b, f);
                np += 1;
            }
        }
    }
    for chosen in 1u32..1 << np {
        let picked = |i: usize| chosen >> i & 1 != 0;
        let mut group = [0usize, 1, 2, 3];
        let root = |mut x: usize, group: &[usize; 4]| {
            while group[x] != x {
                x = group[x];
            }
            x
        };
        let (mut ok, mut fans, mut nf, mut total) = (true, [0u8; 3], 0, 0);
        for i in (0..np).filter(|&i| picked(i)) {
            let (a, b, f) = pairs[i];
            let (ra, rb) = (root(a, &group), root(b, &group));
            ok &= ra != rb && nf < 3;
            group[ra] = rb;
            for &(c, d, g) in pairs[i + 1..np]
                .iter()
                .enumerate()
                .filter(|(j, _)| picked(i + 1 + j))
                .map(|(_, p)| p)
            {
                ok &= !((a == c || a == d || b == c || b == d) && f == g);
            }
            if nf < 3 {
                fans[nf] = f.number();
            }
            nf += 1;
            total += value(f);
        }
        if ok {
            best.offer(total, fans);
        }
    }
    best.tied
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The fans that the first `n` chow codes of `codes` make together under the standard
/// values, in this order; none when they depend on the pair, or on the order and these
/// are not ascending.
#[inline]
pub(crate) fn chow_fans(codes: [u8; 4], n: usize) -> Option<&'static Tally> {
    let t = table();
    let c = padded(codes, n);
    let e = t.chows[index_of_padded(&CHOWS, c, n)];
    // Concealed chows come in ascending order, so most readings may use either kind.
    let ascending = (c[0] <= c[1]) & (c[1] <= c[2]) & (c[2] <= c[3]);
    let usable = (e != COMBINE) & (e & ASCENDING_ONLY == 0 || ascending);
    usable.then(|| &t.outcomes[(e & !ASCENDING_ONLY) as usize])
}

/// The fans that the first `n` numbered pung codes of `codes` (all different) make
/// together under the standard values.
#[inline]
pub(crate) fn pung_fans(codes: [u8; 4], n: usize) -> &'static Tally {
    debug_assert!(
        (1..n).all(|i| !codes[..i].contains(&codes[i])),
        "a pung twice"
    );
    let t = table();
    &t.outcomes[t.pungs[index(&PUNGS, codes, n)] as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_multiset_has_its_own_index_in_order() {
        for (num, kinds, repeats) in [(&CHOWS, 21u8, true), (&PUNGS, 27, false)] {
            let mut next = 0;
            each_multiset(kinds, repeats, &mut |c| {
                let mut codes = [0; 4];
                codes[..c.len()].copy_from_slice(c);
                // Any order gives the same index.
                let mut rev = codes;
                rev[..c.len()].reverse();
                let i = index(num, codes, c.len());
                assert_eq!(index(num, rev, c.len()), i, "{c:?}");
                assert!(
                    num.start[c.len()] <= i && i < num.start[c.len() + 1],
                    "{c:?}"
                );
                next += 1;
            });
            assert_eq!(next, num.start[5]);
        }
        // 1 + 21 + 231 + 1,771 + 10,626 chow multisets; 1 + 27 + 351 + 2,925 + 17,550 pung sets.
        assert_eq!(CHOWS.start[5], 12_650);
        assert_eq!(PUNGS.start[5], 20_854);
    }

    #[test]
    fn house_values_of_combination_fans_are_combined_by_those_values() {
        use crate::rules::Rules;
        // 123m 456p 789s make a Mixed Straight; the fourth chow, 123p, joins 123m (Mixed
        // Double Chow) or 456p (Short Straight), a point either way. Valued at 5, the
        // Short Straight must count: 4 points more.
        let hand = crate::notation::parse_hand_line("123m456p789s123p99m").expect("a hand");
        let standard = Rules::reference();
        assert!(standard.standard_combinations());
        let mut house = Rules::reference();
        house.set_points(Fan::ShortStraight, 5);
        assert!(!house.standard_combinations());
        let (base, got) = (crate::score(&hand, &standard), crate::score(&hand, &house));
        let (base, got) = (base.expect("a win"), got.expect("a win"));
        assert_eq!(got.total, base.total + 4);
        let fans: Vec<Fan> = got.fans.iter().map(|l| l.fan).collect();
        assert!(fans.contains(&Fan::MixedStraight) && fans.contains(&Fan::ShortStraight));
        assert!(!fans.contains(&Fan::MixedDoubleChow), "{fans:?}");
        // A house value elsewhere keeps the table; the standard value back restores it.
        house.set_points(Fan::ShortStraight, 1);
        house.set_points(Fan::AllChows, 4);
        assert!(house.standard_combinations());
    }

    /// Every order of the codes `c`.
    fn orders(c: &[u8]) -> Vec<Vec<u8>> {
        if c.len() <= 1 {
            return vec![c.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..c.len() {
            let mut rest = c.to_vec();
            let x = rest.remove(i);
            for mut o in orders(&rest) {
                o.insert(0, x);
                out.push(o);
            }
        }
        out
    }

    #[test]
    fn the_table_gives_what_combining_gives_in_every_order() {
        let value = |f: Fan| f.base_points() as u32;
        let t = table();
        let (mut by_pair, mut by_order) = (0, 0);
        for (kinds, chows) in [(21u8, true), (27, false)] {
            each_multiset(kinds, chows, &mut |c| {
                let mut outcomes = Vec::new();
                let mut every_order = true;
                for o in orders(c) {
                    let mut want = Tally::EMPTY;
                    let mut codes = [0; 4];
                    codes[..o.len()].copy_from_slice(&o);
                    let got = if chows {
                        let keys: Vec<Key> = o.iter().map(|&x| chow_key(x)).collect();
                        combos::chow_fans(&keys, None, &value, &mut |f| want.add(f));
                        chow_fans(codes, o.len())
                    } else {
                        let keys: Vec<Key> = o.iter().map(|&x| pung_key(x)).collect();
                        combos::pung_fans(&keys, &value, &mut |f| want.add(f));
                        Some(pung_fans(codes, o.len()))
                    };
                    match got {
                        Some(got) => assert_eq!(*got, want, "codes {o:?}"),
                        None => every_order = false,
                    }
                    outcomes.push(want);
                }
                if chows && c.len() == 4 {
                    // No pair changes what other chows make.
                    let keys: Vec<Key> = c.iter().map(|&x| chow_key(x)).collect();
                    if !keys.iter().all(|k| k.rank == 1 || k.rank == 7) {
                        for pair in (0..27).map(|i| Key {
                            suit: i / 9,
                            rank: i % 9 + 1,
                        }) {
                            let mut with = Tally::EMPTY;
                            combos::chow_fans(&keys, Some(pair), &value, &mut |f| with.add(f));
                            assert_eq!(with, outcomes[0], "{c:?} with a pair {pair:?}");
                        }
                    }
                }
                let mut codes = [0; 4];
                codes[..c.len()].copy_from_slice(c);
                if chows && chow_fans(codes, c.len()).is_none() {
                    // Not even in ascending order: the pair decides, as for four chows of
                    // 123 and 789 only.
                    let ranks = c.iter().map(|&x| chow_key(x).rank);
                    assert!(
                        c.len() == 4 && ranks.clone().all(|r| r == 1 || r == 7),
                        "{c:?}"
                    );
                    by_pair += 1;
                } else if !every_order {
                    // Refused in some order: only where some order changes the fans.
                    outcomes.sort_by_key(|t| format!("{t:?}"));
                    outcomes.dedup();
                    assert!(outcomes.len() > 1, "{c:?}");
                    by_order += 1;
                }
            });
        }
        // The six of 123+789 twice in one suit or once in each of two suits; some more
        // served in ascending order only.
        assert_eq!(by_pair, 6);
        assert!(by_order > 0);
        assert!(t.outcomes.len() < 1000);
    }
}
