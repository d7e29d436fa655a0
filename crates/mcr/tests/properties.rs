//! Property tests: notation round trips, no panics on arbitrary input, and waits, shanten
//! and the calculator agreeing with one another.

use mcr::notation::{format_meld, format_tiles, parse_hand_line, parse_hand_text, parse_tiles};
use mcr::tile::{counts_of, Counts};
use mcr::{score, shanten, winning_tiles, Fan, Hand, Meld, Rules, Tile, WinContext, Wind};
use proptest::prelude::*;

fn tile() -> impl Strategy<Value = Tile> {
    (0usize..34).prop_map(|i| Tile::from_index(i).expect("index"))
}

fn meld() -> impl Strategy<Value = Meld> {
    prop_oneof![
        (0u8..3, 1u8..=7, 0u8..=3).prop_map(|(s, r, f)| {
            let low = Tile::from_index(s as usize * 9 + r as usize - 1).expect("tile");
            Meld::chow(low, f).expect("chow")
        }),
        (tile(), 0u8..=3).prop_map(|(t, f)| Meld::pung(t, f)),
        tile().prop_map(Meld::concealed_kong),
        (tile(), 0u8..=3).prop_map(|(t, f)| Meld::melded_kong(t, f)),
        (tile(), 0u8..=3).prop_map(|(t, f)| Meld::promoted_kong(t, f)),
    ]
}

fn wind() -> impl Strategy<Value = Wind> {
    (0usize..4).prop_map(Wind::from_index)
}

fn context() -> impl Strategy<Value = WinContext> {
    (any::<[bool; 4]>(), wind(), wind(), 0u8..=8).prop_map(|(f, seat, prev, flowers)| WinContext {
        self_drawn: f[0],
        last_of_kind: f[1],
        kong: f[2],
        last_tile: f[3],
        seat_wind: seat,
        prevalent_wind: prev,
        flowers,
    })
}

/// A hand made of legal melds and the right number of concealed tiles (not always a
/// winning one, and not always within four copies).
fn any_hand() -> impl Strategy<Value = (Vec<Meld>, Vec<Tile>, Tile, WinContext)> {
    (0usize..=4).prop_flat_map(|n| {
        (
            proptest::collection::vec(meld(), n),
            proptest::collection::vec(tile(), 13 - 3 * n),
            tile(),
            context(),
        )
    })
}

/// A complete hand: four sets (some declared) and a pair, each tile at most four times.
fn winning_hand() -> impl Strategy<Value = Hand> {
    let set = prop_oneof![
        (0u8..3, 1u8..=7).prop_map(|(s, r)| (0u8, s as usize * 9 + r as usize - 1)),
        (0usize..34).prop_map(|i| (1u8, i)),
    ];
    (
        proptest::collection::vec((set, any::<bool>(), 0u8..4), 4),
        0usize..34,
        0usize..14,
        context(),
    )
        .prop_filter_map("over four copies", |(sets, pair, win_pick, ctx)| {
            let mut melds = Vec::new();
            let mut conc = Vec::new();
            for ((kind, i), declare, k) in sets {
                let t = Tile::from_index(i).expect("tile");
                let tiles: Vec<Tile> = if kind == 0 {
                    (0..3)
                        .map(|d| Tile::from_index(i + d).expect("tile"))
                        .collect()
                } else {
                    vec![t; 3]
                };
                if declare {
                    melds.push(match (kind, k) {
                        (0, _) => Meld::chow(t, 1).expect("chow"),
                        (_, 0) => Meld::pung(t, 2),
                        (_, 1) => Meld::concealed_kong(t),
                        (_, 2) => Meld::melded_kong(t, 1),
                        _ => Meld::promoted_kong(t, 3),
                    });
                } else {
                    conc.extend(tiles);
                }
            }
            let p = Tile::from_index(pair).expect("tile");
            conc.push(p);
            conc.push(p);
            let win = conc.remove(win_pick % conc.len());
            let ctx = WinContext {
                kong: false,
                last_of_kind: false,
                ..ctx
            };
            Hand::new(melds, conc, win, ctx).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn tiles_round_trip(ts in proptest::collection::vec(tile(), 0..20)) {
        let mut ts = ts;
        ts.sort();
        let text = format_tiles(&ts);
        prop_assert_eq!(parse_tiles(&text).unwrap(), ts);
    }

    #[test]
    fn bot_codes_round_trip(ts in proptest::collection::vec(tile(), 1..20)) {
        let text: Vec<&str> = ts.iter().map(|t| t.bot_code()).collect();
        prop_assert_eq!(parse_tiles(&text.join(" ")).unwrap(), ts);
    }

    #[test]
    fn melds_round_trip(m in meld()) {
        prop_assume!(m.check().is_ok());
        let text = format_meld(&m);
        let h = parse_hand_text(&format!("{text}1m")).unwrap();
        prop_assert_eq!(h.melds, vec![m]);
    }

    #[test]
    fn hands_round_trip((melds, conc, win, ctx) in any_hand()) {
        // Any hand the checks accept prints to text that parses back to the same hand.
        if let Ok(h) = Hand::new(melds, conc, win, ctx) {
            let text = h.to_string();
            let back = mcr::parse_hand(&text, ctx).unwrap();
            prop_assert_eq!(back, h);
        }
    }

    #[test]
    fn parser_never_panics(s in "\\PC{0,40}") {
        let _ = parse_hand_text(&s);
        let _ = parse_hand_line(&s);
        let _ = parse_tiles(&s);
    }

    #[test]
    fn parser_never_panics_on_near_misses(s in "[\\[\\]0-9mspzESWNCFP+| ]{0,40}") {
        if let Ok(h) = parse_hand_line(&s) {
            let _ = score(&h, &Rules::seeds());
        }
    }

    #[test]
    fn calculator_never_panics((melds, conc, win, ctx) in any_hand()) {
        if let Ok(h) = Hand::new(melds, conc, win, ctx) {
            for rules in [Rules::seeds(), Rules::reference()] {
                if let Ok(s) = score(&h, &rules) {
                    let sum: u32 = s.fans.iter().map(|l| l.points * l.count).sum();
                    prop_assert_eq!(sum, s.total);
                    prop_assert!(s.total > 0);
                }
            }
        }
    }

    #[test]
    fn winning_hands_score_and_are_waited_on(h in winning_hand()) {
        let s = score(&h, &Rules::seeds());
        prop_assert!(s.is_ok(), "{} did not score: {:?}", h, s);
        let waits = winning_tiles(h.concealed(), h.melds());
        let held = h.all_counts();
        // The winning tile is one of the hand's waits unless all four were already held.
        if held[h.win_tile().index()] <= 4 {
            prop_assert!(waits.contains(&h.win_tile()), "{}: waits {:?}", h, waits);
        }
        prop_assert_eq!(shanten(h.concealed(), h.melds()).min(), 0);
    }

    #[test]
    fn waits_agree_with_the_calculator((melds, conc, _w, ctx) in any_hand()) {
        // Every tile is a wait exactly when adding it makes a hand the calculator accepts.
        let held: Counts = {
            let mut c = counts_of(&conc);
            for m in &melds { for t in m.tiles() { c[t.index()] += 1; } }
            c
        };
        if held.iter().all(|&c| c <= 4) && melds.iter().all(|m| m.check().is_ok()) {
            let waits = winning_tiles(&conc, &melds);
            let ctx = WinContext { kong: false, last_of_kind: false, ..ctx };
            for t in Tile::all() {
                if held[t.index()] >= 4 { continue; }
                let wins = Hand::new(melds.clone(), conc.clone(), t, ctx)
                    .map(|h| score(&h, &Rules::seeds()).is_ok())
                    .unwrap_or(false);
                prop_assert_eq!(wins, waits.contains(&t), "tile {} for {:?} {:?}", t, melds, conc);
            }
            let sh = shanten(&conc, &melds).min();
            prop_assert_eq!(sh == 0, !waits.is_empty() || held_out_only(&conc, &melds), "shanten {} waits {:?}", sh, waits);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn one_swap_moves_shanten_by_at_most_one((melds, conc, t, _ctx) in any_hand(), pick in 0usize..13) {
        // Replacing one concealed tile changes the distance to ready by at most one.
        let held = counts_of(&conc);
        prop_assume!(held.iter().all(|&c| c <= 4) && !conc.is_empty());
        let mut other = conc.clone();
        other[pick % conc.len()] = t;
        prop_assume!(counts_of(&other).iter().all(|&c| c <= 4));
        let a = shanten(&conc, &melds).min();
        let b = shanten(&other, &melds).min();
        prop_assert!((a - b).abs() <= 1, "{:?} -> {:?}: {} vs {}", conc, other, a, b);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn fast_shanten_equals_the_plain_search((melds, conc, _t, _ctx) in any_hand()) {
        let c = counts_of(&conc);
        prop_assume!(c.iter().all(|&x| x <= 4));
        prop_assert_eq!(
            mcr::wait::shanten_regular(&c, melds.len()),
            mcr::wait::shanten_regular_slow(&c, melds.len()),
            "{:?} with {} melds", conc, melds.len()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn improvers_are_the_tiles_that_lower_shanten((melds, conc, _t, _ctx) in any_hand(), extra in 0usize..3) {
        // Thirteen-tile hands, and some with a tile or two more (as a hand after a draw).
        let mut c = counts_of(&conc);
        prop_assume!(c.iter().all(|&x| x <= 4));
        for k in 0..extra {
            let i = (k * 13 + conc.len() * 7) % 34;
            if c[i] < 4 {
                c[i] += 1;
            }
        }
        let n = melds.len();
        let base = mcr::wait::shanten_regular(&c, n);
        let mut want = 0u64;
        for i in 0..34 {
            let mut d = c;
            d[i] += 1;
            if mcr::wait::shanten_regular(&d, n) < base {
                want |= 1 << i;
            }
        }
        let all = (1u64 << 34) - 1;
        prop_assert_eq!(mcr::wait::shanten_regular_improvers(&c, n, all), (base, want), "{:?} with {} melds", conc, n);
        // Asking about some tiles only answers for those.
        let some = 0x2_5555_5555u64;
        prop_assert_eq!(mcr::wait::shanten_regular_improvers(&c, n, some), (base, want & some));
    }
}

/// Whether the hand is ready in shape, however many copies are held: it would have
/// winning tiles if no copy were held in its melds, or it waits on a fifth copy of a kind
/// its standing tiles hold four of (`PPPP` beside three sets waits on a fifth `P`). With
/// no winning tile, such a hand is ready only on tiles it holds already.
fn held_out_only(conc: &[Tile], melds: &[Meld]) -> bool {
    let c = counts_of(conc);
    mcr::wait::winning_tiles_counts(&c, &[0; 34], melds.len()) != 0
        || (0..34).any(|k| {
            let mut fifth = [0u8; 34];
            fifth.copy_from_slice(&c);
            fifth[k] += 1;
            c[k] == 4 && sets_and_a_pair(&mut fifth, false)
        })
}

/// Whether the counts `c` (a kind may hold five) split into sets and one pair: the
/// regular winning shape, searched by brute force from the lowest kind held.
fn sets_and_a_pair(c: &mut [u8; 34], paired: bool) -> bool {
    let Some(i) = c.iter().position(|&n| n > 0) else {
        return paired;
    };
    let try_taking = |c: &mut [u8; 34], kinds: &[usize], paired: bool| {
        kinds.iter().for_each(|&k| c[k] -= 1);
        let ok = sets_and_a_pair(c, paired);
        kinds.iter().for_each(|&k| c[k] += 1);
        ok
    };
    (c[i] >= 3 && try_taking(c, &[i, i, i], paired))
        || (!paired && c[i] >= 2 && try_taking(c, &[i, i], true))
        || (i < 27
            && i % 9 <= 6
            && c[i + 1] > 0
            && c[i + 2] > 0
            && try_taking(c, &[i, i + 1, i + 2], paired))
}

/// Found by `waits_agree_with_the_calculator`: three chows 1m2m3m beside `PPPP` are ready
/// in shape (shanten 0) on a fifth `P` only, so they have no winning tile, and the
/// property counts them with the hands whose waits are all held.
#[test]
fn a_hand_ready_only_on_a_fifth_copy_has_no_winning_tile() {
    let chow = Meld::chow(Tile::from_index(0).unwrap(), 0).unwrap();
    let melds = vec![chow; 3];
    let conc = vec![Tile::from_index(33).unwrap(); 4];
    assert_eq!(shanten(&conc, &melds).min(), 0);
    assert!(winning_tiles(&conc, &melds).is_empty());
    assert!(held_out_only(&conc, &melds));
    // A pair and two singles are not ready at all.
    let tile = |i| Tile::from_index(i).unwrap();
    assert!(!held_out_only(
        &[tile(33), tile(33), tile(31), tile(32)],
        &melds
    ));
}

/// Inputs that once broke, or nearly broke, the parser or the calculator. Each must give
/// an error or a score, never a panic.
#[test]
fn fuzz_corpus_replays() {
    for (i, line) in include_str!("fuzz_corpus.txt").lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let r = std::panic::catch_unwind(|| {
            if let Ok(h) = parse_hand_line(line) {
                let _ = score(&h, &Rules::seeds());
                let _ = score(&h, &Rules::reference());
                let _ = winning_tiles(h.concealed(), h.melds());
            }
            let _ = parse_tiles(line);
        });
        assert!(r.is_ok(), "line {}: {line:?} panicked", i + 1);
    }
}

/// The allocation-free fan table says what the full scoring says: the same fans, counts
/// and totals on every hand of the benchmark corpus, under both profiles.
#[test]
fn fan_table_agrees_with_the_full_scoring() {
    let mut scored = 0;
    for line in include_str!("../benches/corpus.txt").lines() {
        let h = parse_hand_line(line).expect("corpus hand");
        for rules in [Rules::seeds(), Rules::reference()] {
            let full = score(&h, &rules);
            let table = mcr::fan_table(&h, &rules);
            match (full, table) {
                (Ok(s), Ok(t)) => {
                    assert_eq!(t.total(), s.total, "{line}");
                    assert_eq!(
                        t.points_without_flowers(),
                        s.points_without_flowers(),
                        "{line}"
                    );
                    let lines: Vec<(Fan, u32)> = s.fans.iter().map(|l| (l.fan, l.count)).collect();
                    assert_eq!(t.fans().collect::<Vec<_>>(), lines, "{line}");
                    for l in &s.fans {
                        assert_eq!(t.count(l.fan), l.count, "{line}");
                    }
                    assert_eq!(
                        t.count(Fan::ThirteenOrphans),
                        s.fans
                            .iter()
                            .filter(|l| l.fan == Fan::ThirteenOrphans)
                            .count() as u32
                    );
                    scored += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{line}"),
                (a, b) => panic!("{line}: scoring {a:?}, table {b:?}"),
            }
        }
    }
    assert!(scored > 39_000, "{scored}");
}
