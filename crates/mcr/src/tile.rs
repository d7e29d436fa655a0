//! The 34 kinds of tile, suits, winds and tile-count tables.

use std::fmt;

/// A suit of numbered tiles, or the honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Characters (wan), notation `m`.
    Characters,
    /// Bamboo (sou), notation `s`.
    Bamboo,
    /// Dots (pin), notation `p`.
    Dots,
    /// Winds and dragons.
    Honors,
}

impl Suit {
    /// The three numbered suits in notation order (m, s, p).
    pub const NUMBERED: [Suit; 3] = [Suit::Characters, Suit::Bamboo, Suit::Dots];

    /// Index 0..=3 (m, s, p, honours).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation suffix letter of a numbered suit.
    pub const fn letter(self) -> char {
        match self {
            Suit::Characters => 'm',
            Suit::Bamboo => 's',
            Suit::Dots => 'p',
            Suit::Honors => 'z',
        }
    }
}

/// A seat or prevalent wind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Wind {
    /// East.
    #[default]
    East,
    /// South.
    South,
    /// West.
    West,
    /// North.
    North,
}

impl Wind {
    /// All four winds in turn order.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// 0 for East … 3 for North.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wind with this index (taken modulo 4).
    pub const fn from_index(i: usize) -> Wind {
        Wind::ALL[i % 4]
    }

    /// The wind tile of this wind.
    pub const fn tile(self) -> Tile {
        Tile(27 + self as u8)
    }

    /// The next wind in turn order (E → S → W → N → E).
    pub const fn next(self) -> Wind {
        Wind::from_index(self as usize + 1)
    }

    /// The letter used in notation: E, S, W or N.
    pub const fn letter(self) -> char {
        ['E', 'S', 'W', 'N'][self as usize]
    }

    /// Parses a wind written as one letter: `E`, `S`, `W` or `N` (either case).
    pub fn parse(s: &str) -> Option<Wind> {
        let mut c = s.chars();
        match (c.next().and_then(Wind::from_letter), c.next()) {
            (Some(w), None) => Some(w),
            _ => None,
        }
    }

    /// Parses `E`, `S`, `W`, `N` (either case).
    pub fn from_letter(c: char) -> Option<Wind> {
        match c.to_ascii_uppercase() {
            'E' => Some(Wind::East),
            'S' => Some(Wind::South),
            'W' => Some(Wind::West),
            'N' => Some(Wind::North),
            _ => None,
        }
    }
}

impl fmt::Display for Wind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the 34 kinds of tile.
///
/// Index layout: 0–8 characters 1–9, 9–17 bamboo, 18–26 dots, 27–30 winds E S W N,
/// 31–33 dragons red, green, white. The order is also the sort order of the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

/// Number of tile kinds.
pub const KINDS: usize = 34;

/// How many copies of each kind a hand uses (index = [`Tile::index`]).
pub type Counts = [u8; KINDS];

impl Tile {
    /// The East wind.
    pub const EAST: Tile = Tile(27);
    /// The South wind.
    pub const SOUTH: Tile = Tile(28);
    /// The West wind.
    pub const WEST: Tile = Tile(29);
    /// The North wind.
    pub const NORTH: Tile = Tile(30);
    /// Red dragon, notation `C` (中).
    pub const RED: Tile = Tile(31);
    /// Green dragon, notation `F` (發).
    pub const GREEN: Tile = Tile(32);
    /// White dragon, notation `P` (白).
    pub const WHITE: Tile = Tile(33);

    /// The tile with this index, if it is below 34.
    pub const fn from_index(i: usize) -> Option<Tile> {
        if i < KINDS {
            Some(Tile(i as u8))
        } else {
            None
        }
    }

    /// A numbered tile; `rank` is 1..=9 and `suit` not honours.
    pub const fn numbered(suit: Suit, rank: u8) -> Option<Tile> {
        if rank < 1 || rank > 9 {
            return None;
        }
        match suit {
            Suit::Honors => None,
            _ => Some(Tile(suit as u8 * 9 + rank - 1)),
        }
    }

    /// Every kind in index order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..KINDS as u8).map(Tile)
    }

    /// The tile's index, 0–33 (characters, bamboo, dots, winds, dragons).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its suit (winds and dragons included).
    pub const fn suit(self) -> Suit {
        match self.0 / 9 {
            0 => Suit::Characters,
            1 => Suit::Bamboo,
            2 => Suit::Dots,
            _ => Suit::Honors,
        }
    }

    /// 1..=9 for numbered tiles, 0 for honours.
    pub const fn rank(self) -> u8 {
        // A table indexed by the whole byte: no division, no bounds check.
        const RANKS: [u8; 256] = {
            let mut t = [0u8; 256];
            let mut i = 0;
            while i < 27 {
                t[i] = (i % 9 + 1) as u8;
                i += 1;
            }
            t
        };
        RANKS[self.0 as usize]
    }

    /// Whether it is a characters, bamboo or dots tile.
    pub const fn is_numbered(self) -> bool {
        self.0 < 27
    }
    /// Whether it is a wind or a dragon.
    pub const fn is_honor(self) -> bool {
        self.0 >= 27
    }
    /// Whether it is a wind.
    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 <= 30
    }
    /// Whether it is a dragon.
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }
    /// A 1 or a 9.
    pub const fn is_terminal(self) -> bool {
        const TERMINALS: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26;
        (TERMINALS >> (self.0 & 63)) & 1 != 0
    }
    /// A terminal or an honour.
    pub const fn is_terminal_or_honor(self) -> bool {
        const ORPHANS: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | 0x7f << 27;
        (ORPHANS >> (self.0 & 63)) & 1 != 0
    }
    /// The wind of a wind tile.
    pub const fn wind(self) -> Option<Wind> {
        if self.is_wind() {
            Some(Wind::from_index(self.0 as usize - 27))
        } else {
            None
        }
    }

    /// The tile `d` ranks higher in the same suit, if there is one.
    pub const fn offset(self, d: i8) -> Option<Tile> {
        if !self.is_numbered() {
            return None;
        }
        let r = self.rank() as i8 + d;
        if r < 1 || r > 9 {
            None
        } else {
            Some(Tile((self.0 as i8 + d) as u8))
        }
    }

    /// Green tiles of All Green: 2 3 4 6 8 bamboo and the green dragon.
    pub const fn is_green(self) -> bool {
        matches!(self.0, 10 | 11 | 12 | 14 | 16 | 32)
    }

    /// Tiles that look the same upside down (Reversible Tiles): dots 1 2 3 4 5 8 9,
    /// bamboo 2 4 5 6 8 9, white dragon.
    pub const fn is_reversible(self) -> bool {
        matches!(
            self.0,
            18 | 19 | 20 | 21 | 22 | 25 | 26 | 10 | 12 | 13 | 14 | 16 | 17 | 33
        )
    }

    /// The canonical notation of this tile (`5m`, `E`, `C` …).
    pub const fn code(self) -> &'static str {
        CODES[self.0 as usize]
    }

    /// The bot-protocol code (`W1`…`W9`, `T1`…`T9`, `B1`…`B9`, `F1`…`F4`, `J1`…`J3`).
    pub const fn bot_code(self) -> &'static str {
        BOT_CODES[self.0 as usize]
    }

    /// Parses a bot-protocol code such as `W3` or `J1`.
    pub fn from_bot_code(s: &str) -> Option<Tile> {
        BOT_CODES
            .iter()
            .position(|c| *c == s)
            .map(|i| Tile(i as u8))
    }

    /// Parses one tile in canonical notation (`5m`, `E`, `C`) or a bot code.
    pub fn parse(s: &str) -> Option<Tile> {
        let s = s.trim();
        if let Some(t) = CODES.iter().position(|c| *c == s) {
            return Some(Tile(t as u8));
        }
        Tile::from_bot_code(s)
    }
}

const CODES: [&str; KINDS] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1s", "2s", "3s", "4s", "5s", "6s", "7s",
    "8s", "9s", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "E", "S", "W", "N", "C", "F",
    "P",
];

const BOT_CODES: [&str; KINDS] = [
    "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "T4", "T5", "T6", "T7",
    "T8", "T9", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "F1", "F2", "F3", "F4", "J1",
    "J2", "J3",
];

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Bit mask of the kinds whose count passes `flag`, which must map each byte of a word of
/// eight counts (all below 0x80) to 0x01 or 0x00 in the same byte.
#[inline]
fn byte_mask(c: &Counts, flag: impl Fn(u64) -> u64, scalar: impl Fn(u8) -> bool) -> u64 {
    // The multiply gathers the low bit of each of the eight bytes into the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut m = 0u64;
    for k in 0..4 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&c[k * 8..k * 8 + 8]);
        let v = flag(u64::from_le_bytes(b)) & 0x0101_0101_0101_0101;
        m |= (v.wrapping_mul(GATHER) >> 56) << (k * 8);
    }
    m | (scalar(c[32]) as u64) << 32 | (scalar(c[33]) as u64) << 33
}

/// Bit mask of the kinds of which `c` holds more than `k` (counts below 128): sixteen
/// counts compared at once and their signs gathered.
#[cfg(target_arch = "x86_64")]
#[inline]
fn above(c: &Counts, k: u8) -> u64 {
    // SAFETY: SSE2 is part of every x86-64 target, so the function's feature is present.
    unsafe { above_sse2(c, k) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn above_sse2(c: &Counts, k: u8) -> u64 {
    use std::arch::x86_64::{_mm_cmpgt_epi8, _mm_movemask_epi8, _mm_set1_epi8, _mm_set_epi64x};
    let word = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&c[i..i + 8]);
        i64::from_le_bytes(b)
    };
    let kk = _mm_set1_epi8(k as i8);
    let low = _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set_epi64x(word(8), word(0)), kk));
    let high = _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set_epi64x(word(24), word(16)), kk));
    (low as u16 as u64)
        | (high as u16 as u64) << 16
        | ((c[32] > k) as u64) << 32
        | ((c[33] > k) as u64) << 33
}

/// Bit mask of the kinds of which `c` holds more than `k` (counts below 128), a word at a
/// time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn above_by_words(c: &Counts, k: u8) -> u64 {
    // With each byte's top bit set, taking k + 1 away leaves it set exactly when the
    // count is above k (no byte borrows from the next).
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOP: u64 = 0x8080_8080_8080_8080;
    let sub = (k as u64 + 1) * ONES;
    byte_mask(c, |v| (((v | TOP) - sub) & TOP) >> 7, |x| x > k)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn above(c: &Counts, k: u8) -> u64 {
    above_by_words(c, k)
}

/// Bit mask of the kinds present in `c` (bit i set when `c[i] > 0`).
#[inline]
pub fn presence(c: &Counts) -> u64 {
    above(c, 0)
}

/// Bit mask of the kinds of which `c` holds all four copies (counts are at most 4).
#[inline]
pub fn fours(c: &Counts) -> u64 {
    above(c, 3)
}

/// Bit mask of the kinds of which `c` holds an odd number.
#[inline]
pub fn odd_counts(c: &Counts) -> u64 {
    byte_mask(c, |v| v, |x| x & 1 != 0)
}

/// Bit mask of the kinds of which `c` holds two or more (counts are at most 4).
#[inline]
pub fn at_least_two(c: &Counts) -> u64 {
    above(c, 1)
}

#[cfg(feature = "serde")]
mod serde_impls {
    //! Tiles as their notation (`"5m"`, `"E"`), winds as their letter.
    use super::{Tile, Wind};
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Tile {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.code())
        }
    }
    impl<'de> Deserialize<'de> for Tile {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
            let s = String::deserialize(d)?;
            Tile::parse(&s).ok_or_else(|| D::Error::custom(format!("'{s}' is not a tile")))
        }
    }
    impl Serialize for Wind {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(&self.letter().to_string())
        }
    }
    impl<'de> Deserialize<'de> for Wind {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Wind, D::Error> {
            let s = String::deserialize(d)?;
            Wind::parse(&s)
                .ok_or_else(|| D::Error::custom(format!("'{s}' is not a wind (E, S, W, N)")))
        }
    }
}

/// Counts of a list of tiles.
pub fn counts_of(tiles: &[Tile]) -> Counts {
    let mut c = [0u8; KINDS];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_of_counts_match_a_count_by_count_reading() {
        // Every kind at every count alone, then counts from a simple generator.
        let mut cases: Vec<Counts> = Vec::new();
        for i in 0..34 {
            for x in 0..=4 {
                let mut c = [0; 34];
                c[i] = x;
                cases.push(c);
            }
        }
        let mut seed = 12345u64;
        for _ in 0..2000 {
            let mut c = [0; 34];
            for x in c.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *x = ((seed >> 33) % 5) as u8;
            }
            cases.push(c);
        }
        let mask = |c: &Counts, keep: fn(u8) -> bool| {
            (0..34).fold(0u64, |m, i| m | (keep(c[i]) as u64) << i)
        };
        for c in &cases {
            assert_eq!(presence(c), mask(c, |x| x > 0), "{c:?}");
            assert_eq!(at_least_two(c), mask(c, |x| x >= 2), "{c:?}");
            assert_eq!(fours(c), mask(c, |x| x >= 4), "{c:?}");
            assert_eq!(odd_counts(c), mask(c, |x| x % 2 == 1), "{c:?}");
            // The other targets' reading, tried here too.
            for k in 0..4 {
                assert_eq!(above_by_words(c, k), above(c, k), "{c:?} above {k}");
            }
        }
    }

    #[test]
    fn layout_and_traits() {
        assert_eq!(Tile::numbered(Suit::Bamboo, 5).unwrap().code(), "5s");
        assert_eq!(Tile::numbered(Suit::Dots, 9).unwrap().index(), 26);
        assert!(Tile::numbered(Suit::Dots, 0).is_none());
        assert!(Tile::numbered(Suit::Honors, 1).is_none());
        assert_eq!(Tile::EAST.wind(), Some(Wind::East));
        assert!(Tile::parse("9m").unwrap().is_terminal());
        assert!(!Tile::parse("8m").unwrap().is_terminal());
        assert!(Tile::GREEN.is_green() && Tile::parse("8s").unwrap().is_green());
        assert!(!Tile::parse("5s").unwrap().is_green());
        assert!(Tile::WHITE.is_reversible() && !Tile::parse("6p").unwrap().is_reversible());
        assert!(
            Tile::parse("6s").unwrap().is_reversible()
                && !Tile::parse("3s").unwrap().is_reversible()
        );
        assert_eq!(Tile::parse("7p").unwrap().offset(2).unwrap().code(), "9p");
        assert_eq!(Tile::parse("8p").unwrap().offset(2), None);
    }

    #[test]
    fn presence_mask() {
        let mut c = [0u8; KINDS];
        assert_eq!(presence(&c), 0);
        for i in 0..KINDS {
            for v in 1..=4 {
                c[i] = v;
                assert_eq!(presence(&c), 1 << i, "index {i} count {v}");
            }
            c[i] = 0;
        }
        c[0] = 2;
        c[9] = 4;
        c[33] = 1;
        assert_eq!(presence(&c), 1 | 1 << 9 | 1 << 33);
        c[33] = 4;
        c[20] = 3;
        assert_eq!(fours(&c), 1 << 9 | 1 << 33);
        assert_eq!(at_least_two(&c), 1 | 1 << 9 | 1 << 20 | 1 << 33);
    }

    #[test]
    fn bot_codes() {
        for t in Tile::all() {
            assert_eq!(Tile::from_bot_code(t.bot_code()), Some(t));
            assert_eq!(Tile::parse(t.code()), Some(t));
        }
        assert_eq!(Tile::parse("J1"), Some(Tile::RED));
        assert_eq!(Tile::parse("F4"), Some(Tile::NORTH));
        assert_eq!(Tile::parse("T9").unwrap().code(), "9s");
        assert_eq!(Tile::parse("B1").unwrap().code(), "1p");
    }
}
