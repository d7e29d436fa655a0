//! `dupmj review`: a logged hand replayed from one seat with a bot's opinion on each decision.

use std::fmt::Write as _;
use std::io::BufRead;

use crate::output::emit;
use agents::registry::{builtin, builtin_thinking};
use clap::Args;
use mcr::Wind;
use table::game::{GameLog, GAME_FORMAT};
use table::log::HandLog;

#[derive(Args)]
pub struct ReviewArgs {
    /// A log written by `dupmj play --log` or `dupmj arena --log` (JSON Lines: hands, or
    /// regular games whose hands are reviewed in turn).
    file: std::path::PathBuf,
    /// The seat reviewed: E, S, W or N (every seat when not given).
    #[arg(long)]
    seat: Option<String>,
    /// The built-in bot giving its opinion (`--bot` is an older spelling).
    #[arg(
        long = "reviewer",
        alias = "bot",
        value_name = "BOT",
        default_value = "strong"
    )]
    bot: String,
    /// Only this hand of the file (1-based).
    #[arg(long)]
    hand: Option<usize>,
    /// Milliseconds per decision for a bot that searches (`expert`): its playouts in
    /// proportion to the default's (768 playouts for 200 ms: a median 175 ms on one core here).
    #[arg(long, value_name = "MS", default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
    think_ms: u32,
    /// One JSON object a reviewed seat of a hand (JSON Lines), with every decision the
    /// reviewer weighed: its candidates' expected match points, the cost of the move
    /// played; and the hand's agreement, expected loss and costliest decisions.
    #[arg(long)]
    json: bool,
}

/// Every hand of a log file, numbered from 1.
fn hands(path: &std::path::Path) -> Result<Vec<HandLog>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let here = |e: String| format!("{} line {}: {e}", path.display(), i + 1);
        let line = line.map_err(|e| here(e.to_string()))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| here(format!("not JSON: {e}")))?;
        if v.get("format").and_then(|f| f.as_str()) == Some(GAME_FORMAT) {
            let g: GameLog = crate::jsonin::object(v, "a game log").map_err(here)?;
            out.extend(g.hands.into_iter().map(|h| h.log));
        } else {
            out.push(crate::jsonin::object(v, "a hand log").map_err(here)?);
        }
    }
    Ok(out)
}

pub fn review(a: ReviewArgs) -> Result<(), String> {
    if builtin(&a.bot, 0).is_none() {
        return Err(format!(
            "--bot {}: not a built-in bot (use one of {})",
            a.bot,
            agents::registry::BUILTIN.join(", ")
        ));
    }
    let seats: Vec<Wind> = match &a.seat {
        None => Wind::ALL.to_vec(),
        Some(s) => vec![Wind::parse(s).ok_or_else(|| format!("--seat {s}: use E, S, W or N"))?],
    };
    let all = hands(&a.file)?;
    if all.is_empty() {
        return Err(format!("{}: no hand in the file", a.file.display()));
    }
    let picked: Vec<(usize, &HandLog)> = match a.hand {
        Some(n) if n == 0 || n > all.len() => {
            return Err(format!("--hand {n}: the file has hands 1 to {}", all.len()))
        }
        Some(n) => vec![(n, &all[n - 1])],
        None => all.iter().enumerate().map(|(i, h)| (i + 1, h)).collect(),
    };
    let mut out = String::new();
    for (n, log) in picked {
        for &seat in &seats {
            let mut bot = builtin_thinking(&a.bot, n as u64, a.think_ms).expect("checked");
            let r = agents::review::review(log, seat, bot.as_mut())
                .map_err(|e| format!("hand {n}: {e}"))?;
            if a.json {
                let mut line = r.report();
                line["hand"] = n.into();
                line["reviewer"] = a.bot.as_str().into();
                let _ = writeln!(out, "{line}");
                continue;
            }
            let _ = writeln!(
                out,
                "hand {n}, seat {seat}: {} decisions, {} where {} would play otherwise",
                r.decisions,
                r.notes.len(),
                a.bot
            );
            if r.weighed > 0 {
                let _ = writeln!(
                    out,
                    "  {} decisions weighed by search: the moves played were expected to lose {:.1} match points in all against the best {} saw",
                    r.weighed, r.expected_loss, a.bot
                );
            }
            for note in &r.notes {
                let cost = note.expected.map_or(String::new(), |(played, best, se)| {
                    format!(
                        " (expected {played:+.1} against {best:+.1} match points: costs {:.1} ± {se:.1})",
                        best - played
                    )
                });
                let _ = writeln!(
                    out,
                    "  #{} ({}): played {}; {}: {}{cost} — {}",
                    note.index, note.situation, note.played, a.bot, note.suggested, note.reason
                );
            }
        }
    }
    emit(&out)
}
