//! `dupmj`: the command line of the dupmj project, thin subcommands over its crates.

mod fancmd;
mod handjson;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dupmj",
    version,
    about = "Duplicate MCR mahjong: fan calculator, waits, and more"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Score a winning hand (or a batch of JSON Lines hands on stdin).
    Fan(fancmd::FanArgs),
    /// Shanten and winning tiles of a 13-tile hand.
    Waits(fancmd::WaitsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match cli.cmd {
        Cmd::Fan(a) => fancmd::fan(a),
        Cmd::Waits(a) => fancmd::waits(a),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
