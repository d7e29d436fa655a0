//! The workspace's shape, as the README's Layout section draws it: dependencies point down
//! (read from `cargo tree`, normal dependencies only), the play crate knows nothing of HTTP
//! or HTML, the crates below the web side know nothing of it, and no source file grows past
//! one sitting without saying why at its top.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Every package `krate` needs to build (itself included), by name.
fn needs(krate: &str, depth: Option<u32>) -> BTreeSet<String> {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(root())
        .args(["tree", "--offline", "-e", "normal", "-p", krate])
        .args(["--prefix", "none", "-f", "{p}"]);
    if let Some(d) = depth {
        cmd.args(["--depth", &d.to_string()]);
    }
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree -p {krate}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The workspace's crates, lowest first: a crate may use only crates before it.
const LAYERS: &[(&str, u32)] = &[
    ("mcr", 0),
    ("table", 1),
    ("agents", 2),
    ("arena", 3),
    ("tournament", 3),
    ("store", 4),
    ("play", 5),
    ("server", 6),
    ("dupmj-python", 6),
    ("dupmj", 7),
];

fn layer(name: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

#[test]
fn dependencies_point_down() {
    for (krate, own) in LAYERS {
        for dep in needs(krate, Some(1)) {
            if dep == *krate {
                continue;
            }
            if let Some(l) = layer(&dep) {
                assert!(
                    l < *own,
                    "{krate} (layer {own}) depends on {dep} (layer {l}): dependencies point down"
                );
            }
        }
    }
    // The rules crate stands alone.
    let ours: Vec<String> = needs("mcr", None)
        .into_iter()
        .filter(|d| d != "mcr" && layer(d).is_some())
        .collect();
    assert!(ours.is_empty(), "mcr depends on {ours:?}");
}

#[test]
fn play_knows_nothing_of_http_or_html() {
    let all = needs("play", None);
    assert!(all.contains("tokio"), "play is read: {all:?}");
    for web in [
        "axum",
        "axum-core",
        "hyper",
        "http",
        "tower",
        "tower-http",
        "minijinja",
    ] {
        assert!(!all.contains(web), "the play crate depends on {web}");
    }
}

#[test]
fn crates_below_the_web_side_know_nothing_of_it() {
    for krate in ["mcr", "table", "agents", "arena", "tournament"] {
        let all = needs(krate, None);
        assert!(all.contains(krate), "{krate} is read: {all:?}");
        for web in [
            "server",
            "play",
            "store",
            "axum",
            "hyper",
            "minijinja",
            "tokio",
            "rusqlite",
        ] {
            assert!(!all.contains(web), "{krate} depends on {web}");
        }
    }
}

/// Files longer than this say why at their top.
const SITTING: usize = 650;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn long_files_say_why() {
    let mut files = Vec::new();
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        let c = e.unwrap().path();
        for part in ["src", "tests", "benches"] {
            if c.join(part).is_dir() {
                rust_files(&c.join(part), &mut files);
            }
        }
    }
    assert!(files.len() > 100, "the sources are read: {}", files.len());
    let mut long = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines = text.lines().count();
        let head: String = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        if lines > SITTING && !head.contains("Longer than most files") {
            long.push(format!("{} ({lines} lines)", f.display()));
        }
    }
    assert!(
        long.is_empty(),
        "over {SITTING} lines with no reason at the top (\"Longer than most files: …\"): {long:?}"
    );
}

/// The README's picture of the crates: each crate's line and the crates it names after `→`.
fn readme_picture() -> Vec<(String, BTreeSet<String>)> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let layout = readme
        .split("## Layout")
        .nth(1)
        .expect("README.md has a Layout section");
    let block = layout
        .split("```")
        .nth(1)
        .expect("a picture in a code block");
    let package = |n: &str| match n {
        "cli" => "dupmj".to_string(),
        "python" => "dupmj-python".to_string(),
        other => other.to_string(),
    };
    block
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.is_empty() && !l.starts_with("crate "))
        .map(|l| {
            let name = package(l.split_whitespace().next().unwrap());
            let uses = l
                .split_once('→')
                .map(|(_, r)| r.split_whitespace().map(package).collect())
                .unwrap_or_default();
            (name, uses)
        })
        .collect()
}

#[test]
fn the_readme_draws_the_dependencies_there_are() {
    let picture = readme_picture();
    let drawn: BTreeSet<&str> = picture.iter().map(|(n, _)| n.as_str()).collect();
    let ours: BTreeSet<&str> = LAYERS.iter().map(|(n, _)| *n).collect();
    assert_eq!(drawn, ours, "the README's picture names every crate once");
    for (krate, uses) in &picture {
        let direct: BTreeSet<String> = needs(krate, Some(1))
            .into_iter()
            .filter(|d| d != krate && layer(d).is_some())
            .collect();
        assert_eq!(
            uses, &direct,
            "README.md's Layout: {krate} uses {direct:?}, the picture says {uses:?}"
        );
    }
}
