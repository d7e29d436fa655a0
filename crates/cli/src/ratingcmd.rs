//! `dupmj rating`: the duplicate rating rebuilt from a database and printed as the
//! leaderboard; `--anchors` measures the bots' fixed ratings; `--simulate` checks that the
//! rating finds a known order (docs/rating.md).

use std::path::PathBuf;

use agents::{agent::Agent, registry::builtin};
use clap::Args;
use rayon::prelude::*;
use table::deal::Deal;
use table::rules::TableRules;
use tournament::rating::{self, DealSeat, Holder};

/// Arguments of `dupmj rating`.
#[derive(Args)]
pub struct RatingArgs {
    /// The database to rebuild the rating from.
    #[arg(long, default_value = "dupmj.sqlite")]
    db: PathBuf,
    /// Rated hands a player needs to be listed.
    #[arg(long, default_value_t = 1)]
    min_hands: usize,
    /// Recompute every rating from the stored hands and report where the kept ratings
    /// differ (`--write` then keeps the recomputed ones).
    #[arg(long)]
    rebuild: bool,
    /// With `--rebuild`: replace the kept ratings by the recomputed ones.
    #[arg(long, requires = "rebuild")]
    write: bool,
    /// Measure the bots' anchors instead: the four levels hold every seat of DEALS deals.
    #[arg(long)]
    anchors: bool,
    /// Check the rating on players of known order instead: K challenges of 8 deals.
    #[arg(long)]
    simulate: bool,
    /// Deals for `--anchors`.
    #[arg(long, default_value_t = 400)]
    deals: u64,
    /// With `--simulate`: the figures as JSON.
    #[arg(long, requires = "simulate")]
    json: bool,
    /// Challenges for `--simulate`.
    #[arg(long, default_value_t = 40)]
    challenges: u64,
    /// First deal's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn rating(a: RatingArgs) -> Result<(), String> {
    if a.anchors {
        return anchors(a.deals, a.seed);
    }
    if a.simulate {
        let s = simulate(a.challenges, a.seed);
        if a.json {
            println!("{}", s.json());
        } else {
            print!("{}", s.text());
        }
        return Ok(());
    }
    if !a.db.exists() {
        return Err(format!("--db: {} does not exist", a.db.display()));
    }
    let app = server::open(
        &store::Location::Sqlite(a.db.clone()),
        server::play::PlayConfig::default(),
    )?;
    if a.rebuild {
        return rebuild(&app, a.write);
    }
    let rated = server::play::history::catch_up(&app.hall).map_err(|e| e.to_string())?;
    if rated > 0 {
        println!("{rated} session(s) over but not rated yet: rated now");
    }
    let lines = server::play::history::leaderboard(&app.hall, a.min_hands, None)
        .map_err(|e| e.to_string())?;
    println!(
        "{:>4}  {:<24} {:>13} {:>6}",
        "#", "player", "rating", "hands"
    );
    let mut rank = 0;
    for l in lines {
        match l {
            server::play::history::Line::Player { name, rated, .. } => {
                rank += 1;
                let mark = if rated.provisional() {
                    " (provisional)"
                } else {
                    ""
                };
                println!(
                    "{rank:>4}  {name:<24} {:>6.1} ± {:<4.1} {:>6}{mark}",
                    rated.rating, rated.uncertainty, rated.hands
                );
            }
            server::play::history::Line::Bot { level, rating } => {
                println!("      {:<24} {rating:>6.1}", format!("bot ({level})"));
            }
        }
    }
    Ok(())
}

/// `--rebuild`: every rating recomputed from the stored hands, compared with the kept ones.
fn rebuild(app: &server::App, write: bool) -> Result<(), String> {
    let started = std::time::Instant::now();
    let r = server::play::history::rebuild(&app.hall).map_err(|e| e.to_string())?;
    println!(
        "rebuilt {} sessions ({} not rated before) for {} people in {:.1} s",
        r.sessions,
        r.unrated,
        r.people,
        started.elapsed().as_secs_f64()
    );
    if r.differences.is_empty() {
        println!("the kept ratings are the rebuilt ones");
        return Ok(());
    }
    println!(
        "{} difference(s) from the kept ratings:",
        r.differences.len()
    );
    for d in r.differences.iter().take(50) {
        println!("  {d}");
    }
    if r.differences.len() > 50 {
        println!("  … and {} more", r.differences.len() - 50);
    }
    if write {
        app.store
            .replace_ratings(&r.rows, &r.hands, &r.newly)
            .map_err(|e| e.to_string())?;
        println!("the kept ratings are replaced by the rebuilt ones");
    } else {
        println!("(--write keeps the rebuilt ones)");
    }
    Ok(())
}

/// Match points by seat when `levels[s]` plays seat `s` of deal `seed`.
fn play(seed: u64, levels: [&str; 4], salt: u64) -> [i32; 4] {
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

const LEVELS: [&str; 4] = ["random", "easy", "medium", "strong"];

/// The bots rated against each other, all free: each deal played at four tables with the
/// levels rotated, so that every level holds every seat once. Printed as skill (IMP per
/// hand), as skill above `medium`, and as the rating shown (`medium` is 25).
fn anchors(deals: u64, seed: u64) -> Result<(), String> {
    let seats: Vec<DealSeat> = (seed..seed + deals)
        .into_par_iter()
        .flat_map_iter(|d| {
            let tables: Vec<[i32; 4]> = (0..4)
                .map(|t| play(d, std::array::from_fn(|s| LEVELS[(s + t) % 4]), t as u64))
                .collect();
            (0..4).map(move |s| DealSeat {
                at: format!("{d:012}"),
                key: format!("{d}/{s}"),
                session: format!("{:012}", d / 8),
                results: (0..4)
                    .map(|t| (Holder::Bot(LEVELS[(s + t) % 4].into()), tables[t][s]))
                    .collect(),
            })
        })
        .collect();
    // Sessions of 8 deals, as a challenge's, every level rated freely.
    let state = rating::rate_state(&rating::sessions(&seats), true);
    let skill = |l: &str| &state.skills[&Holder::Bot(l.into())];
    let medium = skill("medium").mean;
    println!("{deals} deals × 4 tables, every level at every seat once");
    println!(
        "{:<8} {:>8} {:>8} {:>14} {:>8}",
        "level", "skill", "±", "vs medium", "rating"
    );
    for l in LEVELS {
        let x = skill(l);
        println!(
            "{l:<8} {:>8.3} {:>8.3} {:>14.3} {:>8.1}",
            x.mean,
            x.var.sqrt(),
            x.mean - medium,
            rating::shown(x.mean - medium)
        );
    }
    Ok(())
}

/// One deal of the simulation: each player's seat and points, and the par's points.
type Played = (Vec<(usize, i32)>, [i32; 4]);

/// What the simulation found.
pub struct Simulation {
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
            "{} players × {} hands (sessions of 8 deals at two tables of one copy of each level; the par four strong bots)\n",
            self.players.len(),
            self.hands
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
/// 8 deals, as an online event's: every deal at two tables, each with one copy of every
/// level (seats turning with the deal), compared at each deal-seat with the other table's
/// holder and the par (four `strong` bots).
pub fn simulate(challenges: u64, seed: u64) -> Simulation {
    let players: Vec<(&'static str, usize)> =
        LEVELS.iter().flat_map(|&l| [(l, 0), (l, 1)]).collect();
    let deals: Vec<u64> = (0..challenges * 8).map(|i| seed + i).collect();
    // By deal: each player's seat and points, and the par's points.
    let played: Vec<Played> = deals
        .par_iter()
        .enumerate()
        .map(|(k, &d)| {
            let par = play(d, ["strong"; 4], 99);
            // Two tables, each with one copy of every level: which copy sits where, and
            // which level shares a deal-seat with which at the other table, change from one
            // session to the next (identical bots at identical tables would just repeat
            // each other's hands).
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
        noise: (sq / count.max(1) as f64).sqrt(),
        tau: rating::kendall_tau(&truth, &ratings),
        copies_agree,
        separated_after,
        hands: got[0].4,
        players: got,
    }
}
