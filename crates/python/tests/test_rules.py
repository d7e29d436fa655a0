"""The rules from Python: scores against the golden hands (totals and fans worked out by
hand or taken from the reference calculator), tile lists, shanten, waits, bad input."""
import json

import pytest

import dupmj
from conftest import ROOT


def golden():
    for name in ["handmade", "reference", "seeds_derived"]:
        path = ROOT / "crates/mcr/tests/golden" / f"{name}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def test_every_golden_hand_scores_its_total_and_fans():
    n = 0
    for g in golden():
        s = dupmj.score(g["hand"], g.get("flags", ""), g.get("rules", "seeds"))
        assert s["total"] == g["total"], g
        got = sorted([f["number"], f["count"]] for f in s["fans"])
        assert got == sorted(g["fans"]), g
        n += 1
    assert n == 329


def test_a_hand_from_tile_lists_equals_the_same_hand_in_notation():
    # [123m3][555p2][EEEE] 789s P, winning on P: East seat and prevalent.
    a = dupmj.score("[123m3][555p2][EEEE]789sPP")
    b = dupmj.score_tiles(["7s", "8s", "9s", "P"], "P",
                          [("chow", "1m", 3), ("pung", "5p", 2), ("concealed_kong", "E")])
    assert a == b
    assert a["total"] == 14
    names = {f["name"]: f["chinese"] for f in a["fans"]}
    assert names["All Types"] == "五门齐"
    # Bot codes are tiles too.
    c = dupmj.score_tiles(["T7", "T8", "T9", "J3"], "J3",
                          [("chow", "W1", 3), ("pung", "B5", 2), ("concealed_kong", "F1")])
    assert c == a


def test_flags_and_profiles_change_the_score():
    hand = "[234m1][678p1]34567sEE5s"
    assert dupmj.score(hand, "seat=S wind=S")["total"] == 8
    assert dupmj.score(hand, "seat=S wind=S flowers=3")["total"] == 11
    drawn = dupmj.score(hand, "self seat=S wind=S")
    assert any(f["name"] == "Self-Drawn" for f in drawn["fans"])


def test_shanten_and_waits():
    # 13 orphans ready on any of its 13 kinds (9m missing... here every kind once + one pair).
    s = dupmj.shanten("19m19s19pESWNCFP")
    assert s["thirteen_orphans"] == 0 and s["shanten"] == 0
    w = dupmj.waits("19m19s19pESWNCFP")
    assert w["shanten"] == 0
    assert len(w["waits"]) == 13
    assert all(x["self_drawn"] >= 88 for x in w["waits"])
    # A complete regular shape with one tile too many is -1.
    assert dupmj.shanten("123456789m123pEE")["shanten"] == -1
    # Two sets declared: 7 standing tiles.
    assert dupmj.shanten("1234567m", melds=2)["regular"] == 0


def test_fan_table_has_82_fans_and_the_profiles_differ_where_documented():
    seeds = dupmj.fan_table("seeds")
    ref = dupmj.fan_table("reference")
    assert len(seeds) == len(ref) == 82
    assert seeds[0][:3] == (1, "Big Four Winds", "大四喜")
    assert sum(p for *_, p in seeds) > 0


def test_deal_has_13_tiles_and_a_21_tile_wall_per_seat():
    d = dupmj.deal(7)
    assert d["seed"] == 7
    tiles = []
    for seat in "ESWN":
        assert len(d["seats"][seat]["hand"]) == 13
        assert len(d["seats"][seat]["wall"]) == 21
        tiles += d["seats"][seat]["hand"] + d["seats"][seat]["wall"]
    assert len(tiles) == 136 and all(tiles.count(t) == 4 for t in set(tiles))


@pytest.mark.parametrize("call, words", [
    (lambda: dupmj.score("123m456p789sEEE5x"), "hand"),
    (lambda: dupmj.score("123m456p789sEEEN", "self seat=Q"), "flags"),
    (lambda: dupmj.score("123m456p789sEEEN", "", "wmo"), "fans: no fan profile called 'wmo'"),
    (lambda: dupmj.score_tiles(["1m", "Z9"], "1m"), "hand[1]: 'Z9'"),
    (lambda: dupmj.score_tiles(["1m"], "5x"), "win_tile: '5x'"),
    (lambda: dupmj.score_tiles(["1m"], "1m", [("triple", "1m", 1)]), "melds[0]"),
    (lambda: dupmj.score_tiles(["1m"], "1m", [("chow", "9m", 1)]), "melds[0]: no chow starts at 9m"),
    (lambda: dupmj.score("123m456p789sEEESN"), "not a winning hand"),
    (lambda: dupmj.shanten("1m", melds=9), "tiles:"),
])
def test_bad_input_says_what_and_where(call, words):
    with pytest.raises(ValueError) as e:
        call()
    assert words in str(e.value)
