//! Seating movements (rules §6).
//!
//! Every movement has rounds of four hands. In a round the players form table groups of
//! four that stay together; group g plays deal `(g + h) mod 4` of the round at hand h, so
//! every group plays the round's four deals. Each player keeps one physical direction
//! for the round, and the wind of direction d on deal k is `d − k` (mod 4): at the table of
//! deal 1 East is the dealer, at deal 2 South, at deal 3 West, at deal 4 North, so a player's
//! wind runs E, N, W, S. Players with the same direction in a round therefore play the same
//! seat of all four deals and are compared with each other.
//!
//! - 16 players: the affine plane of order 4 (points GF(4)², 20 lines in 5 parallel
//!   classes). Round r takes its table groups from class r and its directions from class
//!   r + 1 (mod 5), so every two players share a table in exactly one round and a direction
//!   in exactly one round. With four groups the group of deal k sits at table k, and the
//!   groups move 1 → 2 → 3 → 4 (S3).
//! - Any multiple of 16: sections of 16 playing the same deals.
//! - Other multiples of 4 from 8: a seeded local search that minimises repeated
//!   table-mates and repeated direction-mates.

use mcr::Wind;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// Where a player sits for one hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    /// The player (1-based).
    pub player: u32,
    /// Their direction at the table (where they sit).
    pub direction: Wind,
    /// Their seat wind in this deal.
    pub wind: Wind,
}

/// One table in one hand: its deal and its four players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablePlay {
    /// The table (1-based).
    pub table: u32,
    /// The deal's label, `round-hand` (`2-3`).
    pub deal: String,
    /// The four players.
    pub seats: Vec<Seating>,
}

/// One hand of a round, at every table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandPlay {
    /// The hand within its round (1–4).
    pub hand: u32,
    /// Every table.
    pub tables: Vec<TablePlay>,
}

/// One round of four hands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round (1-based).
    pub round: u32,
    /// Its hands.
    pub hands: Vec<HandPlay>,
}

/// A whole event's seating: every round, hand and table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    /// Players seated.
    pub players: u32,
    /// How it was built: "affine plane", "sections of 16", "local search", "teams".
    pub method: String,
    /// The rounds.
    pub rounds: Vec<Round>,
}

impl Movement {
    /// Every deal of the movement, in play order (deal i of an event's deal set is the
    /// i-th of these).
    pub fn deal_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in self
            .rounds
            .iter()
            .flat_map(|r| &r.hands)
            .flat_map(|h| &h.tables)
        {
            if !out.contains(&t.deal) {
                out.push(t.deal.clone());
            }
        }
        out
    }
}

impl TablePlay {
    /// The players of the table by wind of the deal (E, S, W, N).
    pub fn players_by_wind(&self) -> [u32; 4] {
        let mut p = [0; 4];
        for s in &self.seats {
            p[s.wind.index()] = s.player;
        }
        p
    }
}

/// A round as groups of four players, each listed by direction (E, S, W, N).
pub type Groups = Vec<[u32; 4]>;

/// Lays out one round from its groups: hands, tables, deals, winds.
pub fn round_from_groups(round: u32, groups: &Groups, section_size: usize) -> Round {
    let hands = (0..4u32)
        .map(|h| {
            let mut tables: Vec<TablePlay> = groups
                .iter()
                .enumerate()
                .map(|(g, players)| {
                    let k = (g as u32 + h) % 4; // deal index within the round
                                                // Four groups to a section: the group of deal k sits at table k.
                    let table = if section_size == 4 {
                        (g / 4 * 4) as u32 + k + 1
                    } else {
                        g as u32 + 1
                    };
                    let seats = (0..4)
                        .map(|d| Seating {
                            player: players[d],
                            direction: Wind::from_index(d),
                            wind: Wind::from_index((d + 4 - k as usize) % 4),
                        })
                        .collect();
                    TablePlay {
                        table,
                        deal: format!("{}-{}", round, k + 1),
                        seats,
                    }
                })
                .collect();
            tables.sort_by_key(|t| t.table);
            HandPlay {
                hand: h + 1,
                tables,
            }
        })
        .collect();
    Round { round, hands }
}

// GF(4) = {0, 1, a, a + 1} with a² = a + 1; addition is XOR.
fn gf_mul(x: u32, y: u32) -> u32 {
    const LOG: [u32; 4] = [0, 0, 1, 2];
    const EXP: [u32; 3] = [1, 2, 3];
    if x == 0 || y == 0 {
        0
    } else {
        EXP[((LOG[x as usize] + LOG[y as usize]) % 3) as usize]
    }
}

/// The line of parallel class `class` (0..5) through point (x, y): slopes 0..4 are
/// `y = m·x + b` with b the line's index; class 4 is `x = c`.
fn line_of(class: u32, x: u32, y: u32) -> u32 {
    if class == 4 {
        x
    } else {
        y ^ gf_mul(class, x)
    }
}

/// The 16-player rounds as groups (player ids 1..=16 offset by `base`).
pub fn affine_plane_groups(base: u32) -> Vec<Groups> {
    (0..5)
        .map(|r| {
            let tables = r;
            let dirs = (r + 1) % 5;
            (0..4)
                .map(|line| {
                    let mut g = [0u32; 4];
                    for p in 0..16u32 {
                        let (x, y) = (p / 4, p % 4);
                        if line_of(tables, x, y) == line {
                            g[line_of(dirs, x, y) as usize] = base + p + 1;
                        }
                    }
                    g
                })
                .collect()
        })
        .collect()
}

/// Why a movement cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovementError(pub String);

impl std::fmt::Display for MovementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The largest field a movement is built for: far beyond any event's, small enough that a
/// mistyped number is an error instead of gigabytes.
pub const MAX_PLAYERS: u32 = 1024;

/// The most rounds a movement may have: far beyond any event (a round is four hands).
pub const MAX_ROUNDS: u32 = 64;

/// An individual movement for `players` (a multiple of 4, 8 to [`MAX_PLAYERS`]).
pub fn individual(players: u32, rounds: Option<u32>, seed: u64) -> Result<Movement, MovementError> {
    if players < 8 || !players.is_multiple_of(4) {
        return Err(MovementError(format!(
            "{players} players: a movement needs a multiple of 4, at least 8"
        )));
    }
    if players > MAX_PLAYERS {
        return Err(MovementError(format!(
            "{players} players: at most {MAX_PLAYERS} in one movement"
        )));
    }
    if rounds == Some(0) {
        return Err(MovementError(
            "0 rounds: a movement has at least 1 round".into(),
        ));
    }
    if let Some(r) = rounds.filter(|&r| r > MAX_ROUNDS) {
        return Err(MovementError(format!(
            "{r} rounds: at most {MAX_ROUNDS} in one movement"
        )));
    }
    if players.is_multiple_of(16) {
        let r = rounds.unwrap_or(5);
        if r > 5 {
            return Err(MovementError(format!(
                "{r} rounds: sections of 16 have 5 rounds at most"
            )));
        }
        let sections = players / 16;
        let per_section: Vec<Vec<Groups>> =
            (0..sections).map(|s| affine_plane_groups(16 * s)).collect();
        let rounds = (0..r as usize)
            .map(|ri| {
                let groups: Groups = per_section.iter().flat_map(|sec| sec[ri].clone()).collect();
                round_from_groups(ri as u32 + 1, &groups, 4)
            })
            .collect();
        let method = if sections == 1 {
            "affine plane"
        } else {
            "sections of 16 (affine plane)"
        };
        return Ok(Movement {
            players,
            method: method.into(),
            rounds,
        });
    }
    let r = rounds.unwrap_or(5).max(1);
    let groups = local_search(players as usize, r as usize, seed);
    let rounds = groups
        .iter()
        .enumerate()
        .map(|(i, g)| round_from_groups(i as u32 + 1, g, 0))
        .collect();
    Ok(Movement {
        players,
        method: format!("local search (seed {seed})"),
        rounds,
    })
}

/// Round-by-round search: each round starts from a random partition and improves it by
/// swapping players while the count of repeated meetings falls.
fn local_search(n: usize, rounds: usize, seed: u64) -> Vec<Groups> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut table_meets = vec![vec![0u32; n]; n];
    let mut dir_meets = vec![vec![0u32; n]; n];
    let mut out = Vec::new();
    let below =
        |rng: &mut ChaCha8Rng, k: usize| ((rng.next_u32() as u64 * k as u64) >> 32) as usize;
    for _ in 0..rounds {
        let mut best: Option<(u64, Vec<usize>)> = None;
        for _restart in 0..8 {
            // slots: position i = group i / 4, direction i % 4
            let mut slot: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                let j = below(&mut rng, i + 1);
                slot.swap(i, j);
            }
            // Cost of a pair of positions: repeated table-mates weigh ten times repeated
            // direction-mates; squares spread the repeats.
            let pair = |slot: &[usize], a: usize, b: usize| -> u64 {
                let (pa, pb) = (slot[a], slot[b]);
                let mut c = 0;
                if a / 4 == b / 4 {
                    c += 10 * (table_meets[pa][pb] as u64 + 1).pow(2);
                }
                if a % 4 == b % 4 {
                    c += (dir_meets[pa][pb] as u64 + 1).pow(2);
                }
                c
            };
            let around = |slot: &[usize], a: usize, b: usize| -> u64 {
                (0..n)
                    .filter(|&q| q != a)
                    .map(|q| pair(slot, a, q))
                    .sum::<u64>()
                    + (0..n)
                        .filter(|&q| q != b && q != a)
                        .map(|q| pair(slot, b, q))
                        .sum::<u64>()
            };
            let mut cur: u64 = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .map(|(a, b)| pair(&slot, a, b))
                .sum();
            let mut stale = 0;
            while stale < 300 {
                let (a, b) = (below(&mut rng, n), below(&mut rng, n));
                if a / 4 == b / 4 && a % 4 == b % 4 {
                    continue;
                }
                let before = around(&slot, a, b);
                slot.swap(a, b);
                let after = around(&slot, a, b);
                if after < before {
                    cur = cur - before + after;
                    stale = 0;
                } else {
                    slot.swap(a, b);
                    stale += 1;
                }
            }
            if best.as_ref().is_none_or(|(bc, _)| cur < *bc) {
                best = Some((cur, slot));
            }
        }
        let (_, slot) = best.expect("a restart ran");
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    if a / 4 == b / 4 {
                        table_meets[slot[a]][slot[b]] += 1;
                    }
                    if a % 4 == b % 4 {
                        dir_meets[slot[a]][slot[b]] += 1;
                    }
                }
            }
        }
        out.push(
            (0..n / 4)
                .map(|g| std::array::from_fn(|d| slot[g * 4 + d] as u32 + 1))
                .collect(),
        );
    }
    out
}

/// The team movement: teams of four in blocks of four teams at four tables; member m of
/// team i sits at table m of its block with direction `(i + m) mod 4` all round, so each
/// table holds one member of each team and each team plays every deal on all four winds
/// (a Latin square).
pub fn teams(teams: u32) -> Result<Movement, MovementError> {
    if teams == 0 || !teams.is_multiple_of(4) {
        return Err(MovementError(format!(
            "{teams} teams: the team movement needs a multiple of 4 teams"
        )));
    }
    if teams > MAX_PLAYERS / 4 {
        return Err(MovementError(format!(
            "{teams} teams: at most {} in one movement",
            MAX_PLAYERS / 4
        )));
    }
    let mut groups: Groups = Vec::new();
    for block in 0..teams / 4 {
        for m in 0..4u32 {
            let mut g = [0u32; 4];
            for i in 0..4u32 {
                let team = block * 4 + i;
                g[((i + m) % 4) as usize] = team * 4 + m + 1;
            }
            groups.push(g);
        }
    }
    Ok(Movement {
        players: teams * 4,
        method: "teams (Latin square)".into(),
        rounds: vec![round_from_groups(1, &groups, 4)],
    })
}
