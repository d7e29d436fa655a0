//! Implied fans (the non-repeat principle): a fan present in a reading removes the fans it
//! implies. A removed fan still removes what it implies, so chains need not be repeated.
//! Fans made of several chows or pungs are combined in [`crate::combos`], which already
//! leaves out the two-set fans inside a three- or four-set fan.

use crate::fan::{Fan, ALL_FANS};
use crate::rules::Rules;
use crate::tally::Tally;

use Fan::*;

/// The fans each fan implies, as the rule books list them ("may not be combined with").
/// Points where the books differ are in [`apply_exclusions`].
const fn implied(f: Fan) -> &'static [Fan] {
    match f {
        BigFourWinds => &[
            BigThreeWinds,
            LittleFourWinds,
            AllPungs,
            SeatWind,
            PrevalentWind,
        ],
        BigThreeDragons => &[DragonPung, TwoDragonsPungs],
        NineGates => &[FullFlush, ConcealedHand, EdgeWait, ClosedWait, SingleWait],
        FourKongs => &[
            AllPungs,
            ThreeKongs,
            TwoMeldedKongs,
            TwoConcealedKongs,
            ConcealedKongAndMeldedKong,
            MeldedKong,
            ConcealedKong,
            SingleWait,
        ],
        SevenShiftedPairs => &[SevenPairs, FullFlush, ConcealedHand, SingleWait],
        ThirteenOrphans => &[AllTypes, ConcealedHand, SingleWait],
        AllTerminals => &[NoHonors, AllPungs, OutsideHand, PungOfTerminalsOrHonors],
        LittleFourWinds => &[BigThreeWinds],
        LittleThreeDragons => &[TwoDragonsPungs, DragonPung],
        AllHonors => &[AllPungs, OutsideHand, PungOfTerminalsOrHonors],
        FourConcealedPungs => &[
            ConcealedHand,
            AllPungs,
            ThreeConcealedPungs,
            TwoConcealedPungs,
        ],
        PureTerminalChows => &[
            FullFlush,
            AllChows,
            SevenPairs,
            PureDoubleChow,
            MixedDoubleChow,
            TwoTerminalChows,
        ],
        QuadrupleChow => &[PureDoubleChow, PureTripleChow, TileHog, PureShiftedPungs],
        FourPureShiftedPungs => &[PureShiftedPungs, PureTripleChow, PureDoubleChow, AllPungs],
        FourPureShiftedChows => &[PureShiftedChows, ShortStraight, TwoTerminalChows],
        ThreeKongs => &[
            TwoMeldedKongs,
            TwoConcealedKongs,
            ConcealedKongAndMeldedKong,
            MeldedKong,
            ConcealedKong,
        ],
        AllTerminalsAndHonors => &[PungOfTerminalsOrHonors, OutsideHand, AllPungs],
        SevenPairs => &[ConcealedHand, SingleWait],
        GreaterHonorsAndKnittedTiles => &[
            LesserHonorsAndKnittedTiles,
            AllTypes,
            ConcealedHand,
            SingleWait,
        ],
        AllEvenPungs => &[AllPungs, AllSimples, NoHonors],
        FullFlush => &[NoHonors],
        PureTripleChow => &[PureShiftedPungs],
        PureShiftedPungs => &[PureTripleChow],
        UpperTiles => &[NoHonors, UpperFour],
        MiddleTiles => &[NoHonors, AllSimples],
        LowerTiles => &[NoHonors, LowerFour],
        ThreeSuitedTerminalChows => &[AllChows, TwoTerminalChows, MixedDoubleChow, NoHonors],
        AllFive => &[AllSimples, NoHonors],
        LesserHonorsAndKnittedTiles => &[AllTypes, ConcealedHand, SingleWait],
        UpperFour | LowerFour => &[NoHonors],
        ReversibleTiles => &[OneVoidedSuit],
        LastTileDraw => &[SelfDrawn],
        OutWithReplacementTile => &[SelfDrawn],
        RobbingTheKong => &[LastTile],
        MeldedHand => &[SingleWait],
        TwoConcealedKongs => &[ConcealedKong, TwoConcealedPungs],
        TwoDragonsPungs => &[DragonPung],
        FullyConcealedHand => &[SelfDrawn, ConcealedHand],
        TwoMeldedKongs => &[MeldedKong],
        AllChows => &[NoHonors],
        AllSimples => &[NoHonors],
        _ => &[],
    }
}

const fn bit(f: Fan) -> u128 {
    1 << f as u8
}

/// `EXCLUDES[n]`: bit mask of the fans implied by fan number `n`; none for 83 to 128 (128
/// is the trailing zeros of an empty mask).
const EXCLUDES: [u128; 129] = {
    let mut t = [0u128; 129];
    let mut i = 0;
    while i < ALL_FANS.len() {
        let f = ALL_FANS[i];
        let list = implied(f);
        let mut j = 0;
        while j < list.len() {
            t[f as usize] |= bit(list[j]);
            j += 1;
        }
        i += 1;
    }
    t
};

/// The fans that imply another: only their bits need a look-up.
const IMPLYING: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < 83 {
        if EXCLUDES[i] != 0 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};

/// The fans `f` implies under `rules` (the non-repeat principle), by fan number: counted
/// with `f`, none of them is counted again. A teaching page names them beside `f`.
pub fn implied_by(f: Fan, rules: &Rules) -> Vec<Fan> {
    let mut mask = EXCLUDES[f as usize];
    if f == AllGreen && rules.all_green_excludes_half_flush {
        mask |= bit(HalfFlush);
    }
    if f == AllTerminals && !rules.all_terminals_double_pung {
        mask |= bit(DoublePung);
    }
    let mut out: Vec<Fan> = ALL_FANS
        .iter()
        .copied()
        .filter(|&g| mask & bit(g) != 0)
        .collect();
    out.sort_by_key(|g| g.number());
    out
}

/// Removes every fan implied by a fan of the reading.
pub(crate) fn apply_exclusions(t: &mut Tally, rules: &Rules) {
    // The first two implying fans without a branch (a loop's exit is one no predictor
    // learns: most readings have none, one or two); a third is rare.
    let m = t.mask() & IMPLYING;
    let second = m & m.wrapping_sub(1);
    let mut removed =
        EXCLUDES[m.trailing_zeros() as usize] | EXCLUDES[second.trailing_zeros() as usize];
    let mut m = second & second.wrapping_sub(1);
    while m != 0 {
        removed |= EXCLUDES[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    if t.has(AllGreen) && rules.all_green_excludes_half_flush {
        removed |= bit(HalfFlush);
    }
    if t.has(AllTerminals) && !rules.all_terminals_double_pung {
        removed |= bit(DoublePung);
    }
    t.remove(removed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From the rule book's lists: Full Flush may not be combined with No Honors, All
    /// Terminals not with Double Pung under the seeds' profile; Chicken Hand implies
    /// nothing.
    #[test]
    fn implied_fans_are_the_books() {
        let r = Rules::seeds();
        assert_eq!(implied_by(FullFlush, &r), vec![NoHonors]);
        let terminals = implied_by(AllTerminals, &r);
        assert_eq!(
            terminals.contains(&DoublePung),
            !r.all_terminals_double_pung,
            "{terminals:?}"
        );
        assert!(implied_by(ChickenHand, &r).is_empty());
        let big = implied_by(BigFourWinds, &r);
        assert!(
            big.contains(&AllPungs) && big.contains(&SeatWind),
            "{big:?}"
        );
    }
}
