//! Standings beyond Appendix 3: teams, penalties, and results files that must be refused.

use mcr::Wind;
use tournament::standings::{DealResult, Penalty, PenaltyKind, Player, Results, TableResult, Team};

fn table(table: u32, players: [u32; 4], ms: [i32; 4]) -> TableResult {
    TableResult::new(table, players, ms)
}

fn base() -> Results {
    Results {
        players: (1..=16)
            .map(|id| Player {
                id,
                name: String::new(),
                stands_in_for: None,
            })
            .collect(),
        teams: vec![],
        false_hu_points: 10,
        deals: vec![DealResult {
            deal: "1-1".into(),
            tables: vec![
                table(1, [1, 2, 3, 4], [-8, 32, -16, -8]),
                table(2, [5, 6, 7, 8], [0, 0, 0, 0]),
                table(3, [9, 10, 11, 12], [36, -12, -12, -12]),
                table(4, [13, 14, 15, 16], [-45, 61, -8, -8]),
            ],
        }],
        penalties: vec![],
    }
}

#[test]
fn team_sums_are_compared_with_the_average_team_sum() {
    // Team i's member m sits at table m with wind (i + m) mod 4 (the Latin square).
    let ms = [
        [-8, 32, -16, -8],
        [0, 0, 0, 0],
        [36, -12, -12, -12],
        [-45, 61, -8, -8],
    ];
    let player = |team: u32, m: u32| team * 4 + m + 1;
    let tables = (0..4u32)
        .map(|m| {
            let players: [u32; 4] = std::array::from_fn(|w| player((w as u32 + 4 - m) % 4, m));
            table(m + 1, players, ms[m as usize])
        })
        .collect();
    let mut r = base();
    r.deals[0].tables = tables;
    r.teams = (0..4)
        .map(|t| Team {
            name: format!("T{t}"),
            players: (0..4).map(|m| player(t, m)).collect(),
        })
        .collect();
    let t = r.team().unwrap();
    // Sums -28, -25, 81, -28 around an average of 0: IMP -5, -5, 11, -5.
    let rows: Vec<(i64, i32)> = t.deals[0].1.iter().map(|x| (x.1, x.3)).collect();
    assert_eq!(rows, vec![(-28, -5), (-25, -5), (81, 11), (-28, -5)]);
    assert_eq!(t.lines[0].name, "T2");
    assert_eq!(t.lines[0].imp, 11);
}

#[test]
fn penalties_apply() {
    let mut r = base();
    r.penalties = vec![
        Penalty {
            player: 6,
            kind: PenaltyKind::FalseHu,
            deal: Some("1-1".into()),
            imp: 0,
            reason: "Hu on 6 points".into(),
        },
        Penalty {
            player: 1,
            kind: PenaltyKind::Imp,
            deal: None,
            imp: 2,
            reason: "late".into(),
        },
        Penalty {
            player: 9,
            kind: PenaltyKind::DeadHand,
            deal: Some("1-1".into()),
            imp: 0,
            reason: "short".into(),
        },
    ];
    let s = r.individual().unwrap();
    let line = |p: u32| s.lines.iter().find(|l| l.player == p).unwrap().clone();
    // The false Hu costs player 6 ten to each of the other three at table 2.
    assert_eq!(line(6).ms, -30);
    assert_eq!(line(5).ms, 10);
    assert_eq!(line(7).ms, 10);
    assert_eq!(line(1).penalty_imp, 2);
    // Player 1: ms -8 against the East average (-8 + 10 + 36 - 45) / 4 = -1.75: DIF -6.25 → -2; minus 2.
    assert_eq!(line(1).imp, -4);
    assert_eq!(s.notes.len(), 1);
}

#[test]
fn bad_results_name_deal_table_and_seat() {
    let mut r = base();
    r.deals[0].tables[2]
        .seats
        .get_mut(&Wind::West)
        .unwrap()
        .player = 99;
    let e = r.individual().unwrap_err().0;
    assert!(
        e.contains("deal 1-1, table 3, seat W: unknown player 99"),
        "{e}"
    );

    let mut r = base();
    r.deals[0].tables[3]
        .seats
        .get_mut(&Wind::North)
        .unwrap()
        .player = 2;
    let e = r.individual().unwrap_err().0;
    assert!(
        e.contains(
            "deal 1-1, table 4, seat N: player 2 already played this deal at table 1, seat S"
        ),
        "{e}"
    );

    let mut r = base();
    r.deals[0].tables[1].table = 1;
    let e = r.individual().unwrap_err().0;
    assert!(e.contains("deal 1-1, table 1: entered twice"), "{e}");

    let mut r = base();
    r.deals[0].tables[0].seats.get_mut(&Wind::East).unwrap().ms = -7;
    let e = r.individual().unwrap_err().0;
    assert!(
        e.contains(
            "deal 1-1, table 1: match points E -7 S 32 W -16 N -8 are not a possible hand result"
        ),
        "{e}"
    );

    let mut r = base();
    r.deals[0].tables[0].seats.remove(&Wind::South);
    let e = r.individual().unwrap_err().0;
    assert!(e.contains("deal 1-1, table 1: no result for seat S"), "{e}");

    let mut r = base();
    r.penalties.push(Penalty {
        player: 3,
        kind: PenaltyKind::FalseHu,
        deal: Some("9-9".into()),
        imp: 0,
        reason: String::new(),
    });
    assert!(r.individual().unwrap_err().0.contains("unknown deal 9-9"));
}

#[test]
fn results_file_round_trips_through_json() {
    let r = base();
    let text = serde_json::to_string(&r).unwrap();
    let back: Results = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
    let example: Results =
        serde_json::from_str(include_str!("../../../examples/results-appendix3.json")).unwrap();
    assert!(example.individual().is_ok());
}

#[test]
fn penalties_and_names_that_would_score_backwards_are_refused() {
    let base: serde_json::Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/results-appendix3.json"
    )))
    .unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value), says: &str| {
        let mut v = base.clone();
        edit(&mut v);
        let r: tournament::standings::Results = serde_json::from_value(v).unwrap();
        let e = r.check().unwrap_err().0;
        assert!(e.contains(says), "{e}");
    };
    // A deduction of −5 IMP would add 5.
    refused(
        &|v| v["penalties"] = serde_json::json!([{"player": 1, "kind": "imp", "imp": -5}]),
        "penalties[0]: imp -5",
    );
    // A negative false-Hu payment would make the offender gain.
    refused(
        &|v| v["false_hu_points"] = serde_json::json!(-10),
        "false_hu_points: -10",
    );
    refused(
        &|v| v["false_hu_points"] = serde_json::json!(0),
        "false_hu_points: 0",
    );
    // A deal needs a name.
    refused(
        &|v| v["deals"][0]["deal"] = serde_json::json!(" "),
        "deals[0]: the deal has no name",
    );
}

#[test]
fn a_stand_in_counts_for_the_field_but_is_not_ranked() {
    let before = base().individual().unwrap();
    let line = |st: &tournament::standings::Standings, p: u32| {
        st.lines.iter().find(|l| l.player == p).cloned().unwrap()
    };
    // Player 3 withdrew; a substitute (17) played their seat at table 1.
    let mut r = base();
    r.players.push(Player {
        id: 17,
        name: "Sub".into(),
        stands_in_for: Some(3),
    });
    r.deals[0].tables[0] = table(1, [1, 2, 17, 4], [-8, 32, -16, -8]);
    let after = r.individual().unwrap();
    // The field is the same, so the substitute scores what player 3 scored before.
    let sub = line(&after, 17);
    let p3 = line(&before, 3);
    assert_eq!((sub.hands, sub.ms, sub.imp), (1, p3.ms, p3.imp));
    assert_eq!((sub.rank, sub.stands_in_for), (0, Some(3)));
    assert_eq!(
        after.lines.last().unwrap().player,
        17,
        "stand-ins come last"
    );
    let gone = line(&after, 3);
    assert_eq!((gone.hands, gone.ms, gone.imp), (0, 0, 0));
    // Everyone else keeps their IMP; ranks run 1.. over the 16 entrants only.
    for p in (1..=16).filter(|&p| p != 3) {
        assert_eq!(line(&after, p).imp, line(&before, p).imp, "player {p}");
    }
    let ranked: Vec<u32> = after.lines.iter().map(|l| l.rank).collect();
    assert_eq!(ranked[0], 1);
    assert!(ranked[..16].iter().all(|&r| (1..=16).contains(&r)));
}
