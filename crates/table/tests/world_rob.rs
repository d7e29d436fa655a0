//! A table rebuilt from a view while another seat adds a tile to a pung and the others may
//! rob it. The tile is still in the adder's hand, so every rebuilt table must hold it
//! there. Worlds that left it out once made the expert's review panic when nobody robbed
//! (a count below zero). The log is a hand from `lab rating-signal` (deal 92555, the expert
//! at North among three `strong`) in which North may rob a kong.

use mcr::{MeldKind, Tile, Wind};
use table::engine::{unseen, Action, Decision, Hidden, HiddenSizes, Table};
use table::log::{start_of, HandLog};

/// `n` worlds for `seat` at `real`: the unseen tiles shuffled (a small LCG) and dealt to
/// the other hands and the walls in the sizes the view asks.
fn worlds(real: &Table, seat: Wind, n: u64) -> Vec<Table> {
    let view = real.view(seat);
    let sizes = HiddenSizes::of(&view, real.rules().wall);
    assert_eq!(sizes.kongs, [0; 4], "no concealed kong in this hand");
    let mut pool: Vec<Tile> = Vec::new();
    for (i, &k) in unseen(&view).iter().enumerate() {
        pool.extend(std::iter::repeat_n(
            Tile::from_index(i).unwrap(),
            k as usize,
        ));
    }
    (0..n)
        .map(|w| {
            let mut x = w.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut tiles = pool.clone();
            for i in (1..tiles.len()).rev() {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                tiles.swap(i, ((x >> 33) % (i as u64 + 1)) as usize);
            }
            let mut it = tiles.into_iter();
            let mut h = Hidden::default();
            for s in 0..4 {
                h.hands[s] = it.by_ref().take(sizes.hands[s]).collect();
            }
            for s in 0..4 {
                h.walls[s] = it.by_ref().take(sizes.walls[s]).collect();
            }
            assert_eq!(it.next(), None, "the pool fills the sizes exactly");
            Table::from_view(&view, real.rules().clone(), &h).unwrap()
        })
        .collect()
}

#[test]
fn every_world_at_a_robbable_kong_keeps_the_tile_in_the_adders_hand() {
    let log: HandLog = serde_json::from_str(include_str!("fixtures/rob_kong_log.json")).unwrap();
    let mut real = start_of(&log).unwrap();
    let mut robbable = 0;
    for d in &log.actions {
        if let Some(Decision::RobKong { from, tile }) = real.view(d.seat).decision {
            robbable += 1;
            // Three of the tile in the pung and the fourth announced: none is unseen.
            assert_eq!(unseen(&real.view(d.seat))[tile.index()], 0);
            for mut w in worlds(&real, d.seat, 200) {
                assert!(w.concealed(from).contains(&tile), "{from} holds {tile}");
                assert_eq!(w.legal(d.seat), real.legal(d.seat));
                // Nobody robs: the pung becomes a kong and the tile leaves the hand.
                w.apply(d.seat, Action::Pass).unwrap();
                assert!(!w.concealed(from).contains(&tile));
                assert!(w
                    .melds(from)
                    .iter()
                    .any(|m| m.tile == tile && m.kind == MeldKind::PromotedKong));
            }
        }
        real.apply(d.seat, d.action).unwrap();
    }
    assert_eq!(robbable, 1, "the log has one robbable kong");
}
