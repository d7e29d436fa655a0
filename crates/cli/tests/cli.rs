//! The `dupmj` binary end to end: real processes, real output.
//!
//! Longer than most files: one short section per subcommand, sharing the process helpers
//! at the top.

use std::io::Write;
use std::process::{Command, Stdio};

fn dupmj(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dupmj runs");
    {
        let mut input = child.stdin.take().expect("stdin");
        input
            .write_all(stdin.unwrap_or("").as_bytes())
            .expect("write stdin");
    }
    let out = child.wait_with_output().expect("dupmj ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

// rules §1's example hand, East seat in the East round, won on a discard. By S4:
// All Types 6, Prevalent Wind 2, Seat Wind 2, Concealed Kong 2, Pung of Terminals or
// Honours 1 (#73 allows it with a wind fan), Single Wait 1 = 14. The reference calculator
// gives 13 (no Pung of Terminals or Honours on a seat-wind pung).
const SPEC_HAND: &str = "[123m3][555p2][EEEE]789sPP";

/// The number on the `total` line of `dupmj fan`'s table.
fn total_of(out: &str) -> Option<u32> {
    out.lines()
        .find_map(|l| l.strip_prefix("total"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

#[test]
fn fan_prints_a_table_and_the_total() {
    let (code, out, _) = dupmj(&["fan", SPEC_HAND], None);
    assert_eq!(code, 0);
    assert!(out.contains("All Types"), "{out}");
    assert!(out.contains("pair PP"), "{out}");
    assert_eq!(total_of(&out), Some(14), "{out}");
    let (_, out, _) = dupmj(&["fan", SPEC_HAND, "--rules", "reference"], None);
    assert_eq!(total_of(&out), Some(13), "{out}");
}

#[test]
fn fan_json() {
    let (code, out, _) = dupmj(&["fan", SPEC_HAND, "--json"], None);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["total"], 14);
    assert_eq!(v["reaches_minimum"], true);
    let nos: Vec<u64> = v["fans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["no"].as_u64().unwrap())
        .collect();
    assert_eq!(nos, vec![51, 60, 61, 67, 73, 79]);
}

/// A fan drill's answer is what `dupmj fan` says of the same hand, run from the command
/// line the drill shows.
#[test]
fn fan_drills_read_as_dupmj_fan_does() {
    let rules = mcr::Rules::seeds();
    for seed in 0..30 {
        let drill = server::play::drills::fans::reading(seed, &rules);
        let line = drill["command"].as_str().unwrap();
        let words = shlex::split(line).unwrap();
        assert_eq!(words[0], "dupmj");
        let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        args.push("--json");
        let (code, out, err) = dupmj(&args, None);
        assert_eq!(code, 0, "{line}: {err}");
        let cli: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(cli["total"], drill["total"], "{line}");
        assert_eq!(cli["reading"], drill["reading"], "{line}");
        assert_eq!(cli["reaches_minimum"], true, "{line}");
        let fans = |v: &serde_json::Value| -> Vec<serde_json::Value> {
            v["fans"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    serde_json::json!([
                        f["no"],
                        f["name"],
                        f["chinese"],
                        f["points"],
                        f["count"],
                        f["sets"]
                    ])
                })
                .collect()
        };
        assert_eq!(fans(&cli), fans(&drill), "{line}");
    }
}

#[test]
fn fan_flags_change_the_score() {
    // Self-drawn on the last tile: Last Tile Draw (8) replaces Self-Drawn.
    let (_, out, _) = dupmj(
        &["fan", SPEC_HAND, "--self-drawn", "--last-tile", "--json"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"], 14 + 8);
    let (_, out, _) = dupmj(
        &[
            "fan",
            SPEC_HAND,
            "--seat",
            "S",
            "--prevalent",
            "S",
            "--json",
        ],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // East is then neither seat nor prevalent wind: All Types 6, Concealed Kong 2, Pung of
    // Terminals or Honours 1, Single Wait 1.
    assert_eq!(v["total"], 10);
}

#[test]
fn fan_errors_name_what_and_where() {
    let (code, _, err) = dupmj(&["fan", "[123m3][555p2][EEEE]789sPX"], None);
    assert_ne!(code, 0);
    assert!(err.contains("position 25") && err.contains("'X'"), "{err}");
    let (code, _, err) = dupmj(&["fan", "[123m3][555p2][EEEE]789sP"], None);
    assert_ne!(code, 0);
    assert!(err.contains("wrong tile count"), "{err}");
    let (code, _, err) = dupmj(&["fan", "11111m234p567s99sE"], None);
    assert_ne!(code, 0);
    assert!(err.contains("1m used 5 times"), "{err}");
    let (code, _, err) = dupmj(&["fan", "123m456m789m123p5p6p"], None);
    assert_ne!(code, 0);
    assert!(err.contains("not a winning hand"), "{err}");
    let (code, _, err) = dupmj(&["fan", SPEC_HAND, "--seat", "X"], None);
    assert_ne!(code, 0);
    assert!(err.contains("not a wind"), "{err}");
    let (code, _, err) = dupmj(
        &["fan", "123m456m789m123pE5p", "--kong", "--self-drawn"],
        None,
    );
    assert_ne!(code, 0);
    assert!(err.contains("needs a kong"), "{err}");
}

#[test]
fn batch_scores_each_line_and_survives_bad_ones() {
    let input = concat!(
        r#"{"id":1,"melds":[{"kind":"chow","tile":"1m","from":3},{"kind":"pung","tile":"5p","from":2},{"kind":"kong","tile":"E","concealed":true}],"hand":["7s","8s","9s","P"],"win_tile":"P","seat_wind":"E","prevalent_wind":"E"}"#,
        "\n",
        "{not json\n",
        r#"{"id":3,"melds":[],"hand":["1m"],"win_tile":"1m"}"#,
        "\n",
        r#"{"id":4,"melds":[],"hand":"19m19s19pESWNCFP","win_tile":"1m","self_drawn":true}"#,
        "\n",
    );
    let (code, out, _) = dupmj(&["fan", "--batch", "--rules", "reference"], Some(input));
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["total"], 13);
    assert_eq!(lines[0]["id"], 1, "other keys are kept");
    assert!(lines[1]["error"].as_str().unwrap().contains("bad JSON"));
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("wrong tile count"));
    // Thirteen Orphans 88 + Self-Drawn 1 under the reference.
    assert_eq!(lines[3]["total"], 89);
    assert_eq!(lines[3]["fans"][0]["name"], "Thirteen Orphans");
}

#[test]
fn waits_lists_every_winning_tile() {
    let (code, out, _) = dupmj(&["waits", "1112345678999m"], None);
    assert_eq!(code, 0);
    assert!(out.contains("shanten  0"), "{out}");
    for r in 1..=9 {
        assert!(out.contains(&format!("{r}m ")), "{out}");
    }
    // Nine Gates self-drawn on 1m under seeds: 88 + Pure Straight 16 + Tile Hog 2 + Fully
    // Concealed 4 = 110.
    assert!(
        out.lines()
            .any(|l| l.starts_with("1m") && l.contains("110")),
        "{out}"
    );
    // Ten different orphans and no pair: three from Thirteen Orphans.
    let (_, out, _) = dupmj(&["waits", "159m159s159pESWN"], None);
    assert!(out.contains("shanten  3"), "{out}");
    let (code, _, err) = dupmj(&["waits", "123m"], None);
    assert_ne!(code, 0);
    assert!(err.contains("wrong tile count"), "{err}");
}

#[test]
fn waits_flags_hands_below_the_minimum() {
    // East seat, East round. 1m makes 123m: Mixed Straight 8 with 456p and 789s, plus Seat
    // and Prevalent Wind 2 + 2 and Pung of Terminals or Honours 1 = 13 on a discard.
    // 4m makes 234m: only the wind fans, 5, under the minimum.
    let (_, out, _) = dupmj(&["waits", "[456p1][789s1]23m55mEEE", "--json"], None);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let w = v["waits"].as_array().unwrap();
    assert_eq!(w.len(), 2);
    assert_eq!(
        (
            w[0]["tile"].as_str(),
            w[0]["discard"].as_u64(),
            w[0]["discard_ok"].as_bool()
        ),
        (Some("1m"), Some(13), Some(true))
    );
    assert_eq!(
        (
            w[1]["tile"].as_str(),
            w[1]["discard"].as_u64(),
            w[1]["discard_ok"].as_bool()
        ),
        (Some("4m"), Some(5), Some(false))
    );
}

#[test]
fn deal_prints_labelled_sheets() {
    let (code, out, _) = dupmj(&["deal", "--seed", "42"], None);
    assert_eq!(code, 0);
    assert!(out.contains("seed 42 (version 1)"), "{out}");
    for label in ["A=", "10=", "29=", "B=", "49=", "C=", "69=", "D=", "89="] {
        assert!(out.contains(label), "{label} missing: {out}");
    }
    let (_, out, _) = dupmj(
        &["deal", "--seed", "42", "--count", "2", "--format", "json"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(v[0]["seed"], 42);
    assert_eq!(v[1]["seed"], 43);
    assert_eq!(v[0]["seats"]["E"]["wall"].as_array().unwrap().len(), 21);
    let (_, out, _) = dupmj(&["deal", "--seed", "42", "--format", "html"], None);
    assert!(
        out.starts_with("<!doctype html>") && out.contains("size: A4"),
        "{out}"
    );
}

#[test]
fn play_then_replay_and_catch_tampering() {
    let dir = std::env::temp_dir().join(format!("dupmj-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("hands.jsonl");
    let log_s = log.to_str().unwrap();
    let (code, out, err) = dupmj(
        &[
            "play",
            "--deals",
            "5",
            "--seed",
            "3",
            "--bots",
            "greedy,greedy,random,greedy",
            "--log",
            log_s,
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("5 hands, rules seeds, seed 3"), "{out}");
    let (code, out, _) = dupmj(&["replay", log_s], None);
    assert_eq!(code, 0);
    assert!(out.contains("5 hands replayed"), "{out}");
    assert!(out.contains("E draws") && out.contains("(A)"), "{out}");
    // Tamper with the third hand: swap one drawn tile in its events.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut v: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    let events = v["events"].as_array_mut().unwrap();
    let k = events.iter().position(|e| e["type"] == "discard").unwrap();
    let tile = events[k]["tile"].as_str().unwrap().to_string();
    events[k]["tile"] = serde_json::json!(if tile == "E" { "W" } else { "E" });
    lines[2] = v.to_string();
    std::fs::write(&log, lines.join("\n")).unwrap();
    let (code, _, err) = dupmj(&["replay", log_s], None);
    assert_ne!(code, 0);
    assert!(
        err.contains("line 3") && err.contains(&format!("event {}", k + 1)),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_refuses_bad_arguments() {
    let (code, _, err) = dupmj(&["play", "--bots", "greedy,greedy"], None);
    assert_ne!(code, 0);
    assert!(err.contains("four bots"), "{err}");
    let (code, _, err) = dupmj(&["play", "--bots", "greedy,smart,greedy,greedy"], None);
    assert_ne!(code, 0);
    assert!(err.contains("unknown bot 'smart'"), "{err}");
    let (code, _, err) = dupmj(&["replay", "/nonexistent/file.jsonl"], None);
    assert_ne!(code, 0);
    assert!(err.contains("/nonexistent/file.jsonl"), "{err}");
}

#[test]
fn movement_for_sixteen_players() {
    let (code, out, _) = dupmj(&["movement", "--players", "16", "--format", "json"], None);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["players"], 16);
    assert_eq!(v["rounds"].as_array().unwrap().len(), 5);
    let t = &v["rounds"][0]["hands"][0]["tables"][0];
    assert_eq!(t["table"], 1);
    assert_eq!(t["deal"], "1-1");
    assert_eq!(t["seats"].as_array().unwrap().len(), 4);
    assert!(
        t["seats"][0]["player"].is_number()
            && t["seats"][0]["direction"] == "E"
            && t["seats"][0]["wind"] == "E"
    );
    assert!(v["quality"]["problems"].as_array().unwrap().is_empty());
    let (_, out, _) = dupmj(&["movement", "--players", "16"], None);
    assert!(
        out.contains("pairs by rounds at one table:       1×: 120"),
        "{out}"
    );
    let (_, out, _) = dupmj(&["movement", "--players", "16", "--cards"], None);
    assert!(out.contains("Player 16") && out.contains("@page"), "cards");
    let (code, _, err) = dupmj(&["movement", "--players", "10"], None);
    assert_ne!(code, 0);
    assert!(err.contains("multiple of 4"), "{err}");
}

#[test]
fn standings_reproduce_appendix_3() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/results-appendix3.json"
    );
    let (code, out, err) = dupmj(&["standings", file], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1-1 (E)      |    -8     8.25    2"), "{out}");
    assert!(out.contains("| -16.25"), "{out}");
    let (_, out, _) = dupmj(&["standings", file, "--format", "csv"], None);
    assert!(
        out.starts_with("rank,player,name,hands,ms,imp,penalty_imp\n1,4,Player 4,4,73,13,0"),
        "{out}"
    );
    let (code, _, err) = dupmj(&["standings", file, "--team"], None);
    assert_ne!(code, 0);
    assert!(err.contains("no teams"), "{err}");
}

/// Outside bots that misbehave, as real child processes in a fresh directory.
fn bot_scripts() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dupmj-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first_legal = "import json, sys\nn = 0\nfor line in sys.stdin:\n    n += 1\n{body}\n    print(json.dumps(json.loads(line)['view']['legal'][0]), flush=True)\n";
    let scripts = [
        ("good.py", first_legal.replace("{body}", "    pass")),
        ("junk.py", "import sys\nfor line in sys.stdin:\n    print('nonsense', flush=True)\n".to_string()),
        ("hang.py", first_legal.replace("{body}", "    if n == 5:\n        import time; time.sleep(60)")),
        ("crash.py", first_legal.replace("{body}", "    if n == 4:\n        sys.exit(1)")),
        ("illegal.py", "import sys\nfor line in sys.stdin:\n    print('{\"action\": \"discard\", \"tile\": \"E\"}' if 'claim' in line else '{\"action\": \"kong\"}', flush=True)\n".to_string()),
    ];
    for (name, text) in scripts {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

#[test]
fn outside_bots_play_and_misbehaving_ones_never_stop_the_arena() {
    let dir = bot_scripts();
    let run = |script: &str, limit: &str| {
        let def = format!("out=cmd:python3 {}", dir.join(script).display());
        let (code, out, err) = dupmj(
            &[
                "arena",
                "--bots",
                "out,greedy",
                "--bot",
                &def,
                "--deals",
                "2",
                "--seed",
                "4",
                "--time-limit",
                limit,
                "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{script}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["deals"], 2, "{script}");
        assert_eq!(v["bots"][0]["hands"], 8, "{script}");
        (
            v["bots"][0]["errors"].as_u64().unwrap(),
            v["bots"][0]["timeouts"].as_u64().unwrap(),
        )
    };
    assert_eq!(run("good.py", "5"), (0, 0));
    let (errors, _) = run("junk.py", "5");
    assert!(errors > 10, "junk answers are errors: {errors}");
    let (_, timeouts) = run("hang.py", "0.3");
    assert!(timeouts >= 1, "a hung bot times out");
    let (errors, _) = run("crash.py", "5");
    assert!(errors >= 1, "a crash is an error and the bot is restarted");
    let (errors, _) = run("illegal.py", "5");
    assert!(errors > 10, "illegal answers are errors: {errors}");
    // No bot process outlives the arena.
    let left = std::process::Command::new("pgrep")
        .args(["-f", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "left running: {}",
        String::from_utf8_lossy(&left.stdout)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn arena_reports_bots_in_every_seat() {
    let (code, out, err) = dupmj(
        &[
            "arena",
            "--mode",
            "rotate",
            "--bots",
            "greedy,random",
            "--deals",
            "20",
            "--seed",
            "2",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bots"][0]["hands"], 80);
    assert_eq!(v["bots"][1]["hands"], 240);
    assert!(v["bots"][0]["imp_per_hand"].as_f64().unwrap() > 0.0);
    let (code, _, err) = dupmj(
        &["arena", "--mode", "permute", "--bots", "greedy,random"],
        None,
    );
    assert_ne!(code, 0);
    assert!(err.contains("permute takes 4"), "{err}");
    let sixteen = vec!["greedy"; 8]
        .into_iter()
        .chain(vec!["random"; 8])
        .collect::<Vec<_>>()
        .join(",");
    let (code, out, err) = dupmj(
        &[
            "arena", "--mode", "field", "--bots", &sixteen, "--deals", "20", "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 20 deals of the movement, each at four tables: every bot plays 20 hands.
    let bots = v["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 16);
    assert!(bots.iter().all(|b| b["hands"] == 20), "{out}");
    let greedy: f64 = bots[..8]
        .iter()
        .map(|b| b["imp_per_hand"].as_f64().unwrap())
        .sum();
    assert!(greedy > 0.0, "the greedy half gains IMP: {out}");
    let (code, _, err) = dupmj(
        &["arena", "--bots", "x,greedy", "--bot", "x=telnet:./bot"],
        None,
    );
    assert_ne!(code, 0);
    assert!(err.contains("expected NAME=cmd:COMMAND"), "{err}");
}

/// Runs `--bots bz,greedy` on deal 3 with `def` for bz; the JSON report and the hand logs.
fn botzone_arena(def: &str, deals: &str, limit: &str) -> (serde_json::Value, Vec<(usize, String)>) {
    botzone_arena_game(def, deals, limit, "duplicate")
}

/// [`botzone_arena`] for either `--game`.
fn botzone_arena_game(
    def: &str,
    deals: &str,
    limit: &str,
    game: &str,
) -> (serde_json::Value, Vec<(usize, String)>) {
    // A folder of its own per call: tests run on threads of one process, and two calls
    // whose arguments had the same lengths once shared one (the first to finish removed
    // it under the other).
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let logs = std::env::temp_dir().join(format!(
        "dupmj-bz-logs-{}-{call}-{}",
        std::process::id(),
        def.len() + limit.len() + game.len()
    ));
    std::fs::remove_dir_all(&logs).ok();
    let (code, out, err) = dupmj(
        &[
            "arena",
            "--bots",
            "bz,greedy",
            "--bot",
            def,
            "--deals",
            deals,
            "--seed",
            "3",
            "--time-limit",
            limit,
            "--log",
            logs.to_str().unwrap(),
            "--json",
            "--game",
            game,
        ],
        None,
    );
    assert_eq!(code, 0, "{def}: {err}");
    let mut lines = Vec::new();
    for e in std::fs::read_dir(&logs).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        // Hand k of a deal has the challenger in seat k.
        lines.extend(text.lines().map(str::to_string).enumerate());
    }
    std::fs::remove_dir_all(&logs).ok();
    (serde_json::from_str(&out).unwrap(), lines)
}

/// The Python interpreter itself, with `-S`: full-history bots start once per request,
/// and a version manager's `python3` shim, or the site packages' start-up (about 60 ms of
/// a 76 ms start here), would cost more than the bot, which needs only the standard library.
fn python() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    format!("{} -S", String::from_utf8(out.stdout).unwrap().trim())
}

#[test]
fn botzone_bots_play_in_full_history_and_keep_running_modes() {
    let bot = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/bots/botzone_bot.py"
    );
    let py = python();
    let variants = [
        format!("bz=botzone:{py} {bot}"),
        format!("bz=botzone:{py} {bot} --keep-running"),
        format!("bz=botzone-simple:{py} {bot} --simple"),
        format!("bz=botzone-simple:{py} {bot} --simple --keep-running"),
    ];
    let mut reports = Vec::new();
    for def in &variants {
        let (v, logs) = botzone_arena(def, "1", "10");
        let bz = &v["bots"][0];
        assert_eq!(bz["hands"], 4, "{def}");
        assert_eq!(
            (bz["errors"].as_u64(), bz["timeouts"].as_u64()),
            (Some(0), Some(0)),
            "{def}: {v}"
        );
        // The Botzone bot chowed or punged, so PENG/CHI with their discards went through.
        let melds: usize = logs
            .iter()
            .map(|(k, l)| {
                let h: serde_json::Value = serde_json::from_str(l).unwrap();
                let seat = ["E", "S", "W", "N"][*k];
                h["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|e| (e["type"] == "chow" || e["type"] == "pung") && e["seat"] == seat)
                    .count()
            })
            .sum();
        assert!(melds > 0, "{def}: no meld in {logs:?}");
        reports.push(v["bots"].clone());
    }
    // The same bot plays the same hands whichever way it is run.
    assert!(reports.windows(2).all(|w| w[0] == w[1]), "{reports:?}");
}

#[test]
fn botzone_bots_play_regular_hands_with_bonus_tiles() {
    let bot = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/bots/botzone_bot.py"
    );
    let mut reports = Vec::new();
    let py = python();
    for def in [
        format!("bz=botzone:{py} {bot}"),
        format!("bz=botzone-simple:{py} {bot} --simple --keep-running"),
    ] {
        let (v, logs) = botzone_arena_game(&def, "2", "10", "regular");
        assert_eq!(v["rules"], "regular");
        let bz = &v["bots"][0];
        assert_eq!(bz["hands"], 8, "{def}");
        assert_eq!(
            (bz["errors"].as_u64(), bz["timeouts"].as_u64()),
            (Some(0), Some(0)),
            "{v}"
        );
        // Bonus tiles were set aside by the Botzone bot's seat (dealt or drawn).
        let bonus: usize = logs
            .iter()
            .map(|(k, l)| {
                let h: serde_json::Value = serde_json::from_str(l).unwrap();
                assert!(h["deal"]["wall"].as_array().unwrap().len() == 144);
                let seat = ["E", "S", "W", "N"][*k];
                h["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|e| e["type"] == "bonus" && e["seat"] == seat)
                    .count()
            })
            .sum();
        assert!(bonus > 0, "{def}: no bonus tile for the Botzone seat");
        reports.push(v["bots"].clone());
    }
    assert_eq!(reports[0], reports[1]);
}

#[test]
fn misbehaving_botzone_bots_never_stop_the_arena() {
    // Shell one-liners are quick to start; the marker finds any process left behind.
    let mark = format!("dupmj-bz-test-{}", std::process::id());
    let run = |body: &str, limit: &str| {
        let def = format!("bz=botzone:: {mark}; {body}");
        let (v, _) = botzone_arena(&def, "1", limit);
        let bz = &v["bots"][0];
        assert_eq!(bz["hands"], 4, "{body}");
        (
            bz["errors"].as_u64().unwrap(),
            bz["timeouts"].as_u64().unwrap(),
        )
    };
    let (errors, _) = run("echo HELLO", "5");
    assert!(errors > 10, "garbage answers are errors: {errors}");
    let (errors, _) = run(r#"echo '{"response":"BUGANG W1"}'"#, "5");
    assert!(errors > 10, "illegal answers are errors: {errors}");
    let (errors, _) = run("exit 3", "5");
    assert!(errors > 10, "a bot that dies without answering: {errors}");
    // Hangs once the history grows long, i.e. late in each hand.
    let (_, timeouts) = run(
        r#"read l; [ ${#l} -gt 700 ] && [ ${#l} -lt 760 ] && sleep 30; echo '{"response":"PASS"}'"#,
        "0.2",
    );
    assert!(timeouts >= 1, "a hung bot times out");
    let left = std::process::Command::new("pgrep")
        .args(["-f", &mark])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "left running: {}",
        String::from_utf8_lossy(&left.stdout)
    );
}

#[test]
fn sharded_arena_runs_merge_into_the_report_of_one_run() {
    let dir = std::env::temp_dir().join(format!("dupmj-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "arena",
            "--bots",
            "greedy-r,random",
            "--deals",
            "30",
            "--seed",
            "11",
            "--quiet",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |v: Vec<String>| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        let (code, out, err) = dupmj(&refs, None);
        assert_eq!(code, 0, "{err}");
        out
    };
    let whole = run(args(&["--json"]));
    let mut parts = Vec::new();
    for i in 1..=4 {
        let p = dir.join(format!("part-{i}.json"));
        std::fs::write(&p, run(args(&["--shard", &format!("{i}/4")]))).unwrap();
        parts.push(p.to_str().unwrap().to_string());
    }
    // Any order of the parts gives the very same JSON as the run in one piece.
    let mut merge = vec!["arena".to_string(), "merge".into(), "--json".into()];
    merge.extend(parts.iter().rev().cloned());
    assert_eq!(run(merge), whole);
    // A missing shard, a shard twice, or a part of another run is refused by name.
    let (code, _, err) = dupmj(&["arena", "merge", &parts[0], &parts[1], &parts[2]], None);
    assert_ne!(code, 0);
    assert!(err.contains("shard 4/4 is given 0 times"), "{err}");
    let (code, _, err) = dupmj(
        &["arena", "merge", &parts[0], &parts[0], &parts[1], &parts[2]],
        None,
    );
    assert_ne!(code, 0);
    assert!(err.contains("shard 1/4 is given 2 times"), "{err}");
    let other = dir.join("other.json");
    let mut v = args(&["--shard", "4/4"]);
    v[6] = "12".into(); // another seed
    std::fs::write(&other, run(v)).unwrap();
    let (code, _, err) = dupmj(
        &[
            "arena",
            "merge",
            &parts[0],
            &parts[1],
            &parts[2],
            other.to_str().unwrap(),
        ],
        None,
    );
    assert_ne!(code, 0);
    assert!(err.contains("another run"), "{err}");
    for bad in ["0/4", "5/4", "x", "1/0"] {
        let (code, _, err) = dupmj(&["arena", "--bots", "greedy,random", "--shard", bad], None);
        assert_ne!(code, 0);
        assert!(err.contains("--shard"), "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn review_explains_where_the_strong_bot_differs() {
    let dir = std::env::temp_dir().join(format!("dupmj-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("hands.jsonl");
    let (code, _, err) = dupmj(
        &[
            "play",
            "--deals",
            "3",
            "--seed",
            "4",
            "--bots",
            "strong,random,strong,greedy",
            "--log",
            log.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    // The strong bot agrees with itself at every decision of its own seats.
    for seat in ["E", "W"] {
        let (code, out, err) = dupmj(&["review", log.to_str().unwrap(), "--seat", seat], None);
        assert_eq!(code, 0, "{err}");
        for line in out.lines().filter(|l| l.starts_with("hand")) {
            assert!(
                line.ends_with(", 0 where strong would play otherwise"),
                "{line}"
            );
        }
    }
    // The random seat differs often, each time with a reason.
    let (code, out, _) = dupmj(
        &[
            "review",
            log.to_str().unwrap(),
            "--seat",
            "S",
            "--hand",
            "1",
        ],
        None,
    );
    assert_eq!(code, 0);
    let notes: Vec<&str> = out.lines().filter(|l| l.starts_with("  #")).collect();
    assert!(notes.len() >= 3, "{out}");
    assert!(notes.iter().all(|l| l.contains(" — ")), "{out}");
    assert!(
        out.contains("from ready toward") || out.contains("ready on"),
        "{out}"
    );
    // As JSON, reviewed by the expert: the random seat's weighed decisions, each with the
    // move played as the first candidate and a cost that is 0 where the expert agrees;
    // the costs add up to the hand's expected loss and the costliest come first.
    let (code, out, err) = dupmj(
        &[
            "review",
            log.to_str().unwrap(),
            "--seat",
            "S",
            "--hand",
            "1",
            "--reviewer",
            "expert",
            "--think-ms",
            "50",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
    assert_eq!(
        (v["hand"].as_u64(), v["review"]["seat"].as_str()),
        (Some(1), Some("S"))
    );
    let weighed = v["review"]["decisions_weighed"].as_array().unwrap();
    assert!(!weighed.is_empty(), "{out}");
    let mut total = 0.0;
    let mut agree = 0;
    for w in weighed {
        assert_eq!(w["candidates"][0]["action"], w["played"], "{w}");
        let cost = w["cost"].as_f64().unwrap();
        if w["played"] == w["best"] {
            assert_eq!(cost, 0.0, "{w}");
            agree += 1;
        } else {
            assert!(cost > 0.0, "{w}");
        }
        total += cost;
    }
    let loss = v["review"]["expected_loss"].as_f64().unwrap();
    assert!((total - loss).abs() < 1e-9, "{total} against {loss}");
    let agreement = v["agreement"].as_f64().unwrap();
    assert!((agreement - agree as f64 / weighed.len() as f64).abs() < 1e-12);
    let costs: Vec<f64> = v["costliest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let w = weighed.iter().find(|w| w["index"] == *i).unwrap();
            w["cost"].as_f64().unwrap()
        })
        .collect();
    assert!(costs.windows(2).all(|p| p[0] >= p[1]), "{costs:?}");
    let (code, _, err) = dupmj(&["review", log.to_str().unwrap(), "--hand", "9"], None);
    assert_ne!(code, 0);
    assert!(err.contains("--hand 9: the file has hands 1 to 3"), "{err}");
    let (code, _, err) = dupmj(&["review", log.to_str().unwrap(), "--bot", "nobody"], None);
    assert_ne!(code, 0);
    assert!(err.contains("not a built-in bot"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn huge_counts_are_refused_not_allocated() {
    for (args, says) in [
        (
            vec!["deal", "--seed", "1", "--deals", "18446744073709551615"],
            "--deals 18446744073709551615: give 1 to 100000 deals",
        ),
        (
            vec!["deal", "--seed", "18446744073709551615", "--count", "2"],
            "the seeds would run past",
        ),
        (
            vec!["deal", "--seed", "1", "--count", "5000", "--format", "html"],
            "an HTML sheet takes at most 2000 deals",
        ),
        (
            vec!["movement", "--players", "4294967292"],
            "4294967292 players: at most 1024",
        ),
        (
            vec!["movement", "--players", "16", "--rounds", "0"],
            "0 rounds",
        ),
        (
            vec!["movement", "--teams", "4000"],
            "4000 teams: at most 256",
        ),
        (
            vec!["movement", "--teams", "4", "--rounds", "3"],
            "--rounds does not apply",
        ),
        (
            vec!["play", "--deals", "0"],
            "--deals 0: give 1 to 10000000 deals",
        ),
        (
            vec!["play", "--deals", "18446744073709551615"],
            "give 1 to 10000000 deals",
        ),
        (
            vec!["play", "--seed", "18446744073709551615", "--deals", "2"],
            "the seeds would run past",
        ),
        (
            vec![
                "play",
                "--game",
                "regular",
                "--games",
                "18446744073709551615",
            ],
            "give 1 to 1000000 games",
        ),
        (
            vec!["arena", "--bots", "greedy,random", "--deals", "0"],
            "--deals 0: give 1 to 10000000 deals",
        ),
        (
            vec![
                "arena",
                "--bots",
                "greedy,random",
                "--deals",
                "18446744073709551615",
            ],
            "give 1 to 10000000 deals",
        ),
        (
            vec!["arena", "--bots", "greedy,random", "--threads", "100000"],
            "--threads 100000: give 1 to 1024 threads",
        ),
        (
            vec!["arena", "--bots", "greedy,random", "--time-limit", "NaN"],
            "--time-limit NaN: give a number of seconds",
        ),
        (
            vec!["movement", "--players", "8", "--rounds", "4294967295"],
            "4294967295 rounds: at most 64",
        ),
        (
            vec!["bench", "play", "--seconds", "0"],
            "--seconds 0: give a number of seconds more than 0",
        ),
        (
            vec!["bench", "serve", "--seconds", "1e300"],
            "at most 604800 (a week)",
        ),
        (
            vec![
                "arena",
                "--bots",
                "x,greedy",
                "--bot",
                "x=cmd:./no-such-bot-dupmj",
            ],
            "the command cannot be started (exit 127)",
        ),
    ] {
        let (code, _, err) = dupmj(&args, None);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Many deals are written one at a time: the 2,000th is there, in order.
    let (code, out, _) = dupmj(
        &["deal", "--seed", "1", "--count", "2000", "--format", "json"],
        None,
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2000);
    assert_eq!(v[1999]["seed"], 2000);
}

#[test]
fn demo_on_a_busy_port_writes_nothing() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let db = std::env::temp_dir().join(format!("dupmj-busy-{}.sqlite", std::process::id()));
    let (code, _, err) = dupmj(
        &["demo", "--db", db.to_str().unwrap(), "--addr", &addr],
        None,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&addr) && err.contains("in use"), "{err}");
    assert!(!db.exists(), "no event was written");
}

#[test]
fn batch_survives_a_line_that_is_not_utf8_and_refuses_ignored_flags() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(["fan", "--batch", "--rules", "reference"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let good = br#"{"melds":[],"hand":"19m19s19pESWNCFP","win_tile":"1m","self_drawn":true}"#;
    {
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"\xff\xfe not text\n").unwrap();
        input.write_all(good).unwrap();
        input.write_all(b"\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["error"], "line 1 is not UTF-8 (byte 1)");
    assert_eq!(lines[1]["total"], 89);
    for extra in [
        vec!["[123m3]789s"],
        vec!["--seat", "S"],
        vec!["--self-drawn"],
    ] {
        let mut args = vec!["fan", "--batch"];
        args.extend(extra.iter().copied());
        let (code, _, err) = dupmj(&args, Some(""));
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains("would be ignored"), "{args:?}: {err}");
    }
}

#[test]
fn verify_checks_a_challenge_reveal() {
    use tournament::challenge::{commitment, deal_set, deals, Reveal, REVEAL_FORMAT};
    let set = deal_set(&deals(9001, 8).unwrap());
    let r = Reveal {
        format: REVEAL_FORMAT.into(),
        name: "Tuesday".into(),
        commitment: commitment("c0ffee", &set),
        salt: "c0ffee".into(),
        seed: 9001,
        deals: set,
    };
    let dir = std::env::temp_dir().join(format!("dupmj-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("reveal.json");
    std::fs::write(&good, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    let path = good.to_str().unwrap();
    let (code, out, err) = dupmj(&["verify", path, "--commitment", &r.commitment], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("ok: 8 deals of 'Tuesday'"), "{out}");
    // Against another commitment than the one published.
    let (code, _, err) = dupmj(&["verify", path, "--commitment", "00ab"], None);
    assert_eq!(code, 1);
    assert!(err.contains("not the published 00ab"), "{err}");
    // One tile of deal 5 changed.
    let mut bad = r.clone();
    bad.deals[4]["deal"]["seats"]["W"]["wall"][7] = "F1".into();
    let badf = dir.join("changed.json");
    std::fs::write(&badf, serde_json::to_string(&bad).unwrap()).unwrap();
    let (code, _, err) = dupmj(&["verify", badf.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(err.contains("not the ones committed to"), "{err}");
    // Not a reveal at all.
    let (code, _, err) = dupmj(&["verify", "Cargo.toml"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("Cargo.toml: not a deal set or a challenge reveal"),
        "{err}"
    );
}

#[test]
fn a_deal_set_is_made_printed_from_its_key_and_verified() {
    // A new set: a key and its commitment, different each time.
    let (code, out, err) = dupmj(&["deal", "--new-set"], None);
    assert_eq!(code, 0, "{err}");
    let field = |out: &str, name: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap()
    };
    let key = field(&out, "key:");
    let commitment = field(&out, "commitment:");
    assert_eq!(key.len(), 64);
    let (_, again, _) = dupmj(&["deal", "--new-set"], None);
    assert_ne!(field(&again, "key:"), key);
    // The commitment is SHA-256 of "dupmj-set/1:" and the key (coreutils agrees).
    let sum = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf 'dupmj-set/1:%s' {key} | sha256sum"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&sum.stdout).starts_with(&commitment));
    // Its deals, from the key alone: deal i is the deal of the key's seed i.
    let (code, out, err) = dupmj(
        &["deal", "--key", &key, "--deals", "3", "--format", "json"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let deals: serde_json::Value = serde_json::from_str(&out).unwrap();
    let k = table::set::SetKey::parse(&key).unwrap();
    for i in 0..3 {
        assert_eq!(deals[i]["seed"], k.seed(i), "deal {}", i + 1);
        assert_eq!(deals[i], table::deal::Deal::generate(k.seed(i)).to_json());
    }
    // Exactly one source of deals, and a key that reads.
    let (code, _, err) = dupmj(&["deal"], None);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = dupmj(&["deal", "--seed", "1", "--key", &key], None);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = dupmj(&["deal", "--key", "12ab"], None);
    assert_eq!(code, 1);
    assert!(err.contains("--key: 64 hexadecimal digits"), "{err}");
    // Its reveal verifies against the commitment, and a changed seed is named.
    let labels: Vec<String> = (1..=4).map(|i| i.to_string()).collect();
    let r = table::set::reveal("table 9", table::set::SetKind::Duplicate, &k, &labels);
    let dir = std::env::temp_dir().join(format!("dupmj-set-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("set.json");
    std::fs::write(&good, serde_json::to_string_pretty(&r).unwrap()).unwrap();
    let (code, out, err) = dupmj(
        &[
            "verify",
            good.to_str().unwrap(),
            "--commitment",
            &commitment,
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("ok: 4 deals of 'table 9'") && out.contains("(the one published)"),
        "{out}"
    );
    let mut bad = r.clone();
    bad.deals[2].seed = k.seed(2) + 1;
    let badf = dir.join("bad.json");
    std::fs::write(&badf, serde_json::to_string(&bad).unwrap()).unwrap();
    let (code, _, err) = dupmj(&["verify", badf.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(err.contains("deals[2] (deal 3): seed"), "{err}");
    let mut other = r.clone();
    other.key = table::set::SetKey::from_bytes([9; 32]).hex();
    std::fs::write(&badf, serde_json::to_string(&other).unwrap()).unwrap();
    let (code, _, err) = dupmj(&["verify", badf.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(err.contains("not the key committed to"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
