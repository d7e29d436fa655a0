//! Every generated movement through the independent checker.

use tournament::check::check;
use tournament::movement::{individual, teams};

#[test]
fn sixteen_players_meet_exactly_once() {
    let m = individual(16, None, 1).unwrap();
    let q = check(&m);
    assert!(q.problems.is_empty(), "{:?}", q.problems);
    assert_eq!(q.rounds, 5);
    // 120 pairs: each shares a table in exactly one round …
    assert_eq!(
        q.table_meetings.into_iter().collect::<Vec<_>>(),
        vec![(1, 120)]
    );
    // … and the same direction in exactly one round, so the same seat of four deals.
    assert_eq!(
        q.seat_meetings.into_iter().collect::<Vec<_>>(),
        vec![(4, 120)]
    );
    assert_eq!(q.players_per_deal_seat, (4, 4));
    // S3: table k holds deal k, dealers E, S, W, N at tables 1–4, groups move
    // 1 → 2 → 3 → 4, a player's wind runs E, N, W, S.
    for r in &m.rounds {
        for h in &r.hands {
            for t in &h.tables {
                assert_eq!(t.deal, format!("{}-{}", r.round, t.table));
                let dealer = t.seats.iter().find(|s| s.wind == mcr::Wind::East).unwrap();
                assert_eq!(dealer.direction.index() as u32, t.table - 1);
            }
        }
        let p = r.hands[0].tables[0].seats[0].player;
        let path: Vec<(u32, mcr::Wind)> = r
            .hands
            .iter()
            .map(|h| {
                let t = h
                    .tables
                    .iter()
                    .find(|t| t.seats.iter().any(|s| s.player == p))
                    .unwrap();
                (
                    t.table,
                    t.seats.iter().find(|s| s.player == p).unwrap().wind,
                )
            })
            .collect();
        let tables: Vec<u32> = path.iter().map(|x| x.0).collect();
        assert_eq!(tables, vec![1, 2, 3, 4]);
        let winds: Vec<char> = path.iter().map(|x| x.1.letter()).collect();
        assert_eq!(winds, vec!['E', 'N', 'W', 'S']);
    }
}

#[test]
fn every_size_from_8_to_128_is_sound() {
    for n in (8..=128).step_by(4) {
        let m = individual(n, None, 7).unwrap();
        let q = check(&m);
        assert!(q.problems.is_empty(), "{n} players: {:?}", q.problems);
        assert_eq!(q.sit_outs, 0);
        assert_eq!(q.repeats, 0);
        let (lo, hi) = q.players_per_deal_seat;
        assert_eq!(lo, hi, "{n} players");
        if n % 16 == 0 {
            assert_eq!(
                q.table_meetings.keys().max(),
                Some(&1),
                "{n}: sections never repeat a table-mate"
            );
        }
    }
}

#[test]
fn team_movement_is_a_latin_square() {
    for t in [4, 8, 12] {
        let m = teams(t).unwrap();
        let q = check(&m);
        assert!(q.problems.is_empty(), "{:?}", q.problems);
        // Each team plays every deal on all four winds.
        let round = &m.rounds[0];
        let mut seen = std::collections::BTreeSet::new();
        for h in &round.hands {
            for table in &h.tables {
                for s in &table.seats {
                    let team = (s.player - 1) / 4;
                    assert!(
                        seen.insert((team, table.deal.clone(), s.wind)),
                        "team {team} twice on {} {}",
                        table.deal,
                        s.wind
                    );
                }
                let teams_here: std::collections::BTreeSet<u32> =
                    table.seats.iter().map(|s| (s.player - 1) / 4).collect();
                assert_eq!(teams_here.len(), 4, "one member of each team at a table");
            }
        }
        assert_eq!(
            seen.len() as u32,
            t * 4 * 4,
            "{t} teams × 4 deals × 4 winds"
        );
    }
    assert!(teams(6).is_err());
}

#[test]
fn bad_sizes_are_refused() {
    for n in [0, 4, 10, 17] {
        assert!(individual(n, None, 1).is_err(), "{n}");
    }
    assert!(individual(32, Some(6), 1).is_err());
}

#[test]
fn local_search_is_reproducible_and_spreads_meetings() {
    let a = individual(20, None, 3).unwrap();
    let b = individual(20, None, 3).unwrap();
    assert_eq!(a, b);
    let q = check(&a);
    // 20 players, 5 rounds: few pairs meet at a table more than once.
    let repeats: u32 = q
        .table_meetings
        .iter()
        .filter(|(k, _)| **k > 1)
        .map(|(_, v)| v)
        .sum();
    assert!(repeats <= 20, "{:?}", q.table_meetings);
}
