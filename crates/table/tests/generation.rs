//! `(version, seed)` rebuilds a deal anywhere: the generation algorithms, implemented here
//! again from their documentation alone (the module docs of `table::deal` and
//! `table::wall`) with a ChaCha20 block function written from RFC 8439, must give exactly
//! the tiles `Deal::generate` and `RegularWall::generate` give.

use mcr::Tile;
use table::wall::{Bonus, RegularWall, WallTile};
use table::Deal;

/// The ChaCha20 block function of RFC 8439 §2.3 (20 rounds).
fn chacha20_block(key: &[u8; 32], counter: u32, nonce: [u32; 3]) -> [u32; 16] {
    fn qr(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(16);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(12);
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(8);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(7);
    }
    let mut init = [0u32; 16];
    init[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    for i in 0..8 {
        init[4 + i] = u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap());
    }
    init[12] = counter;
    init[13..].copy_from_slice(&nonce);
    let mut s = init;
    for _ in 0..10 {
        qr(&mut s, 0, 4, 8, 12);
        qr(&mut s, 1, 5, 9, 13);
        qr(&mut s, 2, 6, 10, 14);
        qr(&mut s, 3, 7, 11, 15);
        qr(&mut s, 0, 5, 10, 15);
        qr(&mut s, 1, 6, 11, 12);
        qr(&mut s, 2, 7, 8, 13);
        qr(&mut s, 3, 4, 9, 14);
    }
    std::array::from_fn(|i| s[i].wrapping_add(init[i]))
}

/// The documented stream: key = seed (little-endian u64) and 24 zero bytes, nonce and
/// counter from 0, 32-bit words in order.
struct Stream {
    key: [u8; 32],
    block: [u32; 16],
    counter: u32,
    next: usize,
}

impl Stream {
    fn new(seed: u64) -> Stream {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        Stream {
            key,
            block: chacha20_block(&key, 0, [0; 3]),
            counter: 0,
            next: 0,
        }
    }
    fn word(&mut self) -> u32 {
        if self.next == 16 {
            self.counter += 1;
            self.block = chacha20_block(&self.key, self.counter, [0; 3]);
            self.next = 0;
        }
        self.next += 1;
        self.block[self.next - 1]
    }
    /// "take x = next_u32() and reject it while x >= 2^32 − (2^32 mod n); then j = x mod n"
    fn below(&mut self, n: u64) -> usize {
        let bound = (1u64 << 32) - (1u64 << 32) % n;
        loop {
            let x = self.word() as u64;
            if x < bound {
                return (x % n) as usize;
            }
        }
    }
}

/// Fisher–Yates as documented: for i from len−1 down to 1, j uniform in 0..=i, swap.
fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut s = Stream::new(seed);
    for i in (1..v.len()).rev() {
        let j = s.below(i as u64 + 1);
        v.swap(i, j);
    }
}

#[test]
fn the_block_function_matches_rfc_8439() {
    // RFC 8439 §2.3.2: key 00 01 … 1f, counter 1, nonce 00:00:00:09 00:00:00:4a 00:00:00:00.
    let key: [u8; 32] = std::array::from_fn(|i| i as u8);
    let out = chacha20_block(&key, 1, [0x0900_0000, 0x4a00_0000, 0]);
    assert_eq!(
        out[..4],
        [0xe4e7_f110, 0x1559_3bd1, 0x1fdd_0f50, 0xc471_20a3]
    );
    assert_eq!(out[15], 0x4e3c_50a2);
}

#[test]
fn duplicate_deals_follow_their_documentation() {
    for seed in [0, 1, 7, 2026, u64::MAX] {
        let mut tiles: Vec<Tile> = Tile::all().flat_map(|t| [t; 4]).collect();
        shuffle(&mut tiles, seed);
        let d = Deal::generate(seed);
        for s in 0..4 {
            assert_eq!(
                d.hands[s][..],
                tiles[34 * s..34 * s + 13],
                "seed {seed} seat {s}"
            );
            assert_eq!(
                d.walls[s][..],
                tiles[34 * s + 13..34 * s + 34],
                "seed {seed} seat {s}"
            );
        }
    }
}

#[test]
fn regular_walls_follow_their_documentation() {
    for seed in [0, 1, 7, 2026, u64::MAX] {
        let mut tiles: Vec<WallTile> = Tile::all()
            .flat_map(|t| [WallTile::Tile(t); 4])
            .chain((1..=8).map(|n| WallTile::Bonus(Bonus::new(n).unwrap())))
            .collect();
        shuffle(&mut tiles, seed);
        assert_eq!(
            RegularWall::generate(seed).tiles[..],
            tiles[..],
            "seed {seed}"
        );
    }
}
