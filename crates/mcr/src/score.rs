//! The fan calculator: every reading of a hand is scored and the best total is kept
//! (freedom of choice); within a reading, implied fans are removed (non-repeat) and the
//! combination principles are applied by [`crate::combos`].

use crate::combos::{self, Key};
use crate::exclude::apply_exclusions;
use crate::fan::Fan;
use crate::hand::{Hand, HandError};
use crate::meld::MeldKind;
use crate::rules::Rules;
use crate::shape::{self, Part};
use crate::tally::Tally;
use crate::tile::{Counts, Tile};

/// One scored fan: how many times it counts and its value each time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FanLine {
    /// The fan.
    pub fan: Fan,
    /// Points of one occurrence.
    pub points: u32,
    /// How many times it counts.
    pub count: u32,
}

/// The winning shape of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Four sets and a pair.
    Regular,
    /// Seven pairs.
    SevenPairs,
    /// Seven shifted pairs.
    SevenShiftedPairs,
    /// Thirteen orphans.
    ThirteenOrphans,
    /// Honours and knitted tiles.
    HonorsAndKnitted,
    /// The knitted straight with a set and a pair.
    KnittedStraight,
    /// Nine gates.
    NineGates,
}

/// What a set of a reading is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// Three tiles in a run.
    Chow,
    /// Three of a kind.
    Pung,
    /// Four of a kind.
    Kong,
}

/// A set of a reading: `tile` is the lowest tile of a chow. `declared` sets were
/// declared at the table; `concealed` is the set's status for scoring (a pung completed
/// by a won discard counts as exposed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReadSet {
    /// Chow, pung or kong.
    pub kind: SetKind,
    /// A chow's lowest tile, or the repeated tile.
    pub tile: Tile,
    /// Declared at the table (in brackets).
    pub declared: bool,
    /// Concealed for scoring.
    pub concealed: bool,
}

/// The reading of the hand that produced the score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The winning shape.
    pub shape: Shape,
    /// The sets, declared and concealed.
    pub sets: Vec<ReadSet>,
    /// The pair, for shapes with one.
    pub pair: Option<Tile>,
    /// The knitted straight's nine tiles, for knitted shapes.
    pub knitted: Option<[Tile; 9]>,
    /// For the shapes without sets (seven pairs, thirteen orphans, honours and knitted):
    /// the fourteen tiles, sorted.
    pub tiles: Vec<Tile>,
}

/// The result of scoring a hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// The fans scored, in fan-number order.
    pub fans: Vec<FanLine>,
    /// Sum of all fans, flowers included.
    pub total: u32,
    /// The reading that gives the total.
    pub reading: Reading,
}

impl Scoring {
    /// Points that count towards the minimum to win (flowers excluded).
    pub fn points_without_flowers(&self) -> u32 {
        self.fans
            .iter()
            .filter(|l| l.fan != Fan::FlowerTiles)
            .map(|l| l.points * l.count)
            .sum()
    }
    /// Does the hand reach the rules' minimum (8 in MCR), flowers not counted?
    pub fn reaches_minimum(&self, rules: &Rules) -> bool {
        self.points_without_flowers() >= rules.min_points as u32
    }
}

/// Facts about the hand that do not depend on the reading.
struct Facts<'a> {
    rules: &'a Rules,
    hand: &'a Hand,
    win: Tile,
    claimed: usize,
    last_of_kind: bool,
    traits: Tally,
    /// Kinds of which the hand uses all four tiles.
    quads: u64,
    unique_wait: std::cell::Cell<Option<bool>>,
}

#[derive(Clone, Copy)]
struct Set {
    kind: SetKind,
    tile: Tile,
    declared: bool,
    concealed: bool,
}

/// The best reading found so far.
struct Best {
    tally: Tally,
    total: u32,
    shape: Shape,
    sets: [Set; 4],
    n: usize,
    pair: Option<Tile>,
    knit: Option<usize>,
}

impl<'a> Facts<'a> {
    fn value(&self, f: Fan) -> u32 {
        self.rules.points(f) as u32
    }

    fn total(&self, t: &Tally) -> u32 {
        t.iter()
            .map(|(f, c)| c as u32 * self.rules.points(f) as u32)
            .sum()
    }

    /// Does the standing hand wait on exactly one tile? Computed once, when needed.
    fn unique_wait(&self) -> bool {
        if let Some(v) = self.unique_wait.get() {
            return v;
        }
        // A tile whose four copies the player holds still counts as a wait here (a
        // fifth copy would complete the shape), as in the reference; S4 is silent.
        let c = crate::tile::counts_of(self.hand.concealed());
        let n =
            crate::wait::winning_tiles_counts(&c, &[0; 34], self.hand.melds().len()).count_ones();
        let v = n == 1;
        self.unique_wait.set(Some(v));
        v
    }
}

#[inline]
fn add(t: &mut Tally, f: Fan) {
    t.add(f);
}

const fn bits(list: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < list.len() {
        m |= 1 << list[i];
        i += 1;
    }
    m
}

const SUIT_M: u64 = 0x1ff;
const SUIT_S: u64 = 0x1ff << 9;
const SUIT_P: u64 = 0x1ff << 18;
const WINDS: u64 = 0xf << 27;
const DRAGONS: u64 = 0x7 << 31;
const HONORS: u64 = WINDS | DRAGONS;
const TERMINALS: u64 = bits(&[0, 8, 9, 17, 18, 26]);
const SIMPLES: u64 = ranks(2, 8);
/// 2 3 4 6 8 bamboo and the green dragon (as `Tile::is_green`).
const GREEN: u64 = bits(&[10, 11, 12, 14, 16, 32]);
/// As `Tile::is_reversible`.
const REVERSIBLE: u64 = bits(&[18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33]);
const fn ranks(lo: u8, hi: u8) -> u64 {
    let mut m = 0u64;
    let mut r = lo;
    while r <= hi {
        m |= (1 << (r - 1)) | (1 << (r + 8)) | (1 << (r + 17));
        r += 1;
    }
    m
}

/// Bit mask of the kinds present in `c`.
pub(crate) fn presence(c: &Counts) -> u64 {
    crate::tile::presence(c)
}

/// Fans that depend only on which tiles the hand holds (any reading).
fn trait_fans(present: u64) -> Tally {
    let mut t = Tally::EMPTY;
    let only = |allowed: u64| present & !allowed == 0;
    let honors = present & HONORS != 0;
    let nsuits = [SUIT_M, SUIT_S, SUIT_P]
        .iter()
        .filter(|&&s| present & s != 0)
        .count();
    if nsuits == 1 && !honors {
        add(&mut t, Fan::FullFlush);
    }
    if nsuits == 1 && honors {
        add(&mut t, Fan::HalfFlush);
    }
    if nsuits == 2 {
        add(&mut t, Fan::OneVoidedSuit);
    }
    if !honors {
        add(&mut t, Fan::NoHonors);
    }
    if nsuits == 3 && present & WINDS != 0 && present & DRAGONS != 0 {
        add(&mut t, Fan::AllTypes);
    }
    if only(SIMPLES) {
        add(&mut t, Fan::AllSimples);
    }
    if only(HONORS) {
        add(&mut t, Fan::AllHonors);
    } else if only(TERMINALS) {
        add(&mut t, Fan::AllTerminals);
    } else if only(TERMINALS | HONORS) && honors {
        add(&mut t, Fan::AllTerminalsAndHonors);
    }
    if only(ranks(7, 9)) {
        add(&mut t, Fan::UpperTiles);
    } else if only(ranks(6, 9)) {
        add(&mut t, Fan::UpperFour);
    }
    if only(ranks(4, 6)) {
        add(&mut t, Fan::MiddleTiles);
    }
    if only(ranks(1, 3)) {
        add(&mut t, Fan::LowerTiles);
    } else if only(ranks(1, 4)) {
        add(&mut t, Fan::LowerFour);
    }
    if only(GREEN) {
        add(&mut t, Fan::AllGreen);
    }
    if only(REVERSIBLE) {
        add(&mut t, Fan::ReversibleTiles);
    }
    t
}

fn key(t: Tile) -> Key {
    Key {
        suit: t.suit().index() as u8,
        rank: t.rank(),
    }
}

/// Fans that depend only on how the hand was won (and its concealment).
/// `fully_concealed`: whether a concealed self-drawn win scores Fully Concealed Hand here
/// (otherwise Self-Drawn), which some profiles deny to some shapes.
fn win_fans(f: &Facts, t: &mut Tally, fully_concealed: bool) {
    let ctx = &f.hand.ctx;
    if f.claimed == 0 {
        if ctx.self_drawn {
            if fully_concealed {
                add(t, Fan::FullyConcealedHand);
            } else {
                add(t, Fan::SelfDrawn);
            }
        } else {
            add(t, Fan::ConcealedHand);
        }
    } else if ctx.self_drawn {
        add(t, Fan::SelfDrawn);
    } else if f.claimed == 4 {
        add(t, Fan::MeldedHand);
    }
    if ctx.last_tile {
        add(
            t,
            if ctx.self_drawn {
                Fan::LastTileDraw
            } else {
                Fan::LastTileClaim
            },
        );
    }
    if ctx.kong {
        add(
            t,
            if ctx.self_drawn {
                Fan::OutWithReplacementTile
            } else {
                Fan::RobbingTheKong
            },
        );
    }
    if f.last_of_kind {
        add(t, Fan::LastTile);
    }
}

fn finish(f: &Facts, t: &mut Tally) {
    apply_exclusions(t, f.rules);
    let flowers = f.hand.ctx.flowers;
    if t.mask() == 0 {
        add(t, Fan::ChickenHand);
    }
    t.set(Fan::FlowerTiles, flowers);
}

/// Scores one reading of four sets and a pair (or a knitted straight, a set and a pair).
fn eval_sets(
    f: &Facts,
    sets: &mut [Set],
    pair: Tile,
    knit: Option<usize>,
    nine_gates: bool,
) -> Tally {
    let mut t = f.traits;
    let ctx = &f.hand.ctx;
    let win = f.win;

    // A won discard that completes a concealed pung makes it exposed, unless the tile
    // can be read into a concealed chow or the pair of this reading.
    if !ctx.self_drawn {
        let elsewhere = pair == win
            || sets.iter().any(|s| {
                !s.declared
                    && s.kind == SetKind::Chow
                    && (s.tile == win
                        || s.tile.offset(1) == Some(win)
                        || s.tile.offset(2) == Some(win))
            })
            || knit.is_some_and(|k| shape::knitted_tiles(k).contains(&win));
        if !elsewhere {
            for s in sets.iter_mut() {
                if !s.declared && s.kind == SetKind::Pung && s.tile == win {
                    s.concealed = false;
                }
            }
        }
    }

    let mut chows = [Key { suit: 0, rank: 0 }; 4];
    let mut nchow = 0;
    let mut pungs = [Key { suit: 0, rank: 0 }; 4];
    let mut npung_num = 0;
    let (mut npung, mut conc_pungs, mut ckong, mut mkong) = (0, 0, 0, 0);
    let (mut wind_mask, mut ndragon, mut term_pungs) = (0u8, 0, 0);
    let (mut outside, mut fives) = (knit.is_none(), knit.is_none());
    for s in sets.iter() {
        let tl = s.tile;
        match s.kind {
            SetKind::Chow => {
                chows[nchow] = key(tl);
                nchow += 1;
                outside &= tl.rank() == 1 || tl.rank() == 7;
                fives &= (3..=5).contains(&tl.rank());
            }
            SetKind::Pung | SetKind::Kong => {
                npung += 1;
                if s.concealed {
                    conc_pungs += 1;
                }
                if s.kind == SetKind::Kong {
                    if s.concealed {
                        ckong += 1;
                    } else {
                        mkong += 1;
                    }
                }
                outside &= tl.is_terminal_or_honor();
                fives &= tl.rank() == 5;
                if tl.is_numbered() {
                    pungs[npung_num] = key(tl);
                    npung_num += 1;
                    if tl.is_terminal() {
                        term_pungs += 1;
                    }
                } else if let Some(w) = tl.wind() {
                    wind_mask |= 1 << w.index();
                } else {
                    ndragon += 1;
                }
            }
        }
    }
    outside &= pair.is_terminal_or_honor();
    fives &= pair.rank() == 5;

    // Dragons and winds.
    match ndragon {
        3 => add(&mut t, Fan::BigThreeDragons),
        2 => {
            add(&mut t, Fan::TwoDragonsPungs);
            if pair.is_dragon() {
                add(&mut t, Fan::LittleThreeDragons);
            }
        }
        1 => add(&mut t, Fan::DragonPung),
        _ => {}
    }
    let nwind = wind_mask.count_ones();
    let mut wind_poth = nwind;
    match nwind {
        4 => {
            add(&mut t, Fan::BigFourWinds);
            wind_poth = 0;
        }
        3 => {
            // The three wind pungs are implied in Big Three Winds (and Little Four Winds).
            add(&mut t, Fan::BigThreeWinds);
            wind_poth = 0;
            if pair.is_wind() {
                add(&mut t, Fan::LittleFourWinds);
            }
        }
        _ => {}
    }
    let seat = ctx.seat_wind.index();
    let prev = ctx.prevalent_wind.index();
    let seat_p = wind_mask & (1 << seat) != 0;
    let prev_p = wind_mask & (1 << prev) != 0;
    if nwind < 4 {
        if seat_p {
            add(&mut t, Fan::SeatWind);
        }
        if prev_p {
            add(&mut t, Fan::PrevalentWind);
        }
        if !f.rules.wind_pung_also_terminal_pung && wind_poth > 0 {
            let mut named = wind_mask & ((1 << seat) | (1 << prev));
            while named != 0 && wind_poth > 0 {
                named &= named - 1;
                wind_poth -= 1;
            }
        }
    }
    let mut poth = term_pungs + wind_poth;
    if nine_gates && poth > 0 {
        poth = if f.rules.nine_gates_excludes_all_terminal_pungs {
            0
        } else {
            poth - 1
        };
    }
    t.set(Fan::PungOfTerminalsOrHonors, poth as u8);

    // Combinations of chows and of pungs.
    let value = |x: Fan| f.value(x);
    let pair_key = pair.is_numbered().then(|| key(pair));
    combos::chow_fans(&chows[..nchow], pair_key, &value, &mut |x| add(&mut t, x));
    combos::pung_fans(&pungs[..npung_num], &value, &mut |x| add(&mut t, x));

    if npung == 4 {
        add(&mut t, Fan::AllPungs);
    }
    let even = sets
        .iter()
        .all(|s| s.kind != SetKind::Chow && s.tile.is_numbered() && s.tile.rank() % 2 == 0);
    if npung == 4 && even && pair.is_numbered() && pair.rank().is_multiple_of(2) {
        add(&mut t, Fan::AllEvenPungs);
    }
    let knit_chows = if knit.is_some() { 3 } else { 0 };
    if nchow + knit_chows == 4 && pair.is_numbered() {
        add(&mut t, Fan::AllChows);
    }
    if outside {
        add(&mut t, Fan::OutsideHand);
    }
    if fives {
        add(&mut t, Fan::AllFive);
    }
    match conc_pungs {
        4 => add(&mut t, Fan::FourConcealedPungs),
        3 => add(&mut t, Fan::ThreeConcealedPungs),
        2 => add(&mut t, Fan::TwoConcealedPungs),
        _ => {}
    }
    match (ckong + mkong, ckong) {
        (4, _) => add(&mut t, Fan::FourKongs),
        (3, _) => add(&mut t, Fan::ThreeKongs),
        (2, 2) => add(&mut t, Fan::TwoConcealedKongs),
        (2, 0) => add(&mut t, Fan::TwoMeldedKongs),
        (2, _) => {
            if f.rules.concealed_and_melded_kong_fan {
                add(&mut t, Fan::ConcealedKongAndMeldedKong);
            } else {
                add(&mut t, Fan::ConcealedKong);
                add(&mut t, Fan::MeldedKong);
            }
        }
        (1, 1) => add(&mut t, Fan::ConcealedKong),
        (1, _) => add(&mut t, Fan::MeldedKong),
        _ => {}
    }
    // Tile Hog: four of a kind not declared as a kong.
    let mut hogs = 0;
    let mut quads = f.quads;
    while quads != 0 {
        let i = quads.trailing_zeros() as usize;
        quads &= quads - 1;
        if !sets
            .iter()
            .any(|s| s.kind == SetKind::Kong && s.tile.index() == i)
        {
            hogs += 1;
        }
    }
    t.set(Fan::TileHog, hogs);

    let fc = (!nine_gates || f.rules.special_shapes_fully_concealed)
        && (conc_pungs < 4 || f.rules.four_concealed_pungs_fully_concealed);
    win_fans(f, &mut t, fc);

    // Edge, closed or single wait: only when the hand waits on this tile alone.
    if !nine_gates {
        let no_single = t.has(Fan::MeldedHand) || t.has(Fan::FourKongs);
        let no_chow_wait = knit.is_some() && !f.rules.knitted_straight_edge_closed;
        let mut wait: Option<Fan> = None;
        if !no_chow_wait {
            for s in sets.iter() {
                if s.declared || s.kind != SetKind::Chow {
                    continue;
                }
                if s.tile.offset(1) == Some(win) {
                    wait = Some(Fan::ClosedWait);
                } else if (s.tile == win && win.rank() == 7)
                    || (s.tile.offset(2) == Some(win) && win.rank() == 3)
                {
                    wait = wait.or(Some(Fan::EdgeWait));
                }
            }
        }
        if wait.is_none() && pair == win && !no_single {
            wait = Some(Fan::SingleWait);
        }
        if let Some(w) = wait {
            if f.unique_wait() {
                add(&mut t, w);
            }
        }
    }
    if nine_gates {
        add(&mut t, Fan::NineGates);
    }
    if knit.is_some() {
        add(&mut t, Fan::KnittedStraight);
    }
    finish(f, &mut t);
    t
}

fn consider(
    best: &mut Option<Best>,
    f: &Facts,
    tally: Tally,
    shape: Shape,
    sets: &[Set],
    pair: Option<Tile>,
    knit: Option<usize>,
) {
    let total = f.total(&tally);
    if best.as_ref().is_some_and(|b| b.total >= total) {
        return;
    }
    let mut arr = [Set {
        kind: SetKind::Pung,
        tile: Tile::EAST,
        declared: false,
        concealed: false,
    }; 4];
    arr[..sets.len()].copy_from_slice(sets);
    *best = Some(Best {
        tally,
        total,
        shape,
        sets: arr,
        n: sets.len(),
        pair,
        knit,
    });
}

/// Scores a hand under `rules`: the best total over every reading.
pub fn score(hand: &Hand, rules: &Rules) -> Result<Scoring, HandError> {
    let all = hand.all_counts();
    let claimed = hand.melds().iter().filter(|m| m.is_exposed()).count();
    let facts = Facts {
        rules,
        hand,
        win: hand.win_tile(),
        claimed,
        last_of_kind: hand.wins_on_last_of_kind(),
        traits: trait_fans(presence(&all)),
        quads: crate::tile::fours(&all),
        unique_wait: std::cell::Cell::new(None),
    };
    let f = &facts;
    let mut declared = [Set {
        kind: SetKind::Pung,
        tile: Tile::EAST,
        declared: true,
        concealed: false,
    }; 4];
    let nm = hand.melds().len();
    for (d, m) in declared.iter_mut().zip(hand.melds()) {
        *d = Set {
            kind: match m.kind {
                MeldKind::Chow => SetKind::Chow,
                MeldKind::Pung => SetKind::Pung,
                _ => SetKind::Kong,
            },
            tile: m.tile,
            declared: true,
            concealed: m.kind == MeldKind::ConcealedKong,
        };
    }
    let conc = hand.concealed_counts();
    let conc_present = presence(&conc);
    let mut best: Option<Best> = None;

    let standing = {
        let mut s = conc;
        s[f.win.index()] -= 1;
        s
    };
    let nine = if nm == 0 {
        shape::nine_gates_suit(&standing)
    } else {
        None
    };

    // Four sets and a pair.
    shape::each_reading(&conc, &mut |parts, pair| {
        if parts.len() + nm != 4 {
            return;
        }
        let mut sets = declared;
        for (i, p) in parts.iter().enumerate() {
            sets[nm + i] = match *p {
                Part::Chow(t) => Set {
                    kind: SetKind::Chow,
                    tile: t,
                    declared: false,
                    concealed: true,
                },
                Part::Pung(t) => Set {
                    kind: SetKind::Pung,
                    tile: t,
                    declared: false,
                    concealed: true,
                },
            };
        }
        let tally = eval_sets(f, &mut sets, pair, None, nine.is_some());
        let shape = if nine.is_some() {
            Shape::NineGates
        } else {
            Shape::Regular
        };
        consider(&mut best, f, tally, shape, &sets, Some(pair), None);
    });

    // Knitted straight with one set and a pair.
    if nm <= 1 {
        let mut ks = [0usize; 6];
        let mut nk = 0;
        let numbered = (conc_present & (SUIT_M | SUIT_S | SUIT_P)).count_ones();
        for k in shape::knitted_in(&conc).filter(|_| numbered >= 9) {
            ks[nk] = k;
            nk += 1;
        }
        for &k in &ks[..nk] {
            let mut rest = conc;
            for t in shape::knitted_tiles(k) {
                rest[t.index()] -= 1;
            }
            shape::each_reading(&rest, &mut |parts, pair| {
                if parts.len() + nm != 1 {
                    return;
                }
                let mut sets = declared;
                for (i, p) in parts.iter().enumerate() {
                    sets[nm + i] = match *p {
                        Part::Chow(t) => Set {
                            kind: SetKind::Chow,
                            tile: t,
                            declared: false,
                            concealed: true,
                        },
                        Part::Pung(t) => Set {
                            kind: SetKind::Pung,
                            tile: t,
                            declared: false,
                            concealed: true,
                        },
                    };
                }
                let tally = eval_sets(f, &mut sets[..1], pair, Some(k), false);
                consider(
                    &mut best,
                    f,
                    tally,
                    Shape::KnittedStraight,
                    &sets[..1],
                    Some(pair),
                    Some(k),
                );
            });
        }
    }

    if nm == 0 {
        special_shapes(f, &conc, conc_present, &mut best);
    }

    let b = best.ok_or(HandError::NotWinning)?;
    Ok(build(f, b))
}

fn special_shapes(f: &Facts, conc: &Counts, present: u64, best: &mut Option<Best>) {
    let rules = f.rules;
    let kinds = present.count_ones();
    if kinds <= 7 && shape::is_seven_pairs(conc) {
        let mut t = f.traits;
        let mut shape = Shape::SevenPairs;
        // Seven shifted pairs: seven consecutive ranks of one suit.
        let shifted = (0..3).any(|s| (0..3).any(|lo| (0..7).all(|r| conc[s * 9 + lo + r] == 2)));
        if shifted {
            add(&mut t, Fan::SevenShiftedPairs);
            shape = Shape::SevenShiftedPairs;
        }
        add(&mut t, Fan::SevenPairs);
        let hogs = conc.iter().filter(|&&c| c == 4).count() as u8;
        let no_hog = rules.no_tile_hog_in_green_or_terminal_pairs
            && (t.has(Fan::AllGreen) || t.has(Fan::AllTerminals));
        if !no_hog {
            t.set(Fan::TileHog, hogs);
        }
        win_fans(f, &mut t, rules.special_shapes_fully_concealed);
        finish(f, &mut t);
        let pairs_first = conc.iter().position(|&c| c > 0).and_then(Tile::from_index);
        consider_special(best, f, t, shape, pairs_first, None);
    }
    if present & !(TERMINALS | HONORS) == 0 && shape::is_thirteen_orphans(conc) {
        let mut t = Tally::EMPTY;
        add(&mut t, Fan::ThirteenOrphans);
        win_fans(f, &mut t, rules.special_shapes_fully_concealed);
        finish(f, &mut t);
        let pair = shape::ORPHANS
            .iter()
            .find(|&&i| conc[i] == 2)
            .and_then(|&i| Tile::from_index(i));
        consider_special(best, f, t, Shape::ThirteenOrphans, pair, None);
    }
    if let Some(k) = (kinds == 14)
        .then(|| shape::honors_and_knitted(conc))
        .flatten()
    {
        let mut t = Tally::EMPTY;
        let greater = conc[27..].iter().all(|&c| c == 1);
        if greater {
            add(&mut t, Fan::GreaterHonorsAndKnittedTiles);
        } else {
            add(&mut t, Fan::LesserHonorsAndKnittedTiles);
            if shape::knitted_tiles(k).iter().all(|x| conc[x.index()] == 1) {
                add(&mut t, Fan::KnittedStraight);
            }
        }
        win_fans(f, &mut t, rules.special_shapes_fully_concealed);
        finish(f, &mut t);
        consider_special(best, f, t, Shape::HonorsAndKnitted, None, Some(k));
    }
}

fn consider_special(
    best: &mut Option<Best>,
    f: &Facts,
    t: Tally,
    shape: Shape,
    pair: Option<Tile>,
    knit: Option<usize>,
) {
    consider(best, f, t, shape, &[], pair, knit);
}

fn build(f: &Facts, b: Best) -> Scoring {
    let mut fans = Vec::with_capacity(b.tally.mask().count_ones() as usize);
    for (fan, c) in b.tally.iter() {
        fans.push(FanLine {
            fan,
            points: f.value(fan),
            count: c as u32,
        });
    }
    let sets = b.sets[..b.n]
        .iter()
        .map(|s| ReadSet {
            kind: s.kind,
            tile: s.tile,
            declared: s.declared,
            concealed: s.concealed,
        })
        .collect();
    Scoring {
        fans,
        total: b.total,
        reading: Reading {
            shape: b.shape,
            sets,
            pair: b.pair,
            knitted: b.knit.map(shape::knitted_tiles),
            tiles: match b.shape {
                Shape::SevenPairs
                | Shape::SevenShiftedPairs
                | Shape::ThirteenOrphans
                | Shape::HonorsAndKnitted => {
                    let c = f.hand.concealed_counts();
                    Tile::all()
                        .flat_map(|t| std::iter::repeat_n(t, c[t.index()] as usize))
                        .collect()
                }
                _ => Vec::new(),
            },
        },
    }
}
