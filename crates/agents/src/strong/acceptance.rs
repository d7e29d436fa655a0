//! `strong`'s tie-break between discards that leave the hand equally far: the live tiles
//! that would bring it nearer on one of its best routes (its acceptance).

use mcr::tile::Counts;
use mcr::Meld;

use super::{keep_score, Seat};
use crate::plan::{self, Route};

/// Live tiles that would bring a hand of 13 nearer than `d` on one of `routes`.
fn acceptance(s: &Seat, conc: &Counts, melds: &[Meld], routes: &[Route], d: i32) -> u32 {
    let mut near = 0u64;
    for (i, &n) in conc.iter().enumerate() {
        if n == 0 {
            continue;
        }
        near |= 1 << i;
        if i < 27 {
            let lo = i - i % 9;
            for j in i.saturating_sub(2).max(lo)..=(i + 2).min(lo + 8) {
                near |= 1 << j;
            }
        }
    }
    for r in routes {
        near |= plan::wanted(r, conc);
    }
    // Only live tiles count; a tile counts once, whichever route it brings nearer.
    let mut live = 0u64;
    let mut bits = near;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if s.live[i] > 0 {
            live |= 1 << i;
        }
    }
    let h = s.shape(conc, melds);
    let mut c = *conc;
    let mut hit = 0u64;
    for r in routes {
        let left = live & !hit;
        if left == 0 {
            break;
        }
        match plan::improvers(r, &h, left, d) {
            Some(m) => hit |= m,
            None => {
                let mut bits = left;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    c[i] += 1;
                    if plan::distance(r, &s.shape(&c, melds)) < d {
                        hit |= 1 << i;
                    }
                    c[i] -= 1;
                }
            }
        }
    }
    let mut acc = 0;
    while hit != 0 {
        let i = hit.trailing_zeros() as usize;
        hit &= hit - 1;
        acc += s.live[i] as u32;
    }
    acc
}

/// How discarding `i` from `conc` stands on strong's tie-break among the discards that
/// leave the hand `min_d` tiles from a route: the live tiles that bring the hand left
/// nearer on the routes at that distance, then the less useful tile.
pub(super) fn tie_score(
    s: &Seat,
    conc: &Counts,
    melds: &[Meld],
    routes: &[(Route, i32)],
    min_d: i32,
    i: usize,
) -> (u32, i32) {
    let mut c = *conc;
    c[i] -= 1;
    let nearest: Vec<Route> = {
        let h = s.shape(&c, melds);
        (routes.iter())
            .filter(|(r, floor)| *floor <= min_d && plan::distance(r, &h) == min_d)
            .map(|(r, _)| *r)
            .collect()
    };
    (
        acceptance(s, &c, melds, &nearest, min_d),
        -keep_score(conc, i),
    )
}
