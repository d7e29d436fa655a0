#!/usr/bin/env python3
"""Oracle-format JSON Lines (gen_hands.py) -> `hand | flags` lines for our corpora."""
import json, sys

def flags(h):
    out = [w for k, w in (("self_drawn", "self"), ("fourth_tile", "fourth"),
                          ("kong_related", "kong"), ("last_tile", "last")) if h.get(k)]
    out += [f"seat={h.get('seat_wind', 'E')}", f"wind={h.get('prevalent_wind', 'E')}"]
    if h.get("flowers"):
        out.append(f"flowers={h['flowers']}")
    return " ".join(out)

for line in sys.stdin:
    h = json.loads(line)
    print(f"{h['str']} | {flags(h)}")
