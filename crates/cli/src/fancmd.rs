//! `dupmj fan` and `dupmj waits`.

use std::fmt::Write as _;
use std::io::{BufRead, BufWriter, Write};

use crate::output::emit;
use clap::Args;
use mcr::{parse_hand, Rules, WinContext, Wind};
use serde_json::json;

use crate::handjson::score_line;

#[derive(Args)]
pub struct FanArgs {
    /// The hand, e.g. '[123m3][555p2][EEEE]789sPP' (winning tile last).
    hand: Option<String>,
    /// Won with a tile drawn from the wall.
    #[arg(long)]
    self_drawn: bool,
    /// The winning tile is the last of its kind (Last Tile).
    #[arg(long)]
    fourth_tile: bool,
    /// Kong replacement tile (self-drawn) or robbing a kong (on a discard).
    #[arg(long)]
    kong: bool,
    /// Last tile of the wall (Last Tile Draw / Last Tile Claim).
    #[arg(long)]
    last_tile: bool,
    /// Seat wind: E, S, W or N.
    #[arg(long, default_value = "E", value_parser = parse_wind)]
    seat: Wind,
    /// Prevalent wind: E, S, W or N.
    #[arg(long, default_value = "E", value_parser = parse_wind)]
    prevalent: Wind,
    /// Flower tiles (regular MCR only).
    #[arg(long, default_value_t = 0)]
    flowers: u8,
    /// Fan profile: seeds (default) or reference (`--rules` is an older spelling).
    #[arg(long = "fans", alias = "rules", value_name = "PROFILE", default_value = "seeds", value_parser = parse_rules)]
    rules: Rules,
    #[command(flatten)]
    out: crate::output::TextOrJson,
    /// Read JSON Lines hands (oracle format) on stdin, write them back scored.
    #[arg(long)]
    batch: bool,
}

#[derive(Args)]
pub struct WaitsArgs {
    /// 13 tiles less 3 per declared set, e.g. '[123m1]456p789s11pEE'.
    hand: String,
    /// Seat wind: E, S, W or N.
    #[arg(long, default_value = "E", value_parser = parse_wind)]
    seat: Wind,
    /// Prevalent wind: E, S, W or N.
    #[arg(long, default_value = "E", value_parser = parse_wind)]
    prevalent: Wind,
    /// Fan profile: seeds (default) or reference (`--rules` is an older spelling).
    #[arg(long = "fans", alias = "rules", value_name = "PROFILE", default_value = "seeds", value_parser = parse_rules)]
    rules: Rules,
    #[command(flatten)]
    out: crate::output::TextOrJson,
}

/// `writeln!` into a `String` (which cannot fail).
macro_rules! say {
    ($o:expr) => {
        $o.push('\n')
    };
    ($o:expr, $($t:tt)*) => {{
        let _ = writeln!($o, $($t)*);
    }};
}

fn parse_wind(s: &str) -> Result<Wind, String> {
    Wind::parse(s).ok_or_else(|| format!("'{s}' is not a wind: use E, S, W or N"))
}

pub(crate) fn parse_rules(s: &str) -> Result<Rules, String> {
    Rules::by_name(s).ok_or_else(|| format!("unknown rules '{s}': use seeds or reference"))
}

pub fn fan(a: FanArgs) -> Result<(), String> {
    if a.batch {
        // Every flag of the batch is in each line's JSON; a hand or flag given here would
        // be silently ignored, so it is refused.
        let given: Vec<&str> = [
            (a.hand.is_some(), "a hand"),
            (a.self_drawn, "--self-drawn"),
            (a.fourth_tile, "--fourth-tile"),
            (a.kong, "--kong"),
            (a.last_tile, "--last-tile"),
            (a.seat != Wind::East, "--seat"),
            (a.prevalent != Wind::East, "--prevalent"),
            (a.flowers != 0, "--flowers"),
            (a.out.json(), "--format json"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, what)| what)
        .collect();
        if !given.is_empty() {
            return Err(format!(
                "--batch reads every hand and its flags from the JSON lines on stdin; {} given here would be ignored",
                given.join(", ")
            ));
        }
        return batch(&a.rules);
    }
    let text = a
        .hand
        .as_deref()
        .ok_or("give a hand, or --batch to read JSON Lines on stdin")?;
    let ctx = WinContext {
        self_drawn: a.self_drawn,
        last_of_kind: a.fourth_tile,
        kong: a.kong,
        last_tile: a.last_tile,
        seat_wind: a.seat,
        prevalent_wind: a.prevalent,
        flowers: a.flowers,
    };
    let hand = parse_hand(text, ctx).map_err(|e| format!("hand '{text}': {e}"))?;
    let s = mcr::score(&hand, &a.rules).map_err(|e| format!("hand '{text}': {e}"))?;
    let ok = s.reaches_minimum(&a.rules);
    let mut out = String::new();
    if a.out.json() {
        let fans: Vec<_> = s
            .fans
            .iter()
            .map(|l| {
                json!({"no": l.fan.number(), "name": l.fan.name(), "chinese": l.fan.chinese(),
                       "points": l.points, "count": l.count, "sets": mcr::explain::uses(&s.reading, l.fan, &hand)})
            })
            .collect();
        let json = json!({"hand": hand.to_string(), "rules": a.rules.name(), "fans": fans, "total": s.total,
                         "reading": mcr::explain::reading_text(&s.reading), "reaches_minimum": ok});
        say!(
            out,
            "{}",
            serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?
        );
        return emit(&out);
    }
    say!(out, "hand     {hand}   (rules: {})", a.rules.name());
    say!(out, "reading  {}", mcr::explain::reading_text(&s.reading));
    say!(out);
    say!(
        out,
        "{:>3}  {:<34} {:>6} {:>5}  sets",
        "no",
        "fan",
        "points",
        "count"
    );
    for l in &s.fans {
        let name = format!("{} {}", l.fan.name(), l.fan.chinese());
        say!(
            out,
            "{:>3}  {:<width$} {:>6} {:>5}  {}",
            l.fan.number(),
            name,
            l.points,
            l.count,
            mcr::explain::uses(&s.reading, l.fan, &hand),
            width = 34 + name.chars().count() - display_width(&name),
        );
    }
    say!(out);
    let note = if ok {
        String::new()
    } else {
        format!(
            "   (below the {}-point minimum: not a legal win)",
            a.rules.min_points
        )
    };
    say!(out, "total    {}{note}", s.total);
    emit(&out)
}

/// Columns a string takes in a terminal (CJK characters take two).
fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| if (c as u32) >= 0x2E80 { 2 } else { 1 })
        .sum()
}

fn batch(rules: &Rules) -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut raw = Vec::new();
    for n in 1.. {
        raw.clear();
        let read = input
            .read_until(b'\n', &mut raw)
            .map_err(|e| format!("reading line {n}: {e}"))?;
        if read == 0 {
            break;
        }
        // A line that is not UTF-8 gets its error alone; the batch goes on.
        let v = match std::str::from_utf8(&raw) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => score_line(line.trim_end_matches(['\n', '\r']), rules),
            Err(e) => {
                json!({ "error": format!("line {n} is not UTF-8 (byte {})", e.valid_up_to() + 1) })
            }
        };
        let mut text = serde_json::to_string(&v).map_err(|e| e.to_string())?;
        text.push('\n');
        if let Err(e) = out.write_all(text.as_bytes()) {
            return broken_pipe_ok(e);
        }
    }
    out.flush().or_else(broken_pipe_ok)
}

fn broken_pipe_ok(e: std::io::Error) -> Result<(), String> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(format!("writing output: {e}"))
    }
}

pub fn waits(a: WaitsArgs) -> Result<(), String> {
    let h =
        mcr::notation::parse_hand_text(&a.hand).map_err(|e| format!("hand '{}': {e}", a.hand))?;
    let mut standing = h.concealed.clone();
    standing.push(h.win);
    let ctx = WinContext {
        seat_wind: a.seat,
        prevalent_wind: a.prevalent,
        ..WinContext::default()
    };
    let (sh, ws) = mcr::waits(&standing, &h.melds, ctx, &a.rules)
        .map_err(|e| format!("hand '{}': {e}", a.hand))?;
    let mut out = String::new();
    if a.out.json() {
        let w: Vec<_> = ws
            .iter()
            .map(|w| {
                json!({"tile": w.tile.code(), "self_drawn": w.self_drawn, "discard": w.discard,
                            "self_drawn_ok": w.self_drawn_ok, "discard_ok": w.discard_ok})
            })
            .collect();
        let json = json!({"shanten": sh.min(), "by_shape": {"regular": sh.regular, "seven_pairs": sh.seven_pairs,
            "thirteen_orphans": sh.thirteen_orphans, "honors_knitted": sh.honors_knitted,
            "knitted_straight": sh.knitted_straight}, "waits": w});
        say!(
            out,
            "{}",
            serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?
        );
        return emit(&out);
    }
    let label = match sh.min() {
        -1 => "complete (already a winning shape)".to_string(),
        0 => "0 (ready)".to_string(),
        n => n.to_string(),
    };
    say!(out, "shanten  {label}");
    if ws.is_empty() {
        return emit(&out);
    }
    say!(out);
    say!(out, "{:<5} {:>11} {:>9}", "tile", "self-drawn", "discard");
    let show = |v: Option<u32>, ok: bool| match v {
        Some(p) if ok => format!("{p}"),
        Some(p) => format!("{p} (<{})", a.rules.min_points),
        None => "-".into(),
    };
    for w in &ws {
        say!(
            out,
            "{:<5} {:>11} {:>9}",
            w.tile.code(),
            show(w.self_drawn, w.self_drawn_ok),
            show(w.discard, w.discard_ok)
        );
    }
    emit(&out)
}
