//! The golden hands of `crates/mcr/tests/golden/` played through the engine: each hand is
//! dealt to a seat and won at the table on the first round of play — self-drawn on the
//! seat's first draw, or on the discard of the seat before it, which draws the winning tile
//! first and lets it go — and the value and fans the engine records must be the golden
//! ones, which come from the reference calculator or were worked out by hand. The property
//! tests check the engine against the calculator it calls; this checks both against
//! expectations made without them.

use mcr::notation::{parse_flags, parse_hand_text};
use mcr::Wind;
use table::engine::{Action, Table};
use table::log::Event;
use table::TableRules;

mod common;
use common::deal;

struct Golden {
    hand: String,
    flags: String,
    rules: String,
    fans: Vec<(u8, u32)>,
    total: u32,
}

fn goldens() -> Vec<Golden> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcr/tests/golden");
    let mut out = Vec::new();
    for f in ["reference.jsonl", "seeds_derived.jsonl", "handmade.jsonl"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            out.push(Golden {
                hand: v["hand"].as_str().unwrap().into(),
                flags: v["flags"].as_str().unwrap_or("").into(),
                rules: v["rules"].as_str().unwrap().into(),
                fans: v["fans"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| (p[0].as_u64().unwrap() as u8, p[1].as_u64().unwrap() as u32))
                    .collect(),
                total: v["total"].as_u64().unwrap() as u32,
            });
        }
    }
    out
}

#[test]
fn golden_hands_won_at_the_table_score_their_golden_total() {
    let (mut played, mut self_drawn) = (0, 0);
    for g in goldens() {
        let Ok(h) = parse_hand_text(&g.hand) else {
            panic!("golden hand {} does not parse", g.hand)
        };
        let ctx = parse_flags(&g.flags).unwrap();
        // Only what the first round of play can produce: no sets declared yet, no flowers,
        // none of the flags that need earlier play.
        if !h.melds.is_empty()
            || ctx.last_of_kind
            || ctx.kong
            || ctx.last_tile
            || ctx.flowers > 0
            || g.total < 8
        {
            continue;
        }
        let concealed: String = h.concealed.iter().map(|t| t.to_string()).collect();
        let win = h.win.to_string();
        let seat = ctx.seat_wind;
        // Who draws the winning tile as its first: the winner, or the seat before it.
        let drawer = if ctx.self_drawn {
            seat
        } else {
            Wind::from_index((seat.index() + 3) % 4)
        };
        let mut hands = ["", "", "", ""];
        hands[seat.index()] = &concealed;
        let first: &[(usize, &str)] = &[(0, &win)];
        let mut walls: [&[(usize, &str)]; 4] = [&[], &[], &[], &[]];
        walls[drawer.index()] = first;
        let mut d = deal(hands, walls);
        d.prevalent = ctx.prevalent_wind;
        let mut rules = TableRules::seeds();
        if g.rules == "reference" {
            rules.scoring = mcr::Rules::reference();
        }
        let mut table = Table::new(d, rules);
        // Everyone discards what they drew and passes every claim, until the winning tile
        // reaches the winner.
        while !table.is_over() {
            let who = table.to_act()[0];
            let legal = table.legal_actions(who);
            let last = table.events().last().cloned();
            let now = match last {
                Some(Event::Draw { seat: s, tile, .. }) => {
                    ctx.self_drawn && s == seat && tile == h.win
                }
                Some(Event::Discard { seat: s, tile }) => {
                    !ctx.self_drawn && s == drawer && tile == h.win
                }
                _ => false,
            };
            let a = if who == seat && now {
                Action::Hu
            } else if legal.contains(&Action::Pass) {
                Action::Pass
            } else {
                match last {
                    Some(Event::Draw { tile, .. }) => Action::Discard(tile),
                    _ => panic!("{}: {who} to act after {last:?}", g.hand),
                }
            };
            table
                .apply(who, a)
                .unwrap_or_else(|e| panic!("{} ({}): {who} {a:?}: {e:?}", g.hand, g.flags));
        }
        if ctx.self_drawn {
            self_drawn += 1;
        }
        let r = table.result().expect("the hand is over");
        assert_eq!(r.wins.len(), 1, "{} ({})", g.hand, g.flags);
        let w = &r.wins[0];
        assert_eq!(w.seat, ctx.seat_wind);
        assert_eq!(w.value, g.total, "{} ({}, {})", g.hand, g.flags, g.rules);
        let mut fans: Vec<(u8, u32)> = w.fans.iter().map(|f| (f.no, f.count)).collect();
        let mut want = g.fans.clone();
        fans.sort();
        want.sort();
        assert_eq!(fans, want, "{} ({}, {})", g.hand, g.flags, g.rules);
        played += 1;
    }
    // Enough of the golden set to mean something, both ways of winning.
    assert!(played >= 70, "only {played} golden hands could be played");
    assert!(self_drawn >= 20, "only {self_drawn} self-drawn");
    eprintln!("{played} golden hands won at the table ({self_drawn} self-drawn)");
}
