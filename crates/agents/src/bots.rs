//! The simplest built-in bots: `random` and `greedy` (tile efficiency alone).

use mcr::tile::Counts;
use mcr::Tile;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use table::engine::{Action, Decision, View};

use crate::agent::Agent;

/// Picks a legal action uniformly at random.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seeded stream.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomBot {
    fn name(&self) -> &str {
        "random"
    }
    fn act(&mut self, view: &View) -> Action {
        let n = view.legal.len() as u64;
        if n == 0 {
            return Action::Pass;
        }
        view.legal[((self.rng.next_u32() as u64 * n) >> 32) as usize]
    }
}

/// Plays for tile efficiency: wins whenever it can, discards to the lowest shanten
/// (keeping connected tiles on ties), and claims only when that lowers its shanten.
pub struct GreedyBot {
    /// Breaks ties between equally good discards at random when set.
    pub rng: Option<ChaCha8Rng>,
}

/// Shanten of concealed counts with `melds` declared sets (regular or seven pairs).
fn shanten(c: &Counts, melds: usize) -> i32 {
    let r = mcr::wait::shanten_regular(c, melds);
    if melds == 0 {
        r.min(mcr::wait::shanten_seven_pairs(c))
    } else {
        r
    }
}

/// How useful a tile is to keep: copies and neighbours.
fn keep_score(c: &Counts, t: Tile) -> i32 {
    let mut s = 3 * c[t.index()] as i32;
    if t.is_numbered() {
        for (d, w) in [(-2i8, 1), (-1, 2), (1, 2), (2, 1)] {
            if let Some(x) = t.offset(d) {
                s += w * c[x.index()].min(1) as i32;
            }
        }
        if !t.is_terminal() {
            s += 1;
        }
    }
    s
}

/// The best discard of counts `c` and the shanten it leaves. Among discards that leave the
/// hand ready, the one waiting on the most tiles not yet seen (`seen` counts every copy
/// this seat can see) wins; otherwise connected tiles are kept.
fn best_discard(
    c: &Counts,
    melds: usize,
    seen: &Counts,
    mut rng: Option<&mut ChaCha8Rng>,
) -> Option<(Tile, i32)> {
    let mut best: Option<(Tile, i32, i32)> = None;
    let mut ties = 1u32;
    let mut d = *c;
    for t in Tile::all() {
        if c[t.index()] == 0 {
            continue;
        }
        d[t.index()] -= 1;
        let sh = shanten(&d, melds);
        let score = if sh == 0 {
            let waits = mcr::wait::winning_tiles_counts(&d, seen, melds);
            -(Tile::all()
                .filter(|w| waits & (1 << w.index()) != 0)
                .map(|w| 4 - seen[w.index()].min(4) as i32)
                .sum::<i32>())
                * 10
        } else {
            keep_score(c, t)
        };
        d[t.index()] += 1;
        match best {
            Some((_, bs, bk)) if (sh, score) == (bs, bk) => {
                // Keep each of k equal candidates with probability 1/k.
                if let Some(r) = rng.as_deref_mut() {
                    ties += 1;
                    if r.next_u32() % ties == 0 {
                        best = Some((t, sh, score));
                    }
                }
            }
            Some((_, bs, bk)) if (sh, score) > (bs, bk) => {}
            _ => {
                best = Some((t, sh, score));
                ties = 1;
            }
        }
    }
    best.map(|(t, sh, _)| (t, sh))
}

/// Every copy this seat can see: its own tiles, all discards and exposed melds.
fn seen_counts(view: &View) -> Counts {
    let mut s = *view.hand.counts();
    for pile in view.discards {
        for t in pile {
            s[t.index()] += 1;
        }
    }
    for melds in view.melds {
        for m in melds {
            if let table::engine::SeenMeld::Open(m) = m {
                for t in m.tiles() {
                    s[t.index()] += 1;
                }
            }
        }
    }
    s
}

fn melds_of(view: &View) -> usize {
    view.melds[view.seat.index()].len()
}

impl Agent for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }
    fn act(&mut self, view: &View) -> Action {
        if view.legal.contains(&Action::Hu) {
            return Action::Hu;
        }
        let c = *view.hand.counts();
        let m = melds_of(view);
        let seen = seen_counts(view);
        match view.decision {
            Some(Decision::Turn { .. }) => {
                let discard = best_discard(&c, m, &seen, self.rng.as_mut());
                let now = discard.map_or(8, |(_, sh)| sh);
                for a in view.legal.iter() {
                    if let Action::ConcealedKong(t) = a {
                        let mut k = c;
                        k[t.index()] -= 4;
                        if shanten(&k, m + 1) <= now {
                            return *a;
                        }
                    }
                    if let Action::PromotedKong(t) = a {
                        let mut k = c;
                        k[t.index()] -= 1;
                        if shanten(&k, m) <= now {
                            return *a;
                        }
                    }
                }
                match discard {
                    Some((t, _)) if view.legal.contains(&Action::Discard(t)) => Action::Discard(t),
                    _ => view
                        .legal
                        .iter()
                        .copied()
                        .find(|a| matches!(a, Action::Discard(_)))
                        .unwrap_or(Action::Pass),
                }
            }
            Some(Decision::Claim { tile, .. }) => {
                let now = shanten(&c, m);
                let mut best = (now, Action::Pass);
                for a in view.legal.iter() {
                    let mut k = c;
                    let after = match a {
                        Action::Pung => {
                            k[tile.index()] -= 2;
                            best_discard(&k, m + 1, &seen, None).map_or(8, |(_, sh)| sh)
                        }
                        Action::Kong => {
                            k[tile.index()] -= 3;
                            shanten(&k, m + 1)
                        }
                        Action::Chow(low) => {
                            for d in 0..3 {
                                let x = low.offset(d).expect("chow tile");
                                if x != tile {
                                    k[x.index()] -= 1;
                                }
                            }
                            best_discard(&k, m + 1, &seen, None).map_or(8, |(_, sh)| sh)
                        }
                        _ => continue,
                    };
                    if after < best.0 {
                        best = (after, *a);
                    }
                }
                best.1
            }
            Some(Decision::RobKong { .. }) | None => Action::Pass,
        }
    }
}
