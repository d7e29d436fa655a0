//! Every subcommand with random arguments, and with damaged input files: no panic, no
//! abort, no signal. A run that is still going after its time is stopped and counted as
//! fine (a legal request may be long); only a crash fails the test.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small seeded generator (SplitMix64), so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &'a [String]) -> &'a str {
        &v[self.below(v.len())]
    }
}

/// How a run ended.
enum End {
    Exit(i32, String),
    Signal(i32, String),
    Stopped,
}

fn run(args: &[String], stdin: &[u8], limit: Duration, dir: &Path) -> End {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dupmj starts");
    {
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin);
    }
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            let _ = child.stderr.take().unwrap().read_to_string(&mut err);
            return match (status.code(), status.signal()) {
                (Some(c), _) => End::Exit(c, err),
                (None, Some(s)) => End::Signal(s, err),
                _ => End::Exit(-1, err),
            };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return End::Stopped;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Values that break naive parsing: signs, overflow, NaN, empty, separators, non-ASCII.
fn numbers() -> Vec<String> {
    strings(&[
        "0",
        "1",
        "2",
        "3",
        "-1",
        "16",
        "17",
        "0.5",
        "1e400",
        "NaN",
        "inf",
        "-inf",
        "4294967292",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "",
        "x",
        "٣",
        "1/0",
        "0/4",
        "5/4",
        "2/4",
    ])
}

fn words() -> Vec<String> {
    let mut v = strings(&[
        "",
        " ",
        ",",
        ",,,",
        "greedy",
        "greedy,random",
        "random,random,random,random",
        "strong,greedy,easy,random",
        "greedy-r,greedy",
        "nobody,greedy",
        "E",
        "N",
        "Z",
        "seeds",
        "reference",
        "botzone",
        "regular",
        "regular-bonus-discard",
        "text",
        "json",
        "csv",
        "html",
        "rotate",
        "permute",
        "field",
        "duplicate",
        "x=cmd:",
        "x=botzone:/nonexistent/bot",
        "=",
        "localhost:0",
        "127.0.0.1:99999",
        "[::1]:0",
        "\u{202e}evil",
        "../../../../etc/passwd",
        "/dev/null",
        "/nonexistent/dir/file",
        ".",
    ]);
    v.push("A".repeat(100_000));
    v
}

fn hands() -> Vec<String> {
    strings(&[
        "[123m3][555p2][EEEE]789sPP",
        "1112345678999m1m",
        "[456p1][789s1]23m55mEEE",
        "W1W2W3T4T5T6B7B8B9F1F1F1J1J1",
        "[123m3][555p2][EEEE]789sPX",
        "[[[[",
        "]]]",
        "[1111m1+][2222m2+][3333m3+][4444m1+]5m5m",
        "11111m",
        "1m1m1m1m1m1m1m1m1m1m1m1m1m1m",
        "99999999999999999999m",
        "[123m4]",
        "",
        "EEEESSSSWWWWNN",
        "19m19s19pESWNCFPP",
    ])
}

/// A flag (empty: a positional argument) and the values to draw from (`None`: a switch).
type Flag = (&'static str, Option<Vec<String>>);

/// The flags of each subcommand.
fn commands(files: &[String]) -> Vec<(Vec<&'static str>, Vec<Flag>)> {
    let n = numbers;
    let w = words;
    let f = || files.to_vec();
    vec![
        (
            vec!["fan"],
            vec![
                ("", Some(hands())),
                ("--self-drawn", None),
                ("--fourth-tile", None),
                ("--kong", None),
                ("--last-tile", None),
                ("--seat", Some(w())),
                ("--prevalent", Some(w())),
                ("--flowers", Some(n())),
                ("--fans", Some(w())),
                ("--rules", Some(w())),
                ("--format", Some(w())),
                ("--json", None),
                ("--batch", None),
            ],
        ),
        (
            vec!["waits"],
            vec![
                ("", Some(hands())),
                ("--seat", Some(w())),
                ("--fans", Some(w())),
                ("--format", Some(w())),
            ],
        ),
        (
            vec!["deal"],
            vec![
                ("--seed", Some(n())),
                ("--deals", Some(n())),
                ("--count", Some(n())),
                ("--format", Some(w())),
            ],
        ),
        (
            vec!["play"],
            vec![
                ("--game", Some(w())),
                ("--deals", Some(n())),
                ("--games", Some(n())),
                ("--hands", Some(n())),
                ("--game-seconds", Some(n())),
                ("--seed", Some(n())),
                ("--bots", Some(w())),
                ("--rules", Some(w())),
                ("--log", Some(w())),
            ],
        ),
        (vec!["replay"], vec![("", Some(f())), ("--summary", None)]),
        (
            vec!["review"],
            vec![
                ("", Some(f())),
                ("--seat", Some(w())),
                ("--reviewer", Some(w())),
                ("--hand", Some(n())),
            ],
        ),
        (
            vec!["movement"],
            vec![
                ("--players", Some(n())),
                ("--teams", Some(n())),
                ("--rounds", Some(n())),
                ("--seed", Some(n())),
                ("--format", Some(w())),
                ("--cards", None),
            ],
        ),
        (
            vec!["standings"],
            vec![("", Some(f())), ("--team", None), ("--format", Some(w()))],
        ),
        (
            vec!["verify"],
            vec![("", Some(f())), ("--commitment", Some(w()))],
        ),
        (
            vec!["arena"],
            vec![
                ("--mode", Some(w())),
                ("--bots", Some(w())),
                ("--bot", Some(w())),
                ("--time-limit", Some(n())),
                ("--deals", Some(n())),
                ("--seed", Some(n())),
                ("--game", Some(w())),
                ("--rules", Some(w())),
                ("--bot-errors", Some(w())),
                ("--threads", Some(n())),
                ("--shard", Some(n())),
                ("--format", Some(w())),
                ("--quiet", None),
            ],
        ),
        (
            vec!["arena", "merge"],
            vec![("", Some(f())), ("", Some(f()))],
        ),
        (
            vec!["bench", "play"],
            vec![
                (
                    "--seconds",
                    Some(strings(&["0", "-1", "NaN", "inf", "1e400", "x", "0.05"])),
                ),
                ("--game", Some(w())),
                ("--bots", Some(w())),
            ],
        ),
        (
            vec!["serve"],
            vec![
                ("--addr", Some(w())),
                ("--db", Some(w())),
                ("--bot-pace-ms", Some(n())),
                ("--challenge-every-hours", Some(n())),
                ("--challenge-deals", Some(n())),
                ("--challenge-bots", Some(w())),
            ],
        ),
        (
            vec!["demo", "--no-serve"],
            vec![("--db", Some(w())), ("--bots", Some(w()))],
        ),
        (vec!["password"], vec![("--db", Some(w()))]),
        (
            vec!["backup", "fuzz-copy.sqlite"],
            vec![("--db", Some(w()))],
        ),
    ]
}

/// Damaged copies of good input files: cut short, one byte changed, numbers made huge or
/// negative, fields emptied.
fn damaged_files(dir: &Path) -> Vec<String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let log = dir.join("hands.jsonl");
    let ok = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(["play", "--deals", "2", "--log"])
        .arg(&log)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(ok.success());
    let game = dir.join("game.jsonl");
    let ok = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(["play", "--game", "regular", "--hands", "2", "--log"])
        .arg(&game)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(ok.success());
    let sources = [
        std::fs::read(&log).unwrap(),
        std::fs::read(&game).unwrap(),
        std::fs::read(repo.join("examples/results-appendix3.json")).unwrap(),
        std::fs::read(repo.join("examples/reveal-tuesday.json")).unwrap(),
    ];
    let mut rng = Rng(7);
    let mut names = vec![
        "/nonexistent/file".to_string(),
        ".".to_string(),
        "/dev/null".to_string(),
    ];
    for (k, src) in sources.iter().enumerate() {
        let text = String::from_utf8_lossy(src).into_owned();
        let mut variants: Vec<Vec<u8>> = vec![src.clone()];
        variants.push(src[..src.len() / 2].to_vec());
        for _ in 0..4 {
            let mut b = src.clone();
            let i = rng.below(b.len());
            b[i] = (rng.next() & 0xff) as u8;
            variants.push(b);
        }
        for (from, to) in [
            ("1", "18446744073709551616"),
            ("2", "-2"),
            ("3", "99999999999"),
            ("\"E\"", "\"\""),
            ("[", "[[]"),
            ("\"", ""),
        ] {
            variants.push(text.replacen(from, to, 3).into_bytes());
        }
        for (j, v) in variants.into_iter().enumerate() {
            let p = dir.join(format!("in-{k}-{j}.json"));
            std::fs::write(&p, v).unwrap();
            names.push(p.to_string_lossy().into_owned());
        }
    }
    names
}

/// Runs going at once: most of a run's time is spent waiting (a run stopped at its limit
/// waits it out), so a few workers keep both cores busy.
const WORKERS: usize = 4;

/// One run: its arguments, what it reads on stdin, and how long it may go on.
type Job = (Vec<String>, Vec<u8>, Duration);

#[test]
fn no_arguments_crash_any_subcommand() {
    let dir = std::env::temp_dir().join(format!("dupmj-fuzz-args-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = damaged_files(&dir);
    // Every run is drawn from the seed first, so the runs are the same whatever the order
    // they finish in.
    let mut rng = Rng(20261123);
    let mut jobs: Vec<Job> = Vec::new();
    for (words, flags) in commands(&files) {
        let serving = matches!(words[0], "serve");
        let tries = if serving { 12 } else { 40 };
        for _ in 0..tries {
            let mut args: Vec<String> = words.iter().map(|s| s.to_string()).collect();
            for _ in 0..1 + rng.below(4) {
                let (flag, values) = &flags[rng.below(flags.len())];
                if !flag.is_empty() {
                    args.push(flag.to_string());
                }
                if let Some(vs) = values {
                    args.push(rng.pick(vs).to_string());
                }
            }
            let stdin: Vec<u8> = match rng.below(3) {
                0 => Vec::new(),
                1 => b"{\"hand\":\"123m\",\"win_tile\":\"1m\"}\n\xff\xfe\n[]\n".to_vec(),
                _ => "secret pw\n".into(),
            };
            let limit = Duration::from_secs(if serving { 2 } else { 5 });
            jobs.push((args, stdin, limit));
        }
    }
    let started = Instant::now();
    // Each worker runs in a folder of its own (what a run writes where it stands), reading
    // the damaged files they share.
    for w in 0..WORKERS {
        std::fs::create_dir_all(dir.join(format!("worker-{w}"))).unwrap();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(WORKERS)
        .build()
        .unwrap();
    let ends: Vec<End> = pool.install(|| {
        use rayon::prelude::*;
        jobs.par_iter()
            .map(|(args, stdin, limit)| {
                let w = rayon::current_thread_index().unwrap_or(0);
                run(args, stdin, *limit, &dir.join(format!("worker-{w}")))
            })
            .collect()
    });
    let mut failures = Vec::new();
    let (mut stopped, mut refused) = (0, 0);
    for ((args, _, _), end) in jobs.iter().zip(ends) {
        match end {
            End::Exit(101, err) => failures.push(format!("panic: {args:?}\n{err}")),
            End::Exit(c, err) if err.contains("panicked") => {
                failures.push(format!("exit {c} after a panic: {args:?}\n{err}"))
            }
            End::Exit(c, _) => refused += usize::from(c != 0),
            End::Signal(s, err) => failures.push(format!("signal {s}: {args:?}\n{err}")),
            End::Stopped => stopped += 1,
        }
    }
    eprintln!(
        "{} runs in {:.0} s on {WORKERS} workers: {refused} refused with an error, {stopped} still running at their limit",
        jobs.len(),
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} crashes:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
