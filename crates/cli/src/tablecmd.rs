//! `dupmj deal`, `dupmj play` and `dupmj replay`.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::time::Instant;

use crate::output::emit;
use agents::drive::play_hand;
use agents::{agent::Agent, registry::builtin_thinking};
use clap::{Args, ValueEnum};
use mcr::Wind;
use table::game::{replay_game, Game, GameLog, GAME_FORMAT};
use table::log::{replay, Event, HandLog};
use table::wall::WallModel;
use table::{sheet, Deal, Outcome, TableRules};

/// Which game `play` and `bench play` play.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Duplicate hands: personal walls, no bonus tiles (rules §3).
    Duplicate,
    /// Regular 16-hand games: one shared wall with bonus tiles, seats rotating (rules §8).
    Regular,
}

impl GameKind {
    fn default_rules(self) -> &'static str {
        match self {
            GameKind::Duplicate => "seeds",
            GameKind::Regular => "regular",
        }
    }
    fn model(self) -> WallModel {
        match self {
            GameKind::Duplicate => WallModel::Personal,
            GameKind::Regular => WallModel::Shared,
        }
    }
}

/// The table rules named by `--rules` (or the game's default), checked against the game.
pub fn rules_for(game: GameKind, name: Option<&str>) -> Result<TableRules, String> {
    let name = name.unwrap_or(game.default_rules());
    let rules = TableRules::by_name(name).ok_or_else(|| {
        format!(
            "unknown rules '{name}': use one of {}",
            table::rules::PROFILES.join(", ")
        )
    })?;
    if rules.wall != game.model() {
        let want = match game {
            GameKind::Duplicate => "duplicate (seeds, botzone)",
            GameKind::Regular => "regular (regular, regular-bonus-discard)",
        };
        return Err(format!(
            "--rules {name} does not play this game: use {want} rules, or the other --game"
        ));
    }
    Ok(rules)
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DealFormat {
    Json,
    Text,
    Html,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["seed", "key", "new_set"])))]
pub struct DealArgs {
    /// Seed of the first deal; deal i uses seed + i − 1 (each deal follows from the one
    /// before: for deals known to all).
    #[arg(long)]
    seed: Option<u64>,
    /// The key of a deal set (64 hex digits): deal i from the key alone, none following
    /// from another (see `table::set`).
    #[arg(long)]
    key: Option<String>,
    /// Make a new secret deal set: print its key (keep it) and its commitment (publish it).
    #[arg(long)]
    new_set: bool,
    /// How many deals (`--count` is an older spelling).
    #[arg(long = "deals", alias = "count", default_value_t = 1)]
    count: u64,
    /// Output form: text (the staff's sheet), json (the deal JSON) or html (a page per deal,
    /// for A4).
    #[arg(long, value_enum, default_value = "text", value_name = "FORM")]
    format: DealFormat,
}

#[derive(Args)]
pub struct PlayArgs {
    /// duplicate hands (the default) or regular 16-hand games.
    #[arg(long, value_enum, default_value = "duplicate")]
    game: GameKind,
    /// Deals to play (duplicate).
    #[arg(long, default_value_t = 1)]
    deals: u64,
    /// Games to play (regular); game g uses the walls of seeds seed + 16(g − 1) ….
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Hands per regular game (1–16): an event that stops at a number of hands.
    #[arg(long, default_value_t = 16)]
    hands: usize,
    /// Stop each regular game after this many seconds; the hand in play counts nothing
    /// (`--time-limit` is an older spelling).
    #[arg(long = "game-seconds", alias = "time-limit", value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Seed of the first deal (deal i uses seed + i − 1); bots are seeded from it too.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Four bots by seat E,S,W,N (in a regular game, by seat in the first hand): random,
    /// easy (greedy), greedy-r, medium, strong or expert.
    #[arg(long, default_value = "greedy,greedy,greedy,greedy")]
    bots: String,
    /// Table rules: seeds or botzone (duplicate), regular or regular-bonus-discard.
    #[arg(long)]
    rules: Option<String>,
    /// Milliseconds per decision for a bot that searches (`expert`): its playouts in
    /// proportion to the default's (768 playouts for 200 ms: a median 175 ms on one core here).
    #[arg(long, value_name = "MS", default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
    think_ms: u32,
    /// Write every hand's log (duplicate) or every game's log (regular) to this file, JSON
    /// Lines.
    #[arg(long, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// A log file written by `dupmj play --log` (JSON Lines, one hand per line).
    file: std::path::PathBuf,
    /// Only check; print one line per hand, not its events (`--quiet` is an older
    /// spelling).
    #[arg(long = "summary", alias = "quiet")]
    quiet: bool,
}

/// The most deals `dupmj deal` prints at once (a printed sheet is a page per deal).
const MAX_DEALS: u64 = 100_000;
const MAX_HTML_DEALS: u64 = 2_000;

pub fn deal(a: DealArgs) -> Result<(), String> {
    if a.new_set {
        let mut b = [0u8; 32];
        getrandom::fill(&mut b).map_err(|e| format!("no randomness from the system: {e}"))?;
        let key = table::set::SetKey::from_bytes(b);
        println!("key:        {}", key.hex());
        println!("commitment: {}", key.commitment());
        println!("Keep the key secret until the deals are played; publish the commitment now.");
        println!("The sheets: dupmj deal --key KEY --deals N --format html");
        return Ok(());
    }
    let key = a
        .key
        .as_deref()
        .map(|k| table::set::SetKey::parse(k).map_err(|e| format!("--{e}")))
        .transpose()?;
    let seed = a.seed.unwrap_or(0);
    crate::limits::deals_up_to(a.count, if key.is_some() { 0 } else { seed }, MAX_DEALS)?;
    if matches!(a.format, DealFormat::Html) && a.count > MAX_HTML_DEALS {
        return Err(format!(
            "--deals {}: an HTML sheet takes at most {MAX_HTML_DEALS} deals (a page each)",
            a.count
        ));
    }
    let deal_at = |i: u64| {
        let s = match &key {
            Some(k) => k.seed(i as usize),
            None => seed + i,
        };
        ((i + 1).to_string(), Deal::generate(s))
    };
    if matches!(a.format, DealFormat::Html) {
        let deals: Vec<(String, Deal)> = (0..a.count).map(deal_at).collect();
        return emit(&server::print::labels(&deals).map_err(|e| format!("deal sheets: {e}"))?);
    }
    // Text and JSON are written deal by deal, never held whole.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = (|| -> std::io::Result<()> {
        for i in 0..a.count {
            let (n, d) = deal_at(i);
            match a.format {
                DealFormat::Text => {
                    if i > 0 {
                        out.write_all(b"\n")?;
                    }
                    out.write_all(sheet::text(&d, &n).as_bytes())?;
                }
                _ => {
                    let one = serde_json::to_string_pretty(&d.to_json())
                        .map_err(std::io::Error::other)?;
                    if a.count == 1 {
                        writeln!(out, "{one}")?;
                        continue;
                    }
                    // The layout of a pretty-printed array, one deal at a time.
                    out.write_all(if i == 0 { b"[\n" } else { b",\n" })?;
                    let indented: Vec<String> = one.lines().map(|l| format!("  {l}")).collect();
                    out.write_all(indented.join("\n").as_bytes())?;
                    if i + 1 == a.count {
                        out.write_all(b"\n]\n")?;
                    }
                }
            }
        }
        out.flush()
    })();
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing output: {e}")),
        _ => Ok(()),
    }
}

/// Four built-in bots by seat from `spec` (E,S,W,N), seeded from `seed`; `think_ms` is the
/// budget of a bot that searches.
pub fn lineup(spec: &str, seed: u64, think_ms: u32) -> Result<[Box<dyn Agent + Send>; 4], String> {
    let names: Vec<&str> = spec.split(',').map(str::trim).collect();
    if names.len() != 4 {
        return Err(format!(
            "--bots needs four bots (E,S,W,N), got {}",
            names.len()
        ));
    }
    let mut v = Vec::new();
    for (i, n) in names.iter().enumerate() {
        v.push(
            builtin_thinking(n, seed.wrapping_mul(4).wrapping_add(i as u64), think_ms).ok_or_else(
                || {
                    format!(
                        "unknown bot '{n}': use one of {}",
                        agents::registry::BUILTIN.join(", ")
                    )
                },
            )?,
        );
    }
    v.try_into().map_err(|_| "four bots".to_string())
}

pub fn play(a: PlayArgs) -> Result<(), String> {
    let rules = rules_for(a.game, a.rules.as_deref())?;
    if a.game == GameKind::Regular {
        return play_games(a, rules);
    }
    crate::limits::deals(a.deals, a.seed)?;
    let mut log = match &a.log {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => None,
    };
    let names: Vec<String> = a.bots.split(',').map(|s| s.trim().to_string()).collect();
    let (mut points, mut wins, mut self_drawn, mut dealt_in) =
        ([0i64; 4], [0u32; 4], [0u32; 4], [0u32; 4]);
    let (mut draws, mut value_sum, mut win_count) = (0u32, 0u64, 0u64);
    let mut main_fans: std::collections::BTreeMap<String, u64> = Default::default();
    let start = Instant::now();
    for i in 0..a.deals {
        let seed = a.seed.wrapping_add(i);
        let mut agents = lineup(&a.bots, seed, a.think_ms)?;
        // Keep the full log only when it is written.
        let (hand, table) = if log.is_some() {
            (
                Some(play_hand(Deal::generate(seed), rules.clone(), &mut agents)),
                None,
            )
        } else {
            (
                None,
                Some(agents::drive::play_table(Deal::generate(seed), rules.clone(), &mut agents).0),
            )
        };
        let r = match (&hand, &table) {
            (Some(h), _) => h.result.clone(),
            (_, Some(t)) => t.result().cloned(),
            _ => None,
        }
        .ok_or("a hand did not finish")?;
        for (total, p) in points.iter_mut().zip(r.points) {
            *total += p as i64;
        }
        if r.kind == Outcome::Draw {
            draws += 1;
        }
        if let Some(d) = r.discarder {
            dealt_in[d.index()] += 1;
        }
        for w in &r.wins {
            wins[w.seat.index()] += 1;
            value_sum += w.value as u64;
            win_count += 1;
            // The main fan: the one worth most (the first listed among equals).
            if let Some(f) = w
                .fans
                .iter()
                .rev()
                .max_by_key(|f| f.points)
                .filter(|f| f.no != 81)
            {
                *main_fans.entry(f.name.clone()).or_default() += 1;
            }
            if w.self_drawn {
                self_drawn[w.seat.index()] += 1;
            }
        }
        if let (Some(f), Some(hand)) = (log.as_mut(), &hand) {
            let line = serde_json::to_string(hand).map_err(|e| e.to_string())?;
            writeln!(f, "{line}").map_err(|e| format!("writing the log: {e}"))?;
        }
    }
    if let Some(mut f) = log {
        f.flush().map_err(|e| format!("writing the log: {e}"))?;
    }
    let secs = start.elapsed().as_secs_f64();
    let mut out = String::new();
    let n = a.deals.max(1) as f64;
    let _ = writeln!(
        out,
        "{} hands, rules {}, seed {} ({:.2} s)",
        a.deals, rules.name, a.seed, secs
    );
    let _ = writeln!(
        out,
        "draws {} ({:.1}%), average winning value {:.1}",
        draws,
        100.0 * draws as f64 / n,
        value_sum as f64 / (win_count.max(1)) as f64
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "seat  bot      wins  self-drawn  dealt in  match points  per hand"
    );
    for w in Wind::ALL {
        let s = w.index();
        let _ = writeln!(
            out,
            "{:<5} {:<8} {:>4}  {:>10}  {:>8}  {:>12}  {:>8.2}",
            w.to_string(),
            names.get(s).map_or("?", |x| x.as_str()),
            wins[s],
            self_drawn[s],
            dealt_in[s],
            points[s],
            points[s] as f64 / n
        );
    }
    if win_count > 0 {
        let mut fans: Vec<(&String, &u64)> = main_fans.iter().collect();
        fans.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let _ = writeln!(out, "\nwins by main fan (the fan worth most in the hand):");
        for (name, n) in fans.iter().take(10) {
            let _ = writeln!(
                out,
                "  {:<32} {:>6}  {:>5.1}%",
                name,
                n,
                100.0 * **n as f64 / win_count as f64
            );
        }
    }
    emit(&out)
}

/// `play --game regular`: whole games, each player's score and table points.
fn play_games(a: PlayArgs, rules: TableRules) -> Result<(), String> {
    if a.games == 0 || a.games > crate::limits::MAX_GAMES {
        return Err(format!(
            "--games {}: give 1 to {} games",
            a.games,
            crate::limits::MAX_GAMES
        ));
    }
    let names: Vec<String> = a.bots.split(',').map(|s| s.trim().to_string()).collect();
    lineup(&a.bots, a.seed, a.think_ms)?; // checks the names before anything is written
    let mut log = match &a.log {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => None,
    };
    let limit = match a.time_limit {
        Some(t) => Some(crate::limits::seconds(t, "--game-seconds")?),
        None => None,
    };
    let start = Instant::now();
    let mut out = String::new();
    let mut totals = ([0i64; 4], [0f64; 4]);
    let (mut hands, mut draws) = (0usize, 0usize);
    for g in 0..a.games {
        let first = g
            .checked_mul(16)
            .and_then(|x| a.seed.checked_add(x))
            .ok_or_else(|| {
                format!(
                    "--seed {}: game {} runs past the largest seed",
                    a.seed,
                    g + 1
                )
            })?;
        let mut game = Game::new(rules.clone(), first, a.hands).map_err(|e| e.0)?;
        let deadline = limit.map(|l| Instant::now() + l);
        // Player p's bot for hand k, seeded as `lineup` seeds seat p for seed first + k.
        let mut make = |p: usize, k: usize| {
            let seed = first
                .wrapping_add(k as u64)
                .wrapping_mul(4)
                .wrapping_add(p as u64);
            builtin_thinking(&names[p], seed, a.think_ms).expect("checked above")
        };
        let (logs, _) = agents::drive::play_game(&mut game, &mut make, deadline, log.is_some());
        hands += game.played();
        draws += game
            .results()
            .iter()
            .filter(|r| r.kind == Outcome::Draw)
            .count();
        let tp = game.table_points();
        let _ = writeln!(
            out,
            "game {} (walls of seeds {}–{}): {} hands{}",
            g + 1,
            first,
            first + a.hands as u64 - 1,
            game.played(),
            if game.stopped() {
                ", stopped at the time limit"
            } else {
                ""
            }
        );
        player_lines(&mut out, &names, game.scores(), tp);
        for (p, (score, points)) in game.scores().into_iter().zip(tp).enumerate() {
            totals.0[p] += score;
            totals.1[p] += points;
        }
        if let Some(f) = log.as_mut() {
            let gl = GameLog::of(&game, names.clone(), logs);
            let line = serde_json::to_string(&gl).map_err(|e| e.to_string())?;
            writeln!(f, "{line}").map_err(|e| format!("writing the log: {e}"))?;
        }
    }
    if let Some(mut f) = log {
        f.flush().map_err(|e| format!("writing the log: {e}"))?;
    }
    let head = format!(
        "{} games, rules {}, seed {} ({:.2} s); {} hands, washouts {} ({:.1}%)\n",
        a.games,
        rules.name,
        a.seed,
        start.elapsed().as_secs_f64(),
        hands,
        draws,
        100.0 * draws as f64 / hands.max(1) as f64
    );
    if a.games > 1 {
        let _ = writeln!(out, "all games:");
        player_lines(&mut out, &names, totals.0, totals.1);
    }
    emit(&(head + &out))
}

/// One line per player: name, score and table points.
fn player_lines(out: &mut String, names: &[String], scores: [i64; 4], points: [f64; 4]) {
    for (p, name) in names.iter().enumerate().take(4) {
        let _ = writeln!(
            out,
            "  player {} {:<8} score {:>6}  table points {}",
            p + 1,
            name,
            scores[p],
            points[p]
        );
    }
}

fn account(log: &HandLog) -> String {
    let mut out = String::new();
    for e in &log.events {
        let line = match e {
            Event::Draw {
                seat,
                tile,
                label,
                replacement,
                end,
            } => {
                format!(
                    "{seat} draws {tile} ({label}{}){}",
                    match end {
                        Some(table::wall::WallEnd::Live) => ", live end",
                        Some(table::wall::WallEnd::Back) => ", back end",
                        None => "",
                    },
                    if *replacement { ", replacement" } else { "" }
                )
            }
            Event::Bonus {
                seat,
                bonus,
                label,
                end,
            } => match end {
                None => format!("{seat} sets aside the dealt bonus tile {bonus} ({label})"),
                Some(_) => {
                    format!("{seat} draws the bonus tile {bonus} ({label}) and sets it aside")
                }
            },
            Event::DiscardBonus { seat, bonus } => {
                format!("{seat} discards the bonus tile {bonus} (nobody may claim it)")
            }
            Event::Discard { seat, tile } => format!("{seat} discards {tile}"),
            Event::Chow { seat, tile, low } => {
                let run: Vec<String> = (0..3)
                    .filter_map(|k| low.offset(k))
                    .map(|t| t.to_string())
                    .collect();
                format!("{seat} chows {tile} into {}", run.join(" "))
            }
            Event::Pung { seat, tile } => format!("{seat} pungs {tile}"),
            Event::Kong { seat, tile, kind } => format!("{seat} declares a {kind} kong of {tile}"),
            Event::LastTilePoint { seat } => {
                format!("last tile of the wall reached as {seat} takes the turn")
            }
            Event::Hu { win } => {
                format!(
                    "{} wins with {} | {}: {} points ({})",
                    win.seat,
                    win.hand,
                    win.flags,
                    win.value,
                    win.fan_list("x")
                )
            }
            Event::End { result } => format!(
                "end: {}; match points E {} S {} W {} N {}",
                result.kind, result.points[0], result.points[1], result.points[2], result.points[3]
            ),
        };
        let _ = writeln!(out, "  {line}");
    }
    out
}

pub fn replay_cmd(a: ReplayArgs) -> Result<(), String> {
    let f = std::fs::File::open(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let mut out = String::new();
    let mut n = 0;
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| format!("{} line {}: {e}", a.file.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let here = |e: String| format!("{} line {}: {e}", a.file.display(), i + 1);
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| here(format!("not JSON: {e}")))?;
        if value.get("format").and_then(|f| f.as_str()) == Some(GAME_FORMAT) {
            let game: GameLog = crate::jsonin::object(value, "a game log").map_err(here)?;
            let g = replay_game(&game).map_err(|e| here(e.0))?;
            n += game.hands.len();
            let _ = writeln!(
                out,
                "game (walls from seed {}): replayed, {} hands, all legal; scores {:?}, table points {:?}",
                game.first_seed,
                game.hands.len(),
                g.scores(),
                g.table_points()
            );
            if !a.quiet {
                for (k, h) in game.hands.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        " hand {} (prevalent {}, players by seat E S W N: {:?}): points {:?}",
                        k + 1,
                        table::game::prevalent_of(k),
                        h.seating.map(|p| p + 1),
                        h.log.result.as_ref().map(|r| r.points).unwrap_or([0; 4])
                    );
                    out.push_str(&account(&h.log));
                }
            }
            continue;
        }
        let log: HandLog = crate::jsonin::object(value, "a hand log").map_err(here)?;
        replay(&log).map_err(|e| format!("{} line {}: {e}", a.file.display(), i + 1))?;
        n += 1;
        let seed = log
            .deal
            .get("seed")
            .and_then(|s| s.as_u64())
            .map_or(String::new(), |s| format!(" (seed {s})"));
        let points = log.result.as_ref().map(|r| r.points).unwrap_or([0; 4]);
        let _ = writeln!(
            out,
            "hand {n}{seed}: replayed, {} events, all legal; points {:?}",
            log.events.len(),
            points
        );
        if !a.quiet {
            out.push_str(&account(&log));
        }
    }
    let _ = writeln!(out, "{n} hands replayed");
    emit(&out)
}
