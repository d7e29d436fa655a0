#!/usr/bin/env python3
"""A minimal dupmj arena bot (JSON Lines over stdin/stdout).

    dupmj arena --bots simple,greedy --bot simple=cmd:'python3 examples/bots/simple_bot.py'

Each input line is {"type": "decide", "view": {...}} with the legal actions in
view["legal"]; answer with one of them on one line. This bot wins when it can, never
claims, and discards an honour or terminal first, else the tile it just drew.
"""
import json
import sys

def choose(view):
    legal = view["legal"]
    if {"action": "hu"} in legal:
        return {"action": "hu"}
    discards = [a for a in legal if a["action"] == "discard"]
    if not discards:
        return {"action": "pass"}
    def lonely(a):
        t = a["tile"]
        return 0 if not t[0].isdigit() else (1 if t[0] in "19" else 2)
    drew = (view.get("decision") or {}).get("drew")
    return min(discards, key=lambda a: (lonely(a), a["tile"] != drew))

for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps(choose(request["view"])), flush=True)
