//! Every `$ dupmj …` example of README.md and of `docs/*.md` is run and its output compared
//! with what the page shows, so that the examples cannot drift from the binary. Each page's
//! examples run in order in a fresh folder of their own (a later example may read a file an
//! earlier one wrote).
//!
//! In a page, a line `…` stands for any number of lines, and a command shown without
//! output must only succeed; figures that depend on the machine (times) are compared as
//! `<time>`. An example whose output starts with `error:` must fail. The few examples that are not run here
//! are listed in `NOT_RUN` with the reason, and each must still be on some page.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Examples not run, each with why: they serve until stopped, measure this machine, or need
/// a checkout that is not in the repository.
const NOT_RUN: [(&str, &str); 9] = [
    (
        "dupmj bench bots",
        "measures this machine's speed, which differs run to run",
    ),
    (
        "dupmj connect",
        "needs a running site and a bot account's token (crates/server/tests/bots.rs plays the same through server::connect)",
    ),
    (
        "python3 tools/probe_director.py",
        "probes running servers for minutes and measures this machine",
    ),
    (
        "dupmj serve",
        "serves until Ctrl-C (crash.rs and the browser tests start it)",
    ),
    (
        "dupmj bench failover",
        "needs a PostgreSQL server and measures this machine (cluster.rs tests the same paths)",
    ),
    (
        "dupmj bench serve",
        "measures this machine's speed, which differs run to run",
    ),
    (
        "dupmj bench reviews",
        "measures this machine's speed over minutes",
    ),
    (
        "dupmj bench play",
        "measures this machine's speed, which differs run to run",
    ),
    (
        "tools/botzone_parity.py",
        "needs a checkout of the Botzone judge, which is not in the repository",
    ),
];

struct Example {
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The examples: in each fenced block, a line starting `$ ` and the lines after it up to the
/// next such line or the end of the block.
fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (i, line) in readme.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            if in_block {
                out.extend(current.take());
            }
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let trimmed = line.trim_start();
        if let Some(cmd) = trimmed.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some(Example {
                line: i + 1,
                command: cmd.to_string(),
                expected: Vec::new(),
            });
        } else if let Some(ex) = current.as_mut() {
            ex.expected.push(line.to_string());
        }
    }
    out
}

/// Machine-dependent figures, written the same in both texts: a number of seconds,
/// milliseconds or microseconds becomes `<time>`.
fn normalise(text: &str) -> Vec<String> {
    let time = regex::Regex::new(r"\d+(\.\d+)? (s|ms|µs)\b").unwrap();
    let mut lines: Vec<String> = text
        .lines()
        .map(|l| time.replace_all(l.trim_end(), "<time>").into_owned())
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether `actual` matches `expected`, where a line `…` in `expected` stands for any lines
/// (none included). Returns the first expected line not found, if any.
fn matches(expected: &[String], actual: &[String]) -> Result<(), String> {
    let segments: Vec<&[String]> = expected.split(|l| l.trim() == "…").collect();
    let mut at = 0;
    for (k, seg) in segments.iter().enumerate() {
        if seg.is_empty() {
            continue;
        }
        let found = if k == 0 {
            (actual.len() >= seg.len() && actual[..seg.len()] == **seg).then_some(0)
        } else {
            (at..=actual.len().saturating_sub(seg.len()))
                .find(|&s| actual.len() >= s + seg.len() && actual[s..s + seg.len()] == **seg)
        };
        match found {
            Some(s) => at = s + seg.len(),
            None => {
                // Name the first line of the segment that is not where it should be.
                let from = if k == 0 { 0 } else { at };
                let bad = seg
                    .iter()
                    .enumerate()
                    .find(|(j, l)| actual.get(from + j) != Some(l))
                    .map_or(seg[0].clone(), |(_, l)| l.clone());
                return Err(format!("expected line not found: {bad:?}"));
            }
        }
    }
    let last_is_gap = expected.last().is_some_and(|l| l.trim() == "…");
    if !last_is_gap && at != actual.len() {
        return Err(format!(
            "output goes on after the README's last line: {:?}",
            actual[at]
        ));
    }
    Ok(())
}

/// Runs one shell-like command line of the README in `dir` and returns its output and
/// whether it succeeded: `dupmj …`, `echo 'x' | dupmj …`,
/// a `for i in …; do … & done; wait` loop, `> file` redirection and `*` in file names.
fn run(command: &str, dir: &Path) -> (String, bool) {
    let command = match command.find("  #") {
        Some(k) => &command[..k],
        None => command,
    };
    if let Some(rest) = command.strip_prefix("for ") {
        // for VAR in A B …; do BODY & done; wait
        let (head, body) = rest.split_once("; do ").expect("for … ; do …");
        let (var, values) = head.split_once(" in ").expect("for VAR in …");
        let body = body
            .trim_end_matches("; wait")
            .trim_end_matches("done")
            .trim_end()
            .trim_end_matches('&')
            .trim_end();
        let (mut out, mut ok) = (String::new(), true);
        for v in values.split_whitespace() {
            let (o, k) = run(&body.replace(&format!("${var}"), v), dir);
            out += &o;
            ok &= k;
        }
        return (out, ok);
    }
    let (stdin, command) = match command.split_once(" | ") {
        Some((echo, cmd)) => {
            let words = shlex::split(echo).expect("quoted echo");
            assert_eq!(words[0], "echo");
            (Some(words[1..].join(" ") + "\n"), cmd)
        }
        None => (None, command),
    };
    let (command, to_file) = match command.split_once(" > ") {
        Some((c, f)) => (c, Some(f.trim())),
        None => (command, None),
    };
    let words = shlex::split(command).unwrap_or_else(|| panic!("cannot split {command}"));
    assert_eq!(words[0], "dupmj", "{command}");
    let mut args: Vec<String> = Vec::new();
    for w in &words[1..] {
        match w.split_once('*') {
            Some((pre, post)) => {
                let mut names: Vec<String> = std::fs::read_dir(dir)
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with(pre) && n.ends_with(post))
                    .collect();
                names.sort();
                args.extend(names);
            }
            None => args.push(w.clone()),
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dupmj runs");
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        input
            .write_all(stdin.unwrap_or_default().as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let text = match to_file {
        Some(f) => {
            std::fs::write(dir.join(f), &out.stdout).unwrap();
            String::from_utf8_lossy(&out.stderr).into_owned()
        }
        None => text,
    };
    (text, out.status.success())
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md, then every page of `docs/`, by name.
fn pages() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut all = vec![repo().join("README.md")];
    all.extend(docs);
    all
}

/// Runs one page's examples in a fresh folder; returns how many ran and the failures.
fn check_page(page: &Path, skipped: &mut Vec<&'static str>) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page
        .strip_prefix(repo())
        .unwrap_or(page)
        .display()
        .to_string();
    let all = examples(&text);
    // A folder like a fresh clone's root: the examples read `examples/` and `tools/`.
    let dir = std::env::temp_dir().join(format!(
        "dupmj-readme-{}-{}",
        std::process::id(),
        name.replace('/', "_")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for sub in ["examples", "tools"] {
        std::os::unix::fs::symlink(repo().join(sub).canonicalize().unwrap(), dir.join(sub))
            .unwrap();
    }
    let mut ran = 0;
    let mut failures = Vec::new();
    for ex in &all {
        if let Some((prefix, _)) = NOT_RUN.iter().find(|(p, _)| ex.command.starts_with(p)) {
            skipped.push(*prefix);
            continue;
        }
        ran += 1;
        let start = std::time::Instant::now();
        let (text, ok) = run(&ex.command, &dir);
        let actual = normalise(&text);
        let expected = normalise(&ex.expected.join("\n"));
        let should_fail = expected.first().is_some_and(|l| l.starts_with("error:"));
        let verdict = if ok == should_fail {
            Err(format!(
                "the command {}",
                if ok { "succeeded" } else { "failed" }
            ))
        } else if expected.is_empty() {
            Ok(())
        } else {
            matches(&expected, &actual)
        };
        if let Err(e) = verdict {
            failures.push(format!(
                "{name} line {}: $ {}\n  {e}\n  actual output:\n{}",
                ex.line,
                ex.command,
                actual
                    .iter()
                    .take(40)
                    .map(|l| format!("    {l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
        eprintln!(
            "{name} line {} ({:.1} s): $ {}",
            ex.line,
            start.elapsed().as_secs_f64(),
            ex.command
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    (ran, failures)
}

#[test]
fn every_example_prints_what_its_page_shows() {
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut readme = 0;
    for page in pages() {
        let (n, f) = check_page(&page, &mut skipped);
        if page.ends_with("README.md") {
            readme = n;
        }
        ran += n;
        failures.extend(f);
    }
    assert!(readme >= 7, "only {readme} examples run from README.md");
    assert!(ran >= 30, "only {ran} examples run in all");
    for (prefix, why) in NOT_RUN {
        assert!(
            skipped.contains(&prefix),
            "NOT_RUN lists '{prefix}' ({why}), which no page uses any more"
        );
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_itself() {
    let v = |s: &str| -> Vec<String> { s.lines().map(String::from).collect() };
    assert!(matches(&v("a\nb"), &v("a\nb")).is_ok());
    assert!(matches(&v("a\nb"), &v("a\nb\nc")).is_err());
    assert!(matches(&v("a\n…"), &v("a\nb\nc")).is_ok());
    assert!(matches(&v("a\n…\nc"), &v("a\nb\nc")).is_ok());
    assert!(matches(&v("a\n…\nd"), &v("a\nb\nc")).is_err());
    assert!(matches(&v("b\n…"), &v("a\nb")).is_err());
    assert_eq!(
        normalise("x (0.15 s), 57.9 µs per round trip, 12 ms"),
        v("x (<time>), <time> per round trip, <time>")
    );
}
