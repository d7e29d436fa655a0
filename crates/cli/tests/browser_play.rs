//! Playing in headless Chromium and Firefox: a person plays a whole duplicate hand against
//! three bots by clicking (discards, a claim when one is offered, Hu or the end of the wall),
//! looks at the replay, and two browser sessions play one table together. Chromium's
//! screenshots of the table at desktop and phone sizes go to `docs/screenshots/` with
//! `DUPMJ_SCREENSHOTS=1`.

mod common;
mod webdriver;

use std::time::{Duration, Instant};

use webdriver::{open, Browser, Engine, Proc};

/// How many state messages the page has had (the page counts them on `<body>`).
fn updates(b: &Browser) -> u64 {
    b.exec("return Number(document.body.dataset.updates || 0)")
        .as_u64()
        .unwrap_or(0)
}

/// Waits until the page has had a message after `since`.
fn wait_update(b: &Browser, since: u64) {
    let start = Instant::now();
    while updates(b) <= since && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// One click for whatever the page offers now; returns what was done (None: nothing
/// to do yet). Claims once when offered, so a claim is exercised.
fn play_one(b: &Browser, claimed: &mut bool) -> Option<&'static str> {
    if b.has("#confirm-hu") {
        b.click("#confirm-hu");
        return Some("hu");
    }
    if b.has("#actions button[data-action=hu]") {
        b.click("#actions button[data-action=hu]");
        return Some("hu-preview");
    }
    if b.has(".chow-picks button") {
        b.click(".chow-picks button");
        return Some("chow");
    }
    if !*claimed {
        for a in ["pung", "chow", "kong"] {
            let css = format!("#actions button[data-action={a}]");
            if b.has(&css) {
                *claimed = true;
                b.click(&css);
                return Some("claim");
            }
        }
    }
    if b.has("#actions button[data-action=pass]") {
        b.click("#actions button[data-action=pass]");
        return Some("pass");
    }
    if b.has("#actions button[data-action=bonus]") {
        b.click("#actions button[data-action=bonus]");
        return Some("bonus");
    }
    if b.has(".my-hand .tile.drawn.playable") {
        b.click(".my-hand .tile.drawn.playable");
        return Some("discard");
    }
    if b.has(".my-hand .tile.playable") {
        b.click(".my-hand .tile.playable");
        return Some("discard");
    }
    None
}

fn sign_in_as_guest(b: &Browser, name: &str) {
    b.go("/play");
    b.fill("form[action='/play/guest'] input[name=name]", name);
    b.click("form[action='/play/guest'] button");
    b.wait(&["id=\"me\""]);
}

#[test]
fn a_person_plays_a_duplicate_hand_against_bots_and_two_people_share_a_table() {
    play(Engine::Chromium);
}

#[test]
fn the_same_in_firefox() {
    play(Engine::Firefox);
}

fn play(engine: Engine) {
    // Screenshots are Chromium's; Firefox's go to a temporary folder under their own names.
    let shot_name = |name: &str| match engine {
        Engine::Chromium => name.to_string(),
        Engine::Firefox => format!("firefox-{name}"),
    };
    let dir = std::env::temp_dir().join(format!("dupmj-play-{engine:?}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("play.sqlite");
    std::fs::remove_file(&db).ok();
    let (child, addr) = common::serve_with(&db, &["--bot-pace-ms", "0"]);
    let _server = Proc(child);
    let base = format!("http://{addr}");

    // Alice signs in as a guest and opens a one-deal duplicate table against strong bots.
    let (a, _da) = open(engine, &base);
    sign_in_as_guest(&a, "Alice");
    a.fill("input[name=deals]", "1");
    a.fill("input[name=seed]", "20261123");
    a.fill("input[name=limit]", "120");
    a.click("#open");
    a.wait(&["class=\"my-hand\"", "id=\"result\""]);
    let mut claimed = false;
    let mut moves = Vec::new();
    let mut shot = false;
    let start = Instant::now();
    while !a.has("#result") {
        assert!(
            start.elapsed() < Duration::from_secs(240),
            "the hand did not end: {moves:?}"
        );
        let before = updates(&a);
        match play_one(&a, &mut claimed) {
            Some(m) => {
                moves.push(m);
                if m == "hu-preview" {
                    assert!(a.has("#confirm-hu"), "the Hu preview shows its fans first");
                    continue;
                }
                wait_update(&a, before);
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
        if !shot && moves.len() >= 8 && a.has(".my-hand .tile.playable") {
            // Mid-hand, at desktop size and on a phone held upright.
            a.screenshot(&shot_name("play-table"));
            a.resize(390, 844);
            std::thread::sleep(Duration::from_millis(200));
            a.screenshot(&shot_name("play-table-phone"));
            let width = a
                .exec("return document.querySelector('.my-hand').scrollWidth")
                .as_u64()
                .unwrap();
            // Headless Firefox keeps windows at least 500 px wide; Chromium goes to 390.
            let inner = a.exec("return window.innerWidth").as_u64().unwrap();
            assert!(inner <= 500, "a phone-sized window: {inner}px");
            assert!(
                width <= inner,
                "the hand fits the window: {width}px of {inner}px"
            );
            a.resize(1100, 1000);
            shot = true;
        }
    }
    assert!(moves.contains(&"discard"), "{moves:?}");
    let result = a.text("#result");
    assert!(
        result.contains("Nobody won") || result.contains("points"),
        "{result}"
    );
    a.screenshot(&shot_name("play-result"));
    // The server kept the hand: it replays step by step from East's eyes.
    a.click("#result a");
    a.wait(&["id=\"replay\""]);
    std::thread::sleep(Duration::from_millis(300));
    let first = a.text("#pos");
    assert!(first.starts_with("0 / "), "{first}");
    a.click("#next");
    a.click("#next");
    std::thread::sleep(Duration::from_millis(300));
    assert!(a.text("#pos").starts_with("2 / "));
    let hidden = a
        .exec("return document.querySelectorAll('.seat-top .hidden-hand .tile').length")
        .as_u64()
        .unwrap();
    assert_eq!(
        hidden, 0,
        "another seat's tiles are hidden from East's view"
    );
    a.click("#view option[value=all]");
    std::thread::sleep(Duration::from_millis(400));
    let open_tiles = a
        .exec("return document.querySelectorAll('.seat-top .hidden-hand .tile').length")
        .as_u64()
        .unwrap();
    assert!(
        open_tiles >= 13,
        "all hands open once the hand is over: {open_tiles}"
    );
    a.screenshot(&shot_name("play-replay"));

    // Two people: Alice opens a table with South for a person; Bob joins by its address.
    a.go("/play");
    a.fill("input[name=deals]", "1");
    a.fill("input[name=seed]", "77");
    a.click("select[name=p1] option[value=person]");
    a.click("#open");
    a.wait(&["Invite"]);
    let url = a
        .exec("return location.pathname")
        .as_str()
        .unwrap()
        .to_string();
    let (b, _db) = open(engine, &base);
    b.go(&url);
    b.fill("form.signin-inline input[name=name]", "Bob");
    b.click("form.signin-inline button");
    b.wait(&["class=\"sit\""]);
    b.click(".sit[data-place='1']");
    b.wait(&["class=\"my-hand\""]);
    let (mut ca, mut cb) = (false, false);
    let start = Instant::now();
    while !(a.has("#result") && b.has("#result")) {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the shared hand did not end"
        );
        let pa = play_one(&a, &mut ca);
        let pb = play_one(&b, &mut cb);
        if pa.is_none() && pb.is_none() {
            std::thread::sleep(Duration::from_millis(50));
        } else {
            std::thread::sleep(Duration::from_millis(120));
        }
    }
    assert_eq!(
        a.text("#result table.points"),
        b.text("#result table.points")
    );
}
