//! Drills in headless Chromium: a guest starts from `/play/drills`, plays two hands in the
//! browser, and once it is reviewed does the day's set — fan drills typed and ticked, the
//! position from their own hand and the route drills answered from the keyboard — then the
//! problem of the day with everyone's answers; a second guest on a phone, in Chinese, does
//! a fan and a route drill (pictures `docs/screenshots/drills-*.png` with
//! `DUPMJ_SCREENSHOTS=1`).

mod common;
mod webdriver;

use std::time::{Duration, Instant};

use webdriver::{open, Engine, Proc, Window};

/// Starts as a guest from the drills page.
fn start(b: &Window, name: &str) {
    b.go("/play/drills");
    b.wait(&["action=\"/play/guest?next=/play/drills\""]);
    b.fill(
        "form[action='/play/guest?next=/play/drills'] input[name=name]",
        name,
    );
    b.click("form[action='/play/guest?next=/play/drills'] button");
    b.wait(&["id=\"drill-progress\""]);
}

/// Whether the page says the day's drills are done (read from the drill's heading: the
/// page's Chinese texts are all in its source).
fn done(b: &Window) -> bool {
    let h = b.exec("const h = document.querySelector('#drill h2'); return h ? h.textContent : ''");
    matches!(h.as_str(), Some("All done for today" | "今天的练习已完成"))
}

/// The kind of the drill on the page, once one is shown ("fan", "board") or "done".
fn shown(b: &Window) -> String {
    let start = Instant::now();
    loop {
        let page = b.source();
        // The last answer still shown: the next drill is on its way.
        if page.contains("id=\"drill-answer\"") {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        if page.contains("id=\"drill-points\"") {
            return "fan".into();
        }
        if b.has("#drill .tile.answer") || b.has("#drill .drill-moves button") {
            return "board".into();
        }
        if done(b) {
            return "done".into();
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no drill shown: {page}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Answers the drill shown: a fan drill with `points` and the first fan ticked, a board
/// from the keyboard (Tab to the first tile that answers, Enter); waits for the answer.
fn answer(b: &Window, kind: &str, points: &str) -> String {
    if kind == "fan" {
        b.fill("#drill-points", points);
        b.click(".fan-choices input");
        b.click(".drill-fans button");
    } else if b.has("#drill .tile.answer") {
        b.exec("document.querySelector('#drill .tile.answer').focus()");
        b.keys(&["\u{E007}"]);
    } else {
        b.click("#drill .drill-moves button");
    }
    b.wait(&["id=\"drill-answer\""])
}

/// No part of the page wider than the window.
fn fits(b: &Window) {
    let wide = b.exec("return document.documentElement.scrollWidth - window.innerWidth");
    assert!(
        wide.as_i64().unwrap() <= 1,
        "the page is {wide} px wider than the window"
    );
}

/// Plays two hands at a rated table (each draw thrown away, a win taken), waits for both
/// reviews and gives the kinds of the day's set read from its JSON.
fn reviewed_table(a: &Window) -> Vec<String> {
    a.go("/play");
    a.wait(&["id=\"mode\""]);
    a.fill("input[name=deals]", "2");
    a.click("#open");
    a.play_until("#final");
    let table = a
        .exec("return location.pathname")
        .as_str()
        .unwrap()
        .to_string();
    // Both hands reviewed, so that the page's set and the one read here are the same.
    let start_wait = Instant::now();
    for hand in 1..=2 {
        loop {
            let state = a.exec_async(&format!(
                "const done = arguments[arguments.length - 1]; fetch('{table}/hands/{hand}/review.json').then((r) => r.json()).then((v) => done(v.state))"
            ));
            if state != "queued" {
                assert_eq!(state, "done", "hand {hand}");
                break;
            }
            assert!(
                start_wait.elapsed() < Duration::from_secs(90),
                "hand {hand} not reviewed"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    let set = a.exec_async(
        "const done = arguments[arguments.length - 1]; fetch('/play/drills/set.json').then((r) => r.json()).then((s) => done(s.drills.map((d) => d.kind)))",
    );
    serde_json::from_value(set).unwrap()
}

#[test]
fn a_days_drills_done_on_desktop_and_phone() {
    let db = common::fresh_db("drills");
    let (child, addr) = common::serve_reviewed(&db, 60);
    let _server = Proc(child);
    let base = format!("http://{addr}");
    let a = open(Engine::Chromium, &base);
    a.viewport(1366, 900);

    // Not signed in: what drills are and a guest's start.
    a.go("/play/drills");
    a.wait(&["Play as a guest"]);
    a.screenshot("drills-start");
    start(&a, "Dora");

    // Two hands at a rated table, discarding what she draws, then the reviewer's turn; a
    // deal where throwing away each draw costs nothing the expert is sure of gives no
    // drill, so another table then (the deals are drawn at random).
    let mut kinds: Vec<String> = vec![];
    for _ in 0..3 {
        kinds = reviewed_table(&a);
        if kinds.iter().any(|k| k == "play") {
            break;
        }
    }
    assert!(
        kinds.iter().any(|k| k == "play"),
        "no drill from her hands: {kinds:?}"
    );
    a.go("/play/drills");
    assert_eq!(shown(&a), "fan", "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| *k == "fan").count(), 2, "{kinds:?}");
    assert_eq!(
        kinds.iter().filter(|k| *k == "route").count(),
        2,
        "{kinds:?}"
    );

    // The day's set, one after another ("N" for the next).
    let mut pictures = vec![];
    for (i, kind) in kinds.iter().enumerate() {
        let on_page = shown(&a);
        let expect = if kind == "fan" { "fan" } else { "board" };
        assert_eq!(on_page, expect, "drill {i} ({kind})");
        if !pictures.contains(kind) {
            a.screenshot(&format!("drills-{kind}-question"));
        }
        let page = answer(&a, &on_page, "8");
        match kind.as_str() {
            "fan" => assert!(
                page.contains("The same reading from the calculator: dupmj fan"),
                "{page}"
            ),
            "route" => assert!(page.contains("The strong bot discards"), "{page}"),
            _ => {
                assert!(page.contains("You played"), "{page}");
                assert!(page.contains("expected points"), "{page}");
            }
        }
        assert!(page.contains("It comes back tomorrow."), "{page}");
        if !pictures.contains(kind) {
            a.exec("document.getElementById('drill-answer').scrollIntoView()");
            a.screenshot(&format!("drills-{kind}-answer"));
            pictures.push(kind.clone());
        }
        a.keys(&["n"]);
    }
    assert_eq!(shown(&a), "done");
    let progress = a.text("#drill-progress");
    assert!(
        progress.starts_with(&format!("{} answered", kinds.len())),
        "{progress}"
    );

    // The problem of the day, and how everyone answered.
    a.click("#problem-open");
    let clicked = Instant::now();
    while done(&a) {
        assert!(
            clicked.elapsed() < Duration::from_secs(10),
            "the problem did not open"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let kind = shown(&a);
    assert_ne!(kind, "done");
    let page = answer(&a, &kind, "9");
    assert!(page.contains("How everyone answered"), "{page}");
    a.exec("document.getElementById('drill-answer').scrollIntoView()");
    a.screenshot("drills-problem");
    fits(&a);
    // The same day's page in Chinese: the day done, the problem answered.
    a.go("/lang/zh");
    a.go("/play/drills");
    a.wait(&["每日一题"]);
    assert_eq!(shown(&a), "done");
    let line = a.text("#problem-line");
    assert!(line.contains("你已回答今天的题目"), "{line}");
    a.screenshot("drills-done-zh");

    // A second guest on a phone, in Chinese: a fan drill and a route drill.
    let b = open(Engine::Chromium, &base);
    b.viewport(390, 844);
    b.go("/lang/zh");
    start(&b, "Wen");
    let page = b.wait(&["每日一题"]);
    assert!(page.contains("<h1>练习</h1>"), "{page}");
    let mut seen = vec![];
    while seen.len() < 2 {
        let kind = shown(&b);
        if !seen.contains(&kind) {
            b.screenshot(&format!("drills-{kind}-phone-zh"));
            fits(&b);
        }
        let page = answer(&b, &kind, "8");
        if !seen.contains(&kind) {
            assert!(page.contains("明天再次出现"), "{page}");
            b.exec("document.getElementById('drill-answer').scrollIntoView()");
            b.screenshot(&format!("drills-{kind}-answer-phone-zh"));
            fits(&b);
            seen.push(kind);
        }
        b.click("#drill-next");
    }
}
