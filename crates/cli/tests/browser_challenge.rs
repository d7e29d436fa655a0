//! A challenge in headless Chromium: the server publishes a 4-deal challenge on its own
//! schedule, two people each play its four deals by clicking, and each then sees the other's
//! result and the par at every deal-seat, with IMP as rules §5 works them out. Screenshots of
//! the challenge and of a deal's results (desktop and phone) go to `docs/screenshots/` with
//! `DUPMJ_SCREENSHOTS=1`.

mod common;
mod webdriver;

use std::time::Duration;

use webdriver::{into_the_challenge, Browser, Proc};

/// Lower bounds of |DIF| for 1 … 20 IMP (rules §5).
const BRACKETS: [i64; 20] = [
    2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296,
];

fn imp_by_hand(ms: i64, all: &[i64]) -> i64 {
    let n = all.len() as i64;
    let d = n * ms - all.iter().sum::<i64>();
    BRACKETS.iter().filter(|&&b| d.abs() >= n * b).count() as i64 * d.signum()
}

/// The rows of a deal's results page: name, match points, IMP.
fn rows(b: &Browser) -> Vec<(String, i64, i64)> {
    let v = b.exec(
        "return [...document.querySelectorAll('#results tbody tr')].map(r => [r.querySelector('.name').textContent, Number(r.dataset.ms), Number(r.dataset.imp)])",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_string(),
                r[1].as_i64().unwrap(),
                r[2].as_i64().unwrap(),
            )
        })
        .collect()
}

/// `dupmj serve` on `db` publishing a challenge of four deals of `copies` copies each at
/// once (then every 24 hours), bots moving without a pause; the server and its address.
fn scheduling(db: &std::path::Path, copies: usize) -> (Proc, String) {
    let copies = copies.to_string();
    let (child, addr) = common::serve_with(
        db,
        &[
            "--bot-pace-ms",
            "0",
            "--challenge-every-hours",
            "24",
            "--challenge-deals",
            "4",
            "--challenge-copies",
            &copies,
        ],
    );
    (Proc(child), format!("http://{addr}"))
}

#[test]
fn two_people_play_a_challenge_and_compare() {
    let db = common::fresh_db("challenge");
    let (_server, base) = scheduling(&db, 1);
    let mut browsers = Vec::new();
    for name in ["Alice", "Bob"] {
        let b = into_the_challenge(&base, name);
        b.wait(&["id=\"my-deals\""]);
        for deal in 1..=4 {
            b.click(&format!("tr[data-deal='{deal}'] .play-deal"));
            b.play_until("#result");
            b.click("#back");
            b.wait(&["id=\"my-deals\""]);
        }
        assert_eq!(
            b.exec("return document.querySelectorAll('#my-deals a.results').length")
                .as_u64(),
            Some(4),
            "{name} has played the four deals"
        );
        browsers.push(b);
    }
    let alice = &browsers[0];
    alice.go("/play/c/1");
    alice.wait(&["id=\"my-deals\""]);
    alice.screenshot("challenge");
    for (who, other) in [(0, "Bob (guest)"), (1, "Alice (guest)")] {
        let b = &browsers[who];
        for deal in 1..=4 {
            b.go(&format!("/play/c/1/deal/{deal}"));
            b.wait(&["id=\"results\""]);
            let r = rows(b);
            assert_eq!(r.len(), 3, "deal {deal}: the two people and the par: {r:?}");
            assert!(r.iter().any(|x| x.0 == other), "deal {deal}: {r:?}");
            assert!(
                r.iter().any(|x| x.0.starts_with("par")),
                "deal {deal}: {r:?}"
            );
            let all: Vec<i64> = r.iter().map(|x| x.1).collect();
            for (name, ms, imp) in &r {
                assert_eq!(*imp, imp_by_hand(*ms, &all), "deal {deal} {name}: {all:?}");
            }
            if who == 0 && deal == 1 {
                b.screenshot("challenge-deal");
                b.resize(390, 844);
                std::thread::sleep(Duration::from_millis(200));
                b.screenshot("challenge-deal-phone");
                let w = b
                    .exec("return document.documentElement.scrollWidth")
                    .as_u64()
                    .unwrap();
                assert!(w <= 400, "the results fit a phone: {w}px");
                b.resize(1100, 1000);
            }
        }
    }
}

/// A scheduled challenge of two copies in headless Chromium: Alice and Bob each play deal 1
/// and, the second being given the copy given least, play different copies. Each sees her
/// copy's label and results (herself and the par, not the other), the page says how copies
/// work and ranks each copy alone; it fits a phone. Screenshots `challenge-copies` (desktop
/// and phone) and `challenge-copies-deal` with `DUPMJ_SCREENSHOTS=1`.
#[test]
fn two_copies_each_player_compared_within_hers() {
    let db = common::fresh_db("copies");
    let (_server, base) = scheduling(&db, 2);
    let mut browsers = Vec::new();
    let mut letters = Vec::new();
    for name in ["Alice", "Bob"] {
        let b = into_the_challenge(&base, name);
        b.wait(&["id=\"copies-note\""]);
        b.click("tr[data-deal='1'] .play-deal");
        b.play_until("#result");
        b.click("#back");
        b.wait(&["id=\"my-deals\""]);
        let letter = b
            .exec("return document.querySelector(\"tr[data-deal='1']\").dataset.copy")
            .as_str()
            .unwrap()
            .to_string();
        let label = b
            .exec("return document.querySelector(\"tr[data-deal='1'] td\").textContent")
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            label,
            format!("1{letter}"),
            "{name}'s deal is labelled by its copy"
        );
        letters.push(letter);
        browsers.push(b);
    }
    assert_ne!(letters[0], letters[1], "two players, two copies");
    for (b, other) in browsers.iter().zip(["Bob (guest)", "Alice (guest)"]) {
        b.go("/play/c/1/deal/1");
        b.wait(&["id=\"results\""]);
        let r = rows(b);
        assert_eq!(r.len(), 2, "herself and her copy's par: {r:?}");
        assert!(!r.iter().any(|x| x.0 == other), "{r:?}");
        assert!(r.iter().any(|x| x.0.starts_with("par")), "{r:?}");
        assert!(b.has("#copies"), "the results say the deal has copies");
        if other == "Bob (guest)" {
            b.screenshot("challenge-copies-deal");
        }
    }
    let alice = &browsers[0];
    alice.go("/play/c/1");
    alice.wait(&["id=\"copy-a\""]);
    assert!(alice.has("#copy-b"), "each copy ranked alone");
    alice.screenshot("challenge-copies");
    alice.resize(390, 844);
    std::thread::sleep(Duration::from_millis(200));
    alice.screenshot("challenge-copies-phone");
    let w = alice
        .exec("return document.documentElement.scrollWidth")
        .as_u64()
        .unwrap();
    assert!(w <= 400, "the challenge fits a phone: {w}px");
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}
