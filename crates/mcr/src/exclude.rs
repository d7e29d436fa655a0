//! Implied fans (the non-repeat principle): a fan present in a reading removes the fans it
//! implies. A removed fan still removes what it implies, so chains need not be repeated.
//! Fans made of several chows or pungs are combined in [`crate::combos`], which already
//! leaves out the two-set fans inside a three- or four-set fan.

use crate::fan::Fan;
use crate::rules::Rules;
use crate::score::Tally;

use Fan::*;

/// The fans each fan implies, as the rule books list them ("may not be combined with").
fn implied(f: Fan, rules: &Rules) -> &'static [Fan] {
    match f {
        BigFourWinds => &[
            BigThreeWinds,
            LittleFourWinds,
            AllPungs,
            SeatWind,
            PrevalentWind,
        ],
        BigThreeDragons => &[DragonPung, TwoDragonsPungs],
        AllGreen => {
            if rules.all_green_excludes_half_flush {
                &[HalfFlush]
            } else {
                &[]
            }
        }
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
        AllTerminals => {
            if rules.all_terminals_double_pung {
                &[NoHonors, AllPungs, OutsideHand, PungOfTerminalsOrHonors]
            } else {
                &[
                    NoHonors,
                    AllPungs,
                    OutsideHand,
                    PungOfTerminalsOrHonors,
                    DoublePung,
                ]
            }
        }
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

/// Removes every fan implied by a fan of the reading.
pub(crate) fn apply_exclusions(t: &mut Tally, rules: &Rules) {
    let present = *t;
    for (i, &c) in present.iter().enumerate().skip(1) {
        if c == 0 {
            continue;
        }
        let f = Fan::from_number(i as u8).expect("fan number");
        for &e in implied(f, rules) {
            t[e as usize] = 0;
        }
    }
}
