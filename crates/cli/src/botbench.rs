//! `dupmj bench bots`: outside bots playing as bot accounts on one core while others wait
//! in the quick-match queue ([`bench::botplayers`]).

use clap::Args;

/// The flags of `dupmj bench bots`.
#[derive(Args)]
pub struct BotsArgs {
    /// Connected bots to measure, in turn.
    #[arg(long, default_value = "50,100,200,400")]
    connected: String,
    /// Bots waiting in the queue meanwhile (the same for each count).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=20_000))]
    queued: u64,
    /// Seconds to measure each count (after one second of warm-up).
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// The built-in bots at the tables.
    #[arg(long, default_value = "easy")]
    bots: String,
    /// Milliseconds between the built-in bots' turns, as `serve --bot-pace-ms`.
    #[arg(long = "bot-pace-ms", default_value_t = 700)]
    pace_ms: u64,
}

/// Runs `dupmj bench bots`.
pub fn bots(a: BotsArgs) -> Result<(), String> {
    crate::limits::seconds(a.seconds, "--seconds")?;
    if !server::play::spec::BOT_LEVELS.contains(&a.bots.as_str()) {
        return Err(format!(
            "--bots: '{}' cannot sit at an online table (choose {})",
            a.bots,
            server::play::spec::BOT_LEVELS.join(", ")
        ));
    }
    let loads: Vec<(usize, usize)> = a
        .connected
        .split(',')
        .map(|t| match t.trim().parse::<usize>() {
            Ok(n) if (1..=5000).contains(&n) => Ok((n, a.queued as usize)),
            _ => Err(format!(
                "--connected: '{t}' is not a number of bots from 1 to 5000"
            )),
        })
        .collect::<Result<_, _>>()?;
    println!("connected  queued   moves   p50 ms   p99 ms   max ms  polls/s  slow polls");
    bench::botplayers::run(
        &loads,
        a.seconds,
        &a.bots,
        std::time::Duration::from_millis(a.pace_ms),
        |p| {
            println!(
                "{:>9} {:>7} {:>7} {:>8.2} {:>8.2} {:>8.2} {:>8.1} {:>11}",
                p.connected,
                p.queued,
                p.moves,
                p.p50_ms,
                p.p99_ms,
                p.max_ms,
                p.polls_per_s,
                p.slow_polls
            );
        },
    )?;
    Ok(())
}
