//! `dupmj connect`: an outside bot on a dupmj site, as a bot account ([`server::connect`]).

use std::time::Duration;

use agents::pool::{BotPool, Protocol};
use clap::Args;
use server::connect::{Site, Source};

/// Puts an outside bot on a dupmj site as a bot account (docs/bots.md).
#[derive(Args)]
pub struct ConnectArgs {
    /// The site, http://HOST:PORT.
    #[arg(long)]
    server: String,
    /// The bot account's API token (made on its page).
    #[arg(long, env = "DUPMJ_TOKEN", hide_env_values = true)]
    token: String,
    /// The bot, as the arena takes it: cmd:COMMAND (JSON Lines), botzone:COMMAND or
    /// botzone-simple:COMMAND.
    #[arg(long)]
    bot: String,
    /// Where its tables come from: quick (the quick-match queue), open (a table of its
    /// own against the site's bots, --level), table:ID (a table it was invited to) or
    /// challenge:ID (a challenge's next deal).
    #[arg(long, default_value = "quick")]
    from: String,
    /// The site's bots at a table of its own.
    #[arg(long, default_value = "strong")]
    level: String,
    /// Tables to play, one after another (a table it was invited to: one).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    tables: u32,
    /// The bot's time per decision, in milliseconds (keep it under the table's clock).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(10..=600_000))]
    time_limit_ms: u64,
}

fn source(s: &str) -> Result<Source, String> {
    let id = |rest: &str, what: &str| {
        rest.parse::<i64>()
            .map_err(|_| format!("--from {s}: {what}:ID, ID a number"))
    };
    match s.split_once(':') {
        None if s == "quick" => Ok(Source::Quick),
        None if s == "open" => Ok(Source::Open(String::new())),
        Some(("table", rest)) => Ok(Source::Table(id(rest, "table")?)),
        Some(("challenge", rest)) => Ok(Source::Challenge(id(rest, "challenge")?)),
        _ => Err(format!("--from {s}: quick, open, table:ID or challenge:ID")),
    }
}

/// Runs `dupmj connect`.
pub fn connect(a: ConnectArgs) -> Result<(), String> {
    let mut from = source(&a.from)?;
    if let Source::Open(level) = &mut from {
        if !server::play::spec::BOT_LEVELS.contains(&a.level.as_str()) {
            return Err(format!(
                "--level {}: one of {}",
                a.level,
                server::play::spec::BOT_LEVELS.join(", ")
            ));
        }
        *level = a.level.clone();
    }
    let (protocol, cmd) =
        Protocol::parse_spec(&a.bot).map_err(|e| format!("--bot {}: {e}", a.bot))?;
    agents::process::probe(cmd).map_err(|e| format!("--bot {}: {e}", a.bot))?;
    let pool = BotPool::with_protocol(cmd, Duration::from_millis(a.time_limit_ms), protocol);
    let site = Site::new(&a.server, &a.token)?;
    server::connect::run(&site, &from, a.tables, pool, |line| println!("{line}"))?;
    Ok(())
}
