#!/usr/bin/env python3
"""The expert's gate rules judged on dumped searched decisions.

Reads the JSON Lines that `departures_and_what_they_are_worth` writes with `DUMP` (run it
with `PER=0 WALLS=32` so that each decision has the default expert's worlds and each
candidate's points expected with the other hands as they really are), and prints, per
seat-hand, what the departures of each rule are worth with the true hands:

- a gate in standard errors for turns and one for claims (the expert uses 2 and 2),
- gate 2 with a least mean gain in points as well,
- the departures bucketed by how many standard errors they cleared.

Usage: python3 tools/gates.py decisions.jsonl
"""

import json
import math
import sys


def mean_se(xs):
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), 0.0
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def load(path):
    """The decisions with expected points and at least 8 worlds (below that the expert
    keeps strong's choice). Each carries `gains`: every other candidate's mean gain over
    strong's choice and its standard error, as the expert's gate reads them."""
    decisions = []
    with open(path) as f:
        for number, line in enumerate(f, start=1):
            d = json.loads(line)
            if "gains" not in d:
                sys.exit(f"{path}, line {number}: no \"gains\" field (a dump written before"
                         " the dump carried them: write it again)")
            if d["expected"] and min(len(r) for r in d["results"]) >= 8:
                decisions.append(d)
    return decisions


def departure(d, gate, least=0.0):
    """The candidate (index) the rule leaves strong's choice for, or None."""
    best, best_mean = None, 0.0
    for i, (mean, se) in enumerate(d["gains"], start=1):
        if mean > gate * se and mean > least and mean > best_mean:
            best, best_mean = i, mean
    return best


def per_hand(decisions, slots, rule):
    totals = [0.0] * len(slots)
    count = 0
    for d in decisions:
        c = rule(d)
        if c is not None:
            totals[slots[tuple(d["hand"])]] += d["expected"][c] - d["expected"][0]
            count += 1
    return totals, count


def main():
    decisions = load(sys.argv[1])
    slots = {h: i for i, h in enumerate(sorted({tuple(d["hand"]) for d in decisions}))}
    claims = sum(d["claim"] for d in decisions)
    print(f"{len(decisions)} decisions ({claims} claims) on {len(slots)} seat-hands")

    base, _ = per_hand(decisions, slots, lambda d: departure(d, 2.0))
    def report(label, rule):
        totals, count = per_hand(decisions, slots, rule)
        m, se = mean_se(totals)
        dm, dse = mean_se([a - b for a, b in zip(totals, base)])
        print(f"{label}: {count:5} departures, {m:+.3f} ± {se:.3f} points a seat-hand;"
              f" against gates 2 and 2 {dm:+.3f} ± {dse:.3f}")

    for turn_gate in (1.0, 1.5, 2.0, 2.5):
        for claim_gate in (1.0, 1.5, 2.0, 2.5):
            report(f"turns {turn_gate:.1f}, claims {claim_gate:.1f}",
                   lambda d, t=turn_gate, c=claim_gate: departure(d, c if d["claim"] else t))
    for least in (0.5, 1.0, 2.0, 3.0, 5.0):
        report(f"gate 2, least gain {least:.1f}", lambda d, x=least: departure(d, 2.0, x))

    print("departures by the standard errors they cleared (the best mean among those above 1):")
    buckets = {}
    for d in decisions:
        c = departure(d, 1.0)
        if c is None:
            continue
        mean, se = d["gains"][c - 1]
        z = mean / se
        edge = next(e for e in (3.0, 2.5, 2.0, 1.5, 1.0) if z >= e)
        kind = "claims" if d["claim"] else "turns"
        buckets.setdefault((kind, edge), []).append((mean, d["expected"][c] - d["expected"][0]))
    for (kind, edge), xs in sorted(buckets.items()):
        seen = sum(x[0] for x in xs) / len(xs)
        m, se = mean_se([x[1] for x in xs])
        print(f"  {kind:6} from {edge:.1f}: {len(xs):5}, seen {seen:+.2f}, with the true hands"
              f" {m:+.2f} ± {se:.2f} points")


if __name__ == "__main__":
    main()
