//! The fan calculator: every reading of a hand is scored and the best total is kept
//! (freedom of choice); within a reading, implied fans are removed (non-repeat) and the
//! combination principles are applied by [`crate::combos`].

mod present;
mod sets;
mod special;

use present::{presence, trait_fans, SUIT_M, SUIT_P, SUIT_S};
use sets::{eval_sets, win_masks};
use special::special_shapes;

use crate::combo_table;
use crate::combos::{self, Key};
use crate::exclude::apply_exclusions;
use crate::fan::Fan;
use crate::hand::{Hand, HandError};
use crate::meld::MeldKind;
use crate::rules::Rules;
use crate::shape;
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

/// The set each kind of meld is, by [`MeldKind`]'s order (a look-up, not a branch).
const SET_OF_MELD: [SetKind; 5] = [
    SetKind::Chow,
    SetKind::Pung,
    SetKind::Kong,
    SetKind::Kong,
    SetKind::Kong,
];
const _: () = assert!(
    MeldKind::Chow as usize == 0
        && MeldKind::Pung as usize == 1
        && MeldKind::ConcealedKong as usize == 2
        && MeldKind::MeldedKong as usize == 3
        && MeldKind::PromotedKong as usize == 4
);

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
    /// The fans of how the hand was won, without and with Fully Concealed Hand allowed.
    win_fans: [u128; 2],
    /// Where the winning tile sits in a concealed chow that it completes on an edge wait
    /// (0 for a 7, as in 789; 2 for a 3, as in 123; another rank never does).
    edge_at: usize,
    unique_wait: std::cell::Cell<Option<bool>>,
}

#[derive(Clone, Copy)]
struct Set {
    kind: SetKind,
    tile: Tile,
    declared: bool,
    concealed: bool,
}

/// The concealed sets of a reading, by suit and set code (see
/// [`shape::each_reading_as`]), then the honour pungs.
static CONCEALED_SETS: [[Set; 16]; 4] = {
    let mut t = [[Set {
        kind: SetKind::Pung,
        tile: Tile::EAST,
        declared: false,
        concealed: true,
    }; 16]; 4];
    let mut i = 0;
    while i < 64 {
        let (chow, tile) = crate::suitreadings::code_set(i / 16, i % 16);
        t[i / 16][i % 16].kind = if chow { SetKind::Chow } else { SetKind::Pung };
        t[i / 16][i % 16].tile = tile;
        i += 1;
    }
    t
};

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
        t.total(self.rules.values())
    }

    /// Does the standing hand wait on exactly one tile? Computed once, when needed;
    /// `regular`: the concealed tiles are sets and a pair (a reading of four sets found
    /// them so), which spares most of the look-ups.
    fn unique_wait(&self, regular: bool) -> bool {
        if let Some(v) = self.unique_wait.get() {
            return v;
        }
        // A tile whose four copies the player holds still counts as a wait here (a
        // fifth copy would complete the shape), as in the reference; S4 is silent.
        // A second wait found settles it: the search stops there.
        let mut c = self.hand.concealed_counts();
        c[self.win.index()] -= 1;
        let melds = self.hand.melds().len();
        let waits = if regular {
            crate::wait::winning_tiles_of_complete(&c, self.win, melds)
        } else {
            crate::wait::winning_tiles_limited(&c, &[0; 34], melds, 2)
        };
        let n = waits.count_ones();
        let v = n == 1;
        self.unique_wait.set(Some(v));
        v
    }
}

#[inline]
fn add(t: &mut Tally, f: Fan) {
    t.add(f);
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

/// Scores a hand under `rules`: the best total over every reading, with its fans and the
/// reading itself.
pub fn score(hand: &Hand, rules: &Rules) -> Result<Scoring, HandError> {
    let (facts, best) = search(hand, rules)?;
    Ok(build(&facts, best))
}

/// The fans of a hand and their total under some rules, without the reading: what the
/// reference calculator returns, with no allocation (for callers that score many hands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FanTable {
    tally: Tally,
    total: u32,
    flower_points: u32,
}

impl FanTable {
    /// Sum of all fans, flowers included (as [`Scoring::total`]).
    pub fn total(&self) -> u32 {
        self.total
    }
    /// Points that count towards the minimum to win (flowers excluded).
    pub fn points_without_flowers(&self) -> u32 {
        self.total - self.flower_points
    }
    /// How many times `fan` counts (0 when absent).
    pub fn count(&self, fan: Fan) -> u32 {
        self.tally
            .iter()
            .find(|&(f, _)| f == fan)
            .map_or(0, |(_, c)| c as u32)
    }
    /// The fans scored and how many times each counts, in fan-number order.
    pub fn fans(&self) -> impl Iterator<Item = (Fan, u32)> + '_ {
        self.tally.iter().map(|(f, c)| (f, c as u32))
    }
}

/// The fans and total of a hand under `rules`, as [`score`] finds them, without the reading.
pub fn fan_table(hand: &Hand, rules: &Rules) -> Result<FanTable, HandError> {
    let (facts, best) = search(hand, rules)?;
    Ok(FanTable {
        tally: best.tally,
        total: best.total,
        flower_points: facts.value(Fan::FlowerTiles) * hand.ctx.flowers as u32,
    })
}

/// Every reading of the hand scored; the best one kept.
fn search<'a>(hand: &'a Hand, rules: &'a Rules) -> Result<(Facts<'a>, Best), HandError> {
    let all = hand.all_counts();
    let claimed = hand.claimed_sets();
    let mut facts = Facts {
        rules,
        hand,
        win: hand.win_tile(),
        claimed,
        last_of_kind: hand.wins_on_last_of_kind(),
        traits: trait_fans(presence(&all)),
        quads: crate::tile::fours(&all),
        win_fans: [0; 2],
        edge_at: match hand.win_tile().rank() {
            7 => 0,
            3 => 2,
            // No difference of two tile indices, wrapped or not, is this.
            _ => 1 << 20,
        },
        unique_wait: std::cell::Cell::new(None),
    };
    facts.win_fans = win_masks(&facts);
    let f = &facts;
    let mut declared = [Set {
        kind: SetKind::Pung,
        tile: Tile::EAST,
        declared: true,
        concealed: false,
    }; 4];
    let nm = hand.melds().len();
    // All four slots written (the hand keeps its melds in four slots, the missing ones a
    // stand-in that the count leaves out): a loop that stops at the melds' count is a
    // branch no predictor learns.
    for (d, m) in declared.iter_mut().zip(hand.meld_slots()) {
        *d = Set {
            kind: SET_OF_MELD[m.kind as usize],
            tile: m.tile,
            declared: true,
            concealed: m.kind == MeldKind::ConcealedKong,
        };
    }
    let conc = hand.concealed_counts();
    let conc_present = presence(&conc);
    let mut best: Option<Best> = None;

    // Nine gates needs all nine ranks of one suit and nothing else: most hands are ruled
    // out by the kinds present alone.
    let one_full_suit = [SUIT_M, SUIT_S, SUIT_P].contains(&conc_present);
    let nine = if nm == 0 && one_full_suit {
        let mut standing = conc;
        standing[f.win.index()] -= 1;
        shape::nine_gates_suit(&standing)
    } else {
        None
    };

    // Four sets and a pair.
    let shape = if nine.is_some() {
        Shape::NineGates
    } else {
        Shape::Regular
    };
    shape::each_reading_as(&conc, &CONCEALED_SETS, declared, nm, &mut |parts, pair| {
        let Ok(mut sets) = <[Set; 4]>::try_from(parts) else {
            return;
        };
        let tally = eval_sets(f, &mut sets, pair, None, nine.is_some());
        consider(&mut best, f, tally, shape, &sets, Some(pair), None);
    });

    // Knitted straight with one set and a pair.
    if nm <= 1 {
        let mut ks = [0usize; 6];
        let mut nk = 0;
        for (k, &knit) in shape::KNIT_MASKS.iter().enumerate() {
            ks[nk] = k;
            nk += (conc_present & knit == knit) as usize;
        }
        for &k in &ks[..nk] {
            let mut rest = conc;
            for t in shape::knitted_tiles(k) {
                rest[t.index()] -= 1;
            }
            shape::each_reading_as(&rest, &CONCEALED_SETS, declared, nm, &mut |parts, pair| {
                let Ok(mut sets) = <[Set; 1]>::try_from(parts) else {
                    return;
                };
                let tally = eval_sets(f, &mut sets, pair, Some(k), false);
                consider(
                    &mut best,
                    f,
                    tally,
                    Shape::KnittedStraight,
                    &sets,
                    Some(pair),
                    Some(k),
                );
            });
        }
    }

    if nm == 0 {
        special_shapes(f, &conc, conc_present, &mut best);
    }

    let best = best.ok_or(HandError::NotWinning)?;
    Ok((facts, best))
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
