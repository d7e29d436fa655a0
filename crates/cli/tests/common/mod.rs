//! Helpers shared by the tests that run `dupmj serve` as a real process.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A database path of its own for test `name` (`dupmj-<name>-<pid>/<name>.sqlite` in the
/// temporary folder), its folder made and any file left there by an earlier run gone.
#[allow(dead_code)]
pub fn fresh_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dupmj-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(format!("{name}.sqlite"));
    std::fs::remove_file(&db).ok();
    db
}

/// Starts `dupmj serve` on `db` at a free port; the child and the address it printed.
#[allow(dead_code)]
pub fn serve(db: &Path) -> (Child, SocketAddr) {
    serve_with(db, &[])
}

/// `dupmj serve` on a free port with extra arguments.
pub fn serve_with(db: &Path, extra: &[&str]) -> (Child, SocketAddr) {
    serve_on(db, "127.0.0.1:0", extra)
}

/// `dupmj serve` at `addr` (a port of 0 for a free one) with extra arguments.
pub fn serve_on(db: &Path, addr: &str, extra: &[&str]) -> (Child, SocketAddr) {
    // No reviewer unless asked: the expert's search would take a core from the tests.
    let reviewers: &[&str] = if extra.contains(&"--review-threads") {
        &[]
    } else {
        &["--review-threads", "0"]
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args(["serve", "--db", db.to_str().unwrap(), "--addr", addr])
        .args(reviewers)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|a| a.trim().trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}

/// `dupmj serve` with bots that move at once and one reviewer at `review_ms` a decision
/// (the pages that show reviews); the child and its address.
#[allow(dead_code)]
pub fn serve_reviewed(db: &Path, review_ms: u32) -> (Child, SocketAddr) {
    let ms = review_ms.to_string();
    serve_with(
        db,
        &[
            "--bot-pace-ms",
            "0",
            "--review-threads",
            "1",
            "--review-ms",
            &ms,
        ],
    )
}
