//! `dupmj`: the command line of the dupmj project, thin subcommands over its crates.

// Doc comments here are clap's help text, where `[123m3]` is a hand, not a link.
#![allow(rustdoc::broken_intra_doc_links)]
#![deny(missing_docs)]

mod arenacmd;
mod benchcmd;
mod botbench;
mod connectcmd;
mod fancmd;
mod handjson;
mod jsonin;
mod limits;
mod output;
mod ratingcmd;
mod ratingsim;
mod reviewcmd;
mod servecmd;
mod tablecmd;
mod tourncmd;

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
    /// Print duplicate deals: the sheet staff use to rebuild the walls.
    Deal(tablecmd::DealArgs),
    /// Play hands with built-in bots and print a summary.
    Play(tablecmd::PlayArgs),
    /// Check a hand log through the engine and print the hands.
    Replay(tablecmd::ReplayArgs),
    /// Review a logged hand: where a bot would have played otherwise, and why.
    Review(reviewcmd::ReviewArgs),
    /// Seating for an event: rounds, hands, tables, deals and winds, with a quality report.
    Movement(tourncmd::MovementArgs),
    /// Individual or team standings from a results file.
    Standings(tourncmd::StandingsArgs),
    /// Check a published deal set (a challenge's, a table's, an event's) against its commitment.
    Verify(tourncmd::VerifyArgs),
    /// Bots on the same deals in every seat, compared in IMP with confidence intervals.
    Arena(arenacmd::ArenaCmd),
    /// An outside bot playing on a dupmj site as a bot account (docs/bots.md).
    Connect(connectcmd::ConnectArgs),
    /// The web site: online play, the events' director, standings (SQLite by default, PostgreSQL for several nodes)
    Serve(servecmd::ServeArgs),
    /// Create a complete 16-player event played by bots, then serve it.
    Demo(servecmd::DemoArgs),
    /// Set the director password (read from standard input).
    Password(servecmd::PasswordArgs),
    /// Copy the database, safely while the server runs (SQLite's online backup).
    Backup(servecmd::BackupArgs),
    /// Move a SQLite database into PostgreSQL (to serve from several nodes), and check it.
    Migrate(servecmd::MigrateArgs),
    /// The duplicate rating rebuilt from a database, printed as the leaderboard (or the
    /// bots' anchors measured, or the rating checked on players of known order).
    Rating(ratingcmd::RatingArgs),
    /// Speed measurements.
    #[command(subcommand)]
    Bench(benchcmd::BenchCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match cli.cmd {
        Cmd::Fan(a) => fancmd::fan(a),
        Cmd::Waits(a) => fancmd::waits(a),
        Cmd::Deal(a) => tablecmd::deal(a),
        Cmd::Play(a) => tablecmd::play(a),
        Cmd::Replay(a) => tablecmd::replay_cmd(a),
        Cmd::Review(a) => reviewcmd::review(a),
        Cmd::Bench(c) => benchcmd::bench(c),
        Cmd::Arena(a) => arenacmd::arena_cmd(a),
        Cmd::Movement(a) => tourncmd::movement(a),
        Cmd::Standings(a) => tourncmd::standings(a),
        Cmd::Verify(a) => tourncmd::verify(a),
        Cmd::Connect(a) => connectcmd::connect(a),
        Cmd::Serve(a) => servecmd::serve(a),
        Cmd::Demo(a) => servecmd::demo(a),
        Cmd::Password(a) => servecmd::password(a),
        Cmd::Backup(a) => servecmd::backup(a),
        Cmd::Migrate(a) => servecmd::migrate(a),
        Cmd::Rating(a) => ratingcmd::rating(a),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
