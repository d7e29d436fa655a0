#!/usr/bin/env python3
"""Scores hands (docs/hands.md, one JSON object a line on stdin) with the reference
calculator, the `MahjongGB` module of `pymahjonggb` from PyPI, and writes each back with
"fans" ([{"no", "name", "points", "count"}]) and "total", or "error" for that line.

    tools/oracle/hands.py --seed 1 --count 1000 | python3 tools/oracle/reference.py

The reference applies no 8-point minimum, and neither does this script.
"""
import json
import sys

from MahjongGB import MahjongFanCalculator

# The reference's English fan names, in the official numbering (1–81); number 82 is the
# reference's own "Concealed Kong and Melded Kong" (see the `reference` profile).
NUMBERED_NAMES = """Big Four Winds|Big Three Dragons|All Green|Nine Gates|Four Kongs|
Seven Shifted Pairs|Thirteen Orphans|All Terminals|Little Four Winds|Little Three Dragons|
All Honors|Four Concealed Pungs|Pure Terminal Chows|Quadruple Chow|Four Pure Shifted Pungs|
Four Pure Shifted Chows|Three Kongs|All Terminals and Honors|Seven Pairs|
Greater Honors and Knitted Tiles|All Even Pungs|Full Flush|Pure Triple Chow|
Pure Shifted Pungs|Upper Tiles|Middle Tiles|Lower Tiles|Pure Straight|
Three-Suited Terminal Chows|Pure Shifted Chows|All Five|Triple Pung|Three Concealed Pungs|
Lesser Honors and Knitted Tiles|Knitted Straight|Upper Four|Lower Four|Big Three Winds|
Mixed Straight|Reversible Tiles|Mixed Triple Chow|Mixed Shifted Pungs|Chicken Hand|
Last Tile Draw|Last Tile Claim|Out with Replacement Tile|Robbing The Kong|All Pungs|
Half Flush|Mixed Shifted Chows|All Types|Melded Hand|Two Concealed Kongs|Two Dragons Pungs|
Outside Hand|Fully Concealed Hand|Two Melded Kongs|Last Tile|Dragon Pung|Prevalent Wind|
Seat Wind|Concealed Hand|All Chows|Tile Hog|Double Pung|Two Concealed Pungs|Concealed Kong|
All Simples|Pure Double Chow|Mixed Double Chow|Short Straight|Two Terminal Chows|
Pung of Terminals or Honors|Melded Kong|One Voided Suit|No Honors|Edge Wait|Closed Wait|
Single Wait|Self-Drawn|Flower Tiles|Concealed Kong and Melded Kong"""
NUMBER = {n.strip(): i + 1 for i, n in enumerate(NUMBERED_NAMES.replace("\n", "").split("|"))}

# Our notation to the reference's tile codes (W characters, T bamboo, B dots, F winds,
# J dragons: red, green, white).
SUIT_CODE = {"m": "W", "s": "T", "p": "B"}
HONOUR_CODE = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
WIND_NUMBER = {"E": 0, "S": 1, "W": 2, "N": 3}


def code(t):
    return HONOUR_CODE[t] if t in HONOUR_CODE else SUIT_CODE[t[1]] + t[0]


def pack(m):
    """A declared set as the reference takes it: (kind, tile, who it came from)."""
    t = m["tile"]
    if m["kind"] == "chow":
        middle = f"{int(t[0]) + 1}{t[1]}"  # the reference names a chow by its middle tile
        return ("CHI", code(middle), m.get("from") or 1)
    if m["kind"] == "pung":
        return ("PENG", code(t), m.get("from") or 1)
    return ("GANG", code(t), 0 if m.get("concealed") else (m.get("from") or 1))


def score(h):
    result = MahjongFanCalculator(
        pack=tuple(pack(m) for m in h.get("melds", [])),
        hand=tuple(code(t) for t in h["hand"]),
        winTile=code(h["win_tile"]),
        flowerCount=h.get("flowers", 0),
        isSelfDrawn=h.get("self_drawn", False),
        is4thTile=h.get("fourth_tile", False),
        isAboutKong=h.get("kong_related", False),
        isWallLast=h.get("last_tile", False),
        seatWind=WIND_NUMBER[h.get("seat_wind", "E")],
        prevalentWind=WIND_NUMBER[h.get("prevalent_wind", "E")],
        verbose=True,
    )
    fans = [{"no": NUMBER.get(en, 0), "name": en, "points": p, "count": c}
            for (p, c, _chinese, en) in result]
    return {"fans": fans, "total": sum(f["points"] * f["count"] for f in fans)}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        h = json.loads(line)
        try:
            h.update(score(h))
        except Exception as e:  # the reference raises on a hand it will not score
            h["error"] = str(e)
        print(json.dumps(h))


if __name__ == "__main__":
    main()
