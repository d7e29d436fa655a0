//! `dupmj arena` stopped by an interrupt writes the deals played so far, also when the
//! same interrupt is delivered twice at once, as GNU `timeout -s INT` does (to the command,
//! then to its whole process group): only a second interrupt given half a second or more
//! after the first ends it without a result.

use std::process::{Command, Stdio};
use std::time::Duration;

#[cfg(unix)]
#[test]
fn an_interrupt_delivered_twice_at_once_still_writes_the_deals_played() {
    let child = Command::new(env!("CARGO_BIN_EXE_dupmj"))
        .args([
            "arena",
            "--bots",
            "random,greedy",
            "--deals",
            "1000000",
            "--seed",
            "1",
            "--threads",
            "1",
            "--quiet",
            "--shard",
            "1/1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dupmj runs");
    // Long enough to have played some deals, far too short for a million; `strong` is slow
    // enough unoptimised that a deal is under way when the interrupts come.
    std::thread::sleep(Duration::from_millis(3000));
    let pid = child.id().to_string();
    for _ in 0..2 {
        let sent = Command::new("kill").args(["-INT", &pid]).status();
        assert!(sent.expect("kill runs").success());
    }
    let out = child.wait_with_output().expect("dupmj ends");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let part: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a partial result");
    assert_eq!(part["format"], "dupmj-arena-part/1");
    assert_eq!(part["complete"], false);
    let played = part["outcomes"].as_array().expect("outcomes").len();
    assert!((1..1_000_000).contains(&played), "{played} deals");
}
