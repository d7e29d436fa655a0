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
