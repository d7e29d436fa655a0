//! Text notation of rules §1: `[123m3][555p2][EEEE]789sPP`, both ways.
//!
//! Melds in brackets come first, then the concealed tiles with the winning tile last.
//! Inside a bracket a trailing digit is the claim digit; a kong written with `+` after it
//! (`[5555p1+]`) is a promoted kong, our own extension so that printing loses nothing.

use std::fmt;

use crate::hand::{Hand, HandError, WinContext};
use crate::meld::{Meld, MeldKind};
use crate::tile::{Suit, Tile, Wind};

/// A notation error: where (character position, from 0) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Character position in the input (0-based).
    pub pos: usize,
    /// What is wrong there.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at position {}: {}", self.pos, self.reason)
    }
}

impl std::error::Error for ParseError {}

fn err<T>(pos: usize, reason: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        pos,
        reason: reason.into(),
    })
}

fn honor_of(c: char) -> Option<Tile> {
    match c {
        'E' => Some(Tile::EAST),
        'S' => Some(Tile::SOUTH),
        'W' => Some(Tile::WEST),
        'N' => Some(Tile::NORTH),
        'C' => Some(Tile::RED),
        'F' => Some(Tile::GREEN),
        'P' => Some(Tile::WHITE),
        _ => None,
    }
}

/// Scans a run of tiles; stops at `[`, `]` or the end. Returns the tiles with their
/// positions and any digits left without a suffix (with positions).
struct Scan {
    tiles: Vec<(Tile, usize)>,
    pending: Vec<(u8, usize)>,
}

fn scan(chars: &[(usize, char)], i: &mut usize) -> Result<Scan, ParseError> {
    let mut tiles = Vec::new();
    let mut pending: Vec<(u8, usize)> = Vec::new();
    while *i < chars.len() {
        let (pos, c) = chars[*i];
        if c == '[' || c == ']' || c == '+' {
            break;
        }
        *i += 1;
        if c.is_whitespace() {
            continue;
        }
        if let Some(d) = c.to_digit(10) {
            pending.push((d as u8, pos));
            continue;
        }
        let suit = match c {
            'm' => Some(Suit::Characters),
            's' => Some(Suit::Bamboo),
            'p' => Some(Suit::Dots),
            'z' => None,
            _ => {
                if let Some(t) = honor_of(c) {
                    if let Some(&(_, dp)) = pending.first() {
                        return err(dp, format!("digits without a suit letter before '{c}'"));
                    }
                    tiles.push((t, pos));
                    continue;
                }
                return err(pos, format!("unexpected character '{c}'"));
            }
        };
        if pending.is_empty() {
            return err(pos, format!("suit letter '{c}' without digits"));
        }
        for (d, dp) in pending.drain(..) {
            let t = match suit {
                Some(s) => match Tile::numbered(s, d) {
                    Some(t) => t,
                    None => return err(dp, format!("rank {d} does not exist (1-9)")),
                },
                None => match d {
                    1..=4 => Tile::from_index(26 + d as usize).expect("wind"),
                    5 => Tile::WHITE,
                    6 => Tile::GREEN,
                    7 => Tile::RED,
                    _ => return err(dp, format!("honour {d}z does not exist (1z-7z)")),
                },
            };
            tiles.push((t, dp));
        }
    }
    Ok(Scan { tiles, pending })
}

/// Tiles written as bot codes (`W1 T9 J3`, spaces optional: `W1T9J3`), or `None` when `s`
/// is not entirely bot codes. Never ambiguous with the notation: a bot code ends in a digit,
/// and a list in the notation never does.
fn bot_codes(s: &str) -> Option<Vec<Tile>> {
    let compact: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() || !compact.len().is_multiple_of(2) {
        return None;
    }
    compact
        .chunks(2)
        .map(|p| Tile::from_bot_code(&p.iter().collect::<String>()))
        .collect()
}

/// Parses a plain list of tiles such as `123m456p EE` or `W1 W2 W3` (no brackets).
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, ParseError> {
    let chars: Vec<(usize, char)> = s.chars().enumerate().collect();
    if let Some(tiles) = bot_codes(s) {
        return Ok(tiles);
    }
    let mut i = 0;
    let sc = scan(&chars, &mut i)?;
    if i < chars.len() {
        return err(chars[i].0, format!("unexpected '{}'", chars[i].1));
    }
    if let Some(&(_, p)) = sc.pending.first() {
        return err(p, "digits without a suit letter at the end");
    }
    Ok(sc.tiles.into_iter().map(|(t, _)| t).collect())
}

fn meld_from(
    tiles: &[Tile],
    digit: Option<u8>,
    plus: bool,
    pos: usize,
) -> Result<Meld, ParseError> {
    let mut ts = tiles.to_vec();
    ts.sort();
    let from = digit.unwrap_or(0);
    if from > 3 {
        return err(pos, format!("claim digit {from} must be 1, 2 or 3"));
    }
    let same = ts.iter().all(|t| *t == ts[0]);
    match (ts.len(), same) {
        (3, true) if !plus => Ok(Meld::pung(ts[0], from)),
        (4, true) => {
            if plus {
                Ok(Meld::promoted_kong(ts[0], from))
            } else if digit.is_none() {
                Ok(Meld::concealed_kong(ts[0]))
            } else {
                Ok(Meld::melded_kong(ts[0], from))
            }
        }
        (3, false)
            if !plus
                && ts[0].is_numbered()
                && ts[1].offset(-1) == Some(ts[0])
                && ts[2].offset(-1) == Some(ts[1]) =>
        {
            Meld::chow(ts[0], from).ok_or(ParseError {
                pos,
                reason: "bad chow".into(),
            })
        }
        (n, _) => {
            let list: Vec<&str> = ts.iter().map(|t| t.code()).collect();
            err(
                pos,
                format!(
                    "[{}] is not a set: {} tiles that are not a chow, pung or kong",
                    list.join(" "),
                    n
                ),
            )
        }
    }
}

/// The parts of a hand string before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandText {
    /// The declared sets, in order.
    pub melds: Vec<Meld>,
    /// The concealed tiles before the win.
    pub concealed: Vec<Tile>,
    /// The winning tile.
    pub win: Tile,
}

/// Parses the tiles of a hand string without checking counts.
pub fn parse_hand_text(s: &str) -> Result<HandText, ParseError> {
    let chars: Vec<(usize, char)> = s.chars().enumerate().collect();
    let mut i = 0;
    let mut melds = Vec::new();
    loop {
        while i < chars.len() && chars[i].1.is_whitespace() {
            i += 1;
        }
        if i >= chars.len() || chars[i].1 != '[' {
            break;
        }
        let open = chars[i].0;
        i += 1;
        let mut sc = scan(&chars, &mut i)?;
        let mut plus = false;
        if i < chars.len() && chars[i].1 == '+' {
            plus = true;
            i += 1;
        }
        if i >= chars.len() || chars[i].1 != ']' {
            let p = chars.get(i).map_or(chars.len(), |c| c.0);
            return err(
                p,
                "missing ']' to close the set opened at position ".to_string() + &open.to_string(),
            );
        }
        i += 1;
        let digit = match sc.pending.len() {
            0 => None,
            1 => Some(sc.pending[0].0),
            _ => return err(sc.pending[0].1, "digits without a suit letter inside a set"),
        };
        if let Some(d) = digit {
            if !(1..=3).contains(&d) {
                return err(
                    sc.pending[0].1,
                    format!("claim digit {d} must be 1, 2 or 3"),
                );
            }
        }
        if sc.tiles.is_empty() {
            return err(open, "empty set []");
        }
        let tiles: Vec<Tile> = sc.tiles.drain(..).map(|(t, _)| t).collect();
        melds.push(meld_from(&tiles, digit, plus, open)?);
    }
    let start = chars.get(i).map_or(chars.len(), |c| c.0);
    let rest: String = chars[i.min(chars.len())..].iter().map(|c| c.1).collect();
    if let Some(mut tiles) = bot_codes(&rest) {
        let win = tiles.pop().expect("bot_codes is never empty");
        return Ok(HandText {
            melds,
            concealed: tiles,
            win,
        });
    }
    let sc = scan(&chars, &mut i)?;
    if i < chars.len() {
        let (p, c) = chars[i];
        return err(
            p,
            if c == '[' {
                "declared sets must come before the concealed tiles".to_string()
            } else {
                format!("unexpected '{c}'")
            },
        );
    }
    if let Some(&(_, p)) = sc.pending.first() {
        return err(p, "digits without a suit letter at the end");
    }
    let mut tiles: Vec<Tile> = sc.tiles.into_iter().map(|(t, _)| t).collect();
    let win = match tiles.pop() {
        Some(t) => t,
        None => return err(start, "no concealed tiles: the winning tile must come last"),
    };
    Ok(HandText {
        melds,
        concealed: tiles,
        win,
    })
}

/// Parses and checks a hand string.
pub fn parse_hand(s: &str, ctx: WinContext) -> Result<Hand, HandParseError> {
    let h = parse_hand_text(s).map_err(HandParseError::Syntax)?;
    Hand::new(h.melds, h.concealed, h.win, ctx).map_err(HandParseError::Hand)
}

/// A hand string that is badly written or describes an impossible hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandParseError {
    /// The string is not in the notation.
    Syntax(ParseError),
    /// The tiles do not make an acceptable hand.
    Hand(HandError),
}

impl fmt::Display for HandParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandParseError::Syntax(e) => e.fmt(f),
            HandParseError::Hand(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for HandParseError {}

/// Parses win flags written as words: `self`, `fourth`, `kong`, `last`, `seat=S`,
/// `wind=E` (prevalent), `flowers=2`. Unknown words are an error naming the word.
pub fn parse_flags(s: &str) -> Result<WinContext, ParseError> {
    let mut ctx = WinContext::default();
    let mut pos = 0;
    for word in s.split(' ') {
        let here = pos;
        pos += word.chars().count() + 1;
        if word.is_empty() {
            continue;
        }
        let wind = |v: &str| match Wind::parse(v) {
            Some(w) => Ok(w),
            None => err(here, format!("'{v}' is not a wind (E, S, W, N)")),
        };
        match word.split_once('=') {
            None => match word {
                "self" => ctx.self_drawn = true,
                "fourth" => ctx.last_of_kind = true,
                "kong" => ctx.kong = true,
                "last" => ctx.last_tile = true,
                _ => return err(here, format!("unknown flag '{word}'")),
            },
            Some(("seat", v)) => ctx.seat_wind = wind(v)?,
            Some(("wind", v)) => ctx.prevalent_wind = wind(v)?,
            Some(("flowers", v)) => {
                ctx.flowers = match v.parse::<u8>() {
                    Ok(n) if n <= 8 => n,
                    _ => return err(here, format!("flowers={v}: expected 0 to 8")),
                }
            }
            Some((k, _)) => return err(here, format!("unknown flag '{k}'")),
        }
    }
    Ok(ctx)
}

/// Writes win flags in the form [`parse_flags`] reads.
pub fn format_flags(c: &WinContext) -> String {
    let mut v: Vec<String> = Vec::new();
    for (on, w) in [
        (c.self_drawn, "self"),
        (c.last_of_kind, "fourth"),
        (c.kong, "kong"),
        (c.last_tile, "last"),
    ] {
        if on {
            v.push(w.into());
        }
    }
    v.push(format!("seat={}", c.seat_wind));
    v.push(format!("wind={}", c.prevalent_wind));
    if c.flowers > 0 {
        v.push(format!("flowers={}", c.flowers));
    }
    v.join(" ")
}

/// Parses `hand | flags`, the one-line form of the test corpora.
pub fn parse_hand_line(line: &str) -> Result<Hand, HandParseError> {
    let (h, f) = line.split_once('|').unwrap_or((line, ""));
    let ctx = parse_flags(f.trim()).map_err(HandParseError::Syntax)?;
    parse_hand(h.trim(), ctx)
}

/// Writes tiles compactly: numbered tiles of one suit share the suffix (`123m`).
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < tiles.len() {
        let t = tiles[i];
        if t.is_honor() {
            out.push_str(t.code());
            i += 1;
            continue;
        }
        let mut j = i;
        while j < tiles.len() && tiles[j].suit() == t.suit() {
            out.push((b'0' + tiles[j].rank()) as char);
            j += 1;
        }
        out.push(t.suit().letter());
        i = j;
    }
    out
}

/// Writes one meld in bracket notation.
pub fn format_meld(m: &Meld) -> String {
    let tiles: Vec<Tile> = m.tiles().collect();
    let mut s = format!("[{}", format_tiles(&tiles));
    if m.kind != MeldKind::ConcealedKong && m.from > 0 {
        s.push((b'0' + m.from) as char);
    }
    if m.kind == MeldKind::PromotedKong {
        s.push('+');
    }
    s.push(']');
    s
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in self.melds() {
            f.write_str(&format_meld(m))?;
        }
        f.write_str(&format_tiles(self.concealed()))?;
        f.write_str(&format_tiles(&[self.win_tile()]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        Tile::parse(s).unwrap()
    }

    #[test]
    fn spec_example() {
        let h = parse_hand_text("[123m3][555p2][EEEE]789sPP").unwrap();
        assert_eq!(h.melds[0], Meld::chow(t("1m"), 3).unwrap());
        assert_eq!(h.melds[1], Meld::pung(t("5p"), 2));
        assert_eq!(h.melds[2], Meld::concealed_kong(Tile::EAST));
        assert_eq!(h.concealed, vec![t("7s"), t("8s"), t("9s"), Tile::WHITE]);
        assert_eq!(h.win, Tile::WHITE);
    }

    #[test]
    fn bot_codes_in_a_hand_string() {
        // W characters, T bamboo, B dots, F1–F4 the winds, J1–J3 red, green, white.
        let spaced = parse_hand_text("[123m3] W4 W5 W6 T7 T8 T9 B1 F4 F4 J3 B1").unwrap();
        let compact = parse_hand_text("[123m3]W4W5W6T7T8T9B1F4F4J3B1").unwrap();
        let ours = parse_hand_text("[123m3]456m789s1pNNP1p").unwrap();
        assert_eq!(spaced, ours);
        assert_eq!(compact, ours);
        assert_eq!(ours.win, t("1p"));
        assert_eq!(
            parse_tiles("J1J2J3").unwrap(),
            vec![Tile::RED, Tile::GREEN, Tile::WHITE]
        );
        // Half bot codes, half notation: read as the notation, and refused there.
        assert!(parse_hand_text("W1W2 3m").is_err());
    }

    #[test]
    fn kongs_and_whitespace() {
        let h = parse_hand_text(" [EEEE1] [5555p3+] 11 m C C").unwrap();
        assert_eq!(h.melds[0], Meld::melded_kong(Tile::EAST, 1));
        assert_eq!(h.melds[1], Meld::promoted_kong(t("5p"), 3));
        assert_eq!(h.concealed, vec![t("1m"), t("1m"), Tile::RED]);
    }

    #[test]
    fn errors_name_position() {
        let e = parse_hand_text("123m45x").unwrap_err();
        assert_eq!(e.pos, 6);
        assert!(e.reason.contains("'x'"));
        let e = parse_hand_text("[124m]123m").unwrap_err();
        assert_eq!(e.pos, 0);
        assert!(e.reason.contains("not a set"));
        let e = parse_hand_text("123m0p").unwrap_err();
        assert_eq!(e.pos, 4);
        assert!(e.reason.contains("rank 0"));
        let e = parse_hand_text("[123m4]5m").unwrap_err();
        assert_eq!(e.pos, 5);
        let e = parse_hand_text("12m[111p]").unwrap_err();
        assert_eq!(e.pos, 3);
        let e = parse_hand_text("[123m").unwrap_err();
        assert!(e.reason.contains("missing ']'"));
        let e = parse_hand_text("1234").unwrap_err();
        assert_eq!(e.pos, 0);
    }

    #[test]
    fn bot_codes_and_z() {
        assert_eq!(
            parse_tiles("W1 T2 B3 F4 J2").unwrap(),
            vec![t("1m"), t("2s"), t("3p"), Tile::NORTH, Tile::GREEN]
        );
        assert_eq!(
            parse_tiles("1234567z").unwrap(),
            vec![
                Tile::EAST,
                Tile::SOUTH,
                Tile::WEST,
                Tile::NORTH,
                Tile::WHITE,
                Tile::GREEN,
                Tile::RED
            ]
        );
    }

    #[test]
    fn print_compacts() {
        let tiles = parse_tiles("1m2m3m4p5pEP").unwrap();
        assert_eq!(format_tiles(&tiles), "123m45pEP");
        assert_eq!(format_meld(&Meld::melded_kong(Tile::EAST, 2)), "[EEEE2]");
        assert_eq!(format_meld(&Meld::concealed_kong(Tile::EAST)), "[EEEE]");
    }
}
