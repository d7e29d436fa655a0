//! Fan routes: the common ways an MCR hand reaches 8 points, and how far a hand is from
//! being ready on each.
//!
//! A route fixes part of the hand — three chows (Pure Straight, Mixed Straight, Mixed
//! Triple Chow, Mixed Shifted Chows), the knitted straight, two dragon pungs — or restricts
//! it (one suit, one suit and honours, pungs only, pairs only). Its distance is the number of
//! tiles still to exchange before the hand is ready on that route (0 ready), counted as in
//! shanten: missing fixed tiles plus the shanten of the rest, which must still make the
//! sets and the pair the route leaves free. Routes worth less than 8 on their own carry a
//! penalty of one tile: they need another fan on top.

use mcr::tile::{Counts, KINDS};
use mcr::wait::{
    shanten_honors_knitted, shanten_regular, shanten_seven_pairs, shanten_thirteen_orphans,
};
use mcr::{Meld, MeldKind, Tile, Wind};

mod bounds;
pub use bounds::{best_distance, best_floored, floor, improvers};

/// A distance no hand reaches: the route is closed.
pub const CLOSED: i32 = 99;

/// What a route asks of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteKind {
    /// Three chows, by their lowest tile's index.
    Chows([u8; 3]),
    /// The knitted straight with this index (`mcr::shape::KNITS`).
    Knitted(u8),
    /// Seven pairs.
    SevenPairs,
    /// Honours and knitted tiles.
    HonorsKnitted,
    /// Thirteen orphans.
    Orphans,
    /// Every tile of one suit (0 characters, 1 bamboo, 2 dots).
    FullFlush(u8),
    /// One suit and honours.
    HalfFlush(u8),
    /// All pungs.
    AllPungs,
    /// Pungs of two dragons (tile indices).
    DragonPungs([u8; 2]),
}

/// A route with the fan it aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// Which shape of hand it aims at.
    pub kind: RouteKind,
    /// The fan it would score.
    pub fan: mcr::Fan,
    /// Tiles added to the distance because the fan alone is worth less than 8.
    pub penalty: i32,
}

/// Every route the planner follows.
pub fn routes() -> &'static [Route] {
    static ROUTES: std::sync::OnceLock<Vec<Route>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| {
        use mcr::Fan;
        let mut v = Vec::new();
        let route = |kind, fan, penalty| Route { kind, fan, penalty };
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        for s in 0..3u8 {
            v.push(route(
                RouteKind::Chows([9 * s, 9 * s + 3, 9 * s + 6]),
                Fan::PureStraight,
                0,
            ));
        }
        for p in perms {
            v.push(route(
                RouteKind::Chows([9 * p[0], 9 * p[1] + 3, 9 * p[2] + 6]),
                Fan::MixedStraight,
                0,
            ));
        }
        for k in 0..7u8 {
            v.push(route(
                RouteKind::Chows([k, 9 + k, 18 + k]),
                Fan::MixedTripleChow,
                0,
            ));
        }
        for p in perms {
            for k in 0..5u8 {
                v.push(route(
                    RouteKind::Chows([9 * p[0] + k, 9 * p[1] + k + 1, 9 * p[2] + k + 2]),
                    Fan::MixedShiftedChows,
                    0,
                ));
            }
        }
        for k in 0..6u8 {
            v.push(route(RouteKind::Knitted(k), Fan::KnittedStraight, 0));
        }
        v.push(route(RouteKind::SevenPairs, Fan::SevenPairs, 0));
        v.push(route(
            RouteKind::HonorsKnitted,
            Fan::LesserHonorsAndKnittedTiles,
            0,
        ));
        v.push(route(RouteKind::Orphans, Fan::ThirteenOrphans, 0));
        for s in 0..3u8 {
            v.push(route(RouteKind::FullFlush(s), Fan::FullFlush, 0));
            v.push(route(RouteKind::HalfFlush(s), Fan::HalfFlush, 1));
        }
        v.push(route(RouteKind::AllPungs, Fan::AllPungs, 1));
        for pair in [[31u8, 32], [31, 33], [32, 33]] {
            v.push(route(RouteKind::DragonPungs(pair), Fan::TwoDragonsPungs, 1));
        }
        v
    })
}

/// The hand a route is measured on: concealed counts, declared sets, and the winds (some
/// penalties depend on which honours are worth points).
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// Counts of the concealed tiles.
    pub conc: &'a Counts,
    /// The declared sets.
    pub melds: &'a [Meld],
    /// The seat wind.
    pub seat: Wind,
    /// The prevalent wind.
    pub prevalent: Wind,
}

/// The route's distance for this hand (its penalty included), or [`CLOSED`].
pub fn distance(r: &Route, h: &Shape) -> i32 {
    let d = raw_distance(r, h);
    if d >= CLOSED {
        return CLOSED;
    }
    let waived = match r.kind {
        RouteKind::HalfFlush(_) => valued_honour(h),
        RouteKind::AllPungs => terminal_or_honour_sets(h) >= 2,
        _ => false,
    };
    d + if waived { 0 } else { r.penalty }
}

fn raw_distance(r: &Route, h: &Shape) -> i32 {
    let (c, melds) = (h.conc, h.melds);
    match r.kind {
        RouteKind::Chows(_) | RouteKind::Knitted(_) | RouteKind::DragonPungs(_) => {
            match left_by(r, c, melds) {
                Some(l) => l.missing + shanten_regular(&l.rest, l.sets),
                None => CLOSED,
            }
        }
        RouteKind::SevenPairs if melds.is_empty() => shanten_seven_pairs(c),
        RouteKind::HonorsKnitted if melds.is_empty() => shanten_honors_knitted(c),
        RouteKind::Orphans if melds.is_empty() => shanten_thirteen_orphans(c),
        RouteKind::SevenPairs | RouteKind::HonorsKnitted | RouteKind::Orphans => CLOSED,
        RouteKind::FullFlush(_) | RouteKind::HalfFlush(_) => {
            if outside_flush(r.kind, melds) {
                return CLOSED;
            }
            shanten_regular(&only(c, flush_tiles(r.kind)), melds.len())
        }
        RouteKind::AllPungs => {
            if melds.iter().any(|m| m.kind == MeldKind::Chow) {
                return CLOSED;
            }
            all_pungs(c, 4 - melds.len().min(4))
        }
    }
}

/// What a route's fixed tiles leave of a hand.
struct Left {
    /// The concealed counts once the fixed tiles held are taken out.
    rest: Counts,
    /// Fixed tiles not held.
    missing: i32,
    /// The kinds of the missing fixed tiles, a bit each (one more of each fills a gap).
    gaps: u64,
    /// The sets counted as made before the rest (declared and fixed).
    sets: usize,
}

/// The hand left by a route with fixed tiles (three chows, the knitted straight, two
/// dragon pungs); `None` when its declared sets close the route, or for a route without
/// fixed tiles.
#[inline(always)]
fn left_by(r: &Route, c: &Counts, melds: &[Meld]) -> Option<Left> {
    let mut rest = *c;
    let (mut missing, mut gaps) = (0, 0u64);
    // One of each tile in `tiles`, or a gap.
    fn take(
        rest: &mut Counts,
        missing: &mut i32,
        gaps: &mut u64,
        tiles: impl Iterator<Item = usize>,
    ) {
        for x in tiles {
            if rest[x] > 0 {
                rest[x] -= 1;
            } else {
                *missing += 1;
                *gaps |= 1 << x;
            }
        }
    }
    let sets = match r.kind {
        RouteKind::Chows(lows) => {
            let (need, other) = chows_needed(lows, melds)?;
            for (i, &low) in lows.iter().enumerate() {
                if need[i] {
                    take(
                        &mut rest,
                        &mut missing,
                        &mut gaps,
                        low as usize..low as usize + 3,
                    );
                }
            }
            3 + other
        }
        RouteKind::Knitted(k) => {
            if melds.len() > 1 {
                return None;
            }
            take(
                &mut rest,
                &mut missing,
                &mut gaps,
                mcr::shape::knitted_tiles(k as usize)
                    .iter()
                    .map(|t| t.index()),
            );
            3 + melds.len()
        }
        RouteKind::DragonPungs(pair) => {
            let (need, other) = dragons_needed(pair, melds)?;
            for (i, &t) in pair.iter().enumerate() {
                if need[i] {
                    let t = t as usize;
                    let have = rest[t].min(3);
                    missing += 3 - have as i32;
                    rest[t] -= have;
                    if have < 3 {
                        gaps |= 1 << t;
                    }
                }
            }
            2 + other
        }
        _ => return None,
    };
    Some(Left {
        rest,
        missing,
        gaps,
        sets,
    })
}

/// Which of a dragon route's two pungs are still to make in the hand (the others are
/// declared), and how many declared sets are not among them; `None` when more than two
/// are not (the route is closed).
fn dragons_needed(pair: [u8; 2], melds: &[Meld]) -> Option<([bool; 2], usize)> {
    let mut need = [true; 2];
    let mut other = 0;
    for m in melds {
        match (0..2).find(|&i| need[i] && pair[i] as usize == m.tile.index()) {
            Some(i) if m.kind != MeldKind::Chow => need[i] = false,
            _ => other += 1,
        }
    }
    (other <= 2).then_some((need, other))
}

/// Whether a declared set lies outside what a flush keeps (the route is closed).
fn outside_flush(kind: RouteKind, melds: &[Meld]) -> bool {
    let kept = flush_tiles(kind);
    melds.iter().any(|m| kept & (1 << m.tile.index()) == 0)
}

/// Which of a chows route's three chows are still to make in the hand (the others are
/// declared), and how many declared sets are not among them; `None` when more than one is
/// not (the route is closed).
fn chows_needed(lows: [u8; 3], melds: &[Meld]) -> Option<([bool; 3], usize)> {
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
    (other <= 1).then_some((need, other))
}

/// The tiles a flush keeps (its suit, and the honours for a half flush), a bit each.
fn flush_tiles(kind: RouteKind) -> u64 {
    match kind {
        RouteKind::FullFlush(s) => 0x1ff << (9 * s as u32),
        RouteKind::HalfFlush(s) => (0x1ff << (9 * s as u32)) | (0x7f << 27),
        _ => 0,
    }
}

/// The counts of `c` for the kinds in `kept` only.
fn only(c: &Counts, kept: u64) -> Counts {
    let mut d = [0u8; KINDS];
    for (i, x) in d.iter_mut().enumerate() {
        if kept & (1 << i) != 0 {
            *x = c[i];
        }
    }
    d
}

/// Pungs-only distance: `sets` pungs and a pair from the concealed counts.
fn all_pungs(c: &Counts, sets: usize) -> i32 {
    let mut threes = 0;
    let mut twos = 0;
    let mut ones = 0;
    for &x in c.iter() {
        match x {
            0 => {}
            1 => ones += 1,
            2 => twos += 1,
            _ => threes += 1,
        }
    }
    // Tiles needed: each pung from a pair costs 1, from a single 2, from nothing 3; the
    // pair from a pair 0, a single 1, nothing 2. Pungs take the best material first.
    let pungs = threes.min(sets);
    let mut left = sets - pungs;
    let mut need = 0;
    let mut twos_left = twos;
    // Keep a pair for the pair if one exists and pungs do not need it more.
    let pair_cost = if twos_left > left { 0 } else { 1 };
    let use_twos = left.min(if pair_cost == 0 {
        twos_left - 1
    } else {
        twos_left
    });
    need += use_twos as i32;
    twos_left -= use_twos;
    left -= use_twos;
    let use_ones = left.min(ones + twos_left);
    need += 2 * use_ones as i32;
    left -= use_ones;
    need += 3 * left as i32;
    let pair = if twos_left > 0 && pair_cost == 0 {
        0
    } else if ones + twos_left > use_ones {
        1
    } else {
        2
    };
    need + pair - 1
}

/// Does the hand hold a pair or more of a dragon or of a wind worth points to this seat?
fn valued_honour(h: &Shape) -> bool {
    let honours = valued_honours(h);
    let valued = |i: usize| honours & (1 << i) != 0;
    (27..KINDS).any(|i| valued(i) && h.conc[i] >= 2)
        || h.melds
            .iter()
            .any(|m| valued(m.tile.index()) && m.kind != MeldKind::Chow)
}

/// The honours worth points to this seat (the dragons, its seat and the prevalent wind),
/// a bit each.
fn valued_honours(h: &Shape) -> u64 {
    (0x7 << 31) | (1 << (27 + h.seat.index())) | (1 << (27 + h.prevalent.index()))
}

/// Pairs or sets of terminals and honours (material for Pungs of Terminals or Honours).
fn terminal_or_honour_sets(h: &Shape) -> usize {
    let th = |i: usize| i >= 27 || i.is_multiple_of(9) || i % 9 == 8;
    (0..KINDS).filter(|&i| th(i) && h.conc[i] >= 2).count()
        + h.melds
            .iter()
            .filter(|m| m.kind != MeldKind::Chow && th(m.tile.index()))
            .count()
}

/// The lowest distance over `routes`, and the route reaching it (the first, on a tie).
/// A route whose [`floor`] is no lower than the best so far cannot beat it and is not
/// measured: the answer is the same, for a shanten fewer a route passed over.
pub fn best(routes: &[Route], h: &Shape) -> (i32, Option<Route>) {
    let mut best = (CLOSED, None);
    for r in routes {
        if floor(r, h) >= best.0 {
            continue;
        }
        let d = distance(r, h);
        if d < best.0 {
            best = (d, Some(*r));
        }
    }
    best
}

/// The tiles a route still wants beyond what the hand holds (its fixed tiles).
pub fn wanted(r: &Route, conc: &Counts) -> u64 {
    let mut m = 0u64;
    let mut want = |i: usize| {
        if conc[i] == 0 {
            m |= 1 << i;
        }
    };
    match r.kind {
        RouteKind::Chows(lows) => lows
            .iter()
            .flat_map(|&l| l as usize..l as usize + 3)
            .for_each(&mut want),
        RouteKind::Knitted(k) => mcr::shape::knitted_tiles(k as usize)
            .iter()
            .for_each(|t| want(t.index())),
        RouteKind::DragonPungs(p) => p.iter().for_each(|&t| want(t as usize)),
        RouteKind::HonorsKnitted => (27..KINDS).for_each(&mut want),
        RouteKind::Orphans => mcr::shape::ORPHANS.iter().for_each(|&i| want(i)),
        _ => {}
    }
    m
}

/// A tile's index as a [`Tile`].
pub fn tile(i: usize) -> Tile {
    Tile::from_index(i).expect("index below 34")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(s: &str) -> Counts {
        mcr::tile::counts_of(&mcr::parse_tiles(s).unwrap())
    }

    fn dist(fan: mcr::Fan, s: &str) -> i32 {
        let c = hand(s);
        let h = Shape {
            conc: &c,
            melds: &[],
            seat: Wind::East,
            prevalent: Wind::East,
        };
        routes()
            .iter()
            .filter(|r| r.fan == fan)
            .map(|r| distance(r, &h))
            .min()
            .unwrap()
    }

    #[test]
    fn distances_of_worked_hands() {
        use mcr::Fan::*;
        // 123456789m with 55pEE: the straight is there, the rest waits on 5p or E.
        assert_eq!(dist(PureStraight, "123456789m55pEE"), 0);
        // 7m missing, the rest a pung and a pair: ready on 7m.
        assert_eq!(dist(PureStraight, "12345689m555p11s"), 0);
        // 7m missing and the rest a pung and two singles: one exchange more.
        assert_eq!(dist(PureStraight, "12345689m555p1s3s"), 1);
        // 123m 123s 123p with 45p and EE: ready for Mixed Triple Chow (waits 3p/6p).
        assert_eq!(dist(MixedTripleChow, "123m123s12345pEE"), 0);
        // Seven pairs: six pairs and a single, a four counting twice.
        assert_eq!(dist(SevenPairs, "11s9999pSSNNCCF"), 0);
        // All Pungs: three pungs, a pair, a single: ready (needs +1 unless two
        // terminal/honour pairs or pungs: 999s and EE are, so no penalty).
        assert_eq!(dist(AllPungs, "222m555p999sEE33s"), 0);
        // Without terminal or honour material the 6-point route needs another fan.
        assert_eq!(dist(AllPungs, "222m555p888s44s33s"), 1);
        // Full flush: 13 bamboo tiles ready; a stray honour costs one exchange.
        assert_eq!(dist(FullFlush, "1112345678999s"), 0);
        assert_eq!(dist(FullFlush, "111234567899sE"), 1);
    }

    #[test]
    fn melds_open_and_close_routes() {
        let c = hand("456m789m55pEE");
        let chow = Meld::chow(Tile::parse("1m").unwrap(), 1).unwrap();
        let pung = Meld::pung(Tile::parse("9s").unwrap(), 1);
        let h = Shape {
            conc: &c,
            melds: &[chow],
            seat: Wind::East,
            prevalent: Wind::East,
        };
        let ps = routes()
            .iter()
            .find(|r| r.kind == RouteKind::Chows([0, 3, 6]))
            .unwrap();
        assert_eq!(
            distance(ps, &h),
            0,
            "the melded 123m is part of the straight"
        );
        let two = [pung, Meld::pung(Tile::parse("9p").unwrap(), 2)];
        let h2 = Shape { melds: &two, ..h };
        assert_eq!(distance(ps, &h2), CLOSED, "two sets outside the straight");
        let sp = routes()
            .iter()
            .find(|r| r.kind == RouteKind::SevenPairs)
            .unwrap();
        assert_eq!(distance(sp, &h), CLOSED);
    }
}
