"""The reference calculator's Python binding (``MahjongGB``), served by dupmj.

Same function names, argument names and order, results and ``TypeError`` codes, scored
under dupmj's ``reference`` fan profile. Switch with one import::

    from dupmj.mahjonggb import MahjongFanCalculator, MahjongShanten
"""
from ._dupmj import (
    HonorsAndKnittedTilesShanten,
    KnittedStraightShanten,
    MahjongFanCalculator,
    MahjongShanten,
    RegularShanten,
    SevenPairsShanten,
    ThirteenOrphansShanten,
)

__all__ = [
    "MahjongFanCalculator",
    "MahjongShanten",
    "ThirteenOrphansShanten",
    "SevenPairsShanten",
    "HonorsAndKnittedTilesShanten",
    "KnittedStraightShanten",
    "RegularShanten",
]
