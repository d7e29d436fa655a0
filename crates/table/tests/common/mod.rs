//! Helpers shared by the table's scenario tests.

use mcr::{parse_tiles, Tile, Wind};
use table::engine::{Action, Table};
use table::log::Event;
use table::Deal;

/// Plays "discard what you drew, pass every claim" until `stop` says so or the hand ends.
#[allow(dead_code)] // not every test file plays on automatically
pub fn auto(table: &mut Table, stop: impl Fn(&Table) -> bool) {
    while !table.is_over() && !stop(table) {
        let seat = table.to_act()[0];
        let legal = table.legal_actions(seat);
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            let drew = table.events().iter().rev().find_map(|e| match e {
                Event::Draw { seat: s, tile, .. } if *s == seat => Some(*tile),
                _ => None,
            });
            match drew {
                Some(d) if legal.contains(&Action::Discard(d)) => Action::Discard(d),
                _ => *legal
                    .iter()
                    .find(|a| matches!(a, Action::Discard(_)))
                    .unwrap(),
            }
        };
        table.apply(seat, action).unwrap();
    }
}

/// A deal with the given starting tiles (up to 13 per seat) and wall tiles at given draw
/// positions; everything else is filled from the remaining tiles in a fixed order.
#[allow(dead_code)] // not every test file builds deals
pub fn deal(hands: [&str; 4], walls: [&[(usize, &str)]; 4]) -> Deal {
    let mut left = [4u8; 34];
    let mut take = |x: Tile| {
        assert!(left[x.index()] > 0, "more than four {x} in the scenario");
        left[x.index()] -= 1;
        x
    };
    let mut h: [Vec<Tile>; 4] = Default::default();
    let mut w: [Vec<Option<Tile>>; 4] = std::array::from_fn(|_| vec![None; 21]);
    for s in 0..4 {
        h[s] = parse_tiles(hands[s])
            .unwrap()
            .into_iter()
            .map(&mut take)
            .collect();
        for &(i, tile) in walls[s] {
            w[s][i] = Some(take(Tile::parse(tile).expect("a tile")));
        }
    }
    // Filler: the remaining tiles in the order of a generated deal.
    let order = Deal::generate(99);
    let mut pool: Vec<Tile> = Vec::new();
    for s in 0..4 {
        for x in order.hands[s].iter().chain(order.walls[s].iter()) {
            if left[x.index()] > 0 {
                left[x.index()] -= 1;
                pool.push(*x);
            }
        }
    }
    let mut pool = pool.into_iter();
    let hands: [Vec<Tile>; 4] = std::array::from_fn(|s| {
        let mut v = h[s].clone();
        while v.len() < 13 {
            v.push(pool.next().unwrap());
        }
        v
    });
    let walls: [Vec<Tile>; 4] = std::array::from_fn(|s| {
        w[s].iter()
            .map(|x| x.unwrap_or_else(|| pool.next().unwrap()))
            .collect()
    });
    Deal::from_tiles(Wind::East, hands, walls).unwrap()
}
