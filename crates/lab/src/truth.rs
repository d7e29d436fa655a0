//! Worlds that know what the expert cannot: the other hands as they really are (all, or
//! those of some seats), for measuring what a perfect belief would be worth.

use mcr::{Tile, Wind};
use rand_chacha::ChaCha8Rng;
use table::engine::{unseen, Hidden, HiddenSizes, Table, View};

/// Hidden tiles `h` seated at a table like `real` as `view` sees it, weighing 1 (`None`
/// where the view rules them out).
pub fn seated(real: &Table, view: &View, h: &Hidden) -> Option<(Table, f64)> {
    Some((Table::from_view(view, real.rules().clone(), h).ok()?, 1.0))
}

/// `n` worlds of the real table's other hands, each with walls of its own, weighing 1.
pub fn oracle_worlds(
    real: &Table,
    view: &View,
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<(Table, f64)> {
    (0..n)
        .filter_map(|_| seated(real, view, &oracle(real, view, rng)?))
        .collect()
}

/// Whether a seat other than `me` is ready (one tile from a winning shape) at `t`.
pub fn another_ready(t: &Table, me: Wind) -> bool {
    (Wind::ALL.into_iter())
        .filter(|&w| w != me)
        .any(|w| mcr::wait::shanten(&t.concealed(w), t.melds(w)).min() == 0)
}

/// `n` worlds with the tiles the other hands hold, as they really are, dealt again at
/// random among those hands, each with walls of its own.
pub fn pooled_worlds(
    real: &Table,
    view: &View,
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<(Table, f64)> {
    (0..n)
        .filter_map(|_| {
            let mut h = oracle(real, view, rng)?;
            let mut tiles: Vec<Tile> = h.hands.iter().flatten().copied().collect();
            agents::belief::shuffle(&mut tiles, &mut agents::belief::below(rng));
            let mut it = tiles.into_iter();
            for hand in h.hands.iter_mut() {
                let k = hand.len();
                *hand = it.by_ref().take(k).collect();
            }
            seated(real, view, &h)
        })
        .collect()
}

/// The hidden tiles as they are, but for the walls (dealt at random from the rest);
/// `None` when another seat has a concealed kong.
pub fn oracle(real: &Table, view: &View, rng: &mut ChaCha8Rng) -> Option<Hidden> {
    oracle_part(real, view, &|_| true, rng)
}

/// The hidden tiles with the hands of the seats that `known` picks as they are, the other
/// hands and the walls dealt at random from the rest; `None` when another seat has a
/// concealed kong.
pub fn oracle_part(
    real: &Table,
    view: &View,
    known: &dyn Fn(Wind) -> bool,
    rng: &mut ChaCha8Rng,
) -> Option<Hidden> {
    let sizes = HiddenSizes::of(view, real.rules().wall);
    if sizes.kongs.iter().any(|&k| k > 0) {
        return None;
    }
    let mut left = unseen(view);
    let mut h = Hidden::default();
    let others = || Wind::ALL.into_iter().filter(|&w| w != view.seat);
    // The concealed tiles a world is given: a tile being added to a pung is seen, and
    // the rebuilt table puts it back itself.
    let hidden_hand = |w: Wind| {
        let mut hand = real.concealed(w);
        if let Some((from, t)) = table::engine::announced(view) {
            if from == w {
                if let Some(at) = hand.iter().position(|&x| x == t) {
                    hand.remove(at);
                }
            }
        }
        hand
    };
    for w in others().filter(|&w| known(w)) {
        h.hands[w.index()] = hidden_hand(w);
        for t in &h.hands[w.index()] {
            left[t.index()] -= 1;
        }
    }
    let mut tiles: Vec<Tile> = Vec::new();
    for (i, &n) in left.iter().enumerate() {
        tiles.extend(std::iter::repeat_n(Tile::from_index(i)?, n as usize));
    }
    agents::belief::shuffle(&mut tiles, &mut agents::belief::below(rng));
    let mut it = tiles.into_iter();
    for w in others().filter(|&w| !known(w)) {
        let n = hidden_hand(w).len();
        h.hands[w.index()] = it.by_ref().take(n).collect();
    }
    for s in 0..4 {
        h.walls[s] = it.by_ref().take(sizes.walls[s]).collect();
    }
    Some(h)
}
