#!/usr/bin/env python3
"""Rebuilds a duplicate deal from its seed (algorithm version 1), written from the
description in crates/table/src/deal.rs alone, so that a deal can be checked without dupmj:

    python3 tools/deal_v1.py 42        # each seat's 13 starting tiles and 21-tile wall

The pinned deals of crates/table/tests/deal_pins.rs were computed with this script.
"""
import struct
import sys

TILES = [f"{r}{s}" for s in "msp" for r in range(1, 10)] + list("ESWNCFP")
MASK = 0xFFFFFFFF


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 7)


def block(key_words, counter):
    """The RFC 8439 block function, 20 rounds, nonce 0: sixteen 32-bit words."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + key_words + [counter, 0, 0, 0]
    s = list(state)
    for _ in range(10):
        quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13)
        quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
        quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12)
        quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
    return [(x + y) & MASK for x, y in zip(s, state)]


def words(seed):
    key = struct.pack("<Q", seed) + bytes(24)
    key_words = list(struct.unpack("<8I", key))
    counter = 0
    while True:
        yield from block(key_words, counter)
        counter += 1


def deal(seed):
    stream = words(seed)
    tiles = [t for t in TILES for _ in range(4)]
    for i in range(135, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return [(tiles[34 * s:34 * s + 13], tiles[34 * s + 13:34 * s + 34]) for s in range(4)]


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for seat, (hand, wall) in zip("ESWN", deal(seed)):
        print(f"{seat} hand {' '.join(hand)}")
        print(f"{seat} wall {' '.join(wall)}")


if __name__ == "__main__":
    main()
