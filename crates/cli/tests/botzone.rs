//! Botzone bots as Botzone runs them: real child processes of every kind contest bots
//! come in (`examples/botzone_kinds.rs`), through `dupmj arena`.

use std::path::PathBuf;
use std::process::Command;

/// The test bots' binary, built here when a narrower `cargo test` skipped the examples.
fn kinds_bot() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let bot = dir.join("examples").join("botzone_kinds");
    if !bot.exists() {
        let ok = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "dupmj", "--example", "botzone_kinds"])
            .status()
            .unwrap()
            .success();
        assert!(ok, "cargo build --example botzone_kinds");
    }
    bot
}

struct Run {
    report: serde_json::Value,
    /// Each hand's log, with the seat the Botzone bot sat in.
    hands: Vec<(usize, serde_json::Value)>,
    /// The Botzone bot's requests and responses, one per hand.
    transcripts: Vec<serde_json::Value>,
}

/// `dupmj arena --bots bz,greedy` on one deal (four hands, bz in each seat once).
fn arena(def: &str, extra: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!(
        "dupmj-botzone-{}-{:x}",
        std::process::id(),
        def.bytes()
            .chain(extra.concat().bytes())
            .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64))
    ));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let (logs, transcripts) = (dir.join("logs"), dir.join("transcripts.jsonl"));
    let mut args = vec![
        "arena".to_string(),
        "--bots".into(),
        "bz,greedy".into(),
        "--bot".into(),
        def.into(),
        "--deals".into(),
        "1".into(),
        "--seed".into(),
        "3".into(),
        "--time-limit".into(),
        "3".into(),
        "--log".into(),
        logs.display().to_string(),
        "--transcripts".into(),
        transcripts.display().to_string(),
        "--json".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{def}: {err}");
    let mut hands = Vec::new();
    for e in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        // Hand k of a deal has the challenger in seat k.
        for (k, l) in text.lines().enumerate() {
            hands.push((k, serde_json::from_str(l).unwrap()));
        }
    }
    let transcripts = std::fs::read_to_string(&transcripts)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    Run {
        report: serde_json::from_slice(&out.stdout).unwrap(),
        hands,
        transcripts,
    }
}

fn counts(r: &Run) -> (u64, u64) {
    let bz = &r.report["bots"][0];
    (
        bz["errors"].as_u64().unwrap(),
        bz["timeouts"].as_u64().unwrap(),
    )
}

/// `botzone:` or `botzone-simple:` with the kinds bot.
fn def(simple: bool, args: &str) -> String {
    let bot = kinds_bot();
    let how = if simple { "botzone-simple" } else { "botzone" };
    let flag = if simple { " --simple" } else { "" };
    format!("bz={how}:{} {args}{flag}", bot.display())
}

#[test]
fn every_kind_of_contest_bot_plays_unchanged() {
    // Under the judge's rules an error ends the hand, so a bot that fails fails fast.
    let judge = ["--rules", "botzone"];
    // The plain bot, read line by line: the reference for the others, which play alike.
    let plain = arena(&def(false, "line"), &judge);
    assert_eq!(counts(&plain), (0, 0), "{}", plain.report);
    let expected = plain.report["bots"].clone();
    // Botzone asks at every request, from turn 0, whatever the seat may do.
    for t in &plain.transcripts {
        let (req, resp) = (
            t["requests"].as_array().unwrap(),
            t["responses"].as_array().unwrap(),
        );
        assert_eq!(req.len(), resp.len());
        assert!(req[0].as_str().unwrap().starts_with("0 "));
        assert!(req[1].as_str().unwrap().starts_with("1 0 0 0 0 "));
        assert!(req.iter().any(|r| r.as_str().unwrap().ends_with(" DRAW")));
        assert!(resp.iter().filter(|r| *r == "PASS").count() > resp.len() / 2);
    }
    for (simple, kind) in [
        (false, "to-eof"),      // point 1 and 2: reads to end of file, pretty-prints
        (false, "blank-first"), // point 2: a blank line before the JSON
        (false, "no-newline"),  // point 3: no final newline, then exits
        (true, "no-newline"),   // point 3, simple interaction
        (false, "data"),        // point 4: state in `data`
        (true, "framework"),    // point 5: keep-running loop from turn 0
        (false, "line --keep-running"),
        (true, "line --keep-running"),
        (false, "lingering"), // point 8: a child keeps stdout open
    ] {
        let d = def(simple, kind);
        let r = arena(&d, &judge);
        assert_eq!(counts(&r), (0, 0), "{d}: {}", r.report);
        assert_eq!(r.report["bots"], expected, "{d} plays as the plain bot");
    }
    let left = Command::new("pgrep")
        .args(["-f", "botzone-kinds-lingering"])
        .output()
        .unwrap();
    assert!(left.stdout.is_empty(), "a lingering child was left running");
}

#[test]
fn a_false_hu_where_only_pass_is_allowed_ends_the_hand_as_the_judge_does() {
    let d = def(false, "false-hu");
    // Under the judge's rules: the first other seat's draw after the deal is answered HU,
    // an error; the hand ends there, −30 to the bot and +10 to each other seat.
    let r = arena(&d, &["--rules", "botzone"]);
    assert_eq!(r.hands.len(), 4);
    for (k, h) in &r.hands {
        let result = &h["result"];
        assert_eq!(result["kind"], "fault", "{h}");
        assert_eq!(result["offender"], ["E", "S", "W", "N"][*k]);
        let mut points = [10; 4];
        points[*k] = -30;
        assert_eq!(result["points"], serde_json::json!(points));
    }
    // One error per hand, the first "3 p DRAW" of another seat: the hand stopped there.
    assert_eq!(counts(&r).0, 4);
    for t in &r.transcripts {
        let last = t["requests"].as_array().unwrap().last().unwrap().clone();
        let last = last.as_str().unwrap();
        assert!(last.starts_with("3 ") && last.ends_with(" DRAW"), "{last}");
        assert_eq!(t["responses"].as_array().unwrap().last().unwrap(), "HU");
    }
    // With the safe default the hands play on and every false Hu is counted.
    let safe = arena(&d, &["--rules", "botzone", "--bot-errors", "safe"]);
    let errors = counts(&safe).0;
    assert!(errors > 40, "{errors}");
    assert!(safe
        .hands
        .iter()
        .all(|(_, h)| h["result"]["kind"] != "fault"));
}
