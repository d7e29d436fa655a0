//! `(version, seed)` rebuilds a deal anywhere: a few seeds pinned to their exact tiles. The
//! expected tiles come from `tools/deal_v1.py`, written from the algorithm's description in
//! `crates/table/src/deal.rs` (its ChaCha20 block checked against RFC 8439's test vector),
//! not from this crate. If this test fails, published deals no longer rebuild: the change
//! needs a new algorithm version.

use mcr::Tile;
use table::deal::Deal;

fn tiles(s: &str) -> Vec<Tile> {
    s.split_whitespace()
        .map(|t| Tile::parse(t).unwrap_or_else(|| panic!("{t} is a tile")))
        .collect()
}

/// Each seat's starting tiles and wall, in the order the deal holds them.
fn check(seed: u64, seats: [(&str, &str); 4]) {
    let d = Deal::generate(seed);
    for (s, (hand, wall)) in seats.iter().enumerate() {
        assert_eq!(
            d.hands[s].to_vec(),
            tiles(hand),
            "seed {seed}, seat {s}, hand"
        );
        assert_eq!(
            d.walls[s].to_vec(),
            tiles(wall),
            "seed {seed}, seat {s}, wall"
        );
    }
}

#[test]
fn seed_1() {
    check(
        1,
        [
            (
                "9m 4p 6m N 6p 8p 8m 8s W 9m 2m 4m 9m",
                "4s 8m 5m 6s 5p 8p 7m 4p 1p 2m 6s 3m C E 2m 3p S 3p F 4m 9s",
            ),
            (
                "5p 3s 7p 8p 4s 2p 6s 6m C 9m 7p P 5m",
                "6p 4s 5s W 2s 9s E 9p 9s 9p 6p F 8m 1m N 2s 1s C 5s P 5p",
            ),
            (
                "9p F 9s 3s 1m C 3m 8s 7s 7m 4p 4m 1m",
                "1s 8s 7m 7p 7s P 7m 4p 3p 1p 4s 2s 5m 3s 1p W 9p 1s 3p 6m S",
            ),
            (
                "E N 1s E 1m S 6m 4m 2p 8s 5s 5m 2p",
                "3m 7s 2m 6s 3m 8p S 1p 3s 6p 7p P 2s 2p 8m 7s N 5p 5s F W",
            ),
        ],
    );
}

#[test]
fn seed_42() {
    check(
        42,
        [
            (
                "5p 8m W P F 2m 5s 1p 3m C 3s 6s S",
                "7s W 7p 6m 5m 2p 2s 1s 1m 5m 6p 4m W 3p 4s S 4s 6p 7m 7m 3p",
            ),
            (
                "8m 5p 5m 2m 8s P 4s 7p 6m C 8p N S",
                "7m 4m 6s C F 2m 4m 3s 1s 9p 1m 3m 6m P 3s 1m F 6p P 7p 6s",
            ),
            (
                "9m 2m 9s 7s N 5s 4p 9s 1s E N 2s 9m",
                "9m 7m 1m 9m 8p 2p 4p 2p E E 3m 3m 5p 9s 3p 4m W 3s 5s 6p 9p",
            ),
            (
                "6m 1p 3p 9p 1p 4s 4p 5m 4p 2s N F 1p",
                "1s 5s 7p 9s 8s 8m S 8s 8p E 7s 2s 9p 7s 8p 5p 8m 6s 8s 2p C",
            ),
        ],
    );
}

#[test]
fn the_largest_seed() {
    check(
        18446744073709551615,
        [
            (
                "1m 5p N 5s 4p 1s 5p 3s 7p 2s 2s S 5m",
                "P 1m 3s 1m 2m W 1s W 2m 8s 1p W 5s 4s 8p E 6p W 1s 9s 2p",
            ),
            (
                "4p 4s 4m 8p P 4s 5s 9p 7m 6m 8m 8m S",
                "1p 7m 2p 5m 7m 2s 6s 4m 5m 4m C 3p 3p 9s 6p 5s F F 9m 1p C",
            ),
            (
                "S 2m C 6s 9m 7p 3s 1p 6p 4s 2m 8p E",
                "7p N S F 7s 5m 6s 8s 7m 9m 2s 3s 9p 5p 8s 7s 7p N 8m 3m 3p",
            ),
            (
                "3m C 9s 7s 5p F 4m 3p 6m 8s 6s P 9s",
                "9p E 8m 2p 2p 6m 1s 9m 3m 7s 3m 6p N 1m 8p 6m 4p 4p P 9p E",
            ),
        ],
    );
}
