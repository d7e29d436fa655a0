#!/usr/bin/env python3
"""A small bot for the Botzone "Chinese Standard Mahjong" protocol.

It keeps its hand from the requests alone, pungs any tile it holds a pair of, chows from
the previous seat when it can, and otherwise discards the tile it drew. It never declares
a win (it has no fan calculator), which keeps it short; it is here to show the protocol
and to test the arena's Botzone side.

    dupmj arena --bots bz,greedy --bot "bz=botzone:python3 examples/bots/botzone_bot.py"

Options: --keep-running (stay alive for the rest of the hand), --simple (simple
interaction instead of JSON).
"""
import json
import sys

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class Bot:
    def __init__(self):
        self.seat = None
        self.hand = []
        self.last = None  # (seat, tile) of the last discard

    def remove(self, tile, n=1):
        for _ in range(n):
            self.hand.remove(tile)

    def chow_options(self, tile):
        if tile[0] not in "WTB":
            return []
        r = int(tile[1])
        out = []
        for mid in (r - 1, r, r + 1):
            if 2 <= mid <= 8:
                need = [f"{tile[0]}{x}" for x in (mid - 1, mid, mid + 1) if x != r]
                held = list(self.hand)
                if all(t in held and not held.remove(t) for t in need):
                    out.append((f"{tile[0]}{mid}", need))
        return out

    def respond(self, request):
        """The response to one request; updates the hand."""
        w = request.split()
        kind = w[0]
        if kind == "0":
            self.seat = int(w[1])
            return "PASS"
        if kind == "1":
            self.hand = w[5:18]
            return "PASS"
        if kind == "2":
            self.hand.append(w[1])
            return f"PLAY {w[1]}"
        p, what = int(w[1]), w[2]
        mine = p == self.seat
        if what == "PLAY":
            if mine:
                self.remove(w[3])
            self.last = (p, w[3])
        elif what == "PENG":
            if mine:
                self.remove(self.last[1], 2)
                self.remove(w[3])
            self.last = (p, w[3])
        elif what == "CHI":
            if mine:
                mid, taken = w[3], self.last[1]
                for x in (-1, 0, 1):
                    t = f"{mid[0]}{int(mid[1]) + x}"
                    if t != taken:
                        self.remove(t)
                self.remove(w[4])
            self.last = (p, w[4])
        if mine or what not in ("PLAY", "PENG", "CHI"):
            return "PASS"
        tile = w[-1]
        if self.hand.count(tile) >= 2:
            rest = list(self.hand)
            rest.remove(tile)
            rest.remove(tile)
            return f"PENG {rest[0]}"
        if (p + 1) % 4 == self.seat:
            for mid, need in self.chow_options(tile):
                rest = list(self.hand)
                for t in need:
                    rest.remove(t)
                return f"CHI {mid} {rest[0]}"
        return "PASS"


def answer(text, simple):
    print(text if simple else json.dumps({"response": text}), flush=True)


def main():
    keep = "--keep-running" in sys.argv
    simple = "--simple" in sys.argv
    bot = Bot()
    if simple:
        n = int(sys.stdin.readline())
        lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
        requests, responses = lines[0::2], lines[1::2]
    else:
        first = json.loads(sys.stdin.readline())
        requests, responses = first["requests"], first["responses"]
    # Replay the history; the requests alone give the hand back.
    for r in requests[:-1]:
        bot.respond(r)
    answer(bot.respond(requests[-1]), simple)
    if not keep:
        return
    print(KEEP_RUNNING, flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue  # simple interaction: the data and globaldata lines of the first input
        request = line.strip() if simple else json.loads(line)
        answer(bot.respond(request), simple)
        print(KEEP_RUNNING, flush=True)


if __name__ == "__main__":
    main()
