//! S3 Appendix 3: the IMP calculation of the East players of four groups over the
//! four hands of a round, reproduced number by number.

use mcr::Wind;
use tournament::standings::{DealResult, Player, Results, TableResult};

/// A table whose East seat scored `east`, completed with a possible result for the others.
fn table(table: u32, players: [u32; 4], east: i32) -> TableResult {
    let ms: [i32; 4] = match east {
        0 => [0, 0, 0, 0],
        -8 => [-8, 32, -16, -8],    // South wins 8 on West's discard
        -45 => [-45, 61, -8, -8],   // East discards to South's 37
        -12 => [-12, 34, -12, -12], // South self-drawn 10
        -36 => [-36, 52, -8, -8],   // East discards to South's 28
        60 => [60, -44, -8, -8],    // East wins 36 on South's discard
        -20 => [-20, 60, -20, -20], // South self-drawn 36
        36 => [36, -12, -12, -12],  // East self-drawn 12
        72 => [72, -56, -8, -8],    // East wins 48 on South's discard
        -16 => [-16, 32, -8, -8],   // East discards to South's 8
        45 => [45, -15, -15, -15],  // East self-drawn 21
        other => panic!("no table for {other}"),
    };
    TableResult::new(table, players, ms)
}

#[test]
fn appendix_3_numbers() {
    // East players of groups 1–4 are players 1–4; the others 5–16.
    let east_ms = [
        [-8, -45, -12, 0],
        [-8, -8, -8, -8],
        [-36, 60, -20, 36],
        [72, -16, 0, 45],
    ];
    let deals: Vec<DealResult> = (0..4)
        .map(|h| DealResult {
            deal: format!("1-{}", h + 1),
            tables: (0..4)
                .map(|g| {
                    table(
                        g as u32 + 1,
                        [
                            g as u32 + 1,
                            5 + 3 * g as u32,
                            6 + 3 * g as u32,
                            7 + 3 * g as u32,
                        ],
                        east_ms[h][g],
                    )
                })
                .collect(),
        })
        .collect();
    let results = Results {
        players: (1..=16)
            .map(|id| Player {
                id,
                name: format!("P{id}"),
                stands_in_for: None,
            })
            .collect(),
        teams: vec![],
        false_hu_points: 10,
        deals,
        penalties: vec![],
    };
    let s = results.individual().unwrap();
    let east: Vec<_> = s
        .deal_seats
        .iter()
        .filter(|d| d.wind == Wind::East)
        .collect();
    assert_eq!(east.len(), 4);
    // Average ms of the East seat: -16.25, -8, 10, 25.25.
    let avg: Vec<f64> = east.iter().map(|d| d.sum as f64 / d.n as f64).collect();
    assert_eq!(avg, [-16.25, -8.0, 10.0, 25.25]);
    let want = [
        [("8.25", 2), ("-28.75", -5), ("4.25", 1), ("16.25", 4)],
        [("0", 0), ("0", 0), ("0", 0), ("0", 0)],
        [("-46", -7), ("50", 8), ("-30", -5), ("26", 5)],
        [("46.75", 7), ("-41.25", -7), ("-25.25", -5), ("19.75", 4)],
    ];
    for (h, d) in east.iter().enumerate() {
        for (g, e) in d.entries.iter().enumerate() {
            assert_eq!(e.player, g as u32 + 1);
            assert_eq!(
                (e.dif.to_string().as_str(), e.imp),
                want[h][g],
                "hand {} group {}",
                h + 1,
                g + 1
            );
        }
    }
    // Sums: ms 20, -9, -40, 73; IMP 2, -4, -9, 13.
    for (p, ms, imp) in [(1, 20, 2), (2, -9, -4), (3, -40, -9), (4, 73, 13)] {
        let line = s.lines.iter().find(|l| l.player == p).unwrap();
        assert_eq!((line.ms, line.imp), (ms, imp), "player {p}");
    }
}
