//! `dupmj rating --simulate`: players of known order — two copies of each bot level — are
//! rated as the site would rate them, to check that the rating finds their order and how
//! many hands it needs (docs/rating.md).

use agents::{agent::Agent, registry::builtin};
use rayon::prelude::*;
use table::deal::Deal;
use table::rules::TableRules;
use tournament::rating::{self, DealSeat, Holder};

/// Match points by seat when `levels[s]` plays seat `s` of deal `seed`.
pub(crate) fn play(seed: u64, levels: [&str; 4], salt: u64) -> [i32; 4] {
    let mut bots: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| {
        builtin(
            levels[s],
            seed ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ s as u64,
        )
        .expect("a built-in bot")
    });
    let (t, _) = agents::drive::play_table(Deal::generate(seed), TableRules::seeds(), &mut bots);
    t.result().map_or([0; 4], |r| r.points)
}

pub(crate) const LEVELS: [&str; 4] = ["random", "easy", "medium", "strong"];

/// How the simulated players meet the deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Design {
    /// As the site's challenges are played (`dupmj serve`'s defaults): each player alone at
    /// a table with three `strong` bots, the deals' seats staggered by the order in which
    /// the players sat down, compared at each deal-seat with its other holder and the par
    /// (the table of four `strong` bots).
    Challenge,
    /// As an online event's sessions: every deal at two tables, each with one copy of every
    /// level, compared with the other table's holder and the par (four `strong` bots).
    Event,
}

impl Design {
    fn says(self) -> &'static str {
        match self {
            Design::Challenge => {
                "challenges of 8 deals, each player alone with three strong bots; the par four strong bots"
            }
            Design::Event => {
                "sessions of 8 deals at two tables of one copy of each level; the par four strong bots"
            }
        }
    }
}

/// One deal of the simulation: each player's seat and points, and the par's points.
type Played = (Vec<(usize, i32)>, [i32; 4]);

/// What the simulation found.
pub struct Simulation {
    /// How the players met the deals.
    pub design: Design,
    /// Players (level, copy) with their final rating, uncertainty and hands.
    pub players: Vec<(&'static str, usize, f64, f64, usize)>,
    /// Kendall's tau-b of the final ratings against the levels' order.
    pub tau: f64,
    /// Whether every pair of copies of one level ends within two standard deviations of
    /// their difference.
    pub copies_agree: bool,
    /// For each level and the next one up: hands per player after which every copy of the
    /// upper stays above every copy of the lower at 95 % (None: not within the run).
    pub separated_after: Vec<(&'static str, &'static str, Option<usize>)>,
    /// Hands per player in all.
    pub hands: usize,
    /// The standard deviation of a holder's IMP at a deal-seat around what the final
    /// ratings predict (the model's noise, `rating::NOISE`).
    pub noise: f64,
}

impl Simulation {
    /// As JSON: the players, tau, the copies' check, each separation (`null`: not within
    /// the run) and the model's noise.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "design": format!("{:?}", self.design).to_lowercase(),
            "hands": self.hands,
            "players": self.players.iter().map(|(l, c, r, u, n)| serde_json::json!({
                "level": l, "copy": c, "rating": r, "uncertainty": u, "hands": n,
            })).collect::<Vec<_>>(),
            "tau": self.tau,
            "copies_agree": self.copies_agree,
            "separated": self.separated_after.iter().map(|(lo, hi, after)| serde_json::json!({
                "lower": lo, "upper": hi, "from_hands": after,
            })).collect::<Vec<_>>(),
            "noise": self.noise,
            "model_noise": rating::NOISE,
        })
    }

    /// As printed.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{} players × {} hands ({})\n",
            self.players.len(),
            self.hands,
            self.design.says()
        );
        for (l, c, r, u, n) in &self.players {
            out += &format!("{l:<8} #{c}  {r:>6.2} ± {u:.2}  ({n} rated hands)\n");
        }
        out += &format!(
            "Kendall's tau against random < easy < medium < strong: {:.3}\n",
            self.tau
        );
        out += &format!(
            "copies of one bot within 2σ of each other: {}\n",
            self.copies_agree
        );
        out += &format!(
            "IMP at a deal-seat around the model's prediction: sd {:.2} (the model takes {:.2})\n",
            self.noise,
            rating::NOISE
        );
        for (lo, hi, after) in &self.separated_after {
            out += &match after {
                Some(h) => format!("{hi} above {lo} at 95 % from {h} hands per player on\n"),
                None => format!(
                    "{hi} not separated from {lo} at 95 % within {} hands\n",
                    self.hands
                ),
            };
        }
        out
    }
}

/// Players of known order — two copies of each bot level — play `challenges` sessions of
/// 8 deals as `design` says; each session is rated as the site rates one.
pub fn simulate(design: Design, challenges: u64, seed: u64) -> Simulation {
    let players: Vec<(&'static str, usize)> =
        LEVELS.iter().flat_map(|&l| [(l, 0), (l, 1)]).collect();
    let deals: Vec<u64> = (0..challenges * 8).map(|i| seed + i).collect();
    // By deal: each player's seat and points, and the par's points.
    let played: Vec<Played> = deals
        .par_iter()
        .enumerate()
        .map(|(k, &d)| {
            let par = play(d, ["strong"; 4], 99);
            let mine = match design {
                Design::Challenge => alone(&players, k, d, seed),
                Design::Event => two_tables(&players, k, d),
            };
            (mine, par)
        })
        .collect();
    let seats_upto = |n: usize| -> Vec<DealSeat> {
        let mut out = Vec::new();
        for (k, (mine, par)) in played.iter().take(n).enumerate() {
            for (s, &par_points) in par.iter().enumerate() {
                let mut results = vec![(Holder::Bot("strong".into()), par_points)];
                for (p, &(seat, pts)) in mine.iter().enumerate() {
                    if seat == s {
                        results.push((Holder::Person(p as i64), pts));
                    }
                }
                out.push(DealSeat {
                    at: format!("{k:08}"),
                    key: format!("{k}/{s}"),
                    session: format!("{:08}", k / 8),
                    results,
                });
            }
        }
        out
    };
    // A challenge is one session of the rating, rated in order, one after another.
    let games = rating::sessions(&seats_upto(deals.len()));
    let level_of = |p: usize| LEVELS.iter().position(|l| *l == players[p].0).unwrap() as f64;
    let mut separated_after: Vec<(&'static str, &'static str, Option<usize>)> =
        LEVELS.windows(2).map(|w| (w[0], w[1], None)).collect();
    let mut state = rating::Ratings::new(false);
    for (c, g) in rating::in_order(&games).into_iter().enumerate() {
        state.session(g);
        let r = state.rated();
        let get = |level: &str| -> Vec<&rating::Rated> {
            (0..players.len())
                .filter(|&p| players[p].0 == level)
                .filter_map(|p| r.get(&Holder::Person(p as i64)))
                .collect()
        };
        for (lo, hi, after) in separated_after.iter_mut() {
            let (h, l) = (get(hi), get(lo));
            let apart = h.iter().all(|a| {
                l.iter().all(|b| {
                    a.rating - b.rating
                        > 1.96 * (a.uncertainty.powi(2) + b.uncertainty.powi(2)).sqrt()
                })
            });
            match (apart, *after) {
                (true, None) => *after = Some((c + 1) * 8),
                (false, Some(_)) => *after = None,
                _ => {}
            }
        }
    }
    let r = state.rated();
    let got: Vec<(&'static str, usize, f64, f64, usize)> = players
        .iter()
        .enumerate()
        .map(|(p, &(l, c))| {
            let x = &r[&Holder::Person(p as i64)];
            (l, c, x.rating, x.uncertainty, x.hands)
        })
        .collect();
    // How far each IMP strays from what the final skills predict: the model's noise.
    let skill = |h: &Holder| match h {
        Holder::Person(_) => (r[h].rating - rating::shown(0.0)) / rating::SCALE,
        Holder::Bot(l) => rating::skill_of(l),
    };
    let (mut sq, mut count) = (0.0, 0usize);
    for g in &games {
        for seat in &g.seats {
            let mean = seat.iter().map(|(h, _)| skill(h)).sum::<f64>() / seat.len() as f64;
            for (h, imp) in seat {
                sq += (*imp as f64 - (skill(h) - mean)).powi(2);
                count += 1;
            }
        }
    }
    let truth: Vec<f64> = (0..players.len()).map(level_of).collect();
    let ratings: Vec<f64> = got.iter().map(|g| g.2).collect();
    let copies_agree = got.chunks(2).all(|pair| {
        (pair[0].2 - pair[1].2).abs() < 2.0 * (pair[0].3.powi(2) + pair[1].3.powi(2)).sqrt()
    });
    Simulation {
        design,
        noise: (sq / count.max(1) as f64).sqrt(),
        tau: rating::kendall_tau(&truth, &ratings),
        copies_agree,
        separated_after,
        hands: got[0].4,
        players: got,
    }
}

/// Deal `k` (seed `d`) at each player's own table with three `strong` bots. In each
/// challenge the players sit down in a new order, and the n-th to sit down plays deal `i`
/// of it from wind `(i + n) mod 4` (a staggered challenge), so two players hold each
/// deal-seat and who shares one with whom changes from challenge to challenge.
fn alone(players: &[(&'static str, usize)], k: usize, d: u64, seed: u64) -> Vec<(usize, i32)> {
    let order = sitting_order(players.len(), seed ^ (k / 8) as u64);
    let mut mine = vec![(0, 0); players.len()];
    for (n, &p) in order.iter().enumerate() {
        let seat = (k % 8 + n) % 4;
        let mut levels = ["strong"; 4];
        levels[seat] = players[p].0;
        // Each table's bots draw their own chances, as tables on the site do.
        let points = play(d, levels, 7 + p as u64);
        mine[p] = (seat, points[seat]);
    }
    mine
}

/// The players in the order they sit down for one challenge: a shuffle drawn from `key`
/// (splitmix64, enough for a simulation's seating).
fn sitting_order(n: usize, key: u64) -> Vec<usize> {
    let mut state = key;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    order
}

/// Deal `k` (seed `d`) at two tables, each with one copy of every level: which copy sits
/// where, and which level shares a deal-seat with which at the other table, change from one
/// session to the next (identical bots at identical tables would just repeat each other's
/// hands).
fn two_tables(players: &[(&'static str, usize)], k: usize, d: u64) -> Vec<(usize, i32)> {
    let c = k / 8;
    let mut mine = vec![(0, 0); players.len()];
    for table in 0..2 {
        let offset = if table == 0 { 0 } else { 1 + c % 3 };
        let mut levels = [""; 4];
        let mut who = [0usize; 4];
        for (i, level) in LEVELS.iter().enumerate() {
            let copy = (i + c + table) % 2;
            let p = players.iter().position(|x| x == &(*level, copy)).unwrap();
            let seat = (i + k + offset) % 4;
            levels[seat] = level;
            who[seat] = p;
        }
        let points = play(d, levels, 7 + table as u64);
        for seat in 0..4 {
            mine[who[seat]] = (seat, points[seat]);
        }
    }
    mine
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_challenge_seats_every_player_once_in_an_order_of_its_own() {
        let orders: Vec<Vec<usize>> = (0..20).map(|c| sitting_order(8, 1 ^ c)).collect();
        for o in &orders {
            let mut sorted = o.clone();
            sorted.sort();
            assert_eq!(sorted, (0..8).collect::<Vec<_>>());
        }
        // Who shares a deal-seat with player 0 (the one 4 places away in the order) is
        // not always the same player.
        let partners: std::collections::BTreeSet<usize> = orders
            .iter()
            .map(|o| {
                let n = o.iter().position(|&p| p == 0).unwrap();
                o[(n + 4) % 8]
            })
            .collect();
        assert!(partners.len() >= 4, "{partners:?}");
    }
}
