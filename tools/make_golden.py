#!/usr/bin/env python3
"""Build golden entries from the reference calculator's output (tools/oracle/reference.py).

    python3 tools/make_golden.py SCORED.jsonl --agree OURS.jsonl > crates/mcr/tests/golden/reference.jsonl
    python3 tools/make_golden.py SCORED.jsonl --seeds > crates/mcr/tests/golden/seeds_derived.jsonl

Picks hands until every fan the reference produced occurs at least 3 times (and every shape
and win flag a few times). With --seeds, each picked hand's expected fans under the `seeds`
profile are derived from the reference's fans by the documented differences of rules §7 and
`mcr::Rules` only; hands whose seeds reading could change (a hand that is also seven pairs,
All Terminals with Double Pung, a knitted straight wait) are left out of that file.
"""
import json, sys, collections

PTS = {}

def flags(h):
    out = [w for k, w in (("self_drawn", "self"), ("fourth_tile", "fourth"),
                          ("kong_related", "kong"), ("last_tile", "last")) if h.get(k)]
    out += [f"seat={h['seat_wind']}", f"wind={h['prevalent_wind']}"]
    if h.get("flowers"):
        out.append(f"flowers={h['flowers']}")
    return " ".join(out)

SPECIAL = {"seven_pairs", "seven_shifted_pairs", "thirteen_orphans", "honours_and_knitted", "nine_gates"}

def seeds_from_reference(h):
    fans = {f["no"]: [f["points"], f["count"]] for f in h["fans"]}
    names = set(fans)
    # Could the best reading change between profiles? Then leave the hand out.
    counts = collections.Counter(h["hand"] + [h["win_tile"]])
    if not h["melds"] and all(c % 2 == 0 for c in counts.values()):
        return None                               # also seven pairs
    if 8 in names or 35 in names:
        return None                               # All Terminals / Knitted Straight
    if 3 in names and 19 in names or 8 in names and 19 in names:
        return None
    if h["shape"] == "nine_gates":
        return None
    # Two Concealed Kongs 8 (S4 #48); Concealed Kong and Melded Kong 6 (#57 note).
    if 53 in fans:
        fans[53][0] = 8
    if 82 in fans:
        fans[82][0] = 6
    # Fully Concealed instead of Self-Drawn for special shapes and Four Concealed Pungs.
    if h["self_drawn"] and (h["shape"] in SPECIAL or 12 in names):
        fans.pop(80, None)
        fans[56] = [4, 1]
    # All Green with Half Flush (S4 #03).
    if 3 in names and any(t == "F" for t in h["hand"] + [h["win_tile"]] + [x for m in h["melds"] for x in m["tiles"]]):
        fans[49] = [6, 1]
    # A seat or prevalent wind pung also scores Pung of Terminals or Honours (#73), unless a
    # fan that implies the wind pungs is there.
    if not names & {1, 9, 38, 11, 18}:
        pungs = {m["tile"] for m in h["melds"] if m["kind"] != "chow"}
        conc = collections.Counter(h["hand"] + [h["win_tile"]])
        pungs |= {t for t, c in conc.items() if c >= 3}
        extra = len({w for w in (h["seat_wind"], h["prevalent_wind"]) if w in pungs})
        if extra:
            if not names & {60, 61}:
                return None
            fans.setdefault(73, [1, 0])[1] += extra
    total = sum(p * c for p, c in fans.values())
    return [[no, c] for no, (p, c) in sorted(fans.items())], total

def main():
    path = sys.argv[1]
    seeds = "--seeds" in sys.argv
    # --agree OURS: skip hands where an equal total was reached with another fan list
    # (two readings of equal value), so that the golden file can assert exact lists.
    ours = None
    if "--agree" in sys.argv:
        ours = [json.loads(l) for l in open(sys.argv[sys.argv.index("--agree") + 1])]
    need = collections.Counter()
    shapes = collections.Counter()
    picked = 0
    for i, line in enumerate(open(path)):
        h = json.loads(line)
        if "fans" not in h:
            continue
        if ours is not None:
            key = lambda fs: sorted((f["no"], f["count"]) for f in fs)
            if key(ours[i].get("fans", [])) != key(h["fans"]):
                continue
        nos = [f["no"] for f in h["fans"]]
        want = any(need[n] < 3 for n in nos) or shapes[h["shape"]] < 4
        if not want:
            continue
        for n in nos:
            need[n] += 1
        shapes[h["shape"]] += 1
        if seeds:
            d = seeds_from_reference(h)
            if d is None:
                continue
            fans, total = d
            rules, src = "seeds", "reference calculator, with the seeds differences of rules §7"
        else:
            fans = [[f["no"], f["count"]] for f in h["fans"]]
            total, rules, src = h["total"], "reference", "reference calculator (PyMahjongGB 1.4.0)"
        print(json.dumps({"hand": h["str"], "flags": flags(h), "rules": rules,
                          "fans": fans, "total": total, "source": src}, separators=(",", ":")))
        picked += 1
    print(f"{picked} hands", file=sys.stderr)

main()
