//! Regular MCR hands and games (rules §8) from hand-built walls, driven action by action.
//!
//! Longer than most files: each hand-built wall is spelled out in full beside the check it
//! makes.

use mcr::{parse_tiles, Tile, Wind};
use table::engine::{Action, Table};
use table::game::{prevalent_of, seating, Game};
use table::log::Event;
use table::wall::{Bonus, RegularWall, Setup, WallEnd, WallTile};
use table::{HandResult, Outcome, TableRules};
use Wind::*;

mod common;
use common::auto;

fn t(s: &str) -> Tile {
    Tile::parse(s).unwrap()
}

fn h(n: u8) -> Bonus {
    Bonus::new(n).unwrap()
}

/// Tiles in the project's notation, with bonus tiles as `H1`…`H8` tokens.
fn tiles(s: &str) -> Vec<WallTile> {
    s.split_whitespace()
        .flat_map(|tok| match Bonus::parse(tok) {
            Some(b) => vec![WallTile::Bonus(b)],
            None => parse_tiles(tok)
                .unwrap()
                .into_iter()
                .map(WallTile::Tile)
                .collect(),
        })
        .collect()
}

/// A wall with the given dealt tiles per seat (up to 13), the live draws after the deal
/// (positions 53, 54, …) and the back end (positions 144, 143, …); every other position is
/// filled with the remaining playing tiles in the order of a generated wall. Every bonus tile
/// must be placed, so that none is drawn where the scenario does not expect it.
fn wall(hands: [&str; 4], live: &str, back: &str) -> RegularWall {
    wall_at(hands, &[(53, live)], back)
}

/// As [`wall`], with live tiles placed from several positions.
fn wall_at(hands: [&str; 4], live: &[(usize, &str)], back: &str) -> RegularWall {
    let mut slots: Vec<Option<WallTile>> = vec![None; 144];
    let mut left = [4u8; 34];
    let mut bonus_left = [true; 8];
    let mut take = |x: WallTile| {
        match x {
            WallTile::Tile(t) => {
                assert!(left[t.index()] > 0, "more than four {t}");
                left[t.index()] -= 1;
            }
            WallTile::Bonus(b) => {
                let i = b.number() as usize - 1;
                assert!(bonus_left[i], "{b} twice");
                bonus_left[i] = false;
            }
        }
        x
    };
    for (s, hand) in hands.iter().enumerate() {
        for (i, x) in tiles(hand).into_iter().enumerate() {
            slots[13 * s + i] = Some(take(x));
        }
    }
    for &(from, list) in live {
        for (i, x) in tiles(list).into_iter().enumerate() {
            slots[from - 1 + i] = Some(take(x));
        }
    }
    for (i, x) in tiles(back).into_iter().enumerate() {
        slots[143 - i] = Some(take(x));
    }
    // Unplaced bonus tiles would be replaced unpredictably: every scenario places all 8.
    assert!(bonus_left.iter().all(|b| !b), "place every bonus tile");
    let order = RegularWall::generate(99);
    let mut pool = order.tiles.iter().filter_map(|x| match x {
        WallTile::Tile(t) if left[t.index()] > 0 => {
            left[t.index()] -= 1;
            Some(*x)
        }
        _ => None,
    });
    let filled: Vec<WallTile> = slots
        .into_iter()
        .map(|x| x.unwrap_or_else(|| pool.next().unwrap()))
        .collect();
    RegularWall::from_tiles(East, filled).unwrap()
}

/// The bonus tiles and draws of the events, as (seat, what, label, end) lines.
fn draws(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Draw {
                seat,
                tile,
                label,
                end,
                ..
            } => Some(format!("{seat} draw {tile} {label} {end:?}")),
            Event::Bonus {
                seat,
                bonus,
                label,
                end,
            } => Some(format!("{seat} bonus {bonus} {label} {end:?}")),
            _ => None,
        })
        .collect()
}

#[test]
fn bonus_tiles_at_the_deal_in_turn_order_with_a_bonus_replacement() {
    // East is dealt H1 (position 5); its replacement from the back (144) is H4, replaced in
    // turn by 143. South is dealt H2 and H3 (positions 14 and 20), replaced by 142 and 141.
    // Only then does West look (H5 at 30), and East's first draw is position 53.
    let w = wall(
        [
            "1234m H1 56789m19p",
            "H2 12345p H3 6789p1s",
            "123s H5 456s789sEN",
            "H6 H7 H8 SSWWNNCCFF",
        ],
        "5s",
        "H4 7s 8s 9s 2m 3m 4m 5m 6m 7m",
    );
    let table = Table::new(w, TableRules::regular());
    let lines = draws(table.events());
    assert_eq!(
        lines[..8],
        [
            "E bonus H1 5 None",
            "E bonus H4 144 Some(Back)",
            "E draw 7s 143 Some(Back)",
            "S bonus H2 14 None",
            "S draw 8s 142 Some(Back)",
            "S bonus H3 20 None",
            "S draw 9s 141 Some(Back)",
            "W bonus H5 30 None",
        ]
    );
    assert_eq!(lines.last().unwrap(), "E draw 5s 53 Some(Live)");
    assert_eq!(table.bonus(East), [h(1), h(4)]);
    assert_eq!(table.bonus(South), [h(2), h(3)]);
    assert_eq!(table.bonus(North), [h(6), h(7), h(8)]);
    assert_eq!(table.start_bonus(East), [h(1), h(4)]);
    for s in Wind::ALL {
        assert_eq!(table.start_hand(s).len(), 13);
    }
    // Everyone sees every seat's bonus tiles; nobody sees the wall.
    let v = table.view(North);
    assert_eq!(v.bonus[1], [h(2), h(3)]);
    assert_eq!(v.wall_left, [144 - 53 - 8; 4]);
    assert_eq!(table.concealed(East).len(), 14);
}

#[test]
fn a_bonus_tile_drawn_as_a_kong_replacement() {
    // South's five and West's two dealt bonus tiles take 144…138. East holds 555p and
    // draws the fourth; the kong's replacement (137) is H5, set aside and replaced by
    // 136 = E, which completes East's hand. A bonus tile came between the kong and the
    // winning tile: Self-Drawn (within Fully Concealed Hand here), not Out with
    // Replacement Tile (seeds/004 #46), and one point for H5.
    let w = wall(
        ["555p123m456m789mE", "H1 H2 H3 H4 H6", "H7 H8", ""],
        "5p",
        "1s 2s 3s 4s 6s 7s 8s H5 E",
    );
    let mut table = Table::new(w, TableRules::regular());
    let legal = table.legal_actions(East);
    assert!(legal.contains(&Action::ConcealedKong(t("5p"))), "{legal:?}");
    table.apply(East, Action::ConcealedKong(t("5p"))).unwrap();
    let lines = draws(table.events());
    let n = lines.len();
    assert_eq!(
        lines[n - 2..],
        ["E bonus H5 137 Some(Back)", "E draw E 136 Some(Back)"]
    );
    assert!(table.legal_actions(East).contains(&Action::Hu));
    table.apply(East, Action::Hu).unwrap();
    let r = table.result().unwrap();
    assert!(r.wins[0].self_drawn);
    let names: Vec<&str> = r.wins[0].fans.iter().map(|f| f.name.as_str()).collect();
    assert!(!names.contains(&"Out with Replacement Tile"), "{names:?}");
    assert!(names.contains(&"Fully Concealed Hand"), "{names:?}");
    let flowers = r.wins[0].fans.iter().find(|f| f.no == 81).unwrap();
    assert_eq!(flowers.points * flowers.count, 1, "H5");
    // Self-drawn: each other player pays HV + 8.
    let hv = r.wins[0].value as i32;
    assert_eq!(r.points, [3 * (hv + 8), -(hv + 8), -(hv + 8), -(hv + 8)]);
}

/// East pungs South's white dragon, draws the fourth at 58 and promotes the kong; the
/// replacement (137) is H8, set aside, and the next (136) is 2s, East's single wait.
/// North's seven dealt bonus tiles take 144…138 first. `east` is East's dealt 13.
fn promoted_kong_then_bonus(east: &str, rules: TableRules) -> Table {
    let w = wall_at(
        [east, "P", "", "H1 H2 H3 H4 H5 H6 H7"],
        &[(53, "3p 4p 5p 6p 1p P")],
        "1s 3s 4s 5s 9s 1p 2p H8 2s",
    );
    let mut table = Table::new(w, rules);
    // East discards the tile it drew (3p); South draws 4p and discards its white dragon.
    auto(&mut table, |t| t.to_act() == vec![South]);
    table.apply(South, Action::Discard(t("P"))).unwrap();
    table.apply(East, Action::Pung).unwrap();
    for s in [West, North] {
        if table.legal_actions(s).contains(&Action::Pass) {
            table.apply(s, Action::Pass).unwrap();
        }
    }
    table.apply(East, Action::Discard(t("9m"))).unwrap();
    // South, West, North draw 55–57; East draws the fourth white dragon at 58.
    auto(&mut table, |tb| {
        tb.to_act() == vec![East]
            && tb
                .legal_actions(East)
                .contains(&Action::PromotedKong(t("P")))
    });
    table.apply(East, Action::PromotedKong(t("P"))).unwrap();
    // Nobody robs it.
    auto(&mut table, |t| t.to_act() == vec![East]);
    let lines = draws(table.events());
    assert_eq!(
        lines[lines.len() - 2..],
        ["E bonus H8 137 Some(Back)", "E draw 2s 136 Some(Back)"]
    );
    table
}

#[test]
fn a_win_worth_8_only_by_out_with_replacement_tile_after_a_bonus_is_not_offered() {
    // Dragon Pung 2, Melded Kong 1, Single Wait 1, Self-Drawn 1: 5 points (and the bonus
    // tiles, which never count toward the 8). Out with Replacement Tile (8) would make 13,
    // but a bonus tile came between the kong and 2s (seeds/004 #46): no Hu.
    let east = "PP123m678s789p2s9m";
    let table = promoted_kong_then_bonus(east, TableRules::regular());
    let legal = table.legal_actions(East);
    assert!(!legal.contains(&Action::Hu), "{legal:?}");
    assert!(legal.contains(&Action::Discard(t("2s"))));
    // The same under the bonus-discard option, East setting H8 aside itself.
    let table = promoted_kong_then_bonus_choosing(east);
    assert!(!table.legal_actions(East).contains(&Action::Hu));
    // Version 1 of the regular rules (logs written before) kept the kong's flag: the Hu
    // was offered and scored Out with Replacement Tile 8, Dragon Pung 2, Melded Kong 1,
    // Single Wait 1 (Self-Drawn is implied) and H8: 13 (the reference calculator agrees).
    let v1 = TableRules::by_name_version("regular", 1).unwrap();
    let mut table = promoted_kong_then_bonus(east, v1);
    table.apply(East, Action::Hu).unwrap();
    let w = &table.result().unwrap().wins[0];
    let names: Vec<&str> = w.fans.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"Out with Replacement Tile"), "{names:?}");
    assert_eq!(w.value, 13);
}

/// [`promoted_kong_then_bonus`] under the bonus-discard option: East is asked about H8
/// and sets it aside.
fn promoted_kong_then_bonus_choosing(east: &str) -> Table {
    let w = wall_at(
        [east, "P", "", "H1 H2 H3 H4 H5 H6 H7"],
        &[(53, "3p 4p 5p 6p 1p P")],
        "1s 3s 4s 5s 9s 1p 2p H8 2s",
    );
    let mut table = Table::new(w, TableRules::regular_bonus_discard());
    auto(&mut table, |t| t.to_act() == vec![South]);
    table.apply(South, Action::Discard(t("P"))).unwrap();
    table.apply(East, Action::Pung).unwrap();
    for s in [West, North] {
        if table.legal_actions(s).contains(&Action::Pass) {
            table.apply(s, Action::Pass).unwrap();
        }
    }
    table.apply(East, Action::Discard(t("9m"))).unwrap();
    auto(&mut table, |tb| {
        tb.to_act() == vec![East]
            && tb
                .legal_actions(East)
                .contains(&Action::PromotedKong(t("P")))
    });
    table.apply(East, Action::PromotedKong(t("P"))).unwrap();
    auto(&mut table, |t| t.to_act() == vec![East]);
    assert_eq!(
        table.legal_actions(East),
        [Action::Bonus, Action::DiscardBonus]
    );
    table.apply(East, Action::Bonus).unwrap();
    table
}

#[test]
fn a_win_worth_8_anyway_after_a_kong_and_a_bonus_is_self_drawn_not_out_with_replacement() {
    // Pure Straight 16, Dragon Pung 2, Melded Kong 1, One Voided Suit 1, Single Wait 1,
    // Self-Drawn 1, and H8 1: 23 (the reference calculator agrees, without its 杠上开花).
    let table = promoted_kong_then_bonus("PP123456789m2s9m", TableRules::regular());
    let mut table = table;
    assert!(table.legal_actions(East).contains(&Action::Hu));
    table.apply(East, Action::Hu).unwrap();
    let w = &table.result().unwrap().wins[0];
    let fans: Vec<(&str, u32)> = w
        .fans
        .iter()
        .map(|f| (f.name.as_str(), f.points * f.count))
        .collect();
    assert!(fans.contains(&("Self-Drawn", 1)), "{fans:?}");
    assert!(
        !fans.iter().any(|(n, _)| *n == "Out with Replacement Tile"),
        "{fans:?}"
    );
    assert_eq!(w.value, 23);
}

#[test]
fn a_bonus_tile_at_53_is_replaced_in_easts_deal_turn_before_south() {
    // East's fourteenth tile (53) is H1; South is dealt H2, West H3…H8. Under the regular
    // rules (seeds/002) East declares H1 in its deal turn: its replacement is 144, shown as
    // East's first draw; South's H2 takes 143, West's 142…137.
    let w = wall(
        ["", "H2", "H3 H4 H5 H6 H7 H8", ""],
        "H1",
        "1s 2s 3s 4s 5s 6s 7s 8s 9s",
    );
    let table = Table::new(w.clone(), TableRules::regular());
    let lines = draws(table.events());
    assert_eq!(
        lines,
        [
            "E bonus H1 53 None",
            "S bonus H2 14 None",
            "S draw 2s 143 Some(Back)",
            "W bonus H3 27 None",
            "W draw 3s 142 Some(Back)",
            "W bonus H4 28 None",
            "W draw 4s 141 Some(Back)",
            "W bonus H5 29 None",
            "W draw 5s 140 Some(Back)",
            "W bonus H6 30 None",
            "W draw 6s 139 Some(Back)",
            "W bonus H7 31 None",
            "W draw 7s 138 Some(Back)",
            "W bonus H8 32 None",
            "W draw 8s 137 Some(Back)",
            "E draw 1s 144 Some(Back)",
        ]
    );
    assert_eq!(table.start_bonus(East), [h(1)]);
    assert_eq!(table.concealed(East).len(), 14);
    assert_eq!(table.wall_left(), [144 - 53 - 8; 4]);
    // The Botzone judge's order (East's fourteenth as its first draw, after every seat):
    // South takes 144, West 143…138, and East's H1 is replaced by 137 (8s).
    let table = Table::new(w.clone(), TableRules::regular_botzone());
    let lines = draws(table.events());
    assert_eq!(
        lines[1..3],
        ["S draw 1s 144 Some(Back)", "W bonus H3 27 None"]
    );
    assert_eq!(
        lines[lines.len() - 2..],
        ["E bonus H1 53 Some(Live)", "E draw 8s 137 Some(Back)"]
    );
    // Under the bonus-discard option East is not asked to discard a tile of its deal.
    let table = Table::new(w.clone(), TableRules::regular_bonus_discard());
    assert!(!table.legal_actions(East).contains(&Action::DiscardBonus));
    assert_eq!(
        draws(table.events()).last().unwrap(),
        "E draw 1s 144 Some(Back)"
    );
    // Version 1 (logs written before) asked it, as the Botzone order does.
    let v1 = TableRules::by_name_version("regular-bonus-discard", 1).unwrap();
    let table = Table::new(w, v1);
    assert_eq!(
        table.legal_actions(East),
        [Action::Bonus, Action::DiscardBonus]
    );
}

#[test]
fn a_playing_tile_at_53_is_dealt_alike_in_both_orders() {
    let w = wall(["", "H2", "H3 H4 H5 H6 H7 H8 H1", ""], "5p", "");
    let a = Table::new(w.clone(), TableRules::regular());
    let b = Table::new(w, TableRules::regular_botzone());
    assert_eq!(a.events(), b.events());
    assert_eq!(a.legal_actions(East), b.legal_actions(East));
}

/// Hands for the end-of-wall scenarios: South holds all eight bonus tiles, so the back end
/// gives exactly eight replacements (144…137) and the live wall ends at position 136, which
/// North draws (53 East, 54 South, 55 West, 56 North, …, 136 North).
const END_HANDS: [&str; 4] = [
    "123p456p789p222s5s", // East waits on 5s alone
    "H1 H2 H3 H4 H5 H6 H7 H8 CCFFP",
    "SSS",
    "123m456m789m111s9s", // North waits on 9s alone
];

fn end_wall(last: &str) -> RegularWall {
    // Keep the other copies of both waits out of the live wall: they sit in the back end
    // as South's replacements, or in West's hand.
    wall_at(END_HANDS, &[(136, last)], "9s9s 5s5s 1m1m 1p1p")
}

#[test]
fn last_tile_draw() {
    let mut table = Table::new(end_wall("9s"), TableRules::regular());
    auto(&mut table, |t| t.last_tile_point());
    assert!(table.last_tile_point());
    assert_eq!(table.wall_left(), [0; 4]);
    assert_eq!(table.to_act(), vec![North]);
    let legal = table.legal_actions(North);
    assert!(legal.contains(&Action::Hu), "{legal:?}");
    table.apply(North, Action::Hu).unwrap();
    let r = table.result().unwrap();
    assert_eq!(r.kind, Outcome::SelfDrawn);
    let names: Vec<&str> = r.wins[0].fans.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"Last Tile Draw"), "{names:?}");
    let last = table.events().iter().rev().find_map(|e| match e {
        Event::Draw { label, end, .. } => Some((label.to_string(), *end)),
        _ => None,
    });
    assert_eq!(last, Some(("136".into(), Some(WallEnd::Live))));
}

#[test]
fn last_tile_claim_and_only_hu_on_the_last_discard() {
    let mut table = Table::new(end_wall("5s"), TableRules::regular());
    auto(&mut table, |t| t.last_tile_point());
    assert_eq!(table.to_act(), vec![North]);
    table.apply(North, Action::Discard(t("5s"))).unwrap();
    // East may only win on it: no pung or chow after the last tile.
    assert_eq!(table.legal_actions(East), [Action::Pass, Action::Hu]);
    table.apply(East, Action::Hu).unwrap();
    let r = table.result().unwrap();
    assert_eq!(r.kind, Outcome::Discard);
    assert_eq!(r.discarder, Some(North));
    let names: Vec<&str> = r.wins[0].fans.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"Last Tile Claim"), "{names:?}");
    let hv = r.wins[0].value as i32;
    assert_eq!(r.points, [hv + 24, -8, -8, -(hv + 8)]);
}

#[test]
fn washout_when_nobody_wins_the_last_discard() {
    // North draws the fourth 1s as the last tile: no kong, no replacement is left.
    let mut table = Table::new(end_wall("1s"), TableRules::regular());
    auto(&mut table, |t| t.last_tile_point());
    assert_eq!(
        table
            .concealed(North)
            .iter()
            .filter(|&&x| x == t("1s"))
            .count(),
        4
    );
    let legal = table.legal_actions(North);
    assert!(
        !legal.contains(&Action::ConcealedKong(t("1s"))),
        "{legal:?}"
    );
    auto(&mut table, |_| false);
    let r = table.result().unwrap();
    assert_eq!(r.kind, Outcome::Draw);
    assert_eq!(r.points, [0; 4]);
    assert!(table.last_tile_point());
    assert!(table.census().iter().all(|&c| c == 4));
    assert_eq!(table.bonus_census(), [1; 8]);
}

#[test]
fn two_hu_on_one_discard_the_nearest_wins() {
    // East draws 5p and discards it; West and North both wait on it; South does not.
    let w = wall(
        [
            "H1 H2 H3 H4 H5 H6 H7 H8",
            "",
            "123s456s789sEEE5p",
            "234p678p999pSSS5p",
        ],
        "5p",
        "",
    );
    for (order, winner) in [([North, West], West), ([West, North], West)] {
        let mut table = Table::new(w.clone(), TableRules::regular());
        table.apply(East, Action::Discard(t("5p"))).unwrap();
        for s in order {
            assert!(table.legal_actions(s).contains(&Action::Hu));
            table.apply(s, Action::Hu).unwrap();
        }
        // South holds filler tiles; if it was asked at all, it passes.
        if table.to_act() == vec![South] {
            table.apply(South, Action::Pass).unwrap();
        }
        let r = table.result().unwrap();
        assert_eq!(r.wins.len(), 1);
        assert_eq!(r.wins[0].seat, winner, "West sits nearer after East");
        let hv = r.wins[0].value as i32;
        assert_eq!(r.points, [-(hv + 8), -8, hv + 24, -8]);
    }
}

/// South's turn (not a claim on East's discard).
fn south_turn(t: &Table) -> bool {
    t.to_act() == vec![South] && !t.legal_actions(South).contains(&Action::Pass)
}

#[test]
fn discarding_a_bonus_tile_is_a_rule_option() {
    // South draws H1 at 54. By default it is set aside and replaced from the back; under
    // the option South may discard it, nobody may claim it, and West draws next.
    let w = wall(["", "H2 H3 H4 H5 H6 H7 H8", "", ""], "7s H1 7p", "");
    let mut table = Table::new(w.clone(), TableRules::regular());
    table.apply(East, Action::Discard(t("7s"))).unwrap();
    auto(&mut table, south_turn);
    assert_eq!(table.bonus(South).len(), 8);
    let mut table = Table::new(w, TableRules::regular_bonus_discard());
    table.apply(East, Action::Discard(t("7s"))).unwrap();
    auto(&mut table, south_turn);
    assert_eq!(
        table.legal_actions(South),
        [Action::Bonus, Action::DiscardBonus]
    );
    assert_eq!(table.concealed(South).len(), 13);
    table.apply(South, Action::DiscardBonus).unwrap();
    assert_eq!(table.bonus(South).len(), 7);
    assert_eq!(table.to_act(), vec![West]);
    assert!(matches!(
        table.events().last(),
        Some(Event::Draw { seat: West, label, .. }) if label == "55"
    ));
}

#[test]
fn a_game_rotates_seats_and_prevalent_winds_and_ends_with_table_points() {
    let mut game = Game::new(TableRules::regular(), 40, 16).unwrap();
    let win = |points: [i32; 4]| HandResult {
        offender: None,
        kind: Outcome::Discard,
        discarder: None,
        wins: Vec::new(),
        points,
    };
    let draw = HandResult {
        offender: None,
        kind: Outcome::Draw,
        discarder: None,
        wins: Vec::new(),
        points: [0; 4],
    };
    for k in 0..16 {
        let Some(Setup::Regular(w)) = game.next_setup() else {
            panic!("hand {k}")
        };
        assert_eq!(w.seed, Some(40 + k as u64));
        assert_eq!(w.prevalent, prevalent_of(k));
        assert_eq!(game.next_seating(), seating(k));
        match k {
            // Hand 1: South (player 2) wins 16 on East's (player 1) discard.
            0 => game.record(&win([-24, 40, -8, -8])).unwrap(),
            // Hand 2: South becomes East: player 2 is East now, player 1 North. West
            // (player 4) wins 8 on North's discard.
            1 => {
                assert_eq!(game.next_seating(), [1, 2, 3, 0]);
                game.record(&win([-8, -8, 32, -16])).unwrap()
            }
            _ => game.record(&draw).unwrap(),
        }
    }
    assert!(game.is_over() && game.next_setup().is_none());
    // Player 1: −24 − 16 = −40; player 2: +40 − 8 = 32; player 3: −8 − 8 = −16;
    // player 4: −8 + 32 = 24.
    assert_eq!(game.scores(), [-40, 32, -16, 24]);
    assert_eq!(game.table_points(), [0.0, 4.0, 1.0, 2.0]);
    assert!(game.record(&draw).is_err());
    // A tie: equal scores split the places they share.
    let mut tied = Game::new(TableRules::regular(), 1, 2).unwrap();
    tied.record(&win([-16, 32, -8, -8])).unwrap();
    tied.record(&draw).unwrap();
    assert_eq!(tied.scores(), [-16, 32, -8, -8]);
    assert_eq!(tied.table_points(), [0.0, 4.0, 1.5, 1.5]);
}

#[test]
fn a_game_stopped_at_its_time_limit_counts_only_finished_hands() {
    let mut game = Game::new(TableRules::regular(), 1, 16).unwrap();
    game.record(&HandResult {
        offender: None,
        kind: Outcome::SelfDrawn,
        discarder: None,
        wins: Vec::new(),
        points: [48, -16, -16, -16],
    })
    .unwrap();
    game.stop();
    assert!(game.is_over());
    assert_eq!(game.played(), 1);
    assert_eq!(game.scores(), [48, -16, -16, -16]);
}

#[test]
fn duplicate_deals_are_refused_under_regular_rules_and_back() {
    let e = Table::start(
        Setup::Duplicate(table::Deal::generate(1)),
        TableRules::regular(),
    )
    .unwrap_err();
    assert!(
        e.0.contains("regular wall") && e.0.contains("duplicate deal"),
        "{e}"
    );
    assert!(Table::start(
        Setup::Regular(RegularWall::generate(1)),
        TableRules::seeds()
    )
    .is_err());
}

#[test]
fn regular_hands_logged_under_version_1_replay_as_they_were_played() {
    // Two hands written by dupmj before version 2 (commit e7623e3, `dupmj play --game
    // regular --rules regular-bonus-discard --games 24 --seed 90001 --bots
    // strong,greedy,medium,random`): hand 9 of the game from seed 90209, where South
    // promotes a kong of white dragons, sets aside the bonus tile drawn as its
    // replacement and wins on the next tile; and the first hand of those games with a
    // bonus tile (H6) at position 53.
    let logs: Vec<table::HandLog> = include_str!("fixtures/regular-v1.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for log in &logs {
        assert_eq!(log.rules_version, 1, "no version written: version 1");
        let table = table::replay(log).unwrap();
        assert_eq!(table.result(), log.result.as_ref());
    }
    let w = &logs[0].result.as_ref().unwrap().wins[0];
    assert_eq!((w.seat, w.value), (South, 14));
    assert!(w.fans.iter().any(|f| f.name == "Out with Replacement Tile"));
    // Under version 2 the same decisions no longer stand: that Hu is worth 5 without its
    // bonus tiles and is not offered; and East's H6 at 53 moves everyone's replacements.
    for log in &logs {
        let mut v2 = log.clone();
        v2.rules_version = 2;
        assert!(table::replay(&v2).is_err());
    }
    let mut v3 = logs[0].clone();
    v3.rules_version = 3;
    assert!(table::replay(&v3)
        .unwrap_err()
        .0
        .contains("rules 'regular-bonus-discard' version 3"));
}
