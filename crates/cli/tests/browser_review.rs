//! The replay as a review, in headless Chromium: Alice and Bob each play deal 1 of a
//! scheduled challenge (Alice discarding what she draws, Bob from his hand), a reviewer
//! reviews their hands, and Alice opens her hand from the deal's results. Asserted: the
//! panel gives her agreement and cost; at a weighed decision the candidates are bars, one
//! marked as played; a mistake in the list jumps the replay to its move; the field counts
//! the three holders (Alice, Bob, the par) and each decision's branches add up to the
//! holders who reached it; the "field" link opens it; it fits a phone; in Chinese too.
//! Screenshots `review-*.png` with `DUPMJ_SCREENSHOTS=1`.

mod common;
mod webdriver;

use std::time::{Duration, Instant};

use webdriver::{into_the_challenge, Proc, Window};

/// Plays the hand by discarding the first playable tile of the hand (not the one drawn),
/// winning when it can, passing claims.
fn play_from_the_hand(b: &Window) {
    let start = Instant::now();
    b.wait(&["class=\"my-hand\"", "id=\"result\""]);
    while !b.has("#result") {
        assert!(start.elapsed() < Duration::from_secs(240), "no result");
        let clicked = [
            "#claim button[data-action=hu]",
            "#claim button[data-action=pass]",
            "#claim button[data-action=bonus]",
            ".my-hand .tile.playable:not(.drawn)",
        ]
        .iter()
        .any(|css| b.click_if(css));
        std::thread::sleep(Duration::from_millis(if clicked { 120 } else { 50 }));
    }
}

/// The replay's step now (waits for the first one).
fn at(b: &Window) -> i64 {
    let start = Instant::now();
    loop {
        let v = b.exec("return Number(document.getElementById('replay').dataset.at ?? -1)");
        if v.as_i64().is_some_and(|x| x >= 0) || start.elapsed() > Duration::from_secs(5) {
            return v.as_i64().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_hand_is_reviewed_and_compared_with_its_field() {
    let db = common::fresh_db("review");
    let (child, addr) = common::serve_with(
        &db,
        &[
            "--bot-pace-ms",
            "0",
            "--challenge-every-hours",
            "24",
            "--challenge-deals",
            "4",
            "--review-threads",
            "1",
            "--review-ms",
            "20",
        ],
    );
    let _server = Proc(child);
    let base = format!("http://{addr}");
    let alice = into_the_challenge(&base, "Alice");
    alice.wait(&["id=\"my-deals\""]);
    alice.click("tr[data-deal='1'] .play-deal");
    alice.play_until("#result");
    let bob = into_the_challenge(&base, "Bob");
    bob.wait(&["id=\"my-deals\""]);
    bob.click("tr[data-deal='1'] .play-deal");
    play_from_the_hand(&bob);

    // The deal's results link Alice's hand to its review; the reviewer gets to it.
    let start = Instant::now();
    loop {
        alice.go("/play/c/1/deal/1");
        alice.wait(&["id=\"results\""]);
        if alice.has("#my-review a") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no review: {}",
            alice.text("#my-review")
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    let mine = alice.text("#my-review");
    assert!(mine.contains("agreement") && mine.contains('%'), "{mine}");
    let links = alice
        .exec("return document.querySelectorAll('#results a.review-link').length")
        .as_u64();
    assert_eq!(
        links,
        Some(3),
        "Alice, Bob and the par each have a review link"
    );
    alice.viewport(1366, 768);
    alice.click("#my-review a");
    alice.wait(&["id=\"replay\""]);
    alice.wait(&["rv-summary"]);
    let summary = alice.text(".rv-summary");
    assert!(
        summary.contains("Agreement") && summary.contains("%"),
        "{summary}"
    );

    // The field: Alice, Bob and the par; at the first decision all three, in branches
    // that add up to them.
    alice.wait(&["rv-field"]);
    let field = alice.text(".rv-field");
    assert!(field.contains("3 holders"), "{field}");
    let counts = |b: &Window| -> i64 {
        b.exec(
            "return [...document.querySelectorAll('table.branches tr td:nth-child(2)')].reduce((n, td) => n + Number(td.textContent), 0)",
        )
        .as_i64()
        .unwrap()
    };
    // What the page says reached the point: "N of them reached this point".
    let reached = |b: &Window| -> i64 {
        let t = b.text(".rv-field .muted");
        t.split_whitespace()
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or(-1)
    };
    assert_eq!(at(&alice), 0);
    // Alice's first weighed decision (from the review the page reads): the candidates as
    // bars, the move played and the expert's marked, each with its IMP against the field.
    let first = alice.exec_async(
        "const done = arguments[arguments.length - 1]; fetch(location.pathname + '/review.json').then((r) => r.json()).then((v) => done(v.seats[0].review.decisions_weighed[0].index))",
    );
    let first = first.as_i64().expect("a weighed decision");
    alice.exec(&format!(
        "const s = document.getElementById('slider'); s.value = '{}'; s.dispatchEvent(new Event('input'))",
        first - 1
    ));
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(at(&alice), first - 1);
    assert!(alice.text(".rv-decision h3").ends_with(&first.to_string()));
    assert!(alice
        .text(".next-move")
        .contains(&format!("(move {first})")));
    assert!(
        alice.has(".candidates .cand.played"),
        "the move played is marked"
    );
    assert!(
        alice.has(".candidates .cand.best"),
        "the expert's move is marked"
    );
    assert!(
        alice.has(".candidates .cand-imp"),
        "IMP beside the candidates"
    );
    // A mistake in the list, if the hand has one, jumps there; the expert's tile is raised.
    if alice.has(".rv-mistakes button") {
        alice.click(".rv-mistakes button");
        std::thread::sleep(Duration::from_millis(500));
        let said = alice.text(".rv-mistakes button");
        let n: i64 = said
            .split(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(at(&alice), n - 1, "the costliest mistake, move {n}");
        assert!(alice.has(".my-hand .tile.expert-pick") || !said.contains("discard"));
        assert!(alice.has(".rv-cost"), "what the move played cost");
    }
    assert!(counts(&alice) >= 1);
    alice.screenshot("review-decision");
    // The page's IMP are the rules' (§5): a DIF of 40 is 7 IMP, of 6 is 2, of −1.5 is 0.
    let imps = alice.exec_async(
        "const done = arguments[arguments.length - 1]; import('/assets/review.js').then((m) => done([m.impAmong(40, [0, -40]), m.impAmong(12, [0]), m.impAmong(-3, [0])]))",
    );
    assert_eq!(imps, serde_json::json!([7, 2, 0]));
    // Every decision's branches add up to those who reached it.
    for step in 0..12 {
        alice.exec(&format!(
            "const s = document.getElementById('slider'); s.value = '{step}'; s.dispatchEvent(new Event('input'))"
        ));
        std::thread::sleep(Duration::from_millis(250));
        if alice.has("table.branches") {
            assert_eq!(counts(&alice), reached(&alice), "step {step}");
        }
    }

    // From the results, "the field" opens the same page at the field.
    alice.go("/play/c/1/deal/1");
    alice.wait(&["id=\"results\""]);
    alice.click("#results tr.me a.field-link");
    alice.wait(&["rv-field"]);
    std::thread::sleep(Duration::from_millis(500));
    alice.screenshot("review-field");

    // A phone: the review below the board, nothing wider than the screen.
    alice.viewport(390, 844);
    let here = alice.exec("return location.pathname");
    alice.go(here.as_str().unwrap());
    alice.wait(&["rv-summary"]);
    std::thread::sleep(Duration::from_millis(500));
    let w = alice
        .exec("return document.documentElement.scrollWidth")
        .as_u64()
        .unwrap();
    assert!(w <= 400, "the review fits a phone: {w}px");
    alice.screenshot("review-phone");
    // Below the board: the candidates, still within the screen's width.
    alice.exec("document.querySelector('.rv-decision').scrollIntoView()");
    std::thread::sleep(Duration::from_millis(200));
    let right = alice
        .exec("return Math.max(...[...document.querySelectorAll('.cand span')].map((e) => e.getBoundingClientRect().right))")
        .as_f64()
        .unwrap();
    assert!(right <= 390.0, "the candidates fit a phone: {right}px");
    alice.screenshot("review-phone-decision");

    // In Chinese.
    alice.viewport(1366, 768);
    alice.click("nav a.lang");
    alice.wait(&["<html lang=\"zh\">"]);
    let zh = alice.wait(&["专家复盘"]);
    assert!(zh.contains("一致率"), "the figures in Chinese");
    std::thread::sleep(Duration::from_millis(500));
    alice.screenshot("review-zh");
    alice.viewport(390, 844);
    std::thread::sleep(Duration::from_millis(500));
    alice.screenshot("review-zh-phone");
}
