//! `dupmj rating`: the duplicate rating rebuilt from a database and printed as the
//! leaderboard; `--anchors` measures the bots' fixed ratings; `--simulate` checks that the
//! rating finds a known order (docs/rating.md).

use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;
use tournament::rating::{self, DealSeat, Holder};

use crate::ratingsim::{play, simulate, Design, LEVELS};

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
    /// With `--simulate`: how the players meet (`event`: two tables of one copy of each
    /// level; `challenge`: each alone with three strong bots, as the site's challenges).
    #[arg(long, value_enum, default_value_t = Design::Event, requires = "simulate")]
    design: Design,
    /// First deal's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn rating(a: RatingArgs) -> Result<(), String> {
    if a.anchors {
        return anchors(a.deals, a.seed);
    }
    if a.simulate {
        let s = simulate(a.design, a.challenges, a.seed);
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
