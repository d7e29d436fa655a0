//! Fan drills: a random winning hand worth at least 8 points, "how many points, which
//! fans?", answered with the calculator's reading (the fans, their points and the sets they
//! rest on, in English and Chinese) and, beside each fan, the fans it implies and so keeps
//! from being counted again (the non-repeat principle).
//!
//! The hands come from a seed: four sets and a pair drawn by a theme (a flush, pungs, a
//! straight, three suits of one chow, honours, seven pairs, or anything), some of the sets
//! declared, the winning tile one of the concealed ones, seat and prevalent winds and the
//! way of winning drawn too. A hand under 8 points is drawn again.

use mcr::{Fan, Hand, Meld, Rules, Suit, Tile, WinContext, Wind};
use serde_json::{json, Value};

use crate::view::open_meld_json;

/// SplitMix64: enough randomness for drawing practice hands, the same for the same seed.
pub(crate) struct Draw(u64);

impl Draw {
    pub(crate) fn new(seed: u64) -> Draw {
        Draw(seed ^ 0x6a09_e667_f3bc_c909)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number below `n` (0 < n).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A set drawn for a hand: a chow by its lowest tile or a pung.
#[derive(Clone, Copy)]
enum Set {
    Chow(Tile),
    Pung(Tile),
}

fn numbered(suit: usize, rank: usize) -> Tile {
    Tile::numbered(Suit::NUMBERED[suit], rank as u8).expect("ranks 1 to 9")
}

fn any_tile(d: &mut Draw) -> Tile {
    Tile::from_index(d.below(34)).expect("34 kinds")
}

fn honour(d: &mut Draw) -> Tile {
    Tile::from_index(27 + d.below(7)).expect("7 honours")
}

fn chow_in(d: &mut Draw, suit: usize) -> Set {
    Set::Chow(numbered(suit, 1 + d.below(7)))
}

fn any_set(d: &mut Draw) -> Set {
    let suit = d.below(3);
    set_in(d, suit)
}

fn set_in(d: &mut Draw, suit: usize) -> Set {
    if d.chance(60) {
        chow_in(d, suit)
    } else {
        Set::Pung(numbered(suit, 1 + d.below(9)))
    }
}

/// Four sets and a pair by one theme.
fn sets(d: &mut Draw) -> (Vec<Set>, Tile) {
    let suit = d.below(3);
    match d.below(8) {
        // Full or half flush.
        0 | 1 => {
            let honours = d.chance(50);
            let sets = (0..4)
                .map(|i| {
                    if honours && i == 3 {
                        Set::Pung(honour(d))
                    } else {
                        set_in(d, suit)
                    }
                })
                .collect();
            let pair = if honours && d.chance(50) {
                honour(d)
            } else {
                numbered(suit, 1 + d.below(9))
            };
            (sets, pair)
        }
        // Pungs.
        2 => {
            let sets = (0..4).map(|_| Set::Pung(any_tile(d))).collect();
            (sets, any_tile(d))
        }
        // A pure straight.
        3 => {
            let mut sets: Vec<Set> = (0..3)
                .map(|k| Set::Chow(numbered(suit, 1 + 3 * k)))
                .collect();
            sets.push(any_set(d));
            (sets, any_tile(d))
        }
        // One chow in three suits (or shifted a rank each).
        4 => {
            let span = if d.chance(50) { 7 } else { 5 };
            let low = 1 + d.below(span);
            let step = if low <= 5 && d.chance(40) { 1 } else { 0 };
            let mut sets: Vec<Set> = (0..3)
                .map(|k| Set::Chow(numbered((suit + k) % 3, low + step * k)))
                .collect();
            sets.push(if d.chance(50) {
                Set::Pung(honour(d))
            } else {
                any_set(d)
            });
            (sets, any_tile(d))
        }
        // Honours: dragons and winds.
        5 => {
            let mut sets: Vec<Set> = (0..2).map(|_| Set::Pung(honour(d))).collect();
            sets.push(set_in(d, suit));
            sets.push(if d.chance(50) {
                Set::Pung(honour(d))
            } else {
                any_set(d)
            });
            (sets, if d.chance(60) { honour(d) } else { any_tile(d) })
        }
        // Anything.
        _ => {
            let sets = (0..4)
                .map(|_| {
                    if d.chance(15) {
                        Set::Pung(honour(d))
                    } else {
                        any_set(d)
                    }
                })
                .collect();
            (sets, any_tile(d))
        }
    }
}

fn tiles_of(s: Set) -> [Tile; 3] {
    match s {
        Set::Chow(t) => [
            t,
            t.offset(1).expect("a chow"),
            t.offset(2).expect("a chow"),
        ],
        Set::Pung(t) => [t; 3],
    }
}

/// A declared set made of `s` (a kong now and then), claimed from seat `from` (1 to 3).
fn declared(d: &mut Draw, s: Set) -> Meld {
    let from = 1 + d.below(3) as u8;
    match s {
        Set::Chow(t) => Meld::chow(t, 1 + d.below(3) as u8).expect("a chow"),
        Set::Pung(t) => match d.below(8) {
            0 => Meld::concealed_kong(t),
            1 => Meld::melded_kong(t, from),
            _ => Meld::pung(t, from),
        },
    }
}

/// One try at a hand: `None` when the tiles run over four of a kind or the hand does not
/// stand.
fn one_try(d: &mut Draw) -> Option<Hand> {
    let mut melds = Vec::new();
    let mut conc = Vec::new();
    let seven_pairs = d.below(12) == 0;
    if seven_pairs {
        let suit = d.below(3);
        let flush = d.chance(40);
        for _ in 0..7 {
            let t = if flush {
                numbered(suit, 1 + d.below(9))
            } else {
                any_tile(d)
            };
            conc.extend([t, t]);
        }
    } else {
        let (sets, pair) = sets(d);
        let open = d.below(4);
        for (i, s) in sets.into_iter().enumerate() {
            if i < open && d.chance(70) {
                melds.push(declared(d, s));
            } else {
                conc.extend(tiles_of(s));
            }
        }
        conc.extend([pair, pair]);
    }
    let mut counts = [0u8; 34];
    for t in conc
        .iter()
        .copied()
        .chain(melds.iter().flat_map(|m| m.tiles()))
    {
        counts[t.index()] += 1;
    }
    if counts.iter().any(|&n| n > 4) {
        return None;
    }
    let win = conc.remove(d.below(conc.len()));
    let ctx = WinContext {
        self_drawn: d.chance(35),
        last_of_kind: false,
        kong: false,
        last_tile: d.below(25) == 0,
        seat_wind: Wind::from_index(d.below(4)),
        prevalent_wind: Wind::from_index(d.below(4)),
        flowers: 0,
    };
    Hand::new(melds, conc, win, ctx).ok()
}

/// The winning hand of seed `seed`, worth at least 8 points under `rules`.
pub fn hand(seed: u64, rules: &Rules) -> Hand {
    let mut d = Draw::new(seed);
    loop {
        if let Some(h) = one_try(&mut d) {
            if mcr::score(&h, rules).is_ok_and(|s| s.reaches_minimum(rules)) {
                return h;
            }
        }
    }
}

/// The `dupmj fan` command line that reads the same hand.
pub fn command(h: &Hand) -> String {
    let c = &h.ctx;
    let mut s = format!("dupmj fan '{h}'");
    if c.self_drawn {
        s.push_str(" --self-drawn");
    }
    if c.last_tile {
        s.push_str(" --last-tile");
    }
    s.push_str(&format!(
        " --seat {} --prevalent {}",
        c.seat_wind, c.prevalent_wind
    ));
    s
}

fn fan_json(f: Fan) -> Value {
    json!({"no": f.number(), "name": f.name(), "chinese": f.chinese()})
}

/// The question: the hand as a page draws it (declared sets, concealed tiles, the winning
/// tile), how it was won, and fans to tick: the ones counted, those they imply (the
/// non-repeat traps) and a few others, in fan-number order.
pub fn question(seed: u64, rules: &Rules) -> Value {
    let (h, s) = scored(seed, rules);
    let mut choices: Vec<Fan> = Vec::new();
    for l in &s.fans {
        choices.push(l.fan);
        choices.extend(mcr::implied_by(l.fan, rules));
    }
    let mut d = Draw::new(seed ^ 0x5eed);
    choices.sort_by_key(|f| f.number());
    choices.dedup();
    while choices.len() < 10 {
        let f = mcr::fan::ALL_FANS[d.below(mcr::fan::ALL_FANS.len())];
        if f != Fan::FlowerTiles && !choices.contains(&f) {
            choices.push(f);
        }
    }
    choices.sort_by_key(|f| f.number());
    let c = &h.ctx;
    json!({
        "melds": h.melds().iter().map(open_meld_json).collect::<Vec<_>>(),
        "concealed": h.concealed(),
        "win": h.win_tile(),
        "self_drawn": c.self_drawn,
        "last_tile": c.last_tile,
        "seat": c.seat_wind,
        "prevalent": c.prevalent_wind,
        "choices": choices.into_iter().map(fan_json).collect::<Vec<_>>(),
    })
}

fn scored(seed: u64, rules: &Rules) -> (Hand, mcr::Scoring) {
    let h = hand(seed, rules);
    let s = mcr::score(&h, rules).expect("a drill's hand scores");
    (h, s)
}

fn reading_of(h: &Hand, s: &mcr::Scoring, rules: &Rules) -> Value {
    let fans: Vec<Value> = s
        .fans
        .iter()
        .map(|l| {
            let mut v = fan_json(l.fan);
            v["points"] = json!(l.points);
            v["count"] = json!(l.count);
            v["sets"] = json!(mcr::explain::uses(&s.reading, l.fan, h));
            v["implies"] = json!(mcr::implied_by(l.fan, rules)
                .into_iter()
                .map(fan_json)
                .collect::<Vec<_>>());
            v
        })
        .collect();
    json!({
        "hand": h.to_string(),
        "fans": fans,
        "total": s.total,
        "reading": mcr::explain::reading_text(&s.reading),
        "command": command(h),
    })
}

fn grade_of(s: &mcr::Scoring, points: u32, fans: &[u8]) -> u8 {
    let mut counted: Vec<u8> = s.fans.iter().map(|l| l.fan.number()).collect();
    counted.sort_unstable();
    let mut ticked = fans.to_vec();
    ticked.sort_unstable();
    ticked.dedup();
    match (points == s.total, ticked == counted) {
        (true, true) => 5,
        (true, false) => 4,
        (false, true) => 2,
        (false, false) => 1,
    }
}

/// The answer: the calculator's reading of the hand, as `dupmj fan --format json` gives it,
/// each fan with the fans it implies.
pub fn reading(seed: u64, rules: &Rules) -> Value {
    let (h, s) = scored(seed, rules);
    reading_of(&h, &s, rules)
}

/// A fan drill's grade: the points right and the fans ticked exactly the counted ones 5,
/// the points right 4 (both right answers); the fans right but not the points 2, else 1.
pub fn grade(seed: u64, rules: &Rules, points: u32, fans: &[u8]) -> u8 {
    grade_of(&scored(seed, rules).1, points, fans)
}

/// [`grade`] and [`reading`] together, the hand drawn and scored once.
pub fn answer(seed: u64, rules: &Rules, points: u32, fans: &[u8]) -> (u8, Value) {
    let (h, s) = scored(seed, rules);
    (grade_of(&s, points, fans), reading_of(&h, &s, rules))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed gives a legal win, the same one each time, and the themes give a spread
    /// of fans (not a run of Chicken Hands).
    #[test]
    fn seeds_give_legal_varied_wins() {
        let rules = Rules::seeds();
        let mut fans = std::collections::BTreeSet::new();
        for seed in 0..300 {
            let h = hand(seed, &rules);
            assert_eq!(h.to_string(), hand(seed, &rules).to_string());
            let s = mcr::score(&h, &rules).unwrap();
            assert!(s.reaches_minimum(&rules), "seed {seed}: {h}");
            fans.extend(s.fans.iter().map(|l| l.fan.number()));
        }
        assert!(fans.len() >= 30, "{} fans seen", fans.len());
    }

    /// The grade follows the counted fans and the total.
    #[test]
    fn grades_follow_the_reading() {
        let rules = Rules::seeds();
        let r = reading(5, &rules);
        let total = r["total"].as_u64().unwrap() as u32;
        let fans: Vec<u8> = r["fans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["no"].as_u64().unwrap() as u8)
            .collect();
        assert_eq!(grade(5, &rules, total, &fans), 5);
        assert_eq!(grade(5, &rules, total, &[]), 4);
        assert_eq!(grade(5, &rules, total + 1, &fans), 2);
        assert_eq!(grade(5, &rules, total + 1, &[]), 1);
        // Every counted fan is among the choices offered.
        let q = question(5, &rules);
        for f in &fans {
            assert!(q["choices"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["no"] == *f));
        }
    }
}
