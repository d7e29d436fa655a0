#!/usr/bin/env python3
"""Random winning MCR hands for comparing calculators, as JSON Lines.

    python3 tools/oracle/hands.py --seed 1 --count 20000 > hands.jsonl

Each line is one hand in the format `dupmj fan --batch` reads (docs/hands.md), with "str",
the same hand in dupmj's notation, and "shape", how it was built: declared
sets in "melds", the concealed tiles before the win in "hand", "win_tile", and the win
flags, chosen so that they could happen at a table (a replacement-tile win needs a kong,
robbing a kong needs a win tile held nowhere else, the last of its kind needs a copy
unseen in the hand). Hands are not filtered by value: a hand under 8 points is still a
hand both calculators must score alike.

The same --seed and --count always give the same lines (Python's own `random.Random`).
Shapes: four sets and a pair (with biases toward the fans that need them: one or two
suits, pungs, honours, terminals, straights, shifted and mixed chows), seven pairs,
seven shifted pairs, thirteen orphans, honours and knitted tiles, the knitted straight
with a set and a pair, and nine gates.
"""
import argparse
import json
import random

SUITS = "msp"
WINDS = "ESWN"
DRAGONS = "CFP"
NUMBERED = [f"{r}{s}" for s in SUITS for r in range(1, 10)]
HONOURS = list(WINDS + DRAGONS)
ALL = NUMBERED + HONOURS
TERMINALS = [t for t in NUMBERED if t[0] in "19"]


def rank(t):
    return int(t[0]) if t in NUMBERED else 0


def up(t, k):
    """The tile k ranks above t, or None."""
    r = rank(t) + k
    return f"{r}{t[1]}" if t in NUMBERED and 1 <= r <= 9 else None


def order(t):
    return ALL.index(t)


class Pool:
    """Four of each tile; taking more than there are fails the hand (it is redrawn)."""

    def __init__(self):
        self.left = {t: 4 for t in ALL}

    def take(self, tiles):
        for t in tiles:
            if self.left[t] == 0:
                raise ValueError(t)
            self.left[t] -= 1


def a_set(rng, tiles, chow_share):
    """A chow or a pung (a kong later, maybe) drawn from `tiles`."""
    t = rng.choice(tiles)
    if rng.random() < chow_share and t in NUMBERED and rank(t) <= 7 and up(t, 2) in tiles:
        return ("chow", t)
    return ("pung", t)


def set_tiles(s):
    kind, t = s
    if kind == "chow":
        return [t, up(t, 1), up(t, 2)]
    return [t] * (4 if kind == "kong" else 3)


def biased_sets(rng):
    """Four sets and a pair, the tiles chosen by one of several biases."""
    bias = rng.choice(["any", "one_suit", "half_flush", "two_suits", "pungs", "honours",
                       "terminals", "straight", "mixed_chows", "shifted", "simples"])
    suit = rng.choice(SUITS)
    tiles, chow_share = ALL, 0.6
    if bias == "one_suit":
        tiles = [t for t in NUMBERED if t[1] == suit]
    elif bias == "half_flush":
        tiles = [t for t in NUMBERED if t[1] == suit] + HONOURS
    elif bias == "two_suits":
        other = rng.choice([s for s in SUITS if s != suit])
        tiles = [t for t in NUMBERED if t[1] in (suit, other)]
    elif bias == "pungs":
        chow_share = 0.0
    elif bias == "honours":
        tiles, chow_share = HONOURS + TERMINALS, 0.2
    elif bias == "terminals":
        tiles = TERMINALS + HONOURS + [t for t in NUMBERED if rank(t) in (2, 3, 7, 8)]
    elif bias == "simples":
        tiles = [t for t in NUMBERED if 2 <= rank(t) <= 8]
    sets = []
    if bias == "straight":
        sets = [("chow", f"{r}{suit}") for r in (1, 4, 7)]
    elif bias == "mixed_chows":
        r = rng.randint(1, 7)
        sets = [("chow", f"{r}{s}") for s in rng.sample(SUITS, 3)]
    elif bias == "shifted":
        r, step = rng.randint(1, 5), rng.choice([1, 2])
        if r + 2 * step <= 7:
            sets = [("chow", f"{r + k * step}{s}") for k, s in enumerate(rng.sample(SUITS, 3))]
    while len(sets) < 4:
        sets.append(a_set(rng, tiles, chow_share))
    pair = rng.choice(tiles)
    return sets, pair


def regular(rng):
    sets, pair = biased_sets(rng)
    # Some pungs become kongs; some sets are declared (melded), the rest stay concealed.
    sets = [("kong", t) if k == "pung" and rng.random() < 0.15 else (k, t) for k, t in sets]
    declared = rng.randint(0, 4) if rng.random() < 0.6 else 0
    melds, concealed = [], [pair, pair]
    for i, s in enumerate(sets):
        if s[0] == "kong" or i < declared:
            melds.append(s)
        else:
            concealed += set_tiles(s)
    return melds, concealed


def seven_pairs(rng):
    kinds = rng.sample(ALL, 7) if rng.random() < 0.8 else rng.sample(ALL, 6)
    if len(kinds) == 6:
        kinds.append(kinds[0])  # four of a kind counts as two pairs
    return [], [t for t in kinds for _ in (0, 1)]


def seven_shifted_pairs(rng):
    suit, r = rng.choice(SUITS), rng.randint(1, 3)
    return [], [f"{r + k}{suit}" for k in range(7) for _ in (0, 1)]


def thirteen_orphans(rng):
    tiles = TERMINALS + HONOURS
    return [], tiles + [rng.choice(tiles)]


def knitted(rng):
    """Three suits, each given one of the runs 147, 258, 369."""
    return [f"{r}{s}" for s, rs in zip(rng.sample(SUITS, 3), ("147", "258", "369")) for r in rs]


def honours_and_knitted(rng):
    return [], rng.sample(knitted(rng) + HONOURS, 14)


def knitted_straight(rng):
    tiles = knitted(rng)
    s = a_set(rng, ALL, 0.6)
    pair = rng.choice(ALL)
    return [], tiles + set_tiles(s) + [pair, pair]


def nine_gates(rng):
    suit = rng.choice(SUITS)
    return [], [f"{r}{suit}" for r in "1112345678999"] + [f"{rng.randint(1, 9)}{suit}"]


SHAPES = [(regular, 80), (seven_pairs, 6), (seven_shifted_pairs, 2), (thirteen_orphans, 2),
          (honours_and_knitted, 3), (knitted_straight, 4), (nine_gates, 3)]


def one_hand(rng):
    shape = rng.choices([s for s, _ in SHAPES], [w for _, w in SHAPES])[0]
    melds, concealed = shape(rng)
    Pool().take([t for m in melds for t in set_tiles(m)] + concealed)
    win = concealed.pop(rng.randrange(len(concealed)))
    held = [t for m in melds for t in set_tiles(m)] + concealed + [win]
    self_drawn = rng.random() < 0.4
    has_kong = any(k == "kong" for k, _ in melds)
    if self_drawn:
        kong_related = has_kong and rng.random() < 0.2
    else:
        kong_related = held.count(win) == 1 and rng.random() < 0.1
    # The last of its kind: the other copies were seen on the table, none is held concealed.
    fourth = win not in concealed and not kong_related and rng.random() < 0.1
    melds = [meld_json(rng, m) for m in melds]
    return {
        "shape": shape.__name__,
        "str": notation(melds, concealed, win),
        "melds": melds,
        "hand": sorted(concealed, key=order),
        "win_tile": win,
        "self_drawn": self_drawn,
        "fourth_tile": fourth,
        "kong_related": kong_related,
        "last_tile": not kong_related and rng.random() < 0.08,
        "seat_wind": rng.choice(WINDS),
        "prevalent_wind": rng.choice(WINDS),
        "flowers": rng.choice([0, 0, 0, 1, 2]),
    }


def notation(melds, concealed, win):
    """The hand in dupmj's notation (docs/rules.md §1): sets in brackets, winning tile last."""
    sets = "".join("[" + "".join(m["tiles"]) + ("" if m["concealed"] else str(m["from"])) + "]"
                   for m in melds)
    return sets + "".join(sorted(concealed, key=order)) + win


def meld_json(rng, m):
    kind, t = m
    concealed = kind == "kong" and rng.random() < 0.4
    return {"kind": kind, "tile": t, "tiles": set_tiles(m), "concealed": concealed,
            "from": 0 if concealed else rng.randint(1, 3)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    a = ap.parse_args()
    if a.count < 1:
        ap.error("--count must be at least 1")
    rng = random.Random(a.seed)
    made = 0
    while made < a.count:
        try:
            h = one_hand(rng)
        except ValueError:  # a fifth copy of a tile: draw again
            continue
        print(json.dumps({"id": made, **h}))
        made += 1


if __name__ == "__main__":
    main()
