//! Winning shapes: fast completeness tests and every reading of four sets and a pair.

use crate::tile::{Counts, Tile};

/// The six ways to give 1-4-7, 2-5-8 and 3-6-9 to the three suits: `KNITS[k][j]` is the
/// suit holding ranks j+1, j+4, j+7.
pub const KNITS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// `KNIT_MASKS[k]`: the nine tiles of knitted straight `k` as a bit mask.
pub const KNIT_MASKS: [u64; 6] = {
    let mut m = [0u64; 6];
    let mut k = 0;
    while k < 6 {
        let mut j = 0;
        while j < 3 {
            let s = KNITS[k][j] as usize;
            m[k] |= (1 << (s * 9 + j)) | (1 << (s * 9 + j + 3)) | (1 << (s * 9 + j + 6));
            j += 1;
        }
        k += 1;
    }
    m
};

/// The nine tiles of knitted straight number `k`.
pub fn knitted_tiles(k: usize) -> [Tile; 9] {
    let mut out = [Tile::EAST; 9];
    for (j, &s) in KNITS[k].iter().enumerate() {
        for step in 0..3 {
            out[j * 3 + step] =
                Tile::from_index(s as usize * 9 + j + 3 * step).expect("numbered tile");
        }
    }
    out
}

/// Thirteen orphans: the 1s, 9s and honours.
pub const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Sets only, with chows: a run of counts greedily taken lowest rank first.
#[inline]
pub(crate) fn suit_sets(c: &[u8; 9]) -> bool {
    // owed1: chows that need this rank as their second tile; owed2: as their third.
    let mut need_mid = 0u8;
    let mut need_top = 0u8;
    for &x in c {
        let used = need_mid + need_top;
        if x < used {
            return false;
        }
        let start = (x - used) % 3;
        need_top = need_mid;
        need_mid = start;
    }
    need_mid == 0 && need_top == 0
}

/// Sets and one pair. Every set's ranks sum to 0 mod 3, so the pair's rank p satisfies
/// 2p ≡ Σ rank × count (mod 3): only every third rank needs trying.
#[inline]
pub(crate) fn suit_with_pair(c: &[u8; 9]) -> bool {
    let weighted: u32 = c
        .iter()
        .enumerate()
        .map(|(i, &x)| i as u32 * x as u32)
        .sum();
    let first = (weighted * 2 % 3) as usize;
    let mut d = *c;
    let mut r = first;
    while r < 9 {
        if d[r] >= 2 {
            d[r] -= 2;
            if suit_sets(&d) {
                return true;
            }
            d[r] += 2;
        }
        r += 3;
    }
    false
}

pub(crate) use crate::suitstate::{SETS, SETS_PAIR};

/// [`SETS`], [`SETS_PAIR`] or 0 for suit `s` of `c`; counts above 4 (a fifth copy, asked
/// about when judging waits) take the slow path.
#[inline]
pub(crate) fn suit_state(c: &Counts, s: usize) -> u8 {
    let v: &[u8; 9] = c[s * 9..s * 9 + 9].try_into().expect("nine ranks");
    if let Some((low, high)) = crate::suitstate::indices(v) {
        return crate::suitstate::state_of(low, high);
    }
    match v.iter().map(|&x| x as u32).sum::<u32>() % 3 {
        0 if suit_sets(v) => SETS,
        2 if suit_with_pair(v) => SETS_PAIR,
        _ => 0,
    }
}

/// Honours: bit [`SETS`] when every count is 0 or 3, [`SETS_PAIR`] with exactly one 2.
#[inline]
pub(crate) fn honor_state(c: &Counts) -> u8 {
    let sum: u8 = c[27..].iter().map(|&x| honor_weight(x)).sum();
    honor_state_of(sum)
}

/// An honour count's share of [`honor_state`]'s sum: 1 for a pair and 8 for a count no
/// honour set can use (1, 4 or a fifth copy); summed without a branch, the total says it
/// all ([`honor_state_of`]).
#[inline]
pub(crate) fn honor_weight(count: u8) -> u8 {
    const WEIGHT: [u8; 8] = [0, 8, 1, 0, 8, 8, 8, 8];
    WEIGHT[(count & 7) as usize]
}

/// The honours' state from the sum of their [`honor_weight`]s.
#[inline]
pub(crate) fn honor_state_of(sum: u8) -> u8 {
    const STATE: [u8; 8] = [SETS, SETS_PAIR, 0, 0, 0, 0, 0, 0];
    STATE[sum.min(7) as usize]
}

/// Are these concealed counts exactly some sets and one pair?
pub fn is_regular_complete(c: &Counts) -> bool {
    let states = [
        suit_state(c, 0),
        suit_state(c, 1),
        suit_state(c, 2),
        honor_state(c),
    ];
    // Every group complete, exactly one of them with the pair (judged without branches:
    // the look-ups are cheap, a mispredicted early exit is not).
    let complete = states.iter().fold(true, |ok, &st| ok & (st != 0));
    let pairs: u8 = states.iter().map(|&st| st >> 1).sum();
    complete & (pairs == 1)
}

/// Seven pairs (a four of a kind counts as two pairs), no melds. Counts up to 5 (a fifth
/// copy, asked about when judging waits, is an odd count).
pub fn is_seven_pairs(c: &Counts) -> bool {
    // No odd count, and the kinds held twice or more plus those held four times make 7.
    use crate::tile::{at_least_two, fours, odd_counts};
    odd_counts(c) == 0 && at_least_two(c).count_ones() + fours(c).count_ones() == 7
}

/// Thirteen orphans: one of each orphan and a pair of one of them.
pub fn is_thirteen_orphans(c: &Counts) -> bool {
    let sum: u8 = c.iter().sum();
    sum == 14
        && ORPHANS.iter().all(|&i| c[i] >= 1)
        && ORPHANS.iter().map(|&i| c[i]).sum::<u8>() == 14
}

/// Honours and knitted tiles: 14 different tiles from one knitted straight and the seven
/// honours. Returns the knitted straight used.
pub fn honors_and_knitted(c: &Counts) -> Option<usize> {
    const HONORS: u64 = 0x7f << 27;
    let present = crate::tile::presence(c);
    if present.count_ones() != 14 || crate::tile::at_least_two(c) != 0 {
        return None;
    }
    (0..6).find(|&k| present & !(KNIT_MASKS[k] | HONORS) == 0)
}

/// Knitted straights whose nine tiles are all in `c`.
pub fn knitted_in(c: &Counts) -> impl Iterator<Item = usize> + '_ {
    let present = crate::tile::presence(c);
    (0..6).filter(move |&k| present & KNIT_MASKS[k] == KNIT_MASKS[k])
}

/// Is this a knitted straight plus sets and a pair (the sets needed = (len − 11) / 3)?
pub fn is_knitted_complete(c: &Counts) -> bool {
    knitted_in(c).any(|k| {
        let mut d = *c;
        for t in knitted_tiles(k) {
            d[t.index()] -= 1;
        }
        is_regular_complete(&d)
    })
}

/// Nine gates: the standing tiles are 1112345678999 of one suit.
pub fn nine_gates_suit(standing: &Counts) -> Option<usize> {
    const NG: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    (0..3).find(|&s| {
        standing[s * 9..s * 9 + 9] == NG
            && standing.iter().map(|&x| x as usize).sum::<usize>() == 13
    })
}

/// Do these concealed counts (with the winning tile) complete a hand with `melds`
/// declared sets, in any shape?
pub fn is_winning_shape(c: &Counts, melds: usize) -> bool {
    is_regular_complete(c)
        || (melds <= 1
            && (crate::tile::presence(c) & ((1 << 27) - 1)).count_ones() >= 9
            && is_knitted_complete(c))
        || (melds == 0
            && (is_seven_pairs(c) || is_thirteen_orphans(c) || honors_and_knitted(c).is_some()))
}

/// A concealed set of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A chow, by its lowest tile.
    Chow(Tile),
    /// A pung.
    Pung(Tile),
}

/// Calls `f` with every way to read `c` as sets and exactly one pair, in the order a
/// search from the lowest tile, trying a pung, then a chow, then the pair, finds them.
pub fn each_reading<F: FnMut(&[Part], Tile)>(c: &Counts, f: &mut F) {
    let start = [Part::Pung(Tile::EAST); 4];
    each_reading_as(c, &PARTS, start, 0, f);
}

/// [`each_reading`] with each set given as a `T` from `sets` (`sets[s][code]` for suit
/// `s`, as [`crate::suitreadings::SuitReading`] codes them; `sets[3][h]` for a pung of
/// honour `h`), after the first `n` of `start`: the scorer reads its own sets, declared
/// ones first, with no conversion.
#[inline]
pub(crate) fn each_reading_as<T: Copy, F: FnMut(&[T], Tile)>(
    c: &Counts,
    sets: &[[T; 16]; 4],
    start: [T; 4],
    n: usize,
    f: &mut F,
) {
    use crate::suitreadings::readings;
    let Some(honors) = honor_reading(c) else {
        return;
    };
    let suit = |s: usize| readings(c[s * 9..s * 9 + 9].try_into().expect("nine ranks"));
    let (m, so, p) = (suit(0), suit(1), suit(2));
    let head = (sets, start, n.min(4));
    if m.len() == 1 && so.len() == 1 && p.len() == 1 {
        // Most hands read one way only.
        return one_reading([&m[0], &so[0], &p[0]], &honors, head, f);
    }
    for a in m {
        for b in so {
            for d in p {
                one_reading([a, b, d], &honors, head, f);
            }
        }
    }
}

/// The honours' only reading: their pungs (as honour numbers 0–6) and their pair.
struct HonorReading {
    pungs: [u8; 4],
    n: usize,
    pair: Option<Tile>,
}

/// Honours read as pungs of three and a pair of two, if they can be (no count of 1 or 4,
/// one pair at most).
#[inline]
fn honor_reading(c: &Counts) -> Option<HonorReading> {
    let mut b = [0u8; 8];
    b[..7].copy_from_slice(&c[27..34]);
    let v = u64::from_le_bytes(b);
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The top bit of each byte equal to k (counts stay far below 0x80).
    let equal = |k: u64| {
        let z = v ^ (k * ONES);
        !(((z & LOW7) + LOW7) | z) & HIGH
    };
    let at_least_four = (v + (0x80 - 4) * ONES) & HIGH;
    let pairs = equal(2);
    if equal(1) | at_least_four != 0 || pairs & pairs.wrapping_sub(1) != 0 {
        return None;
    }
    let mut pungs = equal(3);
    let mut out = HonorReading {
        pungs: [0; 4],
        // The flags summed by a multiply into the top byte.
        n: ((pungs >> 7).wrapping_mul(ONES) >> 56) as usize,
        pair: (pairs != 0)
            .then(|| Tile::from_index(27 + pairs.trailing_zeros() as usize / 8))
            .flatten(),
    };
    if out.n > 4 {
        return None;
    }
    // Four slots filled whatever the count (the spare ones are never read): no branch on
    // how many pungs there are.
    for slot in out.pungs.iter_mut() {
        *slot = (pungs.trailing_zeros() / 8).min(6) as u8;
        pungs &= pungs.wrapping_sub(1);
    }
    Some(out)
}

/// The parts a suit's set codes stand for, by suit and code; then the honours' pungs.
static PARTS: [[Part; 16]; 4] = {
    let mut t = [[Part::Pung(Tile::EAST); 16]; 4];
    let mut i = 0;
    while i < 64 {
        t[i / 16][i % 16] = match crate::suitreadings::code_set(i / 16, i % 16) {
            (true, tile) => Part::Chow(tile),
            (false, tile) => Part::Pung(tile),
        };
        i += 1;
    }
    t
};

/// One reading of the hand from one reading of each suit, if it has one pair and at most
/// four sets.
#[inline]
fn one_reading<T: Copy, F: FnMut(&[T], Tile)>(
    suits: [&crate::suitreadings::SuitReading; 3],
    honors: &HonorReading,
    (sets, start, mut n): (&[[T; 16]; 4], [T; 4], usize),
    f: &mut F,
) {
    use crate::suitreadings::NO_PAIR;
    // The pair's tile as a sum over the groups, only the one holding it adding anything:
    // a search for it is a branch no predictor learns.
    let mut pairs = honors.pair.is_some() as usize;
    let mut at = honors.pair.map_or(0, |t| t.index());
    for (s, r) in suits.iter().enumerate() {
        let has = (r.pair != NO_PAIR) as usize;
        pairs += has;
        at += has * (s * 9 + r.pair as usize);
    }
    if pairs != 1 {
        return;
    }
    let pair = Tile::from_index(at).expect("the one pair's tile");
    // Four sets written per group whatever its count, then the count moves on: no branch
    // on how many sets each group has.
    // The slots masked into a buffer of 32 (the most written is 19): no bounds checks.
    let mut out = [start[0]; 32];
    out[..4].copy_from_slice(&start);
    for (s, r) in suits.iter().enumerate() {
        for j in 0..4 {
            out[(n + j) & 31] = sets[s][r.sets[j] as usize & 15];
        }
        n += r.n as usize;
    }
    if n + honors.n > 4 {
        return;
    }
    for j in 0..4 {
        out[(n + j) & 31] = sets[3][honors.pungs[j] as usize & 15];
    }
    f(&out[..n + honors.n], pair);
}

/// A test's stream of numbers: each call a number below its argument (xorshift from
/// `seed`; tests need no crate for it).
#[cfg(test)]
pub(crate) fn test_numbers(mut seed: u64) -> impl FnMut(u64) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain search `each_reading` must agree with: `left` marks the kinds still
    /// holding tiles; the lowest one is read next, so every reading is found once.
    fn walk<F: FnMut(&[Part], Tile)>(
        c: &mut Counts,
        left: u64,
        stack: &mut [Part; 4],
        n: usize,
        pair: Option<Tile>,
        f: &mut F,
    ) {
        if left == 0 {
            if let Some(p) = pair {
                f(&stack[..n], p);
            }
            return;
        }
        let i = left.trailing_zeros() as usize;
        let t = Tile::from_index(i).expect("index below 34");
        let bit = |j: usize, c: &Counts| if c[j] == 0 { 1u64 << j } else { 0 };
        if c[i] >= 3 && n < 4 {
            c[i] -= 3;
            stack[n] = Part::Pung(t);
            walk(c, left & !bit(i, c), stack, n + 1, pair, f);
            c[i] += 3;
        }
        if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 && n < 4 {
            c[i] -= 1;
            c[i + 1] -= 1;
            c[i + 2] -= 1;
            stack[n] = Part::Chow(t);
            let l = left & !(bit(i, c) | bit(i + 1, c) | bit(i + 2, c));
            walk(c, l, stack, n + 1, pair, f);
            c[i] += 1;
            c[i + 1] += 1;
            c[i + 2] += 1;
        }
        if pair.is_none() && c[i] >= 2 {
            c[i] -= 2;
            walk(c, left & !bit(i, c), stack, n, Some(t), f);
            c[i] += 2;
        }
    }
    use crate::notation::parse_tiles;
    use crate::tile::counts_of;

    fn c(s: &str) -> Counts {
        counts_of(&parse_tiles(s).unwrap())
    }

    fn readings_of(c: &Counts, table: bool) -> Vec<(Vec<Part>, Tile)> {
        let mut out = Vec::new();
        let mut keep = |parts: &[Part], pair: Tile| out.push((parts.to_vec(), pair));
        if table {
            each_reading(c, &mut keep);
        } else {
            let mut d = *c;
            let mut stack = [Part::Pung(Tile::EAST); 4];
            walk(
                &mut d,
                crate::tile::presence(c),
                &mut stack,
                0,
                None,
                &mut keep,
            );
        }
        out
    }

    #[test]
    fn readings_from_the_suit_tables_are_the_searchs_in_its_order() {
        // Hands built from random sets and a pair (biased to one suit, where readings
        // multiply), and random tiles that seldom read at all.
        let mut next = test_numbers(0x2545_f491_4f6c_dd1d);
        let mut several = 0;
        for round in 0..60_000 {
            let mut c = [0u8; 34];
            let sets = round % 5;
            let suit = next(3);
            for _ in 0..sets {
                let s = if next(3) == 0 { next(4) } else { suit };
                if s < 3 && next(2) == 0 {
                    let r = s * 9 + next(7);
                    (0..3).for_each(|d| c[r + d] += 1);
                } else {
                    let i = if s < 3 { s * 9 + next(9) } else { 27 + next(7) };
                    c[i] += 3;
                }
            }
            let pair = if next(4) == 0 {
                next(34)
            } else {
                suit * 9 + next(9)
            };
            c[pair] += 2;
            if round % 7 == 0 {
                c[next(34)] += 1;
                c[pair] -= 1;
            }
            if c.iter().any(|&x| x > 4) {
                continue;
            }
            let want = readings_of(&c, false);
            several += (want.len() > 1) as u32;
            assert_eq!(readings_of(&c, true), want, "counts {c:?}");
        }
        assert!(
            several > 1_000,
            "only {several} hands with several readings"
        );
    }

    #[test]
    fn regular() {
        assert!(is_regular_complete(&c("123m456m789m111pEE")));
        assert!(is_regular_complete(&c("11122233344455m")));
        assert!(!is_regular_complete(&c("123m456m789m112pEE")));
        assert!(is_regular_complete(&c("22m")));
        assert!(!is_regular_complete(&c("12m")));
        assert!(is_regular_complete(&c("1112345678999m1m")));
    }

    #[test]
    fn readings() {
        let mut n = 0;
        each_reading(&c("111222333m456pEE"), &mut |_, _| n += 1);
        assert_eq!(n, 2); // three pungs, or three chows
        let mut n = 0;
        each_reading(&c("11122233344455m"), &mut |_, _| n += 1);
        assert!(n >= 3);
    }

    #[test]
    fn specials() {
        assert!(is_seven_pairs(&c("1122m3344p5566sEE")));
        assert!(is_seven_pairs(&c("1111m3344p5566sEE")));
        assert!(is_thirteen_orphans(&c("19m19s19pESWNCFPP")));
        assert!(honors_and_knitted(&c("147m258s369pESWNC")).is_some());
        assert!(honors_and_knitted(&c("147m258s369pESWW")).is_none());
        assert!(honors_and_knitted(&c("147m25s36pESWNCFP")).is_some());
        assert!(is_knitted_complete(&c("147m258s369p123mEE")));
        assert_eq!(nine_gates_suit(&c("1112345678999p")), Some(2));
    }
}
