//! Shortcuts that let a bot measure fewer routes and get the same answers: floors (a
//! distance a route cannot go below, from the hand before a tile was taken out or from
//! its missing fixed tiles) and, for a tile added, each route's improving tiles from one
//! pass over its groups instead of a distance per tile.

use super::{
    chows_needed, distance, dragons_needed, flush_tiles, left_by, only, outside_flush,
    valued_honour, valued_honours, Route, RouteKind, Shape, CLOSED,
};
use mcr::tile::KINDS;
use mcr::wait::shanten_regular_improvers;

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

/// [`super::best`]'s distance alone, fewer routes measured: the routes without a floor
/// first, then the others lowest floor first, until the floors reach the best distance
/// found (a route cannot come nearer than its floor). Without the route to break ties
/// by, the order is free; the distance is the same.
pub fn best_distance(routes: &[Route], h: &Shape) -> i32 {
    // The floors on the stack: a belief asks this for every world's hand it weighs.
    const MOST: usize = 96;
    if routes.len() > MOST {
        return super::best(routes, h).0;
    }
    let mut floors = [CLOSED; MOST];
    let (mut best, mut lowest, mut highest) = (CLOSED, CLOSED, i32::MIN);
    for (r, f) in routes.iter().zip(floors.iter_mut()) {
        *f = floor(r, h);
        if *f == i32::MIN {
            best = best.min(distance(r, h));
        } else if *f < CLOSED {
            lowest = lowest.min(*f);
            highest = highest.max(*f);
        }
    }
    let mut t = lowest;
    while t < best && t <= highest {
        for (r, &f) in routes.iter().zip(&floors) {
            if f == t {
                best = best.min(distance(r, h));
            }
        }
        t += 1;
    }
    best
}

/// A distance route `r` cannot beat on this hand, found without a shanten: its missing
/// fixed tiles, less one (the rest is at best complete); for a flush, the shanten its
/// kept tiles could reach at best. The other routes without fixed tiles get no floor
/// (`i32::MIN`).
pub fn floor(r: &Route, h: &Shape) -> i32 {
    let (c, melds) = (h.conc, h.melds);
    // Counted without taking the tiles out: this runs for every route measured.
    let missing = match r.kind {
        RouteKind::Chows(lows) => {
            let Some((need, _)) = chows_needed(lows, melds) else {
                return CLOSED;
            };
            // The three chows of a route share no tile: each fixed tile is needed once.
            // Counted without a branch per tile (this runs for every route, every hand).
            (0..3)
                .map(|i| {
                    let l = lows[i] as usize;
                    let absent =
                        (c[l] == 0) as i32 + (c[l + 1] == 0) as i32 + (c[l + 2] == 0) as i32;
                    i32::from(need[i]) * absent
                })
                .sum()
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
        RouteKind::DragonPungs(pair) => {
            let Some((need, _)) = dragons_needed(pair, melds) else {
                return CLOSED;
            };
            (0..2)
                .filter(|&i| need[i])
                .map(|i| 3 - c[pair[i] as usize].min(3) as i32)
                .sum()
        }
        RouteKind::FullFlush(s) | RouteKind::HalfFlush(s) => {
            if outside_flush(r.kind, melds) {
                return CLOSED;
            }
            // A regular shanten is 8 less 2 a declared set with no tile held, and falls by
            // one at most for each tile added: the tiles the flush keeps bound it (its
            // penalty, waived on some hands, left out).
            let sum = |tiles: &[u8]| tiles.iter().map(|&x| i32::from(x)).sum::<i32>();
            let suit = 9 * s as usize;
            let honours = match r.kind {
                RouteKind::HalfFlush(_) => sum(&c[27..KINDS]),
                _ => 0,
            };
            return 8 - 2 * melds.len().min(4) as i32 - sum(&c[suit..suit + 9]) - honours;
        }
        _ => return i32::MIN,
    };
    missing - 1 + r.penalty
}

/// The tiles among `cands` that bring route `r` nearer than `d` when added to the hand, for
/// the routes whose distance is fixed tiles plus a regular shanten (chows, the knitted
/// straight, the flushes, dragon pungs): a missing fixed tile fills its gap, any other
/// tile goes to the rest, whose improving tiles come from one call
/// ([`shanten_regular_improvers`]) instead of one distance per tile. `None` for the other
/// routes: measure those tile by tile.
pub fn improvers(r: &Route, h: &Shape, cands: u64, d: i32) -> Option<u64> {
    let (c, melds) = (h.conc, h.melds);
    // A closed route stays closed whatever tile is added.
    let closed = Some(if CLOSED < d { cands } else { 0 });
    match r.kind {
        RouteKind::Chows(_) | RouteKind::Knitted(_) | RouteKind::DragonPungs(_) => {
            let Some(l) = left_by(r, c, melds) else {
                return closed;
            };
            let others = cands & !l.gaps;
            let (sh, better) = shanten_regular_improvers(&l.rest, l.sets, others);
            let now = l.missing + sh + r.penalty;
            let mut out = 0;
            if now - 1 < d {
                out |= cands & l.gaps;
            }
            if now < d {
                out |= others;
            } else if now - 1 < d {
                out |= better;
            }
            Some(out)
        }
        RouteKind::FullFlush(_) | RouteKind::HalfFlush(_) => {
            let kept = flush_tiles(r.kind);
            if melds.iter().any(|m| kept & (1 << m.tile.index()) == 0) {
                return closed;
            }
            // A tile the flush does not keep is dropped: it changes nothing.
            let (sh, better) = shanten_regular_improvers(&only(c, kept), melds.len(), cands & kept);
            // A half flush's penalty goes when a valued honour becomes a pair.
            let half = matches!(r.kind, RouteKind::HalfFlush(_));
            let (now, waivers) = if !half || valued_honour(h) {
                (sh + if half { 0 } else { r.penalty }, 0)
            } else {
                let singles = (27..KINDS)
                    .filter(|&i| c[i] == 1)
                    .fold(0, |m, i| m | 1 << i);
                (sh + r.penalty, cands & valued_honours(h) & singles)
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
            Some(out)
        }
        _ => None,
    }
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
    fn the_best_distance_by_floors_is_the_best_over_every_route() {
        let melds = [Meld::pung(Tile::from_index(31).unwrap(), 2)];
        let (mut seen, mut ready) = (0, 0);
        for (c, melds) in random_hands(400, 13)
            .into_iter()
            .map(|c| (c, &[][..]))
            .chain(random_hands(200, 10).into_iter().map(|c| (c, &melds[..])))
        {
            let h = Shape {
                conc: &c,
                melds,
                seat: Wind::South,
                prevalent: Wind::East,
            };
            // Every route measured, as a plain minimum.
            let all = routes().iter().map(|r| distance(r, &h)).min().unwrap();
            assert_eq!(best_distance(routes(), &h), all, "{c:?} beside {melds:?}");
            assert_eq!(super::super::best(routes(), &h).0, all, "{c:?}");
            seen += 1;
            ready += (all <= 1) as u32;
        }
        // Random hands are far from ready; some come near.
        assert_eq!(seen, 600);
        assert!(ready > 0, "no random hand within a tile of ready");
    }

    #[test]
    fn no_route_is_nearer_than_its_floor() {
        let melds = [Meld::chow(Tile::from_index(9).unwrap(), 1).unwrap()];
        // Hands mostly of one suit and the honours too, where the flushes are open and
        // near.
        let leaning: Vec<[u8; KINDS]> = random_hands(300, 40)
            .into_iter()
            .map(|c| {
                let mut d = [0u8; KINDS];
                let mut left = 14;
                for i in (0..9).chain(27..KINDS).chain(9..27) {
                    let take = c[i].min(left);
                    d[i] = take;
                    left -= take;
                }
                d
            })
            .collect();
        for (c, melds) in random_hands(300, 14)
            .into_iter()
            .chain(leaning)
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
