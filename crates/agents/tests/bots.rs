//! The planning bots: worked hands for the evaluator, and behaviour over many hands.

use agents::drive::play_table;
use agents::registry::builtin;
use agents::strong::{active_routes, evaluate, Seat};
use mcr::tile::counts_of;
use mcr::{parse_tiles, Wind};
use table::{Deal, Outcome, TableRules};

fn seat(hand: &str) -> Seat {
    let conc = counts_of(&parse_tiles(hand).unwrap());
    let mut live = [4u8; 34];
    for (l, c) in live.iter_mut().zip(conc) {
        *l -= c;
    }
    Seat {
        conc,
        melds: Vec::new(),
        live,
        seat: Wind::South,
        prevalent: Wind::East,
        flowers: 0,
    }
}

fn eval(hand: &str) -> agents::strong::Eval {
    let s = seat(hand);
    let routes = active_routes(&s, &s.conc, &s.melds);
    evaluate(&s, &s.conc, &s.melds, &routes, &mcr::Rules::seeds())
}

#[test]
fn a_wait_under_8_points_is_no_wait() {
    // 234m 456p 678s 78m 11p: ready on 6m/9m by shape (shanten 0), but the hand is worth
    // All Chows and little else: no wait reaches 8, so the planner does not call it ready.
    let tiles = parse_tiles("234m78m456p11p678s").unwrap();
    assert_eq!(mcr::shanten(&tiles, &[]).min(), 0);
    let e = eval("234m78m456p11p678s");
    assert!(e.distance >= 1, "{e:?}");
    assert_eq!(e.ready, 0.0);
    // 123456789m 55p 34s: ready on 2s/5s with a Pure Straight (16): ready, and worth the
    // live copies of both waits (4 + 4 unseen).
    let e = eval("123456789m55p34s");
    assert_eq!(e.distance, 0);
    assert!(e.ready > 8.0, "{e:?}");
}

#[test]
fn routes_follow_the_hand() {
    // A Mixed Triple Chow in the making: the planner names it among the near routes.
    let s = seat("123m123p12s55p999p");
    let routes = active_routes(&s, &s.conc, &s.melds);
    assert!(
        routes.iter().any(|r| r.fan == mcr::Fan::MixedTripleChow),
        "{routes:?}"
    );
    assert_eq!(
        eval("123m123p12s55p999p").distance,
        0,
        "ready on 3s with 8+ points"
    );
}

/// Plays `deals` duplicate deals with four copies of `bot`; the number of draws.
fn draws(bot: &str, deals: u64) -> usize {
    (0..deals)
        .filter(|&seed| {
            let mut four = std::array::from_fn(|s| builtin(bot, seed * 4 + s as u64).unwrap());
            let (t, _) = play_table(Deal::generate(seed), TableRules::seeds(), &mut four);
            t.result().unwrap().kind == Outcome::Draw
        })
        .count()
}

#[test]
fn the_strong_bot_reaches_8_points_where_greedy_runs_out_of_tiles() {
    // Greedy chases shanten without asking whether the hand can be worth 8, and about a
    // fifth of its self-play hands end without a winner; the planner's about a twentieth.
    let (strong, greedy) = (draws("strong", 120), draws("greedy", 120));
    assert!(
        strong * 2 < greedy,
        "draws: strong {strong}, greedy {greedy} of 120"
    );
    assert!(strong <= 12, "strong drew {strong} of 120");
}

#[test]
fn every_level_plays_regular_games_too() {
    use table::game::Game;
    for bot in ["easy", "medium", "strong"] {
        let mut game = Game::new(TableRules::regular(), 77, 4).unwrap();
        let mut make = |p: usize, k: usize| builtin(bot, (4 * k + p) as u64).unwrap();
        let (logs, _) = agents::drive::play_game(&mut game, &mut make, None, true);
        assert_eq!(logs.len(), 4, "{bot}");
        for log in &logs {
            table::replay(log).unwrap();
        }
    }
}
