//! A table rebuilt from one seat's [`View`] for search: what that seat knows is copied from
//! the view, and what it does not (other seats' concealed tiles, the tiles of their
//! concealed kongs, the undrawn walls) comes from a [`Hidden`] a sampler drew. The
//! sampler alone decides what is plausible; this checks only that the tiles fit the
//! table (sizes, and no kind more than four times) and seats them.
//!
//! On one shared wall (regular games) the undrawn tiles are one row: [`Hidden::walls`]`[0]`
//! holds its playing tiles in live draw order and [`Hidden::bonus`] says where the bonus
//! tiles nobody has drawn lie in it. Replacements come from the row's far end, as they
//! would from the wall's back: which undrawn tiles were once at the back is as unknown as
//! the tiles themselves.

use super::{
    Bonus, Counts, Deal, DealError, Decision, Meld, MeldKind, Phase, SeenMeld, Setup, SharedWall,
    Table, TableRules, Tile, View, WallModel, WallTile, Walls, Wind, KINDS, WALL,
};
use crate::wall::{RegularWall, WALL_TILES};

/// Everything one seat cannot see, filled in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// By seat, the concealed tiles of the other seats (the viewer's own is ignored),
    /// less a tile being added to a pung ([`announced`]).
    pub hands: [Vec<Tile>; 4],
    /// By seat, the tile of each of another seat's concealed kongs, in the order of its
    /// melds.
    pub kongs: [Vec<Tile>; 4],
    /// By seat, the undrawn tiles of its personal wall in draw order; on a shared wall,
    /// its undrawn playing tiles in `walls[0]` (the other three empty).
    pub walls: [Vec<Tile>; 4],
    /// On a shared wall, the undrawn bonus tiles and their places in the undrawn row
    /// (0: the next live draw), counting bonus tiles and playing tiles alike.
    pub bonus: Vec<(usize, Bonus)>,
}

/// How many tiles of each kind a seat must be given, and where: the sizes a [`Hidden`]
/// must have for a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HiddenSizes {
    /// Concealed tiles of each seat (0 for the viewer).
    pub hands: [usize; 4],
    /// Hidden concealed kongs of each seat.
    pub kongs: [usize; 4],
    /// Undrawn tiles of each personal wall; on a shared wall, its undrawn playing tiles
    /// in `walls[0]`.
    pub walls: [usize; 4],
    /// Undrawn bonus tiles (a shared wall only).
    pub bonus: usize,
}

impl HiddenSizes {
    /// The sizes for `view` on walls of `model`.
    pub fn of(view: &View, model: WallModel) -> HiddenSizes {
        let me = view.seat.index();
        let bonus = unseen_bonus(view, model).len();
        let turn = match view.decision {
            Some(Decision::Turn { .. }) => Some(me),
            _ => None,
        };
        HiddenSizes {
            hands: std::array::from_fn(|s| {
                if s == me {
                    0
                } else {
                    13 - 3 * view.melds[s].len() + usize::from(turn == Some(s))
                }
            }),
            kongs: std::array::from_fn(|s| {
                if s == me {
                    0
                } else {
                    view.melds[s]
                        .iter()
                        .filter(|m| matches!(m, SeenMeld::HiddenKong))
                        .count()
                }
            }),
            walls: match model {
                WallModel::Personal => view.wall_left,
                WallModel::Shared => [view.wall_left[0].saturating_sub(bonus), 0, 0, 0],
            },
            bonus,
        }
    }
}

/// The bonus tiles `view`'s seat has not seen (none on personal walls): every bonus tile
/// less those set aside or discarded and one just drawn.
pub fn unseen_bonus(view: &View, model: WallModel) -> Vec<Bonus> {
    if model == WallModel::Personal {
        return Vec::new();
    }
    let drawn = match view.decision {
        Some(Decision::Turn { bonus, .. }) => bonus,
        _ => None,
    };
    let seen = |b: &Bonus| {
        drawn == Some(*b)
            || view.bonus.iter().any(|s| s.contains(b))
            || view.bonus_discards.iter().any(|s| s.contains(b))
    };
    Bonus::all().filter(|b| !seen(b)).collect()
}

/// The tiles `view`'s seat cannot see: four of each kind less its own tiles, every
/// discard on the table and every open meld.
pub fn unseen(view: &View) -> Counts {
    let mut c = [4u8; KINDS];
    let mut take = |t: Tile, n: u8| {
        let k = &mut c[t.index()];
        *k = k.saturating_sub(n);
    };
    if let Some((_, t)) = announced(view) {
        take(t, 1);
    }
    for (i, &n) in view.hand.counts().iter().enumerate() {
        if n > 0 {
            take(kind(i), n);
        }
    }
    for pile in view.discards {
        for &t in pile {
            take(t, 1);
        }
    }
    for melds in view.melds {
        for m in melds {
            if let SeenMeld::Open(m) = m {
                for t in meld_tiles(m) {
                    take(t, 1);
                }
            }
        }
    }
    c
}

/// The shared wall of a rebuilt table: the drawn part filled with anything, the undrawn
/// row from `hidden` (its bonus tiles where [`Hidden::bonus`] puts them).
fn shared_wall(
    view: &View,
    hidden: &Hidden,
    sizes: &HiddenSizes,
) -> Result<RegularWall, DealError> {
    let left = view.wall_left[0];
    if hidden.bonus.len() != sizes.bonus || left > WALL_TILES {
        return Err(DealError(format!(
            "hidden bonus tiles: {} given, the view needs {}",
            hidden.bonus.len(),
            sizes.bonus
        )));
    }
    let mut row: Vec<Option<WallTile>> = vec![None; left];
    for &(at, b) in &hidden.bonus {
        match row.get_mut(at) {
            Some(place @ None) => *place = Some(WallTile::Bonus(b)),
            _ => {
                return Err(DealError(format!(
                    "hidden bonus tile {} at place {at} of an undrawn row of {left}",
                    b.code()
                )))
            }
        }
    }
    let mut playing = hidden.walls[0].iter();
    let mut tiles = [WallTile::Tile(Tile::EAST); WALL_TILES];
    for (slot, place) in tiles[WALL_TILES - left..].iter_mut().zip(row) {
        *slot = match place {
            Some(b) => b,
            None => WallTile::Tile(*playing.next().expect("sizes checked")),
        };
    }
    Ok(RegularWall {
        seed: None,
        prevalent: view.prevalent,
        tiles,
    })
}

/// A tile another seat has announced but still holds: the one it adds to a pung while
/// the others may rob it (`view`'s decision), with that seat. It is seen, so it is in no
/// pool of hidden tiles, and a rebuilt table puts it back in that seat's hand.
pub fn announced(view: &View) -> Option<(Wind, Tile)> {
    match view.decision {
        Some(Decision::RobKong { from, tile }) => Some((from, tile)),
        _ => None,
    }
}

/// The tile of kind `i` (0–33).
fn kind(i: usize) -> Tile {
    Tile::from_index(i).expect("a tile kind")
}

/// The four (or three) tiles of a meld.
fn meld_tiles(m: &Meld) -> impl Iterator<Item = Tile> {
    let (t, chow) = (m.tile, m.kind == MeldKind::Chow);
    let n = match m.kind {
        MeldKind::Chow | MeldKind::Pung => 3,
        _ => 4,
    };
    (0..n).map(move |i| if chow { kind(t.index() + i) } else { t })
}

impl Table {
    /// The table `view`'s seat would face if the hidden tiles were `hidden`. The result
    /// plays on from the view's decision; it has no events before it.
    pub fn from_view(view: &View, rules: TableRules, hidden: &Hidden) -> Result<Table, DealError> {
        let me = view.seat.index();
        let sizes = HiddenSizes::of(view, rules.wall);
        for s in 0..4 {
            let checks = [
                ("hands", hidden.hands[s].len(), sizes.hands[s]),
                ("kongs", hidden.kongs[s].len(), sizes.kongs[s]),
                ("walls", hidden.walls[s].len(), sizes.walls[s]),
            ];
            for (what, got, want) in checks {
                if got != want {
                    return Err(DealError(format!(
                        "hidden {what} of seat {}: {got} tiles, the view needs {want}",
                        Wind::from_index(s)
                    )));
                }
            }
        }
        // Every kind at most four times over the whole table.
        let mut all = [0u8; KINDS];
        for (i, &n) in view.hand.counts().iter().enumerate() {
            all[i] += n;
        }
        let seen = unseen(view);
        for i in 0..KINDS {
            all[i] += 4 - seen[i] - view.hand.counts()[i];
        }
        for s in 0..4 {
            let kongs = hidden.kongs[s].iter().flat_map(|&t| [t; 4]);
            let tiles = hidden.hands[s].iter().chain(&hidden.walls[s]).copied();
            for t in tiles.chain(kongs) {
                all[t.index()] += 1;
                if all[t.index()] > 4 {
                    return Err(DealError(format!(
                        "hidden tiles of seat {}: a fifth {t}",
                        Wind::from_index(s)
                    )));
                }
            }
        }
        let mut t = match rules.wall {
            WallModel::Personal => {
                let filler = Tile::EAST;
                let mut deal = Deal {
                    seed: None,
                    prevalent: view.prevalent,
                    hands: [[filler; 13]; 4],
                    walls: [[filler; WALL]; 4],
                };
                let drawn: [usize; 4] = std::array::from_fn(|s| WALL - hidden.walls[s].len());
                for (wall, tiles) in deal.walls.iter_mut().zip(&hidden.walls) {
                    wall[WALL - tiles.len()..].copy_from_slice(tiles);
                }
                Table::blank(rules, Setup::Duplicate(deal), Walls::Personal { drawn })
            }
            WallModel::Shared => {
                let wall = shared_wall(view, hidden, &sizes)?;
                let live = WALL_TILES - view.wall_left[0];
                let walls = Walls::Shared(Box::new(SharedWall {
                    wall: wall.clone(),
                    live,
                    back: 0,
                }));
                Table::blank(rules, Setup::Regular(wall), walls)
            }
        };
        t.last_tile_point = view.last_tile_point;
        for s in 0..4 {
            t.bonus[s] = view.bonus[s].to_vec();
            t.bonus_discards[s] = view.bonus_discards[s].to_vec();
        }
        for (pile, seen) in t.discards.iter_mut().zip(view.discards) {
            pile.extend_from_slice(seen);
        }
        t.thrown.extend_from_slice(view.thrown);
        for (i, &n) in view.hand.counts().iter().enumerate() {
            for _ in 0..n {
                t.add_tile(me, kind(i));
            }
        }
        if let Some((from, x)) = announced(view) {
            t.add_tile(from.index(), x);
        }
        for s in 0..4 {
            if s != me {
                for &x in &hidden.hands[s] {
                    t.add_tile(s, x);
                }
            }
            let mut kongs = hidden.kongs[s].iter();
            for m in view.melds[s] {
                let meld = match m {
                    SeenMeld::Open(m) => *m,
                    SeenMeld::HiddenKong => Meld {
                        kind: MeldKind::ConcealedKong,
                        tile: *kongs.next().expect("sizes checked"),
                        from: 0,
                    },
                };
                if meld.kind != MeldKind::ConcealedKong {
                    for x in meld_tiles(&meld) {
                        t.visible[x.index()] += 1;
                    }
                }
                t.melds[s].push(meld);
            }
            t.sync_melds(Wind::from_index(s));
            for &x in view.discards[s] {
                t.visible[x.index()] += 1;
            }
        }
        match view.decision {
            Some(Decision::Turn {
                drew,
                bonus,
                replacement,
            }) => {
                t.phase = Phase::Turn {
                    seat: view.seat,
                    drew,
                    replacement,
                    bonus,
                };
                t.refresh_legal();
            }
            Some(Decision::Claim { from, tile }) => t.open_claims(from, tile, false),
            Some(Decision::RobKong { from, tile }) => t.open_claims(from, tile, true),
            None => return Err(DealError("the view has no decision to play on from".into())),
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::counts_to_tiles;

    /// What a seat cannot see at `real`, read from the real table: the true hidden tiles.
    fn truth(real: &Table, seat: Wind) -> Hidden {
        let mut h = Hidden::default();
        match (&real.walls, &real.setup) {
            (Walls::Personal { drawn }, Setup::Duplicate(d)) => {
                for (s, &n) in drawn.iter().enumerate() {
                    h.walls[s] = d.walls[s][n..].to_vec();
                }
            }
            (Walls::Shared(w), _) => {
                let row = &w.wall.tiles[w.live..WALL_TILES - w.back];
                for (at, t) in row.iter().enumerate() {
                    match *t {
                        WallTile::Tile(t) => h.walls[0].push(t),
                        WallTile::Bonus(b) => h.bonus.push((at, b)),
                    }
                }
            }
            _ => unreachable!("the walls follow the setup"),
        }
        for s in (0..4).filter(|&s| s != seat.index()) {
            h.hands[s] = counts_to_tiles(&real.conc[s]);
            if let Some((from, t)) = announced(&real.view(seat)) {
                if from.index() == s {
                    let at = h.hands[s]
                        .iter()
                        .position(|&x| x == t)
                        .expect("it holds it");
                    h.hands[s].remove(at);
                }
            }
            h.kongs[s] = real.melds[s]
                .iter()
                .filter(|m| m.kind == MeldKind::ConcealedKong)
                .map(|m| m.tile)
                .collect();
        }
        h
    }

    /// With the true hidden tiles, the rebuilt table offers the same actions and, played on
    /// with the same choices, ends with the same points: over every decision of 80 hands
    /// under the seeds', Botzone's and two regular rules (a shared wall with bonus tiles).
    #[test]
    fn a_table_rebuilt_from_a_view_with_the_true_hidden_tiles_plays_on_identically() {
        let mut checked = 0;
        let all = [
            TableRules::seeds(),
            TableRules::botzone(),
            TableRules::regular(),
            TableRules::regular_bonus_discard(),
        ];
        for rules in all {
            for seed in 0..20u64 {
                let mut real = Table::new(Setup::generate(rules.wall, 900 + seed), rules.clone());
                let mut k = seed as usize;
                while let Some(seat) = real.next_to_act() {
                    // A seat does not know others' answers to a claim: rebuild only where
                    // nobody has answered yet.
                    let fresh = match &real.phase {
                        Phase::Claims { answers, .. } => answers.iter().all(Option::is_none),
                        _ => true,
                    };
                    if !fresh {
                        let act = real.legal(seat)[0];
                        real.apply(seat, act).unwrap();
                        continue;
                    }
                    let rebuilt =
                        Table::from_view(&real.view(seat), rules.clone(), &truth(&real, seat))
                            .unwrap();
                    assert_eq!(rebuilt.legal(seat), real.legal(seat), "seed {seed}");
                    // Play both on with the same choices (pseudo-random, claims included).
                    let (mut a, mut b) = (real.clone(), rebuilt);
                    let mut j = k;
                    while let Some(w) = a.next_to_act() {
                        assert_eq!(b.next_to_act(), Some(w), "seed {seed}");
                        let legal = a.legal(w);
                        assert_eq!(legal, b.legal(w), "seed {seed}");
                        j = j
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let act = legal[(j >> 33) % legal.len()];
                        a.apply(w, act).unwrap();
                        b.apply(w, act).unwrap();
                    }
                    assert_eq!(
                        a.result().map(|r| r.points),
                        b.result().map(|r| r.points),
                        "seed {seed}"
                    );
                    checked += 1;
                    k = k.wrapping_mul(2862933555777941757).wrapping_add(3037000493);
                    let legal = real.legal(seat);
                    let act = legal[(k >> 33) % legal.len()];
                    real.apply(seat, act).unwrap();
                }
            }
        }
        assert!(checked > 2000, "{checked} decisions");
    }

    #[test]
    fn hidden_tiles_of_the_wrong_size_or_a_fifth_copy_are_refused() {
        let real = Table::new(Setup::generate(WallModel::Personal, 5), TableRules::seeds());
        let view = real.view(Wind::East);
        let mut h = truth(&real, Wind::East);
        h.hands[1].pop();
        let e = Table::from_view(&view, TableRules::seeds(), &h).unwrap_err();
        assert!(e.0.contains("hidden hands of seat S"), "{e}");
        let mut h = truth(&real, Wind::East);
        let mine = view.hand.tiles()[0];
        h.walls[2][0] = mine;
        h.walls[2][1] = mine;
        h.walls[2][2] = mine;
        h.walls[2][3] = mine;
        let e = Table::from_view(&view, TableRules::seeds(), &h).unwrap_err();
        assert!(e.0.contains("a fifth"), "{e}");
        let e =
            Table::from_view(&view, TableRules::regular(), &truth(&real, Wind::East)).unwrap_err();
        assert!(e.0.contains("hidden walls of seat E"), "{e}");
    }

    #[test]
    fn undrawn_bonus_tiles_missing_or_out_of_the_row_are_refused() {
        let rules = TableRules::regular();
        let real = Table::new(Setup::generate(WallModel::Shared, 5), rules.clone());
        let view = real.view(Wind::East);
        let truth = truth(&real, Wind::East);
        assert_eq!(
            truth.bonus.len(),
            unseen_bonus(&view, WallModel::Shared).len(),
            "the undrawn bonus tiles are the unseen ones"
        );
        assert!(!truth.bonus.is_empty(), "wall 5 keeps a bonus tile undrawn");
        let mut h = truth.clone();
        h.bonus.pop();
        let e = Table::from_view(&view, rules.clone(), &h).unwrap_err();
        assert!(e.0.contains("hidden bonus tiles"), "{e}");
        let mut h = truth.clone();
        h.bonus[0].0 = view.wall_left[0];
        let e = Table::from_view(&view, rules.clone(), &h).unwrap_err();
        assert!(e.0.contains("at place"), "{e}");
        assert!(Table::from_view(&view, rules, &truth).is_ok());
    }
}
