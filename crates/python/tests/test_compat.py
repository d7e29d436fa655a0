"""dupmj.mahjonggb against the reference binding (pymahjonggb from PyPI) on generated
hands: the same totals, the same fan lists (but for equal-value readings), the same
shanten and useful tiles, the same TypeError codes."""
import random

import pytest

from conftest import load

MahjongGB = pytest.importorskip("MahjongGB")
from dupmj import mahjonggb  # noqa: E402

hands = load("hands", "tools/oracle/hands.py")
reference = load("reference", "tools/oracle/reference.py")

WIND = {"E": 0, "S": 1, "W": 2, "N": 3}


def generated(seed, count):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        try:
            out.append(hands.one_hand(rng))
        except ValueError:
            continue
    return out


def args(h):
    return dict(
        pack=tuple(reference.pack(m) for m in h["melds"]),
        hand=tuple(reference.code(t) for t in h["hand"]),
        winTile=reference.code(h["win_tile"]),
        flowerCount=h["flowers"],
        isSelfDrawn=h["self_drawn"],
        is4thTile=h["fourth_tile"],
        isAboutKong=h["kong_related"],
        isWallLast=h["last_tile"],
        seatWind=WIND[h["seat_wind"]],
        prevalentWind=WIND[h["prevalent_wind"]],
    )


def outcome(f, a, verbose):
    try:
        return f(**a, verbose=verbose)
    except TypeError as e:
        return ("error", str(e))


def test_fan_calculator_agrees_on_3000_generated_hands():
    n, lists_differ = 0, 0
    for h in generated(5, 3000):
        a = args(h)
        ours = outcome(mahjonggb.MahjongFanCalculator, a, True)
        theirs = outcome(MahjongGB.MahjongFanCalculator, a, True)
        if theirs[0] == "error" or ours[0] == "error":
            assert ours == theirs, h["str"]
            continue
        total = lambda r: sum(p * c for p, c, *_ in r)  # noqa: E731
        assert total(ours) == total(theirs), (h["str"], ours, theirs)
        if ours != theirs:
            lists_differ += 1
        else:
            # Positional arguments and the short form agree too.
            short = mahjonggb.MahjongFanCalculator(*a.values())
            assert short == MahjongGB.MahjongFanCalculator(*a.values())
        n += 1
    assert n > 2500
    # Equal totals from another reading of the same tiles (freedom of choice): rare.
    assert lists_differ <= n * 0.015, lists_differ


def test_shanten_functions_agree_on_random_hands():
    rng = random.Random(3)
    wall = [t for t in hands.ALL for _ in range(4)]
    funcs = ["ThirteenOrphansShanten", "SevenPairsShanten", "HonorsAndKnittedTilesShanten",
             "KnittedStraightShanten", "RegularShanten"]
    for i in range(1000):
        tiles = tuple(reference.code(t) for t in rng.sample(wall, 13))
        assert mahjonggb.MahjongShanten((), tiles) == MahjongGB.MahjongShanten((), tiles)
        for name in funcs:
            ours = getattr(mahjonggb, name)(tiles)
            theirs = getattr(MahjongGB, name)(tiles)
            assert ours[0] == theirs[0], (name, tiles)
            assert sorted(ours[1]) == sorted(theirs[1]), (name, tiles, ours, theirs)


@pytest.mark.parametrize("kwargs", [
    dict(pack=(), hand=("W1",) * 5, winTile="W1"),
    dict(pack=(), hand=("W1", "W2"), winTile="W3"),
    dict(pack=(), hand=("X1",) * 13, winTile="W3"),
    dict(pack=(("PONG", "W1", 1),), hand=("W1",) * 10, winTile="W3"),
    dict(pack=(("PENG", "W1", 7),), hand=("W1",) * 10, winTile="W3"),
    dict(pack=(), hand=("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B1", "B2", "B3", "F1"),
         winTile="F2"),
    dict(pack=[], hand=(), winTile="W1"),
])
def test_errors_are_the_bindings(kwargs):
    full = dict(kwargs, flowerCount=0, isSelfDrawn=False, is4thTile=False, isAboutKong=False,
                isWallLast=False, seatWind=0, prevalentWind=0)
    with pytest.raises(TypeError) as theirs:
        MahjongGB.MahjongFanCalculator(**full)
    with pytest.raises(TypeError) as ours:
        mahjonggb.MahjongFanCalculator(**full)
    assert str(ours.value) == str(theirs.value)
