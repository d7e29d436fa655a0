//! Shortcuts that let a bot measure fewer routes and get the same answers: floors (a
//! distance a route cannot go below, from the hand before a tile was taken out or from
//! its missing fixed tiles) and, for a tile added, each route's improving tiles from one
//! pass over its groups instead of a distance per tile.

use mcr::tile::KINDS;
use mcr::wait::shanten_regular_improvers;
use mcr::MeldKind;

use super::{distance, suit_of, valued_honour, Route, RouteKind, Shape, CLOSED};

/// As [`super::best`], for routes each given with a floor: a distance it cannot go below on this
/// hand (its distance on the hand before a tile was taken out: taking a tile out never
/// brings a route nearer). A route whose floor is no lower than the best found so far
/// cannot beat it and is not measured; the answer is the same as [`super::best`]'s.
pub fn best_floored(routes: &[(Route, i32)], h: &Shape) -> (i32, Option<Route>) {
    let mut best = (CLOSED, None);
    for (r, floor) in routes {
        if *floor >= best.0 {
            continue;
        }
        let d = distance(r, h);
        if d < best.0 {
            best = (d, Some(*r));
        }
    }
    best
}

/// A distance route `r` cannot beat on this hand, found without a shanten: its missing
/// fixed tiles, less one (the rest is at best complete). Routes without fixed tiles get
/// no floor (`i32::MIN`).
pub fn floor(r: &Route, h: &Shape) -> i32 {
    let (c, melds) = (h.conc, h.melds);
    let missing = match r.kind {
        RouteKind::Chows(lows) => {
            let mut need = [true; 3];
            let mut other = 0;
            for m in melds {
                let hit = (m.kind == MeldKind::Chow)
                    .then(|| (0..3).find(|&i| need[i] && lows[i] as usize == m.tile.index()))
                    .flatten();
                match hit {
                    Some(i) => need[i] = false,
                    None => other += 1,
                }
            }
            if other > 1 {
                return CLOSED;
            }
            // The three chows of a route share no tile: each fixed tile is needed once.
            (0..3)
                .filter(|&i| need[i])
                .flat_map(|i| lows[i] as usize..lows[i] as usize + 3)
                .filter(|&x| c[x] == 0)
                .count() as i32
        }
        RouteKind::Knitted(k) => {
            if melds.len() > 1 {
                return CLOSED;
            }
            mcr::shape::knitted_tiles(k as usize)
                .iter()
                .filter(|t| c[t.index()] == 0)
                .count() as i32
        }
        _ => return i32::MIN,
    };
    missing - 1 + r.penalty
}

/// The tiles among `cands` that bring route `r` nearer than `d` when added to the hand, for
/// the routes whose distance is fixed tiles plus a regular shanten (chows, the knitted
/// straight, a full flush, dragon pungs): a missing fixed tile fills its gap, any other
/// tile goes to the rest, whose improving tiles come from one call
/// ([`shanten_regular_improvers`]) instead of one distance per tile. `None` for the other
/// routes (their penalty can change with the tile added): measure those tile by tile.
pub fn improvers(r: &Route, h: &Shape, cands: u64, d: i32) -> Option<u64> {
    let (c, melds) = (h.conc, h.melds);
    // A closed route stays closed whatever tile is added.
    let closed = Some(if CLOSED < d { cands } else { 0 });
    // The rest after the fixed tiles, the missing fixed tiles (each fills one gap), and
    // the sets the rest must still make.
    let (rest, missing, gaps, sets) = match r.kind {
        RouteKind::Chows(lows) => {
            let mut need = [true; 3];
            let mut other = 0;
            for m in melds {
                let hit = (m.kind == MeldKind::Chow)
                    .then(|| (0..3).find(|&i| need[i] && lows[i] as usize == m.tile.index()))
                    .flatten();
                match hit {
                    Some(i) => need[i] = false,
                    None => other += 1,
                }
            }
            if other > 1 {
                return closed;
            }
            let mut rest = *c;
            let (mut missing, mut gaps) = (0, 0u64);
            for (i, &low) in lows.iter().enumerate() {
                if need[i] {
                    let low = low as usize;
                    for (x, n) in rest.iter_mut().enumerate().skip(low).take(3) {
                        if *n > 0 {
                            *n -= 1;
                        } else {
                            missing += 1;
                            gaps |= 1 << x;
                        }
                    }
                }
            }
            (rest, missing, gaps, 3 + other)
        }
        RouteKind::Knitted(k) => {
            if melds.len() > 1 {
                return closed;
            }
            let mut rest = *c;
            let (mut missing, mut gaps) = (0, 0u64);
            for t in mcr::shape::knitted_tiles(k as usize) {
                if rest[t.index()] > 0 {
                    rest[t.index()] -= 1;
                } else {
                    missing += 1;
                    gaps |= 1 << t.index();
                }
            }
            (rest, missing, gaps, 3 + melds.len())
        }
        RouteKind::FullFlush(s) => {
            if melds.iter().any(|m| suit_of(m.tile.index()) != s as usize) {
                return closed;
            }
            let mut rest = [0u8; KINDS];
            let range = 9 * s as usize..9 * s as usize + 9;
            rest[range.clone()].copy_from_slice(&c[range]);
            // A tile of another suit is dropped: it changes nothing.
            let suit = 0x1ffu64 << (9 * s as u32);
            let (sh, better) = shanten_regular_improvers(&rest, melds.len(), cands & suit);
            let now = sh + r.penalty;
            return Some(if now < d {
                cands
            } else if now - 1 < d {
                better
            } else {
                0
            });
        }
        RouteKind::HalfFlush(s) => {
            let kept = (0x1ffu64 << (9 * s as u32)) | (0x7f << 27);
            if melds.iter().any(|m| kept & (1 << m.tile.index()) == 0) {
                return closed;
            }
            let mut rest = [0u8; KINDS];
            for (i, x) in rest.iter_mut().enumerate() {
                if kept & (1 << i) != 0 {
                    *x = c[i];
                }
            }
            let (sh, better) = shanten_regular_improvers(&rest, melds.len(), cands & kept);
            // The penalty goes when a valued honour becomes a pair.
            let (now, waivers) = if valued_honour(h) {
                (sh, 0)
            } else {
                let valued = (0x7u64 << 31)
                    | (1 << (27 + h.seat.index()))
                    | (1 << (27 + h.prevalent.index()));
                let singles = (27..KINDS)
                    .filter(|&i| c[i] == 1)
                    .fold(0, |m, i| m | 1 << i);
                (sh + r.penalty, cands & valued & singles)
            };
            // Nearer by two, by one, or (a tile of another suit, or one that helps neither)
            // not at all.
            let two = better & waivers;
            let one = (better | waivers) & !two;
            let mut out = 0;
            if now - 2 < d {
                out |= two;
            }
            if now - 1 < d {
                out |= one | two;
            }
            if now < d {
                out |= cands;
            }
            return Some(out);
        }
        RouteKind::DragonPungs(pair) => {
            let mut need = [true; 2];
            let mut other = 0;
            for m in melds {
                match (0..2).find(|&i| need[i] && pair[i] as usize == m.tile.index()) {
                    Some(i) if m.kind != MeldKind::Chow => need[i] = false,
                    _ => other += 1,
                }
            }
            if other > 2 {
                return closed;
            }
            let mut rest = *c;
            let (mut missing, mut gaps) = (0, 0u64);
            for (i, &t) in pair.iter().enumerate() {
                if need[i] {
                    let have = rest[t as usize].min(3);
                    missing += 3 - have as i32;
                    rest[t as usize] -= have;
                    if have < 3 {
                        gaps |= 1 << t;
                    }
                }
            }
            (rest, missing, gaps, 2 + other)
        }
        _ => return None,
    };
    let others = cands & !gaps;
    let (sh, better) = shanten_regular_improvers(&rest, sets, others);
    let now = missing + sh + r.penalty;
    let mut out = 0;
    if now - 1 < d {
        out |= cands & gaps;
    }
    if now < d {
        out |= others;
    } else if now - 1 < d {
        out |= better;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::routes;
    use mcr::tile::Counts;
    use mcr::{Meld, Tile, Wind};

    /// Hands of 13 and 14 tiles drawn from shuffled walls, with no declared sets.
    fn random_hands(n: usize, size: usize) -> Vec<Counts> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|_| {
                let mut wall: Vec<usize> = (0..136).map(|k| k / 4).collect();
                for k in (1..wall.len()).rev() {
                    wall.swap(k, (next() % (k as u64 + 1)) as usize);
                }
                let mut c = [0u8; KINDS];
                wall[..size].iter().for_each(|&t| c[t] += 1);
                c
            })
            .collect()
    }

    #[test]
    fn improvers_are_the_tiles_that_bring_a_route_nearer() {
        let melds_sets = [
            vec![],
            vec![Meld::pung(Tile::from_index(31).unwrap(), 1)],
            vec![Meld::chow(Tile::from_index(0).unwrap(), 1).unwrap()],
        ];
        let mut checked = 0;
        for melds in &melds_sets {
            for c in random_hands(150, 13 - 3 * melds.len()) {
                let h = Shape {
                    conc: &c,
                    melds,
                    seat: Wind::East,
                    prevalent: Wind::South,
                };
                for r in routes() {
                    let now = distance(r, &h);
                    for d in [now - 1, now, now + 1] {
                        let Some(got) = improvers(r, &h, (1 << KINDS) - 1, d) else {
                            continue;
                        };
                        let mut want = 0u64;
                        for i in 0..KINDS {
                            let mut e = c;
                            e[i] += 1;
                            let he = Shape { conc: &e, ..h };
                            if distance(r, &he) < d {
                                want |= 1 << i;
                            }
                        }
                        assert_eq!(got, want, "{r:?} on {c:?} with {melds:?}, below {d}");
                        checked += 1;
                    }
                }
            }
        }
        // Every route but seven pairs, the honours and knitted, the orphans and all pungs,
        // three targets each, on 450 hands.
        assert_eq!(checked, 450 * 3 * (routes().len() - 3 - 1));
    }

    #[test]
    fn taking_a_tile_out_never_brings_a_route_nearer() {
        // What best_floored relies on.
        for c in random_hands(300, 14) {
            let h = Shape {
                conc: &c,
                melds: &[],
                seat: Wind::North,
                prevalent: Wind::East,
            };
            for r in routes() {
                let before = distance(r, &h);
                for i in (0..KINDS).filter(|&i| c[i] > 0) {
                    let mut e = c;
                    e[i] -= 1;
                    let after = distance(r, &Shape { conc: &e, ..h });
                    assert!(
                        after >= before,
                        "{r:?} on {c:?} without {i}: {after} < {before}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_route_is_nearer_than_its_floor() {
        let melds = [Meld::chow(Tile::from_index(9).unwrap(), 1).unwrap()];
        for (c, melds) in random_hands(300, 14)
            .into_iter()
            .map(|c| (c, &[][..]))
            .chain(random_hands(300, 11).into_iter().map(|c| (c, &melds[..])))
        {
            let h = Shape {
                conc: &c,
                melds,
                seat: Wind::West,
                prevalent: Wind::East,
            };
            for r in routes() {
                let (f, d) = (floor(r, &h), distance(r, &h));
                assert!(f <= d, "{r:?} on {c:?}: floor {f} above distance {d}");
                if f == CLOSED {
                    assert_eq!(d, CLOSED);
                }
            }
        }
    }
}
