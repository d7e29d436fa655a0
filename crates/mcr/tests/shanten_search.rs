//! Shanten of every shape, and waits, against their definition by exhaustive search.
//!
//! A 13-tile hand is ready (shanten 0) for a shape when some tile (never a fifth copy)
//! completes that shape; it is 1 away when it is not ready and one exchange (a held tile
//! out, any tile in) makes it ready.
//!
//! Shanten counts shapes, not copies: `1111m555m222s888p` counts as ready, on a fifth 1m
//! that no wall holds, and its waits are empty. A fifth copy can only be wanted by a hand
//! that holds all four of a kind, so on such hands the formula may say less than the search,
//! never more; on every other hand the two must be equal. Waits count copies and must
//! always equal the search. The search tries every such tile and exchange, so it shares
//! nothing with the counting formulas in `mcr::wait`. Hands are built near each shape (a
//! complete hand of it, one tile taken out, then up to two random exchanges), so the sample
//! covers shanten 0, 1 and 2+ of every shape instead of the 3–5 of random deals.

use mcr::shape::{
    honors_and_knitted, is_knitted_complete, is_regular_complete, is_seven_pairs,
    is_thirteen_orphans, knitted_tiles, ORPHANS,
};
use mcr::tile::{Counts, KINDS};
use mcr::wait::{
    shanten_honors_knitted, shanten_knitted_straight, shanten_regular, shanten_seven_pairs,
    shanten_thirteen_orphans, winning_tiles_counts,
};

/// A small deterministic generator (xorshift64*), so failures name a reproducible case.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n as u64) as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum ShapeKind {
    Regular,
    SevenPairs,
    Orphans,
    HonorsKnitted,
    KnittedStraight,
}

const SHAPES: [ShapeKind; 5] = [
    ShapeKind::Regular,
    ShapeKind::SevenPairs,
    ShapeKind::Orphans,
    ShapeKind::HonorsKnitted,
    ShapeKind::KnittedStraight,
];

fn complete(shape: ShapeKind, c: &Counts) -> bool {
    match shape {
        ShapeKind::Regular => is_regular_complete(c),
        ShapeKind::SevenPairs => is_seven_pairs(c),
        ShapeKind::Orphans => is_thirteen_orphans(c),
        ShapeKind::HonorsKnitted => honors_and_knitted(c).is_some(),
        ShapeKind::KnittedStraight => is_knitted_complete(c),
    }
}

fn formula(shape: ShapeKind, c: &Counts) -> i32 {
    match shape {
        ShapeKind::Regular => shanten_regular(c, 0),
        ShapeKind::SevenPairs => shanten_seven_pairs(c),
        ShapeKind::Orphans => shanten_thirteen_orphans(c),
        ShapeKind::HonorsKnitted => shanten_honors_knitted(c),
        ShapeKind::KnittedStraight => shanten_knitted_straight(c, 0),
    }
}

/// The tiles that complete `c` into `shape` (never a fifth copy).
fn completions(shape: ShapeKind, c: &Counts) -> u64 {
    let mut d = *c;
    let mut out = 0;
    for i in 0..KINDS {
        if d[i] >= 4 {
            continue;
        }
        d[i] += 1;
        if complete(shape, &d) {
            out |= 1 << i;
        }
        d[i] -= 1;
    }
    out
}

/// Shanten by search, capped at 2: 0 ready, 1 one exchange from ready, 2 anything else.
fn searched(shape: ShapeKind, c: &Counts) -> i32 {
    if completions(shape, c) != 0 {
        return 0;
    }
    let mut d = *c;
    for out in 0..KINDS {
        if d[out] == 0 {
            continue;
        }
        d[out] -= 1;
        for inn in 0..KINDS {
            if inn == out || d[inn] >= 4 {
                continue;
            }
            d[inn] += 1;
            let ready = completions(shape, &d) != 0;
            d[inn] -= 1;
            if ready {
                return 1;
            }
        }
        d[out] += 1;
    }
    2
}

/// Adds `t` if a copy is left; false when all four are used.
fn add(c: &mut Counts, t: usize) -> bool {
    if c[t] >= 4 {
        return false;
    }
    c[t] += 1;
    true
}

/// A random complete 14-tile hand of `shape`.
fn complete_hand(shape: ShapeKind, rng: &mut Rng) -> Counts {
    'again: loop {
        let mut c = [0u8; KINDS];
        let set = |c: &mut Counts, rng: &mut Rng| -> bool {
            if rng.below(2) == 0 {
                let s = rng.below(3);
                let r = rng.below(7);
                (0..3).all(|k| add(c, 9 * s + r + k))
            } else {
                let t = rng.below(KINDS);
                (0..3).all(|_| add(c, t))
            }
        };
        let ok = match shape {
            ShapeKind::Regular => {
                (0..4).all(|_| set(&mut c, rng)) && {
                    let p = rng.below(KINDS);
                    add(&mut c, p) && add(&mut c, p)
                }
            }
            ShapeKind::SevenPairs => (0..7).all(|_| {
                let p = rng.below(KINDS);
                add(&mut c, p) && add(&mut c, p)
            }),
            ShapeKind::Orphans => {
                ORPHANS.iter().all(|&i| add(&mut c, i)) && add(&mut c, ORPHANS[rng.below(13)])
            }
            ShapeKind::HonorsKnitted => {
                let k = rng.below(6);
                let mut pool: Vec<usize> = knitted_tiles(k)
                    .iter()
                    .map(|t| t.index())
                    .chain(27..34)
                    .collect();
                // Leave out two of the sixteen.
                pool.remove(rng.below(pool.len()));
                pool.remove(rng.below(pool.len()));
                pool.iter().all(|&i| add(&mut c, i))
            }
            ShapeKind::KnittedStraight => {
                let k = rng.below(6);
                knitted_tiles(k).iter().all(|t| add(&mut c, t.index())) && set(&mut c, rng) && {
                    let p = rng.below(KINDS);
                    add(&mut c, p) && add(&mut c, p)
                }
            }
        };
        if ok && complete(shape, &c) {
            return c;
        }
        continue 'again;
    }
}

/// A 13-tile hand near `shape`: a complete hand less one tile, then `swaps` exchanges.
fn near_hand(shape: ShapeKind, rng: &mut Rng, swaps: usize) -> Counts {
    let mut c = complete_hand(shape, rng);
    let remove_one = |c: &mut Counts, rng: &mut Rng| {
        let held: Vec<usize> = (0..KINDS).filter(|&i| c[i] > 0).collect();
        c[held[rng.below(held.len())]] -= 1;
    };
    remove_one(&mut c, rng);
    for _ in 0..swaps {
        remove_one(&mut c, rng);
        while !add(&mut c, rng.below(KINDS)) {}
    }
    c
}

fn text(c: &Counts) -> String {
    mcr::Tile::all()
        .flat_map(|t| std::iter::repeat_n(t.code(), c[t.index()] as usize))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `n` hands per shape and swap count; returns how many hands had each searched value.
fn check(n: usize, seed: u64) -> ([[usize; 3]; 5], usize) {
    let mut seen = [[0usize; 3]; 5];
    let mut fours_below = 0;
    let mut rng = Rng(seed | 1);
    for (si, &shape) in SHAPES.iter().enumerate() {
        for swaps in 0..3 {
            for _ in 0..n {
                let c = near_hand(shape, &mut rng, swaps);
                // Every shape's formula, on this hand, against the search.
                let four = c.contains(&4);
                for &other in &SHAPES {
                    let want = searched(other, &c);
                    let got = formula(other, &c).min(2);
                    if four {
                        assert!(
                            got <= want,
                            "{other:?} shanten of {}: {got} > {want}",
                            text(&c)
                        );
                        fours_below += (got < want) as usize;
                    } else {
                        assert_eq!(got, want, "{other:?} shanten of {}", text(&c));
                    }
                }
                seen[si][searched(shape, &c) as usize] += 1;
                // The waits of the whole hand: every tile that completes some shape.
                let all = SHAPES.iter().fold(0, |m, &s| m | completions(s, &c));
                assert_eq!(
                    winning_tiles_counts(&c, &c, 0),
                    all,
                    "waits of {}",
                    text(&c)
                );
            }
        }
    }
    (seen, fours_below)
}

#[test]
fn four_of_a_kind_is_two_pairs_for_seven_pairs() {
    // The hand: 11s 9999p SS NN CC F waits on F, as `dupmj fan` scores
    // 11s9999pSSNNCCFF as Seven Pairs.
    let c = mcr::tile::counts_of(&mcr::parse_tiles("11s9999pSSNNCCF").unwrap());
    assert_eq!(shanten_seven_pairs(&c), 0);
    let f = mcr::Tile::parse("F").unwrap();
    assert_eq!(winning_tiles_counts(&c, &c, 0), 1 << f.index());
    let sh = mcr::shanten(&mcr::parse_tiles("11s9999pSSNNCCF").unwrap(), &[]);
    assert_eq!(sh.min(), 0);
}

#[test]
fn every_shape_agrees_with_the_search() {
    let (seen, _) = check(80, 7);
    // The sample reaches every class for every shape.
    for (shape, counts) in SHAPES.iter().zip(seen) {
        assert!(counts.iter().all(|&k| k > 0), "{shape:?}: {counts:?}");
    }
}

/// The large sample: `cargo test --release -p mcr --test shanten_search -- --ignored`.
#[test]
#[ignore]
fn every_shape_agrees_with_the_search_large() {
    let n: usize = std::env::var("SHANTEN_HANDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    let (seen, below) = check(n, 11);
    eprintln!(
        "{} hands per shape: searched shanten 0/1/2+ {seen:?}; {below} shape shanten below the search on hands holding a four",
        3 * n
    );
}
