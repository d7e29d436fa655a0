//! `dupmj arena`: bots on the same deals, compared in IMP.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::output::emit;
use crate::tablecmd::{rules_for, GameKind};
use agents::registry::{builtin, builtin_thinking};
use arena::{run, Entrant, Mode, Run};
use clap::{Args, Subcommand, ValueEnum};

#[derive(Clone, Copy, ValueEnum)]
pub enum ArenaMode {
    /// The first bot against three copies of the second, in every seat.
    Rotate,
    /// Four bots in all 24 seatings of every deal.
    Permute,
    /// Sixteen bots in the 16-player movement.
    Field,
}

/// `dupmj arena …` runs an evaluation; `dupmj arena merge PARTS…` joins sharded runs.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaCmd {
    #[command(subcommand)]
    sub: Option<ArenaSub>,
    #[command(flatten)]
    run: ArenaArgs,
}

#[derive(Subcommand)]
enum ArenaSub {
    /// Join the partial results of a sharded run into its report (exactly the report of
    /// the run in one piece).
    Merge(MergeArgs),
}

#[derive(Args)]
struct MergeArgs {
    /// Partial results written by `dupmj arena … --shard I/N`, one per shard.
    #[arg(required = true)]
    parts: Vec<std::path::PathBuf>,
    #[command(flatten)]
    out: crate::output::TextOrJson,
}

#[derive(Args)]
pub struct ArenaArgs {
    #[arg(long, value_enum, default_value = "rotate")]
    mode: ArenaMode,
    /// Bots: built-in names (random, easy/greedy, greedy-r, medium, strong, expert)
    /// or names defined with --bot.
    #[arg(long)]
    bots: Option<String>,
    /// An outside bot: NAME=cmd:'python3 my_bot.py' (our JSON Lines protocol),
    /// NAME=botzone:'./bot' (Botzone, JSON interaction) or NAME=botzone-simple:'./bot'.
    #[arg(long = "bot")]
    bot_defs: Vec<String>,
    /// Seconds an outside bot has for one decision.
    #[arg(long, default_value_t = 5.0)]
    time_limit: f64,
    /// Deals to play.
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Seed of the first deal.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// duplicate deals (the default) or regular hands on one shared wall, the same wall
    /// for every seating.
    #[arg(long, value_enum, default_value = "duplicate")]
    game: GameKind,
    /// Table rules: seeds or botzone (duplicate), regular or regular-bonus-discard.
    #[arg(long)]
    rules: Option<String>,
    /// What an outside bot's error does: `judge` ends the hand, −30 to the bot and +10 to
    /// each other seat, as the Botzone judge does (the default under --rules botzone);
    /// `safe` replaces the answer with a safe move and plays on (the default otherwise).
    #[arg(long, value_enum)]
    bot_errors: Option<BotErrors>,
    /// Write each Botzone bot's requests and responses here, one JSON line per seat and
    /// hand (for comparing with the Botzone judge).
    #[arg(long, value_name = "FILE")]
    transcripts: Option<std::path::PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Milliseconds per decision for a bot that searches (`expert`): its playouts in
    /// proportion to the default's (768 playouts for 200 ms: a median 175 ms on one core here).
    #[arg(long, value_name = "MS", default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
    think_ms: u32,
    /// Write every hand's log into this folder (one JSON Lines file per deal; `--log` is
    /// an older spelling).
    #[arg(long = "log-dir", alias = "log", value_name = "DIR")]
    log: Option<std::path::PathBuf>,
    #[command(flatten)]
    out: crate::output::TextOrJson,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Play only shard I of N (every N-th deal from deal I) and print its partial result as
    /// JSON, for `dupmj arena merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

/// `--bot-errors`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum BotErrors {
    Judge,
    Safe,
}

/// `--shard I/N` as (0-based index, count).
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {s}: expected I/N with 1 ≤ I ≤ N, e.g. 3/8");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

pub fn arena_cmd(c: ArenaCmd) -> Result<(), String> {
    match c.sub {
        Some(ArenaSub::Merge(m)) => merge(m),
        None => arena(c.run),
    }
}

fn merge(m: MergeArgs) -> Result<(), String> {
    let mut parts = Vec::new();
    for p in &m.parts {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let part: arena::part::Part = crate::jsonin::parse(&text, "a partial arena result")
            .map_err(|e| format!("{}: {e}", p.display()))?;
        parts.push((p.display().to_string(), part));
    }
    let report = arena::part::merge(&parts).map_err(|e| e.0)?;
    let out = if m.out.json() {
        serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n"
    } else {
        report.text()
    };
    emit(&out)
}

pub fn arena(a: ArenaArgs) -> Result<(), String> {
    let bots = a
        .bots
        .clone()
        .ok_or("--bots is required: the bots to compare, e.g. --bots strong,greedy")?;
    let names: Vec<String> = bots.split(',').map(|s| s.trim().to_string()).collect();
    let shard = a.shard.as_deref().map(parse_shard).transpose()?;
    crate::limits::deals(a.deals, a.seed)?;
    let limit = crate::limits::seconds(a.time_limit, "--time-limit")?;
    if let Some(t) = a
        .threads
        .filter(|t| !(1..=crate::limits::MAX_THREADS).contains(t))
    {
        return Err(format!(
            "--threads {t}: give 1 to {} threads",
            crate::limits::MAX_THREADS
        ));
    }
    let mode = match a.mode {
        ArenaMode::Rotate if names.len() == 2 => Mode::Rotate,
        ArenaMode::Permute if names.len() == 4 => Mode::Permute,
        ArenaMode::Field if names.len() >= 16 && names.len().is_multiple_of(16) => {
            Mode::Field(field_cycle(names.len() as u32)?)
        }
        ArenaMode::Rotate => {
            return Err(format!(
                "--bots: {} bots given, rotate takes 2",
                names.len()
            ))
        }
        ArenaMode::Permute => {
            return Err(format!(
                "--bots: {} bots given, permute takes 4",
                names.len()
            ))
        }
        ArenaMode::Field => {
            return Err(format!(
                "--bots: {} bots given, field takes 16 or a multiple of 16",
                names.len()
            ))
        }
    };
    let mut rules = rules_for(a.game, a.rules.as_deref())?;
    match a.bot_errors {
        Some(BotErrors::Safe) => rules.error_penalty = None,
        Some(BotErrors::Judge) => rules.error_penalty = Some(table::rules::ErrorPenalty::BOTZONE),
        None => {}
    }
    let mut outside = std::collections::BTreeMap::new();
    let mut botzone_pools = Vec::new();
    for d in &a.bot_defs {
        let (name, spec) = d
            .split_once('=')
            .ok_or_else(|| format!("--bot {d}: expected NAME=cmd:COMMAND"))?;
        use agents::pool::Protocol;
        let (protocol, cmd) = Protocol::parse_spec(spec).map_err(|e| {
            if e.starts_with("expected") {
                format!("--bot {d}: expected NAME=cmd:COMMAND, NAME=botzone:COMMAND or NAME=botzone-simple:COMMAND")
            } else {
                format!("--bot {d}: {e}")
            }
        })?;
        agents::process::probe(cmd).map_err(|e| format!("--bot {d}: {e}"))?;
        let pool = agents::pool::BotPool::with_protocol(cmd, limit, protocol);
        if let Protocol::Botzone(_) = protocol {
            botzone_pools.push(pool.clone());
        }
        outside.insert(name.to_string(), pool);
    }
    // Created once every bot is known to start, so a refused run leaves no file behind.
    if let Some(p) = &a.transcripts {
        let file =
            std::fs::File::create(p).map_err(|e| format!("--transcripts {}: {e}", p.display()))?;
        for pool in &botzone_pools {
            let f = file
                .try_clone()
                .map_err(|e| format!("--transcripts {}: {e}", p.display()))?;
            pool.keep_transcripts(f);
        }
    }
    let mut entrants = Vec::new();
    let repeated = |n: &String| names.iter().filter(|m| *m == n).count() > 1;
    for (i, n) in names.iter().enumerate() {
        // Several copies of one bot are told apart by their place in the lineup.
        let label = if repeated(n) {
            format!("{n}#{}", i + 1)
        } else {
            n.clone()
        };
        if let Some(pool) = outside.get(n) {
            let p = pool.clone();
            entrants.push(Entrant {
                name: label,
                make: Box::new(move |_| p.agent()),
                pool: Some(pool.clone()),
            });
            continue;
        }
        if builtin(n, 0).is_none() {
            return Err(format!(
                "unknown bot '{n}': use a built-in bot ({}) or a name given with --bot",
                agents::registry::BUILTIN.join(", ")
            ));
        }
        let name = n.clone();
        let think_ms = a.think_ms;
        entrants.push(Entrant {
            name: label,
            make: Box::new(move |seed| builtin_thinking(&name, seed, think_ms).expect("known bot")),
            pool: None,
        });
    }
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| format!("--threads: {e}"))?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let first = std::sync::OnceLock::new();
        // A second Ctrl-C ends the process at once — one given on purpose, half a second
        // after the first, not the same interrupt delivered twice (GNU `timeout -s INT`
        // signals the command and then its whole process group).
        let _ = ctrlc::set_handler(move || {
            if !stop.swap(true, Ordering::SeqCst) {
                let _ = first.set(std::time::Instant::now());
            } else if first
                .get()
                .is_some_and(|t: &std::time::Instant| t.elapsed().as_millis() >= 500)
            {
                std::process::exit(130);
            }
        });
    }
    let show = !a.quiet && std::io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::new(a.deals);
    if show {
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} deals {per_sec} eta {eta}",
            )
            .map_err(|e| e.to_string())?,
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let progress = || bar.inc(1);
    if let Some(dir) = &a.log {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut log_error: Option<String> = None;
    let mut write_log = |deal: u64, log: &table::HandLog| {
        if log_error.is_some() {
            return;
        }
        let dir = a.log.as_ref().expect("set when logging");
        let path = dir.join(format!("deal-{:06}.jsonl", a.seed + deal));
        let line = serde_json::to_string(log).unwrap_or_default();
        let r = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| writeln!(f, "{line}"));
        if let Err(e) = r {
            log_error = Some(format!("{}: {e}", path.display()));
        }
    };
    let settings = Run {
        mode,
        deals: a.deals,
        seed: a.seed,
        rules,
        entrants: &entrants,
        stop: &stop,
        progress: &progress,
        on_log: if a.log.is_some() {
            Some(&mut write_log)
        } else {
            None
        },
    };
    if let Some((i, n)) = shard {
        let part = arena::run_shard(settings, i, n);
        bar.finish_and_clear();
        if let Some(e) = log_error {
            return Err(format!("writing logs: {e}"));
        }
        drop(entrants);
        return emit(&(serde_json::to_string(&part).map_err(|e| e.to_string())? + "\n"));
    }
    let report = run(settings);
    bar.finish_and_clear();
    if let Some(e) = log_error {
        return Err(format!("writing logs: {e}"));
    }
    let mut out = if a.out.json() {
        serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n"
    } else {
        report.text()
    };
    if !a.out.json() {
        for e in &entrants {
            if let Some(pool) = &e.pool {
                let asked = pool.asked.load(std::sync::atomic::Ordering::Relaxed);
                let ns = pool
                    .round_trip_ns
                    .load(std::sync::atomic::Ordering::Relaxed);
                let _ = writeln!(
                    out,
                    "{}: {} decisions asked, {:.1} µs per round trip on average (the bot's own time included)",
                    e.name,
                    asked,
                    ns as f64 / asked.max(1) as f64 / 1000.0
                );
                for p in pool.problems.lock().map(|p| p.clone()).unwrap_or_default() {
                    let _ = writeln!(out, "{}: {p}", e.name);
                }
            }
        }
    }
    // Dropping the entrants ends every outside bot process.
    drop(entrants);
    emit(&out)
}

/// The deals of the individual movement for `n` players, as tables of entrant indices
/// (player p is entrant p − 1) by seat wind.
fn field_cycle(n: u32) -> Result<Vec<Vec<[usize; 4]>>, String> {
    let m = tournament::movement::individual(n, None, 1).map_err(|e| e.0)?;
    let mut deals: std::collections::BTreeMap<(u32, String), Vec<[usize; 4]>> =
        std::collections::BTreeMap::new();
    for r in &m.rounds {
        for h in &r.hands {
            for t in &h.tables {
                let mut seats = [0usize; 4];
                for s in &t.seats {
                    seats[s.wind.index()] = s.player as usize - 1;
                }
                deals
                    .entry((r.round, t.deal.clone()))
                    .or_default()
                    .push(seats);
            }
        }
    }
    Ok(deals.into_values().collect())
}
