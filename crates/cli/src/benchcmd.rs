//! `dupmj bench`: hands per second of the engine with built-in bots, and answer times of
//! online play under load.
//!
//! Longer than most files: every bench's flags in one `clap` enum with their dispatch;
//! a new bench brings its flags and its run in a module of its own (as `botbench`).

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use clap::Subcommand;
use table::wall::Setup;
use table::TableRules;

use crate::output::emit;
use crate::tablecmd::{lineup, rules_for, GameKind};

#[derive(Subcommand)]
pub enum BenchCmd {
    /// Hands per second with built-in bots on one core.
    Play {
        /// Seconds to run each bot lineup.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// duplicate hands (personal walls) or regular hands (one shared wall, bonus
        /// tiles); both, in turns, when not given.
        #[arg(long, value_enum)]
        game: Option<GameKind>,
        /// Built-in bots to time, each playing all four seats.
        #[arg(long, default_value = "random,greedy")]
        bots: String,
    },
    /// Online play on one core: tables of four bots, each watched by one WebSocket client
    /// that pings the server; prints answer times (ping to pong) per number of tables. With
    /// --db, on node processes sharing PostgreSQL, with the CPU time of each side.
    Serve {
        /// Numbers of concurrent tables to measure, in turn.
        #[arg(long, default_value = "10,50,100,200,400")]
        tables: String,
        /// Seconds to measure each number of tables (after one second of warm-up).
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// The bot at every seat.
        #[arg(long, default_value = "strong")]
        bots: String,
        /// Milliseconds between a bot's turns, as `serve --bot-pace-ms` (`--pace-ms` is an
        /// older spelling).
        #[arg(long = "bot-pace-ms", alias = "pace-ms", default_value_t = 700)]
        pace_ms: u64,
        /// Milliseconds between a client's pings.
        #[arg(long, default_value_t = 250)]
        ping_ms: u64,
        /// Serve from `dupmj serve` processes on PostgreSQL instead: a server URL
        /// (postgres://user@host:port/dbname) on which a fresh database is made for each
        /// number of tables.
        #[arg(long, value_parser = parse_postgres)]
        db: Option<String>,
        /// With --db: how many nodes serve (each table's watcher goes to one in turn).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8))]
        nodes: u64,
        /// Reviewer threads kept busy on a backlog of hands meanwhile, in the same process
        /// (as `serve --review-threads`), to compare with none.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=64))]
        review_threads: u64,
        /// Their budget a decision, as `serve --review-ms`.
        #[arg(long, value_name = "MS", default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
        review_ms: u32,
    },
    /// Outside bots on one core, as `dupmj connect` plays: `--connected` bot accounts each
    /// at a table with three built-in bots answering every decision at once, while
    /// `--queued` more wait in the quick-match queue asking every second; prints each
    /// move's latency (the answer sent to the table's next message) and the queue's answers.
    Bots(crate::botbench::BotsArgs),
    /// The reviewers on one node: hands kept at a steady rate (each with one person) and
    /// reviewed by `--threads` at `--review-ms`, how long a hand waits for its review
    /// (median and 95th percentile); then the time to serve a reviewed hand's review and
    /// its field when `--holders` people held the same deal-seat.
    Reviews {
        /// Hands kept an hour.
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        per_hour: u32,
        /// Minutes of arrivals (the run lasts up to twice as long).
        #[arg(long, default_value_t = 10.0)]
        minutes: f64,
        /// Reviewer threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
        /// Budget a decision, as `serve --review-ms`.
        #[arg(long, value_name = "MS", default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
        review_ms: u32,
        /// Holders of the deal-seat whose field is served.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=2000))]
        holders: u64,
        /// Requests of each page timed.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        runs: u64,
    },
    /// Time per decision of one bot on one core: the bot at East, `strong` at the other
    /// seats, every decision of East timed; prints the median, 90th percentile and worst.
    Think {
        /// The built-in bot to time (one name).
        #[arg(long = "bots", default_value = "expert")]
        bot: String,
        /// Deals to play (duplicate rules).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        deals: u64,
        /// Seed of the first deal.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Milliseconds per decision for a bot that searches (`expert`): its playouts in
        /// proportion to the default's (768 playouts for 200 ms: a median 175 ms on one core here).
        #[arg(long, value_name = "MS", default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
        think_ms: u32,
    },
    /// Hands per second of the fan calculator on one core over a corpus of hand lines (as
    /// `crates/mcr/benches/corpus.txt`; median of the runs), and the sum of the points, to
    /// set beside the reference calculator's on the same corpus (tools/bench_reference.sh).
    /// It times the fans and their total (`mcr::fan_table`), what the reference returns;
    /// `--reading` times the full scoring with the reading (`mcr::score`).
    Fans {
        /// The corpus: one `hand | flags` line per hand.
        corpus: std::path::PathBuf,
        /// Fan profile: seeds or reference (the reference calculator's readings).
        #[arg(long = "fans", value_name = "PROFILE", default_value = "reference", value_parser = crate::fancmd::parse_rules)]
        rules: mcr::Rules,
        /// Times the corpus is scored.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
        runs: u64,
        /// Time the full scoring, the reading included (it allocates the result's lists).
        #[arg(long)]
        reading: bool,
    },
    /// Several nodes on one PostgreSQL database: people and bots at many tables through two
    /// `dupmj serve` processes, one killed (SIGKILL) mid-hand and restarted, then the
    /// other; prints the takeover times and every move acknowledged against the journals.
    Failover {
        /// The PostgreSQL database the nodes share (postgres://…); its tables are created.
        #[arg(long, env = "DUPMJ_DB", value_parser = parse_postgres)]
        db: String,
        /// Tables played at once (two people and two bots each).
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=500))]
        tables: u64,
        /// Nodes killed, in turn.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10))]
        kills: u64,
        /// Seconds of play before each kill and after the last restart.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(5..=600))]
        play_s: u64,
        /// Seconds a killed node stays down before it is started again.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
        down_s: u64,
        /// Milliseconds between a bot's turns.
        #[arg(long, default_value_t = 200)]
        bot_pace_ms: u64,
    },
    /// The kept duplicate rating at scale: generates a history of HANDS stored hands of
    /// PLAYERS players into a new database, rates it, then times the update after one
    /// finished session, a profile page and the leaderboard page (median and 99th
    /// percentile) and the full rebuild (`dupmj rating --rebuild`).
    Rating {
        /// Stored hands to generate (four per table).
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(40..=10_000_000))]
        hands: u64,
        /// Players (accounts).
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
        players: u64,
        /// Deals of the common pool that half the tables play (each held by many).
        #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        pool: u64,
        /// Timed repetitions of the update and of each page.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        samples: u64,
        /// The database to make: a SQLite file that must not exist yet (default: a
        /// temporary one, removed after), or a PostgreSQL URL whose database is empty.
        #[arg(long)]
        db: Option<String>,
        /// Also rebuild with every earlier holder in each deal-seat's field (as before the
        /// field was bounded at 32), and compare how well each orders the players.
        #[arg(long)]
        unbounded: bool,
    },
}

/// `dupmj bench rating`.
fn rating_bench(
    hands: u64,
    players: u64,
    pool: u64,
    samples: u64,
    db: Option<String>,
    unbounded: bool,
) -> Result<(), String> {
    let temp =
        std::env::temp_dir().join(format!("dupmj-bench-rating-{}.sqlite", std::process::id()));
    let (location, remove) = match db.as_deref().map(store::Location::parse) {
        Some(store::Location::Sqlite(p)) => {
            if p.exists() {
                return Err(format!("--db: {} exists; give a new file", p.display()));
            }
            (store::Location::Sqlite(p), None)
        }
        Some(pg) => (pg, None),
        None => (store::Location::Sqlite(temp.clone()), Some(temp)),
    };
    let app = server::open(&location, server::play::PlayConfig::default())?;
    let plan = bench::rating::Plan {
        hands: hands as usize,
        players: players as usize,
        pool: pool as usize,
        samples: samples as usize,
        seed: 1,
        unbounded,
    };
    println!("{hands} hands, {players} players, a pool of {pool} deals, on {location}");
    let m = bench::rating::run(&app, &plan, &|s| eprintln!("{s}"));
    if let Some(t) = remove {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", t.display()));
        }
    }
    let m = m?;
    println!(
        "stored: {} hands, {} people rated; generated in {:.1} s, every session rated in {:.1} s",
        m.stored_hands, m.rated_people, m.generate_s, m.rate_all_s
    );
    println!(
        "update after one finished session: median {:.2} ms, p99 {:.2} ms",
        m.update_ms.0, m.update_ms.1
    );
    println!(
        "profile page: median {:.2} ms, p99 {:.2} ms",
        m.profile_ms.0, m.profile_ms.1
    );
    println!(
        "leaderboard page: median {:.2} ms, p99 {:.2} ms",
        m.board_ms.0, m.board_ms.1
    );
    println!(
        "full rebuild: {:.1} s, {} difference(s) from the kept ratings",
        m.rebuild_s, m.differences
    );
    println!(
        "Kendall's tau of the ratings against the players' generated skills: {:.3}",
        m.tau
    );
    if let Some((secs, tau)) = m.unbounded {
        println!(
            "with every holder in the field instead of the newest {}: rebuild {secs:.1} s, tau {tau:.3}",
            tournament::rating::FIELD
        );
    }
    Ok(())
}

/// `--db` of the cluster benchmarks: a PostgreSQL URL.
fn parse_postgres(s: &str) -> Result<String, String> {
    match store::Location::parse(s) {
        store::Location::Postgres(url) => Ok(url),
        store::Location::Sqlite(_) => Err(format!(
            "'{s}' is not a PostgreSQL URL (postgres://user@host:port/dbname): several nodes share PostgreSQL"
        )),
    }
}

pub fn bench(cmd: BenchCmd) -> Result<(), String> {
    match cmd {
        BenchCmd::Failover {
            db,
            tables,
            kills,
            play_s,
            down_s,
            bot_pace_ms,
        } => failover(
            &db,
            &bench::failover::Options {
                tables: tables as usize,
                kills: kills as usize,
                play_s,
                down_s,
                pace_ms: bot_pace_ms,
            },
        ),
        BenchCmd::Bots(a) => crate::botbench::bots(a),
        BenchCmd::Serve {
            tables,
            seconds,
            bots,
            pace_ms,
            ping_ms,
            db,
            nodes,
            review_threads,
            review_ms,
        } => {
            crate::limits::seconds(seconds, "--seconds")?;
            if !server::play::spec::BOT_LEVELS.contains(&bots.as_str()) {
                return Err(format!(
                    "--bots: '{bots}' cannot sit at an online table (choose {})",
                    server::play::spec::BOT_LEVELS.join(", ")
                ));
            }
            let counts: Vec<usize> = tables
                .split(',')
                .map(|t| match t.trim().parse::<usize>() {
                    Ok(n) if (1..=5000).contains(&n) => Ok(n),
                    _ => Err(format!(
                        "--tables: '{t}' is not a number of tables from 1 to 5000"
                    )),
                })
                .collect::<Result<_, _>>()?;
            if ping_ms == 0 {
                return Err("--ping-ms: must be more than 0".into());
            }
            if let Some(db) = db {
                return bench_nodes(
                    &db,
                    nodes as usize,
                    &counts,
                    seconds,
                    &bots,
                    std::time::Duration::from_millis(pace_ms),
                    std::time::Duration::from_millis(ping_ms),
                );
            }
            println!("tables  pings   p50 ms   p99 ms   max ms  states/s  moves/s");
            bench::run(
                &counts,
                seconds,
                &bots,
                std::time::Duration::from_millis(pace_ms),
                std::time::Duration::from_millis(ping_ms),
                (review_threads > 0).then_some((review_threads as usize, review_ms)),
                |p| {
                    println!(
                        "{:>6} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>9.0} {:>8.0}",
                        p.tables,
                        p.pings,
                        p.p50_ms,
                        p.p99_ms,
                        p.max_ms,
                        p.states_per_s,
                        p.moves_per_s
                    )
                },
            )?;
            Ok(())
        }
        BenchCmd::Reviews {
            per_hour,
            minutes,
            threads,
            review_ms,
            holders,
            runs,
        } => {
            if !(minutes > 0.0 && minutes <= 600.0) {
                return Err(format!(
                    "--minutes: {minutes} is not a number of minutes from more than 0 to 600"
                ));
            }
            let q = bench::reviews::queue(per_hour, minutes, threads as usize, review_ms)?;
            println!(
                "{} hands kept at {per_hour} an hour over {minutes} min, {threads} reviewer(s) at {review_ms} ms: {} reviewed, {:.1} s a review on average",
                q.kept, q.reviewed, q.review_mean_s
            );
            println!(
                "kept to taken: p50 {:.1} s, p95 {:.1} s; kept to reviewed: p50 {:.1} s, p95 {:.1} s",
                q.wait_p50_s, q.wait_p95_s, q.done_p50_s, q.done_p95_s
            );
            let p = bench::reviews::pages(holders as usize, runs as usize, review_ms)?;
            println!(
                "{} holders: review.json p50 {:.2} ms (max {:.2}); field.json p50 {:.2} ms (max {:.2}), {} bytes",
                p.holders,
                p.review_p50_ms,
                p.review_max_ms,
                p.field_p50_ms,
                p.field_max_ms,
                p.field_bytes
            );
            Ok(())
        }
        BenchCmd::Rating {
            hands,
            players,
            pool,
            samples,
            db,
            unbounded,
        } => rating_bench(hands, players, pool, samples, db, unbounded),
        BenchCmd::Fans {
            corpus,
            rules,
            runs,
            reading,
        } => fans(&corpus, &rules, runs, reading),
        BenchCmd::Think {
            bot,
            deals,
            seed,
            think_ms,
        } => think(&bot, deals, seed, think_ms),
        BenchCmd::Play {
            seconds,
            game,
            bots,
        } => {
            crate::limits::seconds(seconds, "--seconds")?;
            let games: Vec<GameKind> = match game {
                Some(g) => vec![g],
                None => vec![GameKind::Duplicate, GameKind::Regular],
            };
            let rules: Vec<TableRules> = games
                .iter()
                .map(|&g| rules_for(g, None))
                .collect::<Result<_, _>>()?;
            // Five runs per lineup and game, the games taking turns so that both see the
            // same machine; the median is reported (the machines are shared).
            let mut out = String::new();
            for bot in bots.split(',').map(str::trim) {
                let four = [bot; 4].join(",");
                lineup(&four, 0, agents::expert::THINK_MS)?;
                let mut rates = vec![Vec::new(); rules.len()];
                let mut decisions = vec![0usize; rules.len()];
                let mut totals = vec![0u64; rules.len()];
                let mut seed = 0u64;
                for _ in 0..5 {
                    for (g, r) in rules.iter().enumerate() {
                        let start = Instant::now();
                        let mut hands = 0u64;
                        while start.elapsed().as_secs_f64() < seconds / 5.0 / rules.len() as f64 {
                            let mut agents = lineup(&four, seed, agents::expert::THINK_MS)?;
                            let (_, n) = agents::drive::play_table(
                                Setup::generate(r.wall, seed),
                                r.clone(),
                                &mut agents,
                            );
                            decisions[g] += n;
                            hands += 1;
                            seed += 1;
                        }
                        totals[g] += hands;
                        rates[g].push(hands as f64 / start.elapsed().as_secs_f64());
                    }
                }
                let mut medians = Vec::new();
                for (g, r) in rules.iter().enumerate() {
                    rates[g].sort_by(f64::total_cmp);
                    medians.push(rates[g][2]);
                    let _ = writeln!(
                        out,
                        "{:<8} {:<30} {:>9.0} hands/s on one core (median of 5 runs, {} hands, {:.0} decisions per hand)",
                        r.name,
                        four,
                        rates[g][2],
                        totals[g],
                        decisions[g] as f64 / totals[g].max(1) as f64
                    );
                }
                if medians.len() == 2 {
                    let _ = writeln!(
                        out,
                        "{:<8} {:<30} {:>9.2} regular hands per duplicate hand",
                        "ratio",
                        four,
                        medians[1] / medians[0]
                    );
                }
            }
            emit(&out)
        }
    }
}

/// `dupmj bench fans`: the corpus scored `runs` times; the median rate and the best.
fn fans(
    corpus: &std::path::Path,
    rules: &mcr::Rules,
    runs: u64,
    reading: bool,
) -> Result<(), String> {
    let text =
        std::fs::read_to_string(corpus).map_err(|e| format!("corpus {}: {e}", corpus.display()))?;
    let hands: Vec<mcr::Hand> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            mcr::notation::parse_hand_line(l)
                .map_err(|e| format!("corpus {} line {}: {e}", corpus.display(), n + 1))
        })
        .collect::<Result<_, _>>()?;
    // One pass untimed first: the calculator builds its tables at its first scoring (a
    // few milliseconds, once a process), which would otherwise fall into the first pass.
    for h in &hands {
        black_box(mcr::score(black_box(h), rules).ok());
    }
    let mut rates = Vec::new();
    let mut points = 0u64;
    for _ in 0..runs {
        points = 0;
        let start = Instant::now();
        // A hand short of the minimum or not a win scores nothing, as in the reference's
        // driver.
        if reading {
            for h in &hands {
                points += mcr::score(black_box(h), rules).map_or(0, |s| u64::from(s.total));
            }
        } else {
            for h in &hands {
                points += mcr::fan_table(black_box(h), rules).map_or(0, |t| u64::from(t.total()));
            }
        }
        rates.push(hands.len() as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    // The best run too: on shared cores a run's rate scatters by half, and the fastest is
    // the one least disturbed.
    emit(&format!(
        "{:.0} hands/s (best {:.0}), {} hands, points {points}\n",
        rates[rates.len() / 2],
        rates[rates.len() - 1],
        hands.len()
    ))
}

/// `dupmj bench think`: each decision of `bot` at East timed, strong at the others, after
/// one deal untimed (what a bot measures once per process, such as the expert's belief,
/// is not a decision's time).
fn think(bot: &str, deals: u64, seed: u64, think_ms: u32) -> Result<(), String> {
    let rules = TableRules::seeds();
    let mut times: Vec<f64> = Vec::new();
    let mut choices = 0usize;
    let warm_up = seed.wrapping_sub(1);
    let end = seed
        .checked_add(deals)
        .ok_or("--seed plus --deals passes the largest seed")?;
    for d in std::iter::once(warm_up).chain(seed..end) {
        let mut agents = lineup(&format!("{bot},strong,strong,strong"), d, think_ms)?;
        agents[0].set_rules(&rules);
        let mut t = table::engine::Table::new(Setup::generate(rules.wall, d), rules.clone());
        while let Some(seat) = t.next_to_act() {
            let view = t.view(seat);
            let start = Instant::now();
            let a = agents[seat.index()].act(&view);
            if seat == mcr::Wind::East && d != warm_up {
                times.push(start.elapsed().as_secs_f64() * 1000.0);
                choices += (view.legal.len() > 1) as usize;
            }
            let a = if view.legal.contains(&a) {
                a
            } else {
                view.legal[0]
            };
            t.apply(seat, a)
                .map_err(|e| format!("deal {d}: {bot} at East: {e}"))?;
        }
    }
    if times.is_empty() {
        return Err("no decision of East was timed".into());
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    emit(&format!(
        "{bot} at East, strong elsewhere, {deals} deals on one core (after one untimed): {} decisions ({choices} with a choice), median {:.2} ms, 90th percentile {:.2} ms, worst {:.2} ms, total {:.1} s\n",
        times.len(),
        at(0.5),
        at(0.9),
        sorted[sorted.len() - 1],
        times.iter().sum::<f64>() / 1000.0
    ))
}

fn failover(db: &str, o: &bench::failover::Options) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let logs = std::env::temp_dir().join(format!("dupmj-failover-{}", std::process::id()));
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let r = bench::failover::run(&exe, db, o, &logs, |line| println!("{line}"))?;
    for (k, (owned, times)) in r.takeovers.iter().enumerate() {
        let q = |f: f64| times.get(((times.len() as f64 * f).ceil() as usize).max(1) - 1);
        println!(
            "kill {}: {owned} tables taken over, {} heard from again; takeover median {:.0} ms, worst {:.0} ms",
            k + 1,
            times.len(),
            q(0.5).copied().unwrap_or(f64::NAN),
            times.last().copied().unwrap_or(f64::NAN)
        );
    }
    println!(
        "moves: {} sent, {} acknowledged, {} stored; {} lost, {} twice; in flight at a kill: {} kept, {} made again",
        r.sent, r.acked, r.stored, r.lost, r.twice, r.in_flight_kept, r.in_flight_dropped
    );
    println!(
        "hands: {} finished, {} replay to their stored points; {} reconnections; node logs in {}",
        r.hands,
        r.replayed,
        r.reconnects,
        logs.display()
    );
    if r.lost > 0 || r.twice > 0 || r.replayed < r.hands {
        return Err("moves lost, stored twice, or hands that do not replay".into());
    }
    Ok(())
}

fn bench_nodes(
    db: &str,
    nodes: usize,
    counts: &[usize],
    seconds: f64,
    bots: &str,
    pace: std::time::Duration,
    ping: std::time::Duration,
) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let logs = std::env::temp_dir().join(format!("dupmj-bench-{}", std::process::id()));
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    println!("{nodes} node(s) on PostgreSQL; CPU seconds over the measured time (the server side's share in PostgreSQL)");
    println!("tables  pings   p50 ms   p99 ms   max ms  states/s  moves/s  split        nodes cpu  postgres cpu  clients cpu  db share");
    bench::run_nodes(
        &exe,
        db,
        nodes,
        counts,
        seconds,
        bots,
        pace,
        ping,
        &logs,
        |p| {
            let split: Vec<String> = p.tables_per_node.iter().map(|n| n.to_string()).collect();
            println!(
            "{:>6} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>9.0} {:>8.0}  {:<11} {:>9.1} {:>13.1} {:>12.1} {:>8.0} %",
            p.point.tables,
            p.point.pings,
            p.point.p50_ms,
            p.point.p99_ms,
            p.point.max_ms,
            p.point.states_per_s,
            p.point.moves_per_s,
            split.join("/"),
            p.nodes_cpu_s,
            p.postgres_cpu_s,
            p.clients_cpu_s,
            p.database_share() * 100.0
        )
        },
    )?;
    Ok(())
}
