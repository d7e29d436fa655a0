//! `dupmj bench`: hands per second of the engine with built-in bots, and answer times of
//! online play under load.

use std::fmt::Write as _;
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
    /// that pings the server; prints answer times (ping to pong) per number of tables.
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
    },
}

pub fn bench(cmd: BenchCmd) -> Result<(), String> {
    match cmd {
        BenchCmd::Serve {
            tables,
            seconds,
            bots,
            pace_ms,
            ping_ms,
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
            println!("tables  pings   p50 ms   p99 ms   max ms  states/s  moves/s");
            server::bench::run(
                &counts,
                seconds,
                &bots,
                std::time::Duration::from_millis(pace_ms),
                std::time::Duration::from_millis(ping_ms),
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
                lineup(&four, 0)?;
                let mut rates = vec![Vec::new(); rules.len()];
                let mut decisions = vec![0usize; rules.len()];
                let mut totals = vec![0u64; rules.len()];
                let mut seed = 0u64;
                for _ in 0..5 {
                    for (g, r) in rules.iter().enumerate() {
                        let start = Instant::now();
                        let mut hands = 0u64;
                        while start.elapsed().as_secs_f64() < seconds / 5.0 / rules.len() as f64 {
                            let mut agents = lineup(&four, seed)?;
                            let (_, n) = agents::play::play_table(
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
