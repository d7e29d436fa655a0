//! # lab — how the bots were measured
//!
//! Every experiment and diagnostic behind the expert's design, as commands with flags:
//! the figures they print are kept in docs/expert.md and docs/expert-belief.md (and, for
//! `lab rating-signal`, which evidence could rate a player soonest, in docs/rating.md). The
//! library crates keep only what plays; what an experiment needs beyond that (worlds that
//! know the true hands, a model of the danger of a discard, importance weights) lives here.
//! `lab readiness` regenerates the data the belief reads (`agents::belief::Readiness`).

mod belief;
mod calibration;
mod common;
mod consistent;
mod danger;
mod first;
mod nearer;
mod oracle;
mod order;
mod readiness;
mod searched;
mod searcher;
mod signal;
mod truth;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "lab",
    version,
    about = "Experiments and diagnostics of dupmj's bots"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Strong's self-play measured for the expert's belief: written as the data file the
    /// library reads (crates/agents/src/belief/readiness_data.rs), or checked against it
    Readiness {
        /// Hands of self-play
        #[arg(long, default_value_t = agents::belief::HANDS)]
        hands: u64,
        /// Write the data file here (without: only say whether it agrees)
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// The time of the first searched decision of a fresh process, and of a second
    FirstDecision {
        /// The deal's seed
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// What each kind of knowledge would be worth to the expert as it plays (true hands,
    /// the whole table, mixes), against four strong on the same deals
    Oracle(oracle::Knobs),
    /// What the search's departures from strong's choice are worth, judged on the real
    /// table, by half of the worlds, and with the true hands
    Departures(searched::Knobs),
    /// Whether moves the expert leaves unsearched on a turn are worth searching
    Wider(searched::Knobs),
    /// Every claim decision of strong's self-play, each answer played out: JSON Lines
    Claims {
        #[arg(long, default_value_t = 40)]
        deals: u64,
        #[arg(long, default_value_t = 40_000)]
        first: u64,
        /// Where the lines go
        #[arg(long, default_value = "claims.jsonl")]
        out: PathBuf,
    },
    /// The gain the expert saw where it left strong's choice, against the real table's
    Calibration {
        #[arg(long, default_value_t = 20)]
        deals: u64,
        /// Standard errors a departure must clear
        #[arg(long)]
        gate: Option<f64>,
        /// The worlds searched
        #[arg(long, value_enum, default_value = "chains")]
        worlds: calibration::Worlds,
    },
    /// Which evidence tells a player's level soonest: the IMP against the par, or the
    /// loss the expert's review puts on the decisions (each level alone with three strong)
    RatingSignal(signal::Knobs),
    /// How much nearer to the true hands each belief brings the worlds (no playouts)
    Nearer {
        #[arg(long, default_value_t = 40)]
        deals: u64,
    },
    /// What the order of the discards says of a ready hand: true hands against worlds
    Order {
        #[arg(long, default_value_t = 40)]
        deals: u64,
    },
    /// How live the ready hands' waits are: true hands against worlds with and without
    /// the live waits weighed
    Live {
        #[arg(long, default_value_t = 40)]
        deals: u64,
        /// Log weights by live winning tiles (0, 1-2, 3-4, 5-6, 7 or more)
        #[arg(long, value_delimiter = ',', num_args = 5, default_values_t = [0.0; 5])]
        weights: Vec<f64>,
    },
    /// How many discards a hand would claim, true hands against worlds
    Claimable {
        #[arg(long, default_value_t = 20)]
        deals: u64,
    },
    /// How each earlier discard ranks against the hand held now, as strong would throw
    Thrown {
        #[arg(long, default_value_t = 20)]
        deals: u64,
    },
    /// The worlds with and without the ranks of the discards read
    Ranks {
        #[arg(long, default_value_t = 10)]
        deals: u64,
    },
    /// Rows for fitting the model of a discard's danger (tools/danger.py): CSV
    DangerRows {
        #[arg(long, default_value_t = 20)]
        deals: u64,
        /// Where the rows go
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let done = match cli.command {
        Command::Readiness { hands, write } => readiness::run(hands, write.as_deref()),
        Command::FirstDecision { seed } => {
            first::run(seed);
            Ok(())
        }
        Command::Oracle(k) => {
            oracle::run(&k);
            Ok(())
        }
        Command::Departures(k) => {
            searched::departures(&k);
            Ok(())
        }
        Command::Wider(k) => {
            searched::wider(&k);
            Ok(())
        }
        Command::Claims { deals, first, out } => {
            searched::claims_by_kind(deals, first, &out);
            Ok(())
        }
        Command::Calibration {
            deals,
            gate,
            worlds,
        } => {
            calibration::run(deals, gate, worlds);
            Ok(())
        }
        Command::RatingSignal(k) => signal::run(&k),
        Command::Nearer { deals } => {
            nearer::run(deals);
            Ok(())
        }
        Command::Order { deals } => {
            order::run(deals);
            Ok(())
        }
        Command::Live { deals, weights } => {
            let mut w = [0.0; agents::belief::LIVE];
            w.copy_from_slice(&weights);
            belief::how_live_the_waits_are(deals, w);
            Ok(())
        }
        Command::Claimable { deals } => {
            belief::how_claimable_the_hands_are(deals);
            Ok(())
        }
        Command::Thrown { deals } => {
            belief::how_strong_would_have_thrown(deals);
            Ok(())
        }
        Command::Ranks { deals } => {
            belief::what_the_ranks_change(deals);
            Ok(())
        }
        Command::DangerRows { deals, out } => belief::how_dangerous_the_discards_are(deals, &out),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lab: {e}");
            ExitCode::FAILURE
        }
    }
}
