#!/usr/bin/env python3
"""Compare `dupmj fan --batch --fans reference` with the reference calculator's output.

    python3 tools/oracle_compare.py SCORED.jsonl OURS.jsonl [--show N]

SCORED is tools/oracle/reference.py's output, OURS is dupmj's on the same input, line for
line. Prints
counts of total disagreements and of equal totals with different fan lists.
"""
import json, sys, collections

def main():
    a, b = sys.argv[1], sys.argv[2]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 5
    n = tot_diff = list_diff = err_diff = 0
    ex_tot, ex_list = [], []
    by_fan = collections.Counter()
    for la, lb in zip(open(a), open(b)):
        ra, rb = json.loads(la), json.loads(lb)
        n += 1
        if "error" in ra or "error" in rb:
            if ("error" in ra) != ("error" in rb):
                err_diff += 1
                ex_tot.append((ra, rb))
            continue
        fa = sorted((f["no"], f["count"]) for f in ra["fans"])
        fb = sorted((f["no"], f["count"]) for f in rb["fans"])
        if ra["total"] != rb["total"]:
            tot_diff += 1
            ex_tot.append((ra, rb))
            for x in set(fa) ^ set(fb):
                by_fan[x[0]] += 1
        elif fa != fb:
            list_diff += 1
            ex_list.append((ra, rb))
    print(f"hands {n}: total differs {tot_diff}, error differs {err_diff}, same total but different fans {list_diff}")
    if by_fan:
        print("fans involved in total differences:", by_fan.most_common(12))
    def fmt(fs):
        return " ".join(f'{f["name"]}{"x"+str(f["count"]) if f["count"]>1 else ""}({f["points"]})' for f in fs)
    for ra, rb in ex_tot[:show]:
        print("\nTOTAL", ra.get("str"), {k: ra[k] for k in ("self_drawn","fourth_tile","kong_related","last_tile","seat_wind","prevalent_wind","flowers")})
        print("  ref :", ra.get("total"), fmt(ra.get("fans", [])) or ra.get("error"))
        print("  ours:", rb.get("total"), fmt(rb.get("fans", [])) or rb.get("error"))
    for ra, rb in ex_list[:show]:
        print("\nLIST", ra.get("str"))
        print("  ref :", ra.get("total"), fmt(ra["fans"]))
        print("  ours:", rb.get("total"), fmt(rb["fans"]))

main()
