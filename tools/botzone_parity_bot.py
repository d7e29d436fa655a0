#!/usr/bin/env python3
"""A deterministic Botzone "Chinese Standard Mahjong" bot for the judge parity check.

It exists to exercise every path of a hand the same way under two referees (`dupmj arena
--rules botzone` and the Botzone judge): it wins whenever the reference calculator
(`pip install pymahjonggb`) scores its hand at 8 or more, declares concealed, promoted and
melded kongs whenever it may, punges and chows when that does not set it back, robs kongs,
and discards the tile that leaves the lowest shanten (ties: the first in tile order). Its
win flags are its own reading of the hand, so now and then it calls a Hu the referee
scores under 8 — an error both referees must treat alike. It keeps running between
requests (JSON interaction). Given the same requests it always answers the same.
"""
import json
import sys

from MahjongGB import MahjongFanCalculator, MahjongShanten

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
ORDER = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


class Bot:
    def __init__(self):
        self.seat = 0
        self.quan = 0
        self.hand = []
        self.packs = []  # (kind, tile, offer) as the calculator takes them
        self.left = [21] * 4  # tiles still in each seat's block
        self.shown = {}  # copies of a tile in sight, counted as the judge counts them
        self.last = None  # (seat, tile) of the last discard
        self.kong_draw = False  # the next own draw replaces a kong
        self.said = "PASS"  # this bot's answer to the previous request
        self.drew = None  # the seat that drew last, until a discard

    def fans(self, tile, self_drawn, robbing):
        fourth = self.shown.get(tile, 0) + self_drawn == 4
        # The last draw or discard of the hand: the next seat's block is empty.
        if self_drawn:
            wall_last = self.left[(self.seat + 1) % 4] == 0
        else:
            wall_last = self.last is not None and self.left[(self.last[0] + 1) % 4] == 0
        try:
            got = MahjongFanCalculator(
                pack=tuple(self.packs), hand=tuple(self.hand), winTile=tile, flowerCount=0,
                isSelfDrawn=self_drawn, is4thTile=fourth,
                isAboutKong=robbing or (self_drawn and self.kong_draw),
                isWallLast=wall_last, seatWind=self.seat, prevalentWind=self.quan)
        except Exception:
            return 0
        return sum(f[0] for f in got)

    def shanten(self, hand):
        try:
            return MahjongShanten(pack=tuple(self.packs), hand=tuple(hand))
        except Exception:
            return 99

    def best_discard(self, hand):
        best = None
        for t in sorted(set(hand), key=ORDER.index):
            rest = list(hand)
            rest.remove(t)
            s = self.shanten(rest)
            if best is None or s < best[0]:
                best = (s, t)
        return best

    def can_kong(self):
        return self.left[self.seat] > 0 and self.left[(self.seat + 1) % 4] > 0

    def on_draw(self, tile):
        if self.fans(tile, True, False) >= 8:
            return "HU"
        self.hand.append(tile)
        self.kong_draw = False
        if self.can_kong():
            for t in sorted(set(self.hand), key=ORDER.index):
                if self.hand.count(t) == 4:
                    return f"GANG {t}"
            for kind, t, _ in self.packs:
                if kind == "PENG" and t in self.hand:
                    return f"BUGANG {t}"
        return f"PLAY {self.best_discard(self.hand)[1]}"

    def on_discard(self, p, tile):
        """Another seat discarded `tile`: win, kong, pung, chow or pass."""
        if self.fans(tile, False, False) >= 8:
            return "HU"
        now = self.shanten(self.hand)
        n = self.hand.count(tile)
        if n == 3 and self.can_kong():
            return "GANG"
        if n >= 2:
            rest = list(self.hand)
            rest.remove(tile)
            rest.remove(tile)
            s, d = self.best_discard_after(rest, ("PENG", tile, (p - self.seat) % 4))
            if s <= now:
                return f"PENG {d}"
        if (p + 1) % 4 == self.seat and tile[0] in "WBT":
            r = int(tile[1])
            for mid in (r - 1, r, r + 1):
                if not 2 <= mid <= 8:
                    continue
                need = [f"{tile[0]}{x}" for x in (mid - 1, mid, mid + 1) if x != r]
                rest = list(self.hand)
                if not all(t in rest and not rest.remove(t) for t in need):
                    continue
                s, d = self.best_discard_after(rest, ("CHI", f"{tile[0]}{mid}", r - mid + 2))
                if s < now:
                    return f"CHI {tile[0]}{mid} {d}"
        return "PASS"

    def best_discard_after(self, rest, pack):
        self.packs.append(pack)
        got = self.best_discard(rest)
        self.packs.pop()
        return got

    def discarded(self, p, tile):
        self.drew = None
        self.shown[tile] = self.shown.get(tile, 0) + 1
        self.last = (p, tile)
        if p == self.seat:
            return "PASS"
        return self.on_discard(p, tile)

    def claimed(self, p, kind, tiles, offer):
        """Seat p took the last discard into a meld made of `tiles` (the discard included)."""
        taken = self.last[1]
        self.shown[taken] -= 1
        for t in tiles:
            self.shown[t] = self.shown.get(t, 0) + 1
        if p == self.seat:
            rest = list(tiles)
            rest.remove(taken)
            for t in rest:
                self.hand.remove(t)
            self.packs.append((kind, tiles[1], offer))

    def kong(self, p):
        if self.drew == p:  # concealed: only its owner knows the tile
            if p == self.seat:
                t = self.said.split()[1]
                self.shown[t] = 4
                for _ in range(4):
                    self.hand.remove(t)
                self.packs.append(("GANG", t, 0))
        else:  # melded, from the last discard
            t = self.last[1]
            self.shown[t] = 4
            if p == self.seat:
                for _ in range(3):
                    self.hand.remove(t)
                self.packs.append(("GANG", t, (self.last[0] - p) % 4))
        if p == self.seat:
            self.kong_draw = True
        return "PASS"

    def respond(self, request):
        self.said = self.answer(request.split())
        return self.said

    def answer(self, r):
        if r[0] == "0":
            self.seat, self.quan = int(r[1]), int(r[2])
            return "PASS"
        if r[0] == "1":
            self.hand = r[5:18]
            return "PASS"
        if r[0] == "2":
            self.left[self.seat] -= 1
            self.drew = self.seat
            return self.on_draw(r[1])
        p, what = int(r[1]), r[2]
        if what == "DRAW":
            self.left[p] -= 1
            self.drew = p
            return "PASS"
        if what == "PLAY":
            if p == self.seat:
                self.hand.remove(r[3])
            return self.discarded(p, r[3])
        if what == "PENG":
            t = self.last[1]
            self.claimed(p, "PENG", [t, t, t], (self.last[0] - p) % 4)
            if p == self.seat:
                self.hand.remove(r[3])
            return self.discarded(p, r[3])
        if what == "CHI":
            mid = int(r[3][1])
            run = [f"{r[3][0]}{x}" for x in (mid - 1, mid, mid + 1)]
            self.claimed(p, "CHI", run, int(self.last[1][1]) - mid + 2)
            if p == self.seat:
                self.hand.remove(r[4])
            return self.discarded(p, r[4])
        if what == "GANG":
            return self.kong(p)
        if what == "BUGANG":
            t = r[3]
            self.shown[t] = 4
            if p == self.seat:
                self.hand.remove(t)
                self.packs = [("GANG", t, o) if k == "PENG" and x == t else (k, x, o) for k, x, o in self.packs]
                self.kong_draw = True
                return "PASS"
            return "HU" if self.fans(t, False, True) >= 8 else "PASS"
        return "PASS"


def main():
    bot = Bot()
    first = json.loads(sys.stdin.readline())
    for r in first["requests"][:-1]:
        bot.respond(r)
    request = first["requests"][-1]
    while True:
        print(json.dumps({"response": bot.respond(request)}))
        print(KEEP_RUNNING, flush=True)
        line = ""
        while not line.strip():  # each later request is one JSON string on its own line
            line = sys.stdin.readline()
            if not line:
                return
        request = json.loads(line)


if __name__ == "__main__":
    main()
