//! Worlds drawn by Markov chains from the belief about the other hands. Importance
//! weights on uniform deals (the lab's `weigh`) leave a handful of worlds that count (3 or
//! 4 of 48 measured); a chain moves one world by swaps of hidden tiles, each kept by the
//! Metropolis rule on the same likelihood, so every world it gives counts alike.

use mcr::tile::Counts;
use mcr::{Meld, Wind};

use table::engine::{Hidden, SeenMeld, View};

use super::history::{History, WINDOWS};
use super::throws::{Throws, RANKS};
use super::{age, counts, near, tie, Readiness, AGES, SH, TIES};

/// The log of how much likelier a world's hands for the other seats are for strong's
/// seats than among raw worlds: by their distances from a route, with strength `alpha` by
/// how their discards stand to them, and for a ready hand, by what the order of the
/// discards says of it ([`History`]). Built from raw worlds (which only count).
struct Likelihood<'v> {
    view: &'v View<'v>,
    /// By seat: log ratio of each distance.
    near: [[f64; SH]; 4],
    /// By seat: log ratio of each (age, tie), times alpha.
    ties: [[[f64; TIES]; AGES]; 4],
    /// By seat: its turns as the order of the discards shows them.
    history: [History; 4],
    /// The log weight of a ready hand by the age of the first turn of its history that
    /// refutes it, and last, of one it allows (all 0: unused).
    passes: [f64; WINDOWS + 1],
    /// The log weight of a ready hand by its live winning tiles ([`live_bucket`]; all 0:
    /// unused).
    live: [f64; LIVE],
    /// Whether [`Self::passes`] and [`Self::live`] are read (not all 0).
    reads: (bool, bool),
    /// Tiles on the table for everyone to see (discards, open sets).
    public: Counts,
    rules: &'v mcr::Rules,
    /// The ranks of the seats' latest discards, where read ([`Chains::throws`]).
    throws: Option<Throws>,
}

/// Buckets of a ready hand's live winning tiles: 0, 1–2, 3–4, 5–6, 7 or more.
pub const LIVE: usize = 5;

/// The bucket of `n` live winning tiles.
pub fn live_bucket(n: u32) -> usize {
    (n as usize).div_ceil(2).min(LIVE - 1)
}

impl<'v> Likelihood<'v> {
    fn new(
        view: &'v View<'v>,
        raw: &[Hidden],
        how: Chains,
        rules: &'v mcr::Rules,
        known: Option<[usize; 4]>,
    ) -> Likelihood<'v> {
        let readiness = Readiness::measured();
        let alpha = how.alpha;
        let mut l = Likelihood {
            view,
            near: [[0.0; SH]; 4],
            ties: [[[0.0; TIES]; AGES]; 4],
            history: std::array::from_fn(|s| History::of(view, s)),
            passes: how.passes,
            live: how.live,
            reads: (
                how.passes.iter().any(|&p| p != 0.0),
                how.live.iter().any(|&p| p != 0.0),
            ),
            public: crate::strong::public_counts(view),
            rules,
            throws: (how.depth > 0).then(|| Throws::of(view, how.depth, how.throws, rules)),
        };
        for s in (0..4).filter(|&s| s != view.seat.index()) {
            let mut seen = [0.5f64; SH];
            let mut seen_ties = [[0.5f64; TIES]; AGES];
            for h in raw {
                let c = counts(&h.hands[s]);
                seen[near(&c, &sets(view, h, s), Wind::from_index(s), view.prevalent)] += 1.0;
                for (back, t) in view.discards[s].iter().rev().enumerate() {
                    seen_ties[age(back)][tie(&c, t.index())] += 1.0;
                }
            }
            let total: f64 = seen.iter().sum();
            let melds = view.melds[s].len().min(4);
            for (sh, x) in l.near[s].iter_mut().enumerate() {
                *x = match known {
                    // A diagnostic's oracle: each seat's true distance, all but certain.
                    Some(k) => {
                        if k[s] == sh {
                            0.0
                        } else {
                            -12.0
                        }
                    }
                    None => {
                        (readiness.share(view.wall_left[s], melds, sh) / (seen[sh] / total)).ln()
                    }
                };
            }
            for (a, (row, seen_row)) in l.ties[s].iter_mut().zip(&seen_ties).enumerate() {
                let total: f64 = seen_row.iter().sum();
                for (t, (x, n)) in row.iter_mut().zip(seen_row).enumerate() {
                    *x = alpha * (readiness.tie_share(a, t) / (n / total)).ln();
                }
            }
        }
        l
    }

    /// The log ratio for seat `s` holding `c` beside its `sets` (a swap never moves a
    /// concealed kong, so a chain works them out once).
    fn seat(&self, s: usize, c: &Counts, sets: &[Meld]) -> f64 {
        let seat = Wind::from_index(s);
        let d = near(c, sets, seat, self.view.prevalent);
        let mut x = self.near[s][d];
        for (back, t) in self.view.discards[s].iter().rev().enumerate() {
            x += self.ties[s][age(back)][tie(c, t.index())];
        }
        let (passes, live) = self.reads;
        if d == 0 && (passes || live) {
            let flowers = self.view.bonus[s].len() as u8;
            let waits =
                crate::strong::waits_at(seat, self.view.prevalent, flowers, c, sets, self.rules);
            if passes {
                x += self.passes[self.history[s].refutes(&waits).unwrap_or(WINDOWS)];
            }
            if live {
                x += self.live[live_bucket(live_waits(&waits, c, &self.public))];
            }
        }
        x
    }
}

/// A seat's sets in a world: the open ones, and its concealed kongs as sampled.
pub fn sets(view: &View, h: &Hidden, s: usize) -> Vec<Meld> {
    let mut kongs = h.kongs[s].iter();
    view.melds[s]
        .iter()
        .filter_map(|m| match m {
            SeenMeld::Open(m) => Some(*m),
            SeenMeld::HiddenKong => kongs.next().map(|&t| Meld::concealed_kong(t)),
        })
        .collect()
}

/// How the worlds' Markov chains run ([`settle`]).
#[derive(Clone, Copy, Debug)]
pub struct Chains {
    /// Chains, each started from a raw world of its own.
    pub chains: usize,
    /// Swaps proposed before a chain's first world is taken.
    pub burn: usize,
    /// Swaps proposed between two worlds taken from one chain.
    pub thin: usize,
    /// Strength of the discards' evidence (see `Likelihood`).
    pub alpha: f64,
    /// The log weight of a world's ready hand by what the order of the discards says of
    /// it: by the age of the first turn that refutes it (a win it let pass, or its own
    /// discard that would have completed it), and last, when none does; all 0 leaves the
    /// order unread.
    pub passes: [f64; WINDOWS + 1],
    /// The log weight of a world's ready hand by how many of its winning tiles are live as
    /// its seat sees them ([`LIVE`] buckets): strong keeps the ready hand that waits on
    /// the most; all 0 leaves it unread.
    pub live: [f64; LIVE],
    /// The log weight of a world's hand by the rank of each of its seat's latest
    /// discards (by age, then rank: see [`super::Throws`]), read in a second stage of
    /// each swap the first stage keeps (delayed acceptance: the ranks cost far more).
    pub throws: [[f64; RANKS]; super::AGES],
    /// How many of each seat's latest discards are ranked (0: none, the ranks unread).
    pub depth: usize,
}

/// How many winning tiles (of a win worth the minimum, drawn or claimed) a hand holding
/// `c` can still win on, as its seat sees them: four a kind, less its own and the
/// `public` ones.
pub fn live_waits(waits: &[mcr::Wait], c: &Counts, public: &Counts) -> u32 {
    waits
        .iter()
        .filter(|w| w.discard_ok || w.self_drawn_ok)
        .map(|w| {
            let i = w.tile.index();
            u32::from(4u8.saturating_sub(c[i] + public[i]))
        })
        .sum()
}

/// Where a hidden tile lies in a world.
#[derive(Clone, Copy)]
enum Place {
    /// Another seat's hand, at this position.
    Hand(usize, usize),
    /// A personal wall, at this position.
    Wall(usize, usize),
}

/// Worlds drawn from the same belief as the lab's importance weights, by Markov chains instead of weights:
/// a chain starts from a raw world and moves by proposed swaps of two hidden tiles (one in
/// another seat's hand, the other in another hand or a wall), each kept by the Metropolis
/// rule on the likelihood of the belief; `n` worlds are taken from the chains. The uniform deal is
/// unchanged by a swap chosen this way, so the worlds follow the belief; they weigh alike
/// and stay many and distinct where weights leave a handful (3 to 4 of 48). Each world
/// taken has its walls dealt afresh (`redeal_walls`), so that only the hands carry over
/// from one world of a chain to the next.
pub fn settle(
    view: &View,
    raw: Vec<Hidden>,
    n: usize,
    how: Chains,
    rules: &mcr::Rules,
    rng: &mut impl rand_core::Rng,
) -> Vec<(Hidden, f64)> {
    settle_knowing(view, raw, n, how, rules, rng, None)
}

/// [`settle`], with each other seat's distance from a route given (`known`, by seat) in
/// place of the belief's: for a diagnostic of what knowing them is worth.
pub fn settle_knowing(
    view: &View,
    raw: Vec<Hidden>,
    n: usize,
    how: Chains,
    rules: &mcr::Rules,
    rng: &mut impl rand_core::Rng,
    known: Option<[usize; 4]>,
) -> Vec<(Hidden, f64)> {
    let like = Likelihood::new(view, &raw, how, rules, known);
    let me = view.seat.index();
    let others: Vec<usize> = (0..4).filter(|&s| s != me).collect();
    let per_chain = n.div_ceil(how.chains.max(1));
    let mut out = Vec::with_capacity(n);
    for mut h in raw.into_iter().take(how.chains.max(1)) {
        let mut c: [Counts; 4] = std::array::from_fn(|s| counts(&h.hands[s]));
        let melds: [Vec<Meld>; 4] = std::array::from_fn(|s| sets(view, &h, s));
        let mut score: [f64; 4] = std::array::from_fn(|s| {
            if s == me {
                0.0
            } else {
                like.seat(s, &c[s], &melds[s])
            }
        });
        let extra = |s: usize, c: &Counts, m: &[Meld]| match &like.throws {
            Some(t) if s != me => t.weight(s, c, m),
            _ => 0.0,
        };
        let mut second: [f64; 4] = std::array::from_fn(|s| extra(s, &c[s], &melds[s]));
        let in_hands: usize = others.iter().map(|&s| h.hands[s].len()).sum();
        let in_walls: usize = h.walls.iter().map(Vec::len).sum();
        let mut below = below(&mut *rng);
        for taken in 0..per_chain {
            let steps = if taken == 0 { how.burn } else { how.thin };
            for _ in 0..if in_hands == 0 { 0 } else { steps } {
                // A tile in a hand, then a place elsewhere: another seat's hand or a wall.
                let mut a = below(in_hands);
                let mut pa = None;
                for &s in &others {
                    if a < h.hands[s].len() {
                        pa = Some((s, a));
                        break;
                    }
                    a -= h.hands[s].len();
                }
                let Some((sa, a)) = pa else { continue };
                let mut b = below(in_hands - h.hands[sa].len() + in_walls);
                let mut pb = None;
                for &s in others.iter().filter(|&&s| s != sa) {
                    if b < h.hands[s].len() {
                        pb = Some(Place::Hand(s, b));
                        break;
                    }
                    b -= h.hands[s].len();
                }
                if pb.is_none() {
                    for (w, wall) in h.walls.iter().enumerate() {
                        if b < wall.len() {
                            pb = Some(Place::Wall(w, b));
                            break;
                        }
                        b -= wall.len();
                    }
                }
                let Some(pb) = pb else { continue };
                let ta = h.hands[sa][a];
                let tb = match pb {
                    Place::Hand(s, i) => h.hands[s][i],
                    Place::Wall(w, i) => h.walls[w][i],
                };
                if ta == tb {
                    continue;
                }
                let mut ca = c[sa];
                ca[ta.index()] -= 1;
                ca[tb.index()] += 1;
                let new_a = like.seat(sa, &ca, &melds[sa]);
                let (mut delta, mut cb, mut new_b) = (new_a - score[sa], c[0], 0.0);
                if let Place::Hand(s, _) = pb {
                    cb = c[s];
                    cb[tb.index()] -= 1;
                    cb[ta.index()] += 1;
                    new_b = like.seat(s, &cb, &melds[s]);
                    delta += new_b - score[s];
                }
                if delta >= 0.0 || rng_unit(&mut below).ln() < delta {
                    let (mut x_a, mut x_b) = (second[sa], 0.0);
                    if like.throws.is_some() {
                        x_a = extra(sa, &ca, &melds[sa]);
                        let mut d2 = x_a - second[sa];
                        if let Place::Hand(s, _) = pb {
                            x_b = extra(s, &cb, &melds[s]);
                            d2 += x_b - second[s];
                        }
                        if d2 < 0.0 && rng_unit(&mut below).ln() >= d2 {
                            continue;
                        }
                    }
                    h.hands[sa][a] = tb;
                    c[sa] = ca;
                    score[sa] = new_a;
                    second[sa] = x_a;
                    match pb {
                        Place::Hand(s, i) => {
                            h.hands[s][i] = ta;
                            c[s] = cb;
                            score[s] = new_b;
                            second[s] = x_b;
                        }
                        Place::Wall(w, i) => h.walls[w][i] = ta,
                    }
                }
            }
            if out.len() < n {
                redeal_walls(&mut h, &mut below);
                out.push((h.clone(), 1.0));
            }
        }
    }
    out
}

/// Deals the tiles of `h`'s walls again at random over the same places, and its undrawn
/// bonus tiles to new places in the row. The belief reads only the hands, so this keeps
/// a chain on the belief. Without it a chain's worlds kept about three quarters of their
/// wall tiles in place from one to the next (a swap moves one), so the luck of the
/// draws, most of a playout's spread, was shared among them, and the search's standard
/// errors came out too small (a design effect of 1.19 at 4 worlds a chain, about 1.8 at
/// the default's 13; 1.03 at 4 since).
fn redeal_walls(h: &mut Hidden, below: &mut impl FnMut(usize) -> usize) {
    let mut tiles: Vec<mcr::Tile> = h.walls.iter().flatten().copied().collect();
    shuffle(&mut tiles, below);
    for (place, tile) in h.walls.iter_mut().flatten().zip(tiles) {
        *place = tile;
    }
    let row = h.walls[0].len() + h.bonus.len();
    place_bonus(&mut h.bonus, row, below);
}

/// Uniform integers below a bound (0 for a bound of 0) drawn from `rng`: the source the
/// shuffles, the bonus places and the chains' swaps take.
pub fn below<R: rand_core::Rng>(rng: &mut R) -> impl FnMut(usize) -> usize + '_ {
    move |k| (rng.next_u64() % k.max(1) as u64) as usize
}

/// Shuffles `items` in place (Fisher–Yates; `below(k)` is a uniform integer below `k`).
pub fn shuffle<T>(items: &mut [T], below: &mut impl FnMut(usize) -> usize) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(i + 1));
    }
}

/// Gives the bonus tiles of `bonus` distinct places drawn at random in an undrawn row of
/// `row` places (bonus tiles and playing tiles alike).
pub fn place_bonus(
    bonus: &mut [(usize, table::wall::Bonus)],
    row: usize,
    below: &mut impl FnMut(usize) -> usize,
) {
    let mut places: Vec<usize> = (0..row).collect();
    for (i, b) in bonus.iter_mut().enumerate() {
        places.swap(i, i + below(row - i));
        b.0 = places[i];
    }
}

/// A uniform number in (0, 1] from a source of integers below a bound.
fn rng_unit(below: &mut impl FnMut(usize) -> usize) -> f64 {
    (below(1 << 30) as f64 + 1.0) / (1u64 << 30) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::strong_until_east_turn;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    use table::rules::TableRules;

    /// A ready hand's live winning tiles: four a kind, less its own copies and the public
    /// ones, over the tiles it can win on with the minimum; bucketed two by two.
    #[test]
    fn live_winning_tiles_are_counted_as_the_ready_seat_sees_them() {
        let rules = TableRules::seeds().scoring;
        let c = counts(&mcr::parse_tiles("123456789m1235p").unwrap());
        let waits = crate::strong::waits_at(Wind::South, Wind::East, 0, &c, &[], &rules);
        // Pure Straight with 5p (16 points): the only win worth 8.
        let mut public = [0u8; mcr::tile::KINDS];
        assert_eq!(live_waits(&waits, &c, &public), 3, "one 5p held");
        public[mcr::parse_tiles("5p").unwrap()[0].index()] = 2;
        assert_eq!(live_waits(&waits, &c, &public), 1, "two more on the table");
        public[mcr::parse_tiles("5p").unwrap()[0].index()] = 3;
        assert_eq!(live_waits(&waits, &c, &public), 0, "dead");
        let buckets: Vec<usize> = [0, 1, 2, 3, 4, 5, 6, 7, 12].map(live_bucket).to_vec();
        assert_eq!(buckets, [0, 1, 1, 2, 2, 3, 3, 4, 4]);
    }

    /// The worlds one chain gives share its hands' slow drift, not their walls: from one
    /// world to the next, a wall place holds the same tile about as often as between
    /// independent deals (before each world's walls were dealt again, 1,130 of these 1,541
    /// places kept their tile; since, 40). On a shared wall the bonus tiles move too, and
    /// every world still rebuilds a table.
    #[test]
    fn a_chains_worlds_draw_their_walls_afresh() {
        for (rules, seed, least) in [
            (TableRules::seeds(), 401, 23 * 60),
            (TableRules::regular(), 303, 23 * 40),
        ] {
            let t = strong_until_east_turn(&rules, seed, 5).expect("a decision");
            let view = t.view(Wind::East);
            let expert = crate::expert::ExpertBot::new(rules.clone(), 1, 8);
            let how = Chains {
                chains: 1,
                passes: [0.0; WINDOWS + 1],
                ..crate::expert::CHAINS
            };
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            let raw = expert.samples(&view, 4);
            let worlds = settle(&view, raw, 24, how, &rules.scoring, &mut rng);
            assert_eq!(worlds.len(), 24);
            let (mut kept, mut places, mut bonus_moved) = (0, 0, 0);
            for p in worlds.windows(2) {
                let (x, y) = (&p[0].0, &p[1].0);
                let pairs = x.walls.iter().flatten().zip(y.walls.iter().flatten());
                for (a, b) in pairs {
                    kept += usize::from(a == b);
                    places += 1;
                }
                bonus_moved += usize::from(x.bonus != y.bonus);
            }
            assert!(places > least, "{places} wall places");
            assert!(
                kept * 10 < places,
                "{kept} of {places} wall places keep their tile"
            );
            for (h, _) in &worlds {
                assert!(table::engine::Table::from_view(&view, rules.clone(), h).is_ok());
            }
            if rules.wall == table::wall::WallModel::Shared {
                assert!(!worlds[0].0.bonus.is_empty(), "bonus tiles left to draw");
                assert!(
                    bonus_moved > 20,
                    "the bonus tiles moved {bonus_moved} times of 23"
                );
            }
        }
    }

    /// The chains keep every world a deal of the same hidden tiles (no tile made or lost,
    /// every hand and wall its size) and move the other hands the way strong's hands are:
    /// nearer to ready than the raw worlds, and further from the tiles they threw.
    #[test]
    fn chains_keep_the_tiles_and_move_towards_strongs_hands() {
        let rules = TableRules::seeds();
        let (mut raw_near, mut chain_near, mut raw_ties, mut chain_ties) = (0, 0, 0, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for seed in 0..6u64 {
            let Some(t) = strong_until_east_turn(&TableRules::seeds(), 400 + seed, 7) else {
                continue;
            };
            let view = t.view(Wind::East);
            let expert = crate::expert::ExpertBot::new(rules.clone(), seed, 8);
            let raw = expert.samples(&view, 96);
            let how = Chains {
                chains: 4,
                burn: 300,
                passes: [0.0; WINDOWS + 1],
                ..crate::expert::CHAINS
            };
            let worlds = settle(&view, raw.clone(), 24, how, &rules.scoring, &mut rng);
            assert_eq!(worlds.len(), 24);
            let tiles = |h: &Hidden| {
                let mut c = [0u32; mcr::tile::KINDS];
                for x in h.hands.iter().chain(&h.walls).chain(&h.kongs).flatten() {
                    c[x.index()] += 1;
                }
                c
            };
            let sizes = |h: &Hidden| h.hands.clone().map(|x| x.len());
            let measure = |h: &Hidden| {
                let mut near_sum = 0;
                let mut tie_sum = 0;
                for s in 1..4 {
                    let c = counts(&h.hands[s]);
                    near_sum += near(&c, &sets(&view, h, s), Wind::from_index(s), view.prevalent);
                    tie_sum += view.discards[s]
                        .iter()
                        .map(|x| tie(&c, x.index()))
                        .sum::<usize>();
                }
                (near_sum, tie_sum)
            };
            for (h, w) in &worlds {
                assert_eq!(*w, 1.0);
                assert_eq!(tiles(h), tiles(&raw[0]), "seed {seed}: the same tiles");
                assert_eq!(sizes(h), sizes(&raw[0]), "seed {seed}: the same sizes");
                let (n, k) = measure(h);
                chain_near += n;
                chain_ties += k;
            }
            for h in &raw[..24] {
                let (n, k) = measure(h);
                raw_near += n;
                raw_ties += k;
            }
        }
        assert!(raw_near > 0, "no decision reached");
        assert!(
            (chain_near as f64) < 0.85 * raw_near as f64,
            "distances: chains {chain_near}, raw {raw_near}"
        );
        assert!(
            (chain_ties as f64) < 0.85 * raw_ties as f64,
            "ties: chains {chain_ties}, raw {raw_ties}"
        );
    }
}
