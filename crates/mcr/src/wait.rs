//! Shanten (how many tiles from ready) for every shape, and the winning tiles of a
//! ready hand with the points each would score.

use crate::hand::{Hand, HandError, WinContext};
use crate::meld::Meld;
use crate::rules::Rules;
use crate::score::score;
use crate::shape::{self, knitted_tiles, ORPHANS};
use crate::suitstate;
use crate::tile::{counts_of, Counts, Tile, KINDS};

/// A bit per tile kind (bit i = tile index i).
pub type TileSet = u64;

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

/// As [`winning_tiles_limited`], nothing held elsewhere, for standing tiles that `win`
/// completes as sets and a pair: every group but the winning tile's is complete as it
/// stands, so its count alone says whether it holds the pair (3k + 2 tiles) or not, and
/// only the winning tile's group is looked up.
pub(crate) fn winning_tiles_of_complete(
    c: &Counts,
    win: Tile,
    melds: usize,
    limit: u32,
) -> TileSet {
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
    winning_tiles_in(c, &[0; 34], melds, limit, states)
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

/// Regular-shape shanten: −1 complete, 0 ready, 1 one tile away, …
pub fn shanten_regular(c: &Counts, melds: usize) -> i32 {
    crate::fastshanten::shanten_regular(c, melds)
}

/// [`shanten_regular`] of `c`, and the tiles among `cands` (a bit per tile index) whose
/// addition lowers it: the same as asking it once per candidate, faster.
pub fn shanten_regular_improvers(c: &Counts, melds: usize, cands: u64) -> (i32, u64) {
    crate::fastshanten::shanten_regular_improvers(c, melds, cands)
}

/// The same by a plain search over the whole hand (slow; the reference for tests).
pub fn shanten_regular_slow(c: &Counts, melds: usize) -> i32 {
    let mut d = *c;
    let mut best = 8;
    search(&mut d, 0, melds as i32, 0, false, &mut best);
    best
}

fn search(c: &mut Counts, from: usize, sets: i32, partials: i32, pair: bool, best: &mut i32) {
    let mut i = from;
    while i < KINDS && c[i] == 0 {
        i += 1;
    }
    let score = |s: i32, p: i32, h: bool| {
        let p = p.min(4 - s);
        8 - 2 * s - p - h as i32
    };
    if i == KINDS {
        let v = score(sets, partials, pair);
        if v < *best {
            *best = v;
        }
        return;
    }
    // Nothing can beat a complete hand.
    if *best == -1 {
        return;
    }
    let numbered = i < 27;
    let r = i % 9;
    if c[i] >= 3 {
        c[i] -= 3;
        search(c, i, sets + 1, partials, pair, best);
        c[i] += 3;
    }
    if numbered && r <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        search(c, i, sets + 1, partials, pair, best);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if !pair {
            search(c, i, sets, partials, true, best);
        }
        search(c, i, sets, partials + 1, pair, best);
        c[i] += 2;
    }
    if numbered && r <= 7 && c[i + 1] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        search(c, i, sets, partials + 1, pair, best);
        c[i] += 1;
        c[i + 1] += 1;
    }
    if numbered && r <= 6 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 2] -= 1;
        search(c, i, sets, partials + 1, pair, best);
        c[i] += 1;
        c[i + 2] += 1;
    }
    // Leave one copy of this tile out.
    c[i] -= 1;
    search(c, i, sets, partials, pair, best);
    c[i] += 1;
}

/// Seven pairs shanten (13 or 14 concealed tiles, no melds).
pub fn shanten_seven_pairs(c: &Counts) -> i32 {
    // MCR counts a four of a kind as two pairs (the calculator's `is_seven_pairs` does
    // too), so seven pairs need not be seven different kinds, unlike riichi's chiitoitsu.
    let pairs = c.iter().map(|&x| (x / 2) as i32).sum::<i32>();
    6 - pairs.min(7)
}

/// Thirteen orphans shanten.
pub fn shanten_thirteen_orphans(c: &Counts) -> i32 {
    let kinds = ORPHANS.iter().filter(|&&i| c[i] > 0).count() as i32;
    let pair = ORPHANS.iter().any(|&i| c[i] >= 2) as i32;
    13 - kinds - pair
}

/// Honours and knitted tiles shanten.
pub fn shanten_honors_knitted(c: &Counts) -> i32 {
    (0..6)
        .map(|k| {
            let kt = knitted_tiles(k);
            let have = kt.iter().filter(|t| c[t.index()] > 0).count()
                + (27..34).filter(|&i| c[i] > 0).count();
            13 - have.min(14) as i32
        })
        .min()
        .unwrap_or(13)
}

/// Knitted straight plus a set and a pair.
pub fn shanten_knitted_straight(c: &Counts, melds: usize) -> i32 {
    if melds > 1 {
        return 8;
    }
    (0..6)
        .map(|k| {
            let mut d = *c;
            let mut missing = 0;
            for t in knitted_tiles(k) {
                if d[t.index()] > 0 {
                    d[t.index()] -= 1;
                } else {
                    missing += 1;
                }
            }
            // The rest must make 1 − melds sets and a pair: as a regular hand with 3 more
            // sets already counted.
            missing + shanten_regular(&d, melds + 3)
        })
        .min()
        .unwrap_or(8)
}

/// Shanten of a hand: the minimum over every shape (−1 complete, 0 ready).
pub fn shanten(standing: &[Tile], melds: &[Meld]) -> Shanten {
    let c = counts_of(standing);
    let m = melds.len();
    let regular = shanten_regular(&c, m);
    let knitted = shanten_knitted_straight(&c, m);
    let (pairs, orphans, honors) = if m == 0 {
        (
            shanten_seven_pairs(&c),
            shanten_thirteen_orphans(&c),
            shanten_honors_knitted(&c),
        )
    } else {
        (99, 99, 99)
    };
    Shanten {
        regular,
        seven_pairs: pairs,
        thirteen_orphans: orphans,
        honors_knitted: honors,
        knitted_straight: knitted,
    }
}

/// Shanten by shape; `min()` is the hand's shanten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shanten {
    /// Four sets and a pair.
    pub regular: i32,
    /// Seven pairs.
    pub seven_pairs: i32,
    /// Thirteen orphans.
    pub thirteen_orphans: i32,
    /// Honours and knitted tiles.
    pub honors_knitted: i32,
    /// The knitted straight with a set and a pair.
    pub knitted_straight: i32,
}

impl Shanten {
    /// The hand's shanten: the least over the shapes.
    pub fn min(&self) -> i32 {
        self.regular
            .min(self.seven_pairs)
            .min(self.thirteen_orphans)
            .min(self.honors_knitted)
            .min(self.knitted_straight)
    }
}

/// One winning tile of a ready hand and what it would score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The winning tile.
    pub tile: Tile,
    /// Points if drawn (None: the tiles make no valid hand in that context).
    pub self_drawn: Option<u32>,
    /// Points if won on a discard.
    pub discard: Option<u32>,
    /// Whether each reaches the minimum (flowers not counted).
    pub self_drawn_ok: bool,
    /// Whether the discard win reaches the minimum.
    pub discard_ok: bool,
}

/// Shanten and, for a ready hand, every winning tile with its value. `ctx` gives the
/// winds and flowers; its win flags are replaced by self-drawn / discard in turn.
pub fn waits(
    standing: &[Tile],
    melds: &[Meld],
    ctx: WinContext,
    rules: &Rules,
) -> Result<(Shanten, Vec<Wait>), HandError> {
    let need = 13 - 3 * melds.len().min(4);
    if melds.len() > 4 {
        return Err(HandError::TooManyMelds(melds.len()));
    }
    if standing.len() != need {
        return Err(HandError::WrongTileCount {
            expected: need,
            found: standing.len(),
        });
    }
    let mut held = counts_of(standing);
    for m in melds {
        m.check()
            .map_err(|reason| HandError::BadMeld { index: 0, reason })?;
        for t in m.tiles() {
            held[t.index()] += 1;
        }
    }
    if let Some(t) = Tile::all().find(|t| held[t.index()] > 4) {
        return Err(HandError::TooManyCopies {
            tile: t,
            count: held[t.index()],
        });
    }
    let sh = shanten(standing, melds);
    let mut out = Vec::new();
    if sh.min() == 0 {
        for t in winning_tiles(standing, melds) {
            let value = |self_drawn: bool| -> (Option<u32>, bool) {
                let c = WinContext {
                    self_drawn,
                    last_of_kind: false,
                    kong: false,
                    last_tile: false,
                    ..ctx
                };
                match Hand::new(melds.to_vec(), standing.to_vec(), t, c)
                    .and_then(|h| score(&h, rules))
                {
                    Ok(s) => (Some(s.total), s.reaches_minimum(rules)),
                    Err(_) => (None, false),
                }
            };
            let (sd, sd_ok) = value(true);
            let (di, di_ok) = value(false);
            out.push(Wait {
                tile: t,
                self_drawn: sd,
                discard: di,
                self_drawn_ok: sd_ok,
                discard_ok: di_ok,
            });
        }
    }
    Ok((sh, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tiles;

    fn tiles(s: &str) -> Vec<Tile> {
        parse_tiles(s).unwrap()
    }
    fn codes(v: &[Tile]) -> String {
        v.iter().map(|t| t.code()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn nine_gates_waits_on_nine() {
        let w = winning_tiles(&tiles("1112345678999m"), &[]);
        assert_eq!(codes(&w), "1m 2m 3m 4m 5m 6m 7m 8m 9m");
    }

    #[test]
    fn thirteen_orphans_thirteen_sided() {
        let w = winning_tiles(&tiles("19m19s19pESWNCFP"), &[]);
        assert_eq!(w.len(), 13);
    }

    #[test]
    fn shanten_values() {
        assert_eq!(shanten(&tiles("123m456m789m111pE"), &[]).min(), 0);
        assert_eq!(
            shanten(&tiles("19m19s19pESWNCF1m"), &[]).thirteen_orphans,
            0
        );
        assert_eq!(shanten(&tiles("1122m3344p5566sE"), &[]).seven_pairs, 0);
        // 1 4 7 m 2 5 8 s 3 6 9 p + two honors: knitted straight ready? needs set+pair.
        assert_eq!(shanten(&tiles("147m258s369pEES"), &[]).knitted_straight, 1);
        assert_eq!(
            shanten(&tiles("147m258s369pEEE1p"), &[]).knitted_straight,
            0
        );
        assert_eq!(shanten(&tiles("159m159s159pESWN"), &[]).regular, 8);
    }

    #[test]
    fn fifth_copy_is_no_wait() {
        // 1111m held: 1m cannot come; 2m wait only via 11m + 12m? standing 1111m23m456p789sEE
        let w = winning_tiles(&tiles("1111m23m456p789sE"), &[]);
        assert!(!w.contains(&Tile::parse("1m").unwrap()));
    }
}
