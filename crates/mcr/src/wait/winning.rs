//! The winning tiles of a ready hand: every tile that completes the regular shape, judged
//! a group at a time from the suit tables, and the special shapes the hand could still
//! make.

use super::TileSet;
use crate::meld::Meld;
use crate::shape::{self, ORPHANS};
use crate::suitstate;
use crate::tile::{counts_of, Counts, Tile, KINDS};

/// Does `c` (standing tiles plus one) complete a special shape among `specials` (with
/// `melds` declared sets)? The regular shape is not asked: [`regular_waits`] has judged it
/// for every tile that could complete it (a tile near nothing held is a lone tile).
fn completes_special(c: &Counts, melds: usize, specials: u8) -> bool {
    if melds <= 1 && specials & KNIT != 0 && shape::is_knitted_complete(c) {
        return true;
    }
    if melds == 0 {
        if specials & PAIRS != 0 && shape::is_seven_pairs(c) {
            return true;
        }
        if specials & ORPH != 0 && shape::is_thirteen_orphans(c) {
            return true;
        }
        if specials & HK != 0 && shape::honors_and_knitted(c).is_some() {
            return true;
        }
    }
    false
}

const KNIT: u8 = 1;
const PAIRS: u8 = 2;
const ORPH: u8 = 4;
const HK: u8 = 8;

const NUMBERED: u64 = (1 << 27) - 1;
const RANK1: u64 = 1 | 1 << 9 | 1 << 18;
const RANK2: u64 = RANK1 << 1;
const RANK8: u64 = RANK1 << 7;
const RANK9: u64 = RANK1 << 8;

/// Tiles that can join the present ones in a set: the same honour, or a numbered tile
/// within two ranks in the same suit.
fn near_mask(p: u64) -> TileSet {
    let n = p & NUMBERED;
    let up1 = (n << 1) & !RANK1;
    let up2 = (n << 2) & !(RANK1 | RANK2);
    let down1 = (n >> 1) & !RANK9;
    let down2 = (n >> 2) & !(RANK8 | RANK9);
    ((n | up1 | up2 | down1 | down2) & NUMBERED) | (p & !NUMBERED)
}

const ORPHAN_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < ORPHANS.len() {
        m |= 1 << ORPHANS[i];
        i += 1;
    }
    m
};

/// Which special shapes are within one tile of `c` (a cheap filter); `present` is the
/// presence mask of `c`.
fn plausible_specials(c: &Counts, present: u64, melds: usize) -> u8 {
    if melds > 1 {
        return 0;
    }
    // "All but one of these kinds present": what is missing has one bit at most (no
    // population count, a dozen instructions on the baseline x86-64).
    let all_but_one = |kinds: u64| {
        let missing = kinds & !present;
        missing & missing.wrapping_sub(1) == 0
    };
    let mut s = 0;
    if shape::KNIT_MASKS.iter().any(|&k| all_but_one(k)) {
        s |= KNIT;
    }
    if melds == 0 {
        let twos = crate::tile::at_least_two(c);
        let pairs = twos.count_ones() + crate::tile::fours(c).count_ones();
        if pairs >= 6 {
            s |= PAIRS;
        }
        if all_but_one(ORPHAN_MASK) {
            s |= ORPH;
        }
        if twos == 0 && present.count_ones() >= 13 {
            s |= HK;
        }
    }
    s
}

/// The tiles that complete the standing tiles `c` (13 − 3 × melds of them) into a winning
/// shape. `held` counts every copy the player holds (melds included): a tile whose four
/// copies are all held is no wait.
pub fn winning_tiles_counts(c: &Counts, held: &Counts, melds: usize) -> TileSet {
    winning_tiles_limited(c, held, melds, KINDS as u32)
}

/// Regular-shape winning tiles among `cands`. Only the group (suit or honours) of the
/// added tile changes, so the other groups are judged once, and a suit with one more tile
/// is judged from its indices with the tile's rank added (see [`crate::suitstate`]).
/// `states`: each group's state as it stands ([`group_states`]).
fn regular_waits(
    c: &Counts,
    held: &Counts,
    cands: TileSet,
    limit: u32,
    states: [u8; 4],
) -> TileSet {
    let mut out = 0u64;
    for g in 0..4 {
        // Every other group must be complete, with at most one pair among them.
        let mut pairs = 0;
        let mut ok = true;
        for (o, &st) in states.iter().enumerate() {
            if o != g {
                ok &= st != 0;
                pairs += (st == shape::SETS_PAIR) as u32;
            }
        }
        if !ok || pairs > 1 {
            continue;
        }
        let want = if pairs == 1 {
            shape::SETS
        } else {
            shape::SETS_PAIR
        };
        if g < 3 {
            // The table covers counts up to 4; a fifth copy takes the slow path.
            let suit: &[u8; 9] = c[g * 9..g * 9 + 9].try_into().expect("nine ranks");
            let small = suitstate::indices(suit);
            let mut m = cands & (0x1ff << (g * 9));
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                if held[i] >= 4 {
                    continue;
                }
                let state = if let Some((low, high)) = small.filter(|_| c[i] < 4) {
                    let r = i - g * 9;
                    suitstate::state_of(low + suitstate::ADD_LOW[r], high + suitstate::ADD_HIGH[r])
                } else {
                    let mut d = *c;
                    d[i] += 1;
                    shape::suit_state(&d, g)
                };
                if state == want {
                    out |= 1 << i;
                    if out.count_ones() >= limit {
                        return out;
                    }
                }
            }
        } else {
            let mut d = *c;
            let mut m = cands >> 27;
            while m != 0 {
                let i = 27 + m.trailing_zeros() as usize;
                m &= m - 1;
                if held[i] >= 4 {
                    continue;
                }
                d[i] += 1;
                if shape::honor_state(&d) == want {
                    out |= 1 << i;
                }
                d[i] -= 1;
                if out.count_ones() >= limit {
                    return out;
                }
            }
        }
    }
    out
}

/// Each group's state (suits, then honours): [`shape::SETS`], [`shape::SETS_PAIR`] or 0.
fn group_states(c: &Counts) -> [u8; 4] {
    [
        shape::suit_state(c, 0),
        shape::suit_state(c, 1),
        shape::suit_state(c, 2),
        shape::honor_state(c),
    ]
}

/// The winning tiles of standing tiles `c` that `win` completes as sets and a pair,
/// nothing held elsewhere (a tile whose four copies are held still counts). Every group
/// but the winning tile's is complete as it stands, so its count alone says whether it
/// holds the pair (3k + 2 tiles) or not; the winning tile's group is judged a rank at a
/// time without a branch ([`group_waits`]), another group only where the rest allow it
/// (a wait on two pairs). Of the special shapes only seven pairs can be waited on too:
/// a knitted straight, thirteen orphans or honours and knitted tiles need eight or more
/// tiles no two of which share a set, and four sets and a pair are five groups.
pub(crate) fn winning_tiles_of_complete(c: &Counts, win: Tile, melds: usize) -> TileSet {
    debug_assert!({
        let mut d = *c;
        d[win.index()] += 1;
        shape::is_regular_complete(&d)
    });
    let w = win.index();
    let g = if w < 27 { w / 9 } else { 3 };
    let mut states = [0u8; 4];
    for (h, st) in states.iter_mut().enumerate() {
        let group = if h < 3 {
            &c[h * 9..h * 9 + 9]
        } else {
            &c[27..]
        };
        let n: u32 = group.iter().map(|&x| x as u32).sum();
        *st = if n.is_multiple_of(3) {
            shape::SETS
        } else {
            shape::SETS_PAIR
        };
    }
    states[g] = if g < 3 {
        shape::suit_state(c, g)
    } else {
        shape::honor_state(c)
    };
    // A group h takes a winning tile when every other group is complete (judged without
    // an early exit: which group falls short is data no predictor guesses) and at most
    // one of them holds a pair.
    let pairs: u32 = states
        .iter()
        .map(|&st| (st == shape::SETS_PAIR) as u32)
        .sum();
    let short: u32 = (states.iter().enumerate()).fold(0, |m, (o, &st)| m | ((st == 0) as u32) << o);
    let want_for = |h: usize| -> Option<u8> {
        let complete = short & !(1 << h) == 0;
        let others = pairs - (states[h] == shape::SETS_PAIR) as u32;
        match (complete, others) {
            (true, 0) => Some(shape::SETS_PAIR),
            (true, 1) => Some(shape::SETS),
            _ => None,
        }
    };
    // The winning tile's group always qualifies: c + win is sets and a pair.
    let mut out = group_waits(c, g, want_for(g).unwrap_or(shape::SETS));
    // Another group only when the winning tile's is complete without it (a wait on two
    // pairs, say): rare, so one branch asks.
    if short == 0 {
        for h in (0..4).filter(|&h| h != g) {
            if let Some(want) = want_for(h) {
                out |= group_waits(c, h, want);
            }
        }
    }
    // Seven pairs: six pairs held and the one kind held an odd number of times.
    let odd = crate::tile::odd_counts(c);
    let held_pairs = crate::tile::at_least_two(c).count_ones() + crate::tile::fours(c).count_ones();
    if (melds == 0) & (held_pairs >= 6) & (odd != 0) & (odd & odd.wrapping_sub(1) == 0) {
        let mut d = *c;
        d[odd.trailing_zeros() as usize] += 1;
        if shape::is_seven_pairs(&d) {
            out |= odd;
        }
    }
    out
}

/// The tiles of group `g` (a suit 0–2, or 3 the honours) one of which makes it `want`
/// ([`shape::SETS`] or [`shape::SETS_PAIR`]): for a suit, each rank's tile added to the
/// low or high index of [`suitstate`], nine look-ups and no branch (four copies of a rank
/// held, rare, take the slow path); for the honours, each kind's weight in
/// [`shape::honor_state`]'s sum changed by the added copy.
fn group_waits(c: &Counts, g: usize, want: u8) -> TileSet {
    if g == 3 {
        let h = &c[27..34];
        // Seven weights of 8 at most: the sum fits a byte.
        let sum: u8 = h.iter().map(|&x| shape::honor_weight(x)).sum();
        let mut out = 0u64;
        for (k, &x) in h.iter().enumerate() {
            let s = sum - shape::honor_weight(x) + shape::honor_weight(x + 1);
            out |= ((shape::honor_state_of(s) == want) as u64) << (27 + k);
        }
        return out;
    }
    let suit: &[u8; 9] = c[g * 9..g * 9 + 9].try_into().expect("nine ranks");
    let fast = suitstate::indices(suit).filter(|_| suit.iter().all(|&x| x < 4));
    let Some((low, high)) = fast else {
        let mut out = 0u64;
        for r in 0..9 {
            let mut d = *c;
            d[g * 9 + r] += 1;
            out |= ((shape::suit_state(&d, g) == want) as u64) << (g * 9 + r);
        }
        return out;
    };
    let (reach, end) = (suitstate::LOW[low as usize], suitstate::HIGH[high as usize]);
    let pick = |end: u32| suitstate::ends_as(end, want);
    let end_now = pick(end);
    let mut out = 0u64;
    for r in 0..suitstate::SPLIT {
        let reach_r = suitstate::LOW[(low + suitstate::ADD_LOW[r]) as usize];
        out |= ((reach_r & end_now != 0) as u64) << r;
    }
    for r in suitstate::SPLIT..9 {
        let end_r = pick(suitstate::HIGH[(high + suitstate::ADD_HIGH[r]) as usize]);
        out |= ((reach & end_r != 0) as u64) << r;
    }
    out << (g * 9)
}

/// As [`winning_tiles_counts`], stopping once `limit` winning tiles are found.
pub fn winning_tiles_limited(c: &Counts, held: &Counts, melds: usize, limit: u32) -> TileSet {
    winning_tiles_in(c, held, melds, limit, group_states(c))
}

fn winning_tiles_in(
    c: &Counts,
    held: &Counts,
    melds: usize,
    limit: u32,
    states: [u8; 4],
) -> TileSet {
    let present = crate::tile::presence(c);
    let specials = plausible_specials(c, present, melds);
    let near = if specials & KNIT != 0 {
        near_mask(present) | shape::KNIT_MASKS.iter().fold(0, |m, k| m | k)
    } else {
        near_mask(present)
    };
    let mut out = regular_waits(c, held, near, limit, states);
    if specials == 0 || out.count_ones() >= limit {
        return out;
    }
    // Only the tiles each plausible special shape could use: a tile already held for
    // seven pairs, the orphans, the knitted tiles with what is near.
    let mut special_cands = 0u64;
    if specials & PAIRS != 0 {
        special_cands |= present;
    }
    if specials & ORPH != 0 {
        special_cands |= ORPHAN_MASK;
    }
    if specials & KNIT != 0 {
        special_cands |= near;
    }
    if specials & HK != 0 {
        const HONORS: u64 = 0x7f << 27;
        for k in shape::KNIT_MASKS {
            if present & !(k | HONORS) == 0 {
                special_cands |= (k | HONORS) & !present;
            }
        }
    }
    let mut d = *c;
    let mut bits = special_cands & !out;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if held[i] >= 4 {
            continue;
        }
        d[i] += 1;
        if completes_special(&d, melds, specials) {
            out |= 1 << i;
            if out.count_ones() >= limit {
                break;
            }
        }
        d[i] -= 1;
    }
    out
}

/// The winning tiles of a ready hand (standing tiles and declared sets).
pub fn winning_tiles(standing: &[Tile], melds: &[Meld]) -> Vec<Tile> {
    let c = counts_of(standing);
    let mut held = c;
    for m in melds {
        for t in m.tiles() {
            held[t.index()] += 1;
        }
    }
    let set = winning_tiles_counts(&c, &held, melds.len());
    Tile::all()
        .filter(|t| set & (1 << t.index()) != 0)
        .collect()
}
