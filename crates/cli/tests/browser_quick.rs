//! Quick match in headless Chromium, at desktop and phone sizes: the lobby's button and
//! counts, the waiting page counting down to the bots, one person alone seated with bots
//! after the wait, two people who queue together at one table, and a stamp sent at that
//! table shown beside the sender's seat (pictures `docs/screenshots/quick-*.png` and
//! `stamps-*.png` with `DUPMJ_SCREENSHOTS=1`).

mod common;
mod webdriver;

use std::time::{Duration, Instant};

use webdriver::{open, Engine, Proc, Window};

/// The table the browser's page is at, once it gets there from the waiting page.
fn table_reached(b: &Window) -> String {
    let start = Instant::now();
    loop {
        let url = b
            .exec("return location.pathname")
            .as_str()
            .unwrap_or("")
            .to_string();
        if url.starts_with("/play/t/") {
            return url;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "still at {url}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn quick_match_seats_people_together_and_bots_after_the_wait() {
    let db = common::fresh_db("quick");
    let (child, addr) = common::serve_with(&db, &["--bot-pace-ms", "300", "--quick-wait", "4"]);
    let _server = Proc(child);
    let base = format!("http://{addr}");
    let a = open(Engine::Chromium, &base);
    a.viewport(1366, 768);
    a.sign_up("Quinn");

    // The lobby: the button first, who waits and plays.
    a.go("/play");
    let lobby = a.wait(&["id=\"quick-match\""]);
    assert!(lobby.contains("0 waiting · 0 playing"), "{lobby}");
    a.screenshot("quick-lobby");
    a.viewport(390, 844);
    a.screenshot("quick-lobby-phone");
    a.viewport(1366, 768);

    // Alone: the waiting page counts down, then the table with three bots.
    a.click("#quick-join");
    let waiting = a.wait(&["id=\"quick-status\""]);
    assert!(waiting.contains("1 waiting, you included"), "{waiting}");
    a.wait(&["bots in"]);
    a.screenshot("quick-match");
    let alone = table_reached(&a);
    let page = a.wait(&["class=\"my-hand\""]);
    assert!(
        page.contains("bot (medium)"),
        "three medium bots for a newcomer: {page}"
    );

    // Two who queue together sit at one table (the second on a phone).
    let b = open(Engine::Chromium, &base);
    b.viewport(390, 844);
    b.sign_up("Pia");
    a.go("/play");
    a.click("#quick-join");
    b.go("/play");
    b.click("#quick-join");
    b.wait(&["id=\"quick-status\""]);
    b.screenshot("quick-match-phone");
    let (ta, tb) = (table_reached(&a), table_reached(&b));
    assert_eq!(ta, tb);
    assert_ne!(ta, alone);
    b.wait(&["class=\"my-hand\""]);

    // A stamp from Quinn shows beside Quinn's seat on Pia's screen; Pia may mute her.
    a.wait(&["id=\"stamps\""]);
    a.click("#stamps button[data-stamp=gg]");
    let seen = b.wait(&["stamp-bubble"]);
    assert!(seen.contains("Good game"), "{seen}");
    b.screenshot("stamps-phone");
    a.wait(&["stamp-bubble"]);
    a.screenshot("stamps");
    b.exec("document.getElementById('stamps').scrollIntoView()");
    b.click("#stamps .stamp-mutes input");
    std::thread::sleep(Duration::from_millis(3100));
    a.click("#stamps button[data-stamp=thanks]");
    a.wait(&["Thanks</div>"]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !b.source().contains("Thanks</div>"),
        "muted on Pia's screen"
    );
}
