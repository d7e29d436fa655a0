//! One hand-made deal per rule of rules §3, driven action by action.

use mcr::{Tile, Wind};
use table::engine::{Action, Table};
use table::log::Event;
use table::{Deal, TableRules};
use Wind::*;

mod common;
use common::{auto, deal};

fn t(s: &str) -> Tile {
    Tile::parse(s).unwrap()
}

fn draws_of(table: &Table, seat: Wind) -> usize {
    21 - table.wall_left()[seat.index()]
}

#[test]
fn three_winners_on_one_discard() {
    // East discards 5p; South, West and North each wait on it alone.
    let d = deal(
        [
            "5p",
            "123m456m789m111s5p",
            "123s456s789sEEE5p",
            "234p678p999pSSS5p",
        ],
        [&[], &[], &[], &[]],
    );
    let mut table = Table::new(d.clone(), TableRules::seeds());
    table.apply(East, Action::Discard(t("5p"))).unwrap();
    for w in [South, West, North] {
        assert!(table.legal_actions(w).contains(&Action::Hu), "{w}");
    }
    for w in [South, West, North] {
        table.apply(w, Action::Hu).unwrap();
    }
    let r = table.result().unwrap();
    assert_eq!(r.kind, table::Outcome::Discard);
    assert_eq!(r.wins.len(), 3);
    let v: Vec<i32> = r.wins.iter().map(|w| w.value as i32).collect();
    // Each winner: own HV + 24, minus 8 for each other winner; East pays HV + 8 to each.
    assert_eq!(r.points[0], -(v[0] + 8) - (v[1] + 8) - (v[2] + 8));
    assert_eq!(r.points[1], v[0] + 24 - 16);
    assert_eq!(r.points[2], v[1] + 24 - 16);
    assert_eq!(r.points[3], v[2] + 24 - 16);
    // Under the Botzone judge only the first after the discarder wins.
    let mut table = Table::new(d, TableRules::botzone());
    table.apply(East, Action::Discard(t("5p"))).unwrap();
    for w in [North, West, South] {
        table.apply(w, Action::Hu).unwrap();
    }
    let r = table.result().unwrap();
    assert_eq!(r.wins.len(), 1);
    assert_eq!(r.wins[0].seat, South);
}

#[test]
fn chow_is_offered_to_the_next_player_only() {
    // East discards 5m; South and North both hold 4m 6m.
    let d = deal(["5m", "46m", "", "46m"], [&[], &[], &[], &[]]);
    let mut table = Table::new(d, TableRules::seeds());
    table.apply(East, Action::Discard(t("5m"))).unwrap();
    assert!(table.legal_actions(South).contains(&Action::Chow(t("4m"))));
    assert!(!table
        .legal_actions(North)
        .iter()
        .any(|a| matches!(a, Action::Chow(_))));
    assert!(table.apply(North, Action::Chow(t("4m"))).is_err());
}

#[test]
fn robbing_a_promoted_kong() {
    // East discards 3m, South pungs it; South later draws the fourth 3m (its first wall
    // tile, B) and promotes; West, waiting on 3m alone, robs the kong.
    let d = deal(
        ["3m", "33m", "12m456p789p123sEE", ""],
        [&[], &[(0, "3m")], &[], &[]],
    );
    let mut table = Table::new(d, TableRules::seeds());
    table.apply(East, Action::Discard(t("3m"))).unwrap();
    // West's hand is worth under 8 on a plain discard: only South is asked.
    assert_eq!(table.to_act(), vec![South]);
    table.apply(South, Action::Pung).unwrap();
    auto(&mut table, |tb| {
        tb.to_act() == vec![South] && draws_of(tb, South) == 1
    });
    assert!(table
        .legal_actions(South)
        .contains(&Action::PromotedKong(t("3m"))));
    table.apply(South, Action::PromotedKong(t("3m"))).unwrap();
    assert_eq!(table.to_act(), vec![West]);
    assert_eq!(table.legal_actions(West), vec![Action::Pass, Action::Hu]);
    table.apply(West, Action::Hu).unwrap();
    let r = table.result().unwrap();
    assert_eq!(r.discarder, Some(South));
    assert!(
        r.wins[0].fans.iter().any(|f| f.name == "Robbing The Kong"),
        "{:?}",
        r.wins[0].fans
    );
    assert!(r.points[1] < 0 && r.points[2] > 0);
}

#[test]
fn concealed_kong_is_refused_on_an_empty_own_wall_and_a_pung_still_allowed() {
    // East holds three 9p and draws the fourth as its last wall tile; West holds three E
    // and South discards the fourth E after East's wall is empty.
    let d = deal(
        ["999p", "", "EEE", ""],
        [&[(20, "9p")], &[(20, "E")], &[], &[]],
    );
    let mut table = Table::new(d, TableRules::seeds());
    auto(&mut table, |tb| {
        tb.to_act() == vec![East] && draws_of(tb, East) == 21
    });
    assert_eq!(table.wall_left()[0], 0);
    assert!(!table
        .legal_actions(East)
        .iter()
        .any(|a| matches!(a, Action::ConcealedKong(_))));
    auto(&mut table, |tb| {
        matches!(tb.events().last(), Some(Event::Discard { seat: South, .. }))
            && draws_of(tb, South) == 21
    });
    // South's last discard: West has three E, its own wall still has a tile.
    let legal = table.legal_actions(West);
    assert!(
        legal.contains(&Action::Kong) && legal.contains(&Action::Pung),
        "{legal:?}"
    );
}

#[test]
fn melded_kong_is_refused_on_an_empty_own_wall() {
    // East holds three 7s; South discards the fourth as its last tile, after East's wall
    // is empty (and before the last-tile point, which North's turn brings).
    let d = deal(["777s", "", "", ""], [&[], &[(20, "7s")], &[], &[]]);
    let mut table = Table::new(d, TableRules::seeds());
    auto(
        &mut table,
        |tb| matches!(tb.events().last(), Some(Event::Discard { seat: South, tile, .. }) if *tile == Tile::parse("7s").unwrap()),
    );
    assert_eq!(table.wall_left()[0], 0);
    let legal = table.legal_actions(East);
    assert!(legal.contains(&Action::Pung), "{legal:?}");
    assert!(!legal.contains(&Action::Kong), "{legal:?}");
}

#[test]
fn last_tile_point_reached_by_a_pung_claim() {
    // East's last wall tile is 2s, which East discards; North holds 2s 2s and pungs: North
    // gets the turn while East's wall is empty, so the last-tile point is reached, North
    // may only discard, and that discard may only be won on.
    let d = deal(["", "", "", "22s"], [&[(20, "2s")], &[], &[], &[]]);
    let mut table = Table::new(d, TableRules::seeds());
    auto(&mut table, |tb| {
        matches!(tb.events().last(), Some(Event::Discard { seat: East, .. }))
            && draws_of(tb, East) == 21
    });
    assert!(!table.last_tile_point());
    table.apply(North, Action::Pung).unwrap();
    assert!(table.last_tile_point());
    assert!(matches!(
        table.events().last(),
        Some(Event::LastTilePoint { seat: North })
    ));
    let legal = table.legal_actions(North);
    assert!(
        legal.iter().all(|a| matches!(a, Action::Discard(_))),
        "{legal:?}"
    );
    let discard = legal[0];
    table.apply(North, discard).unwrap();
    // Nobody can win on it here: the hand is a draw.
    assert!(table.is_over());
    assert_eq!(table.result().unwrap().kind, table::Outcome::Draw);
    assert!(table.wall_left()[3] > 0, "North still had wall tiles");
}

#[test]
fn no_kong_after_the_last_tile_point_even_with_tiles_left() {
    // East declares two concealed kongs on its first turn, so its wall empties two turns
    // early; North reaches the last-tile point with tiles still in its wall, holding four N.
    let d = deal(["1111m2222m", "", "", "NNNN"], [&[], &[], &[], &[]]);
    let run = |rules: TableRules| {
        let mut table = Table::new(d.clone(), rules);
        table.apply(East, Action::ConcealedKong(t("1m"))).unwrap();
        table.apply(East, Action::ConcealedKong(t("2m"))).unwrap();
        auto(&mut table, |tb| {
            tb.last_tile_point() && tb.to_act() == vec![North]
        });
        assert!(table.wall_left()[3] > 0);
        table
            .legal_actions(North)
            .contains(&Action::ConcealedKong(t("N")))
    };
    assert!(!run(TableRules::seeds()));
    let mut lenient = TableRules::seeds();
    lenient.kong_after_last_tile = true;
    assert!(run(lenient), "S3 §22.4 option allows it");
}

/// East declares two concealed kongs on its first turn, so its wall empties a round early;
/// North draws 5p as its 19th tile with East's wall empty (the last-tile point) and
/// discards it; South holds 5p 5p. The table just after that discard.
fn last_discard_with_walls_left(rules: TableRules) -> Table {
    let d = deal(
        ["1111m2222m", "55p", "", ""],
        [&[], &[], &[], &[(18, "5p")]],
    );
    let mut table = Table::new(d, rules);
    table.apply(East, Action::ConcealedKong(t("1m"))).unwrap();
    table.apply(East, Action::ConcealedKong(t("2m"))).unwrap();
    auto(&mut table, |tb| {
        matches!(tb.events().last(), Some(Event::Discard { seat: North, tile, .. }) if *tile == t("5p"))
            && draws_of(tb, North) == 19
    });
    assert!(table.last_tile_point());
    assert_eq!(table.wall_left(), [0, 2, 2, 2]);
    table
}

#[test]
fn only_a_win_on_the_last_discard_under_the_seeds_rules() {
    let table = last_discard_with_walls_left(TableRules::seeds());
    let legal = table.legal_actions(South);
    assert!(!legal.contains(&Action::Pung), "{legal:?}");
    let mut table = table;
    auto(&mut table, |_| false);
    assert_eq!(table.result().unwrap().kind, table::Outcome::Draw);
    assert_eq!(table.wall_left(), [0, 2, 2, 2]);
}

#[test]
fn the_botzone_judge_lets_the_last_discard_be_punged_and_play_go_on() {
    // The judge checks the wall only for kongs: a pung of the last discard stands, and
    // since West (after South) still has tiles, West draws and the hand goes on until a
    // turn again meets an empty wall.
    let mut table = last_discard_with_walls_left(TableRules::botzone());
    let legal = table.legal_actions(South);
    assert!(legal.contains(&Action::Pung), "{legal:?}");
    assert!(!legal.contains(&Action::Kong), "{legal:?}");
    table.apply(South, Action::Pung).unwrap();
    assert!(!table.last_tile_point(), "West's wall still has tiles");
    let discard = table.legal_actions(South)[0];
    table.apply(South, discard).unwrap();
    auto(&mut table, |_| false);
    assert_eq!(table.result().unwrap().kind, table::Outcome::Draw);
    // West and North drew once more each; the hand ended at North's discard (East empty).
    assert_eq!(table.wall_left(), [0, 2, 1, 1]);
}

#[test]
fn an_error_on_the_last_discard_of_a_drawn_hand_is_still_punished_under_botzone() {
    // The judge asks every seat about the last discard before it calls the draw.
    let mut table = last_discard_with_walls_left(TableRules::botzone());
    auto(&mut table, |_| false);
    assert_eq!(table.result().unwrap().kind, table::Outcome::Draw);
    table.apply(West, Action::Fault).unwrap();
    let r = table.result().unwrap();
    assert_eq!(r.kind, table::Outcome::Fault);
    assert_eq!(r.offender, Some(West));
    assert_eq!(r.points, [10, 10, -30, 10]);
    let ends = table
        .events()
        .iter()
        .filter(|e| matches!(e, Event::End { .. }))
        .count();
    assert_eq!(ends, 1, "the draw's end is replaced, not doubled");
    // Once the error has ended it, the hand takes no second one; nor do the seeds rules.
    assert!(table.apply(North, Action::Fault).is_err());
    let mut table = last_discard_with_walls_left(TableRules::seeds());
    auto(&mut table, |_| false);
    assert!(table.apply(West, Action::Fault).is_err());
}

#[test]
fn last_tile_claim_for_every_winner_on_the_last_discard() {
    // North's last wall tile is 3p; South and West both wait on 3p alone.
    let d = deal(
        ["", "12p456m789m123sWW", "12p456s789s123mSS", ""],
        [&[], &[], &[], &[(20, "3p")]],
    );
    let mut table = Table::new(d, TableRules::seeds());
    auto(
        &mut table,
        |tb| matches!(tb.events().last(), Some(Event::Discard { seat: North, tile, .. }) if *tile == Tile::parse("3p").unwrap()),
    );
    assert!(table.last_tile_point());
    for w in [South, West] {
        assert!(table.legal_actions(w).contains(&Action::Hu), "{w}");
        table.apply(w, Action::Hu).unwrap();
    }
    let r = table.result().unwrap();
    assert_eq!(r.wins.len(), 2);
    for w in &r.wins {
        assert!(
            w.fans.iter().any(|f| f.name == "Last Tile Claim"),
            "{:?}",
            w.fans
        );
    }
}

#[test]
fn the_hand_is_a_draw_when_the_player_to_draw_has_no_tiles() {
    // Under the Botzone judge a kong of a discard is allowed with an empty own wall; the
    // replacement draw then finds nothing and the hand ends as a draw.
    // (The judge's published source refuses that kong, and so do the botzone rules.)
    let d = deal(["777s", "", "", ""], [&[], &[(20, "7s")], &[], &[]]);
    let mut lenient = TableRules::botzone();
    lenient.kong_on_empty_wall = true;
    for (rules, offered) in [(TableRules::botzone(), false), (lenient.clone(), true)] {
        let mut table = Table::new(d.clone(), rules);
        auto(
            &mut table,
            |tb| matches!(tb.events().last(), Some(Event::Discard { seat: South, tile, .. }) if *tile == Tile::parse("7s").unwrap()),
        );
        assert_eq!(table.wall_left()[0], 0);
        assert_eq!(table.legal_actions(East).contains(&Action::Kong), offered);
    }
    let mut table = Table::new(d, lenient);
    auto(
        &mut table,
        |tb| matches!(tb.events().last(), Some(Event::Discard { seat: South, tile, .. }) if *tile == Tile::parse("7s").unwrap()),
    );
    table.apply(East, Action::Kong).unwrap();
    let r = table.result().unwrap();
    assert_eq!(r.kind, table::Outcome::Draw);
    assert_eq!(r.points, [0; 4]);
    // And a plain game to the end is a draw at the last discard.
    let mut table = Table::new(Deal::generate(5), TableRules::seeds());
    auto(&mut table, |_| false);
    assert_eq!(table.result().unwrap().kind, table::Outcome::Draw);
}

#[test]
fn illegal_actions_change_nothing() {
    let mut table = Table::new(Deal::generate(1), TableRules::seeds());
    let before = table.events().len();
    let err = table.apply(South, Action::Discard(t("1m"))).unwrap_err();
    assert!(err.reason.contains("not this seat"), "{err}");
    let not_held = Tile::all()
        .find(|x| !table.concealed(East).contains(x))
        .unwrap();
    let err = table.apply(East, Action::Discard(not_held)).unwrap_err();
    assert!(err.reason.contains("legal now"), "{err}");
    assert_eq!(table.events().len(), before);
    assert_eq!(table.to_act(), vec![East]);
}

/// Hand logs written by dupmj before regular games existed (`dupmj play` at commit
/// 2fc7bca: six `seeds` hands from seed 5, four `botzone` hands from seed 9) still replay,
/// and the engine still writes exactly the same events and results for them. The third
/// `botzone` hand ends on a discard that today's `botzone` rules let be claimed: it
/// replays under the earlier meaning of the name.
#[test]
fn duplicate_logs_from_before_regular_games_still_replay() {
    let text = include_str!("fixtures/duplicate-logs-v0.1.jsonl");
    let (mut n, mut earlier) = (0, 0);
    for line in text.lines() {
        let log: table::HandLog = serde_json::from_str(line).unwrap();
        let again = table::replay(&log).unwrap();
        if log.rules == "botzone" && !again.rules().claims_at_last_tile {
            earlier += 1;
        }
        let rewritten = serde_json::to_value(table::HandLog::of(&again, log.actions.clone()));
        let logged: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            rewritten.unwrap() == logged,
            "hand {} is written differently",
            n + 1
        );
        n += 1;
    }
    assert_eq!(n, 10);
    assert_eq!(earlier, 1);
}
