//! The special shapes that are not four sets and a pair: seven pairs, thirteen
//! orphans, the knitted and honours shapes.

use super::present::{HONORS, TERMINALS};
use super::sets::finish;
use super::{add, consider, shape, Best, Counts, Facts, Fan, Shape, Tally, Tile};

pub(super) fn special_shapes(f: &Facts, conc: &Counts, present: u64, best: &mut Option<Best>) {
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
        t.insert(f.win_fans[rules.special_shapes_fully_concealed as usize]);
        finish(f, &mut t);
        let pairs_first = conc.iter().position(|&c| c > 0).and_then(Tile::from_index);
        consider_special(best, f, t, shape, pairs_first, None);
    }
    if present & !(TERMINALS | HONORS) == 0 && shape::is_thirteen_orphans(conc) {
        let mut t = Tally::EMPTY;
        add(&mut t, Fan::ThirteenOrphans);
        t.insert(f.win_fans[rules.special_shapes_fully_concealed as usize]);
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
        t.insert(f.win_fans[rules.special_shapes_fully_concealed as usize]);
        finish(f, &mut t);
        consider_special(best, f, t, Shape::HonorsAndKnitted, None, Some(k));
    }
}

pub(super) fn consider_special(
    best: &mut Option<Best>,
    f: &Facts,
    t: Tally,
    shape: Shape,
    pair: Option<Tile>,
    knit: Option<usize>,
) {
    consider(best, f, t, shape, &[], pair, knit);
}
