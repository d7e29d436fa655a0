//! Shanten (how many tiles from ready) for every shape, and the winning tiles of a
//! ready hand with the points each would score.

use crate::hand::{Hand, HandError, WinContext};
use crate::meld::Meld;
use crate::rules::Rules;
use crate::score::score;
use crate::shape::{knitted_tiles, ORPHANS};
use crate::tile::{counts_of, Counts, Tile, KINDS};

/// A bit per tile kind (bit i = tile index i).
pub type TileSet = u64;

mod winning;
pub(crate) use winning::winning_tiles_of_complete;
pub use winning::{winning_tiles, winning_tiles_counts, winning_tiles_limited};

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

    /// The scorer's wait finder for hands it knows complete (the winning tile's group
    /// judged rank by rank, another group only for a wait on two pairs, seven pairs the
    /// one special shape) finds the same tiles as the general one, on random hands of
    /// four sets and a pair (fours of a kind and two-pair waits among them) and on hands
    /// that read as seven pairs too.
    #[test]
    fn the_complete_hands_wait_finder_agrees_with_the_general_one() {
        let mut draw = crate::shape::test_numbers(0x2545_f491_4f6c_dd1d);
        let mut next = |n: usize| draw(n as u64);
        let mut checked = 0;
        let mut hands: Vec<(Counts, usize)> = Vec::new();
        for s in ["112233m445566p77s", "223344m556677sEE", "111222333m44p567s"] {
            hands.push((counts_of(&tiles(s)), 0));
        }
        while hands.len() < 4000 {
            let melds = next(3);
            let mut c: Counts = [0; KINDS];
            for _ in melds..4 {
                if next(2) == 0 {
                    let suit = next(3);
                    let low = suit * 9 + next(7);
                    for n in &mut c[low..low + 3] {
                        *n += 1;
                    }
                } else {
                    c[next(KINDS)] += 3;
                }
            }
            c[next(KINDS)] += 2;
            if c.iter().all(|&n| n <= 4) {
                hands.push((c, melds));
            }
        }
        for (c, melds) in hands {
            for w in (0..KINDS).filter(|&i| c[i] > 0) {
                let mut standing = c;
                standing[w] -= 1;
                let win = Tile::from_index(w).unwrap();
                let fast = winning_tiles_of_complete(&standing, win, melds);
                let general = winning_tiles_counts(&standing, &[0; KINDS], melds);
                assert_eq!(
                    fast, general,
                    "{standing:?} with {melds} sets declared, won on {win}"
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
