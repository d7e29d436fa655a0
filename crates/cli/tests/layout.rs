//! The workspace's shape, as the README's Layout section draws it: dependencies point down
//! (read from `cargo tree`, normal dependencies only), the play crate knows nothing of HTTP
//! or HTML, the crates below the web side know nothing of it, no source file grows past
//! one sitting without saying why at its top, modules do not import each other in a
//! circle, the libraries hold no experiment, no Rust string holds HTML (pages and
//! printables are templates), and every crate keeps the workspace's `rust-version`.

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
    ("bench", 7),
    ("dupmj", 8),
    // The experiments: nothing depends on them.
    ("lab", 8),
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

/// The `.rs` files of `crates/{krate}/src`, test modules (`tests.rs`) left out: a test may
/// reach anywhere.
fn sources(krate: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&root().join("crates").join(krate).join("src"), &mut files);
    files.retain(|f| !f.ends_with("tests.rs"));
    files
}

/// The module path of a source file under `src`: `web/public/mod.rs` is `web::public`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The modules a file names by path (`crate::a::b`, `super::c`), resolved to the longest
/// module that exists; comments left out, and a file's own `#[cfg(test)] mod tests`.
fn named_modules(
    src: &Path,
    file: &Path,
    modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let text = std::fs::read_to_string(file).unwrap();
    let text = text.split("#[cfg(test)]\nmod tests {").next().unwrap();
    let me = module_of(src, file);
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        for (i, _) in code
            .match_indices("crate::")
            .chain(code.match_indices("super::"))
        {
            if i > 0 && code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[i..];
            let mut words = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap()
                .split("::")
                .filter(|w| !w.is_empty());
            let mut path = match words.next() {
                Some("crate") => Vec::new(),
                // `super` of `a/b.rs` (module a::b) is a.
                _ => me[..me.len().saturating_sub(1)].to_vec(),
            };
            let mut best = path.clone();
            for w in words {
                path.push(w.to_string());
                if modules.contains(&path) {
                    best = path.clone();
                }
            }
            if best != me {
                out.insert(best);
            }
        }
    }
    out
}

/// Modules of one parent that import each other in a circle, directly or through their
/// children: each circle as its modules' paths.
fn circles(krate: &str) -> Vec<Vec<String>> {
    let src = root().join("crates").join(krate).join("src");
    let files = sources(krate);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    // An edge between the two siblings under the deepest module both lie in.
    let mut edges: std::collections::BTreeMap<Vec<String>, BTreeSet<Vec<String>>> =
        Default::default();
    for f in &files {
        let a = module_of(&src, f);
        for b in named_modules(&src, f, &modules) {
            let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            if common < a.len() && common < b.len() {
                let (x, y) = (a[..=common].to_vec(), b[..=common].to_vec());
                edges.entry(y.clone()).or_default();
                edges.entry(x).or_default().insert(y);
            }
        }
    }
    // Strongly connected components (Kosaraju): reach forwards, then backwards.
    let reach = |from: &Vec<String>, forward: bool| -> BTreeSet<Vec<String>> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(m) = stack.pop() {
            if !seen.insert(m.clone()) {
                continue;
            }
            for (x, ys) in &edges {
                if forward && x == &m {
                    stack.extend(ys.iter().cloned());
                } else if !forward && ys.contains(&m) {
                    stack.push(x.clone());
                }
            }
        }
        seen
    };
    let mut found: Vec<Vec<String>> = Vec::new();
    for m in edges.keys() {
        let both: Vec<String> = reach(m, true)
            .intersection(&reach(m, false))
            .map(|p| p.join("::"))
            .collect();
        if both.len() > 1 && !found.contains(&both) {
            found.push(both);
        }
    }
    found
}

#[test]
fn modules_do_not_import_each_other_in_a_circle() {
    let mut all = Vec::new();
    for (krate, _) in LAYERS {
        let dir = match *krate {
            "dupmj" => "cli",
            "dupmj-python" => "python",
            other => other,
        };
        for c in circles(dir) {
            all.push(format!("{dir}: {}", c.join(" ↔ ")));
        }
    }
    // The domain forces one: a hand's score reads its waits (the last tile's wait fans)
    // and the waits are scored to tell which tiles win.
    assert_eq!(all, vec!["mcr: score ↔ wait".to_string()]);
}

/// A circle the check must see: two sibling modules naming each other, found.
#[test]
fn the_circle_check_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("dupmj-circle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "mod c;\n").unwrap();
    std::fs::write(dir.join("a/c.rs"), "use crate::b::X;\n").unwrap();
    std::fs::write(
        dir.join("b.rs"),
        "// crate::a is named in a comment only\nuse super::a::Y;\n",
    )
    .unwrap();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&dir, f)).collect();
    let from_c = named_modules(&dir, &dir.join("a/c.rs"), &modules);
    let from_b = named_modules(&dir, &dir.join("b.rs"), &modules);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(from_c, BTreeSet::from([vec!["b".to_string()]]));
    assert_eq!(from_b, BTreeSet::from([vec!["a".to_string()]]));
}

/// The library crates (every crate but the two binaries, `cli` and `lab`).
const LIBRARIES: [&str; 10] = [
    "mcr",
    "table",
    "agents",
    "arena",
    "tournament",
    "store",
    "play",
    "server",
    "bench",
    "python",
];

/// The library crates hold what plays: no `#[ignore]`d harness and no knob read from the
/// environment in their sources (experiments live in crates/lab, with flags).
#[test]
fn libraries_hold_no_experiment() {
    let mut found = Vec::new();
    for krate in LIBRARIES {
        let mut files = Vec::new();
        rust_files(&root().join("crates").join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "{krate} is read");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap();
                if ["#[ignore", "env::var", "var_os("]
                    .iter()
                    .any(|p| code.contains(p))
                {
                    found.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "experiments in a library: {found:#?}");
}

/// One `rust-version` for the workspace, true of its dependencies (proptest and sha2 need 1.88; the code itself 1.87), and
/// every crate keeps it.
#[test]
fn every_crate_keeps_the_workspace_rust_version() {
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(
        workspace.contains("rust-version = \"1.88\""),
        "the workspace's rust-version"
    );
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        let manifest = e.unwrap().path().join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        assert!(
            text.contains("rust-version.workspace = true"),
            "{} does not keep the workspace's rust-version",
            manifest.display()
        );
    }
}

/// A module names what it takes from its parent and siblings: no `use super::*;` or
/// `use child::*;` at the top of a file (a test module may still take its parent's all).
#[test]
fn modules_name_what_they_import() {
    let mut found = Vec::new();
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        let mut files = Vec::new();
        rust_files(&e.unwrap().path().join("src"), &mut files);
        for f in files.into_iter().filter(|f| !f.ends_with("tests.rs")) {
            let text = std::fs::read_to_string(&f).unwrap();
            for line in text.lines() {
                let glob = line.starts_with("use ") && line.ends_with("::*;");
                let outside = line.starts_with("use super::") || !line.contains("::prelude::");
                // An enum's variants (`use Fan::*`) are not a module's contents.
                let enum_variants = line
                    .get(4..)
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()));
                let ours = !line.starts_with("use std::")
                    && line.split("::").count() == 2
                    && !enum_variants;
                if glob && outside && (line.starts_with("use super::") || ours) {
                    found.push(format!("{}: {line}", f.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "glob imports of our own modules: {found:#?}"
    );
}

/// The string literals of Rust source (raw and byte strings too), comments left out, each
/// with its line; a file's `#[cfg(test)] mod tests` is cut off first.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    let c: Vec<char> = text.chars().collect();
    let line_at = |i: usize| c[..i].iter().filter(|&&x| x == '\n').count() + 1;
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            '\'' => {
                // A char literal ('x', '\n', '"') or a lifetime ('a).
                if c.get(i + 1) == Some(&'\\') {
                    i += 2;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if c.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            'r' if matches!(c.get(i + 1), Some('"' | '#'))
                && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_')) =>
            {
                let mut j = i + 1;
                let mut hashes = 0;
                while c.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if c.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let start = j + 1;
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = c[start..].iter().collect();
                let len = rest.find(&close).unwrap_or(rest.len());
                out.push((line_at(start), rest[..len].to_string()));
                i = start + rest[..len].chars().count() + close.chars().count();
            }
            '"' => {
                let start = i + 1;
                let mut j = start;
                while j < c.len() && c[j] != '"' {
                    j += if c[j] == '\\' { 2 } else { 1 };
                }
                out.push((line_at(start), c[start..j.min(c.len())].iter().collect()));
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// An HTML tag in a text: `<b>`, `</td>`, `<svg class=…`, `<!doctype`.
fn holds_a_tag(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| {
        b[i] == b'<' && {
            let mut j = i + 1;
            if matches!(b.get(j), Some(b'/' | b'!')) {
                j += 1;
            }
            let name = j;
            while b.get(j).is_some_and(u8::is_ascii_alphanumeric) {
                j += 1;
            }
            j > name
                && b[name].is_ascii_alphabetic()
                && matches!(b.get(j), None | Some(b' ' | b'>' | b'/' | b'\n'))
        }
    })
}

/// Pages, printables and the command line's HTML come from templates (automatic escaping,
/// one place to read a page): no Rust string outside tests holds an HTML tag. The one
/// exception is the language catalogue, whose texts are the templates' own (some with a
/// `<b>`), kept beside their translations.
#[test]
fn no_rust_string_holds_html() {
    let mut found = Vec::new();
    for krate in LIBRARIES.iter().chain(&["cli", "lab"]) {
        for f in sources(krate) {
            if f.ends_with("i18n/catalogue.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            for (line, lit) in string_literals(&text) {
                if holds_a_tag(&lit) {
                    found.push(format!("{}:{line}: \"{lit}\"", f.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "HTML in Rust strings: {found:#?}");
}

/// The HTML check reads strings as Rust does: tags in strings found, tags in comments,
/// comparisons and generics not.
#[test]
fn the_html_check_reads_strings() {
    let src = "// <b>not</b>\nlet a = x.sum::<usize>() < 3;\nlet b = \"<td>{}</td>\";\n\
               let c = '\"'; let d = r#\"<svg class=\"qr\">\"#;\nlet e = \"a < b\";\n\
               fn f<'a>(s: &'a str) {}\nlet g = \"x\\\"<p>\";";
    let tagged: Vec<usize> = string_literals(src)
        .into_iter()
        .filter(|(_, s)| holds_a_tag(s))
        .map(|(line, _)| line)
        .collect();
    assert_eq!(tagged, vec![3, 4, 7]);
}
