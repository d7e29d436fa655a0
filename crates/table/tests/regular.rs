//! Regular MCR hands and games (rules §8) from hand-built walls, driven action by action.

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
    // 136 = E, which completes East's hand: Out with Replacement Tile and one point for H5.
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
    let names: Vec<&str> = r.wins[0].fans.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"Out with Replacement Tile"), "{names:?}");
    let flowers = r.wins[0].fans.iter().find(|f| f.no == 81).unwrap();
    assert_eq!(flowers.points * flowers.count, 1, "H5");
    // Self-drawn: each other player pays HV + 8.
    let hv = r.wins[0].value as i32;
    assert_eq!(r.points, [3 * (hv + 8), -(hv + 8), -(hv + 8), -(hv + 8)]);
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

#[test]
fn discarding_a_bonus_tile_is_a_rule_option() {
    // East draws H1 at 53. By default it is set aside and replaced from the back; under
    // the option East may discard it, nobody may claim it, and South draws next.
    let w = wall(["", "H2 H3 H4 H5 H6 H7 H8", "", ""], "H1 7s", "");
    let table = Table::new(w.clone(), TableRules::regular());
    assert_eq!(table.bonus(East), [h(1)]);
    let mut table = Table::new(w, TableRules::regular_bonus_discard());
    assert_eq!(
        table.legal_actions(East),
        [Action::Bonus, Action::DiscardBonus]
    );
    assert_eq!(table.concealed(East).len(), 13);
    table.apply(East, Action::DiscardBonus).unwrap();
    assert!(table.bonus(East).is_empty());
    assert_eq!(table.to_act(), vec![South]);
    assert!(matches!(
        table.events().last(),
        Some(Event::Draw { seat: South, label, .. }) if label == "54"
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
