//! Winning shapes: fast completeness tests and every reading of four sets and a pair.

use crate::tile::{Counts, Tile, KINDS};

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
fn suit_sets(c: &[u8; 9]) -> bool {
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

#[inline]
fn suit_with_pair(c: &[u8; 9]) -> bool {
    let mut d = *c;
    for r in 0..9 {
        if d[r] >= 2 {
            d[r] -= 2;
            if suit_sets(&d) {
                return true;
            }
            d[r] += 2;
        }
    }
    false
}

/// Are these concealed counts exactly some sets and one pair?
pub fn is_regular_complete(c: &Counts) -> bool {
    let mut pairs = 0;
    for &x in &c[27..] {
        match x {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    for s in 0..3 {
        let mut a = [0u8; 9];
        a.copy_from_slice(&c[s * 9..s * 9 + 9]);
        let total: u8 = a.iter().sum();
        match total % 3 {
            0 => {
                if !suit_sets(&a) {
                    return false;
                }
            }
            2 => {
                pairs += 1;
                if pairs > 1 || !suit_with_pair(&a) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    pairs == 1
}

/// Seven pairs (a four of a kind counts as two pairs), no melds.
pub fn is_seven_pairs(c: &Counts) -> bool {
    let mut n = 0;
    for &x in c.iter() {
        match x {
            0 => {}
            2 => n += 1,
            4 => n += 2,
            _ => return false,
        }
    }
    n == 7
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
    if c.iter().any(|&x| x > 1) || c.iter().map(|&x| x as usize).sum::<usize>() != 14 {
        return None;
    }
    (0..6).find(|&k| {
        let kt = knitted_tiles(k);
        (0..27).all(|i| c[i] == 0 || kt.iter().any(|t| t.index() == i))
    })
}

/// Knitted straights whose nine tiles are all in `c`.
pub fn knitted_in(c: &Counts) -> impl Iterator<Item = usize> + '_ {
    (0..6).filter(move |&k| knitted_tiles(k).iter().all(|t| c[t.index()] >= 1))
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

/// A concealed set of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Chow(Tile),
    Pung(Tile),
}

/// Calls `f` with every way to read `c` as sets and exactly one pair.
pub fn each_reading(c: &Counts, f: &mut dyn FnMut(&[Part], Tile)) {
    let mut d = *c;
    let mut stack = [Part::Pung(Tile::EAST); 4];
    walk(&mut d, 0, &mut stack, 0, None, f);
}

fn walk(
    c: &mut Counts,
    from: usize,
    stack: &mut [Part; 4],
    n: usize,
    pair: Option<Tile>,
    f: &mut dyn FnMut(&[Part], Tile),
) {
    let mut i = from;
    while i < KINDS && c[i] == 0 {
        i += 1;
    }
    if i == KINDS {
        if let Some(p) = pair {
            f(&stack[..n], p);
        }
        return;
    }
    let t = Tile::from_index(i).expect("index below 34");
    if c[i] >= 3 && n < 4 {
        c[i] -= 3;
        stack[n] = Part::Pung(t);
        walk(c, i, stack, n + 1, pair, f);
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 && n < 4 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        stack[n] = Part::Chow(t);
        walk(c, i, stack, n + 1, pair, f);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if pair.is_none() && c[i] >= 2 {
        c[i] -= 2;
        walk(c, i, stack, n, Some(t), f);
        c[i] += 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tiles;
    use crate::tile::counts_of;

    fn c(s: &str) -> Counts {
        counts_of(&parse_tiles(s).unwrap())
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
