//! Test bots for the Botzone protocol, one per way real contest bots read and write.
//!
//! `botzone_kinds KIND [--simple] [--keep-running]`. Every kind plays the same way —
//! pass on everything, and on its own draw discard the lowest tile it holds (W < T < B < F
//! < J, then by number) — so their results can be compared. Kinds:
//!
//! - `line`: reads its input line by line and answers in one compact line.
//! - `to-eof`: reads all of its input up to end of file (as jsoncpp's `cin >> value` does)
//!   and pretty-prints its JSON answer over several lines (as jsoncpp's `cout << value`).
//! - `blank-first`: a blank line, then the answer (older jsoncpp).
//! - `no-newline`: the answer without a final newline, then exits.
//! - `data`: keeps its hand in `data`, reading only the last request (JSON interaction).
//! - `framework`: the keep-running main loop of many contest frameworks: reads the turn
//!   number, then every request line by line from turn 0 (simple interaction).
//! - `false-hu`: answers `HU` to every other seat's draw, where only PASS is allowed.
//! - `lingering`: starts a child that keeps stdout open, answers and exits.
use std::io::{BufRead, Read, Write};

const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Tile codes in play order.
fn order(t: &str) -> (usize, u8) {
    let suit = "WTBFJ".find(&t[..1]).unwrap_or(9);
    (suit, t.as_bytes().get(1).copied().unwrap_or(0))
}

/// The hand and the seat, followed request by request.
#[derive(Default)]
struct Bot {
    seat: Option<usize>,
    hand: Vec<String>,
}

impl Bot {
    fn respond(&mut self, request: &str, false_hu: bool) -> String {
        let w: Vec<&str> = request.split_whitespace().collect();
        match w.first().copied() {
            Some("0") => self.seat = w.get(1).and_then(|s| s.parse().ok()),
            Some("1") => self.hand = w[5..18].iter().map(|s| s.to_string()).collect(),
            Some("2") => {
                self.hand.push(w[1].to_string());
                self.hand.sort_by_key(|t| order(t));
                let t = self.hand.remove(0);
                return format!("PLAY {t}");
            }
            Some("3")
                if false_hu && w.get(2) == Some(&"DRAW") && w[1].parse().ok() != self.seat =>
            {
                return "HU".into();
            }
            _ => {}
        }
        "PASS".into()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map(String::as_str).unwrap_or("line");
    let simple = args.iter().any(|a| a == "--simple");
    let keep = args.iter().any(|a| a == "--keep-running") || kind == "framework";
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut bot = Bot::default();
    let false_hu = kind == "false-hu";

    if kind == "framework" {
        // Turn number, then requests one per line for the rest of the hand.
        let mut line = String::new();
        input.read_line(&mut line).ok();
        loop {
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line.trim().is_empty() => continue,
                Ok(_) => {}
            }
            let answer = bot.respond(line.trim(), false);
            println!("{answer}\n{KEEP_RUNNING}");
            std::io::stdout().flush().ok();
        }
    }

    // The first input: every request so far, the responses and the saved data.
    let (requests, data): (Vec<String>, serde_json::Value) = if simple {
        let mut text = String::new();
        input.read_line(&mut text).ok();
        let n: usize = text.trim().parse().unwrap_or(0);
        let mut requests = Vec::new();
        for i in 0..2 * n.max(1) - 1 {
            let mut l = String::new();
            input.read_line(&mut l).ok();
            if i % 2 == 0 {
                requests.push(l.trim().to_string());
            }
        }
        (requests, serde_json::Value::Null)
    } else {
        let mut text = String::new();
        if kind == "to-eof" {
            input.read_to_string(&mut text).ok();
        } else {
            input.read_line(&mut text).ok();
        }
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let requests = v["requests"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| r.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default();
        (requests, v["data"].clone())
    };

    let answer = if kind == "data" {
        // Only the last request is read; the hand comes back in `data`.
        if let Some(saved) = data.as_str().filter(|s| !s.is_empty()) {
            let mut parts = saved.split(';');
            bot.seat = parts.next().and_then(|s| s.parse().ok());
            bot.hand = parts
                .next()
                .unwrap_or("")
                .split(',')
                .map(String::from)
                .collect();
            bot.hand.retain(|t| !t.is_empty());
        }
        bot.respond(requests.last().map_or("", String::as_str), false)
    } else {
        let mut last = String::new();
        for r in &requests {
            last = bot.respond(r, false_hu);
        }
        last
    };

    if kind == "lingering" {
        // A child that holds stdout open long after this process has gone.
        std::process::Command::new("sh")
            .args(["-c", "sleep 30; : botzone-kinds-lingering"])
            .spawn()
            .ok();
    }
    let saved = format!(
        "{};{}",
        bot.seat.map_or(String::new(), |s| s.to_string()),
        bot.hand.join(",")
    );
    let compact = serde_json::json!({ "response": answer, "data": saved }).to_string();
    let mut out = std::io::stdout().lock();
    let text = match (kind, simple) {
        (_, true) if kind == "no-newline" => answer.clone(),
        (_, true) => format!("{answer}\n"),
        ("to-eof", _) => format!("{{\n   \"response\" : \"{answer}\"\n}}\n"),
        ("blank-first", _) => format!("\n{compact}\n"),
        ("no-newline", _) => compact,
        _ => format!("{compact}\n"),
    };
    out.write_all(text.as_bytes()).ok();
    out.flush().ok();
    if !keep {
        return;
    }
    writeln!(out, "{KEEP_RUNNING}").ok();
    out.flush().ok();
    for line in input.lines() {
        let Ok(line) = line else { return };
        if line.trim().is_empty() {
            continue;
        }
        let request = if simple {
            line.trim().to_string()
        } else {
            serde_json::from_str::<String>(&line).unwrap_or_default()
        };
        let answer = bot.respond(&request, false_hu);
        let text = if simple {
            answer
        } else {
            serde_json::json!({ "response": answer }).to_string()
        };
        writeln!(out, "{text}\n{KEEP_RUNNING}").ok();
        out.flush().ok();
    }
}
