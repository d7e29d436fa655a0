from ._dupmj import (
    HonorsAndKnittedTilesShanten as HonorsAndKnittedTilesShanten,
    KnittedStraightShanten as KnittedStraightShanten,
    MahjongFanCalculator as MahjongFanCalculator,
    MahjongShanten as MahjongShanten,
    RegularShanten as RegularShanten,
    SevenPairsShanten as SevenPairsShanten,
    ThirteenOrphansShanten as ThirteenOrphansShanten,
)
