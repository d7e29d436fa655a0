//! End to end in headless Chromium (Debian's `chromium` and `chromium-driver`, which the
//! README's test command installs): the director creates an event, two tables enter their
//! round from their phones (with one conflict from a second device), the standings show
//! the IMP of rules §5. With `DUPMJ_SCREENSHOTS=1` it refreshes the screenshots of the
//! main pages in `docs/screenshots/`.

mod common;
mod webdriver;

use std::collections::BTreeMap;
use store::prelude::*;

use webdriver::{start_driver, Browser, Proc};

/// Enters one result from the table's form: fields to fill, boxes to click, then Check
/// and Save.
fn enter(b: &Browser, path: &str, clicks: &[&str], fills: &[(&str, &str)]) -> String {
    b.go(path);
    for c in clicks {
        b.click(c);
    }
    for (css, text) in fills {
        b.fill(css, text);
    }
    b.click("form button");
    b.wait(&["id=\"preview\""]);
    b.click("form button"); // Save, on the preview page
    b.wait(&["id=\"saved\"", "id=\"conflict\""])
}

#[test]
fn an_event_runs_end_to_end_in_chromium() {
    let (_driver, driver) = start_driver();
    let db = common::fresh_db("browser");
    let (child, addr) = common::serve(&db);
    let server = Proc(child);
    let base = format!("http://{addr}");

    // The director sets the password on first run and creates a 16-player event.
    let d = Browser::new(driver, &base);
    d.go("/setup");
    d.fill("input[name=password]", "browser test pw");
    d.click("form button");
    d.wait(&["<h1>Director</h1>"]);
    let players: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    d.fill("input[name=name]", "Browser open");
    d.fill("textarea[name=players]", &players);
    d.click("form[action='/director/events'] button");
    assert!(d
        .wait(&["<h1>Browser open</h1>"])
        .contains("<h1>Browser open</h1>"));
    let codes: Vec<String> = (1..=2)
        .map(|t| d.text(&format!("table tr:nth-child({}) td code", t + 1)))
        .collect();

    // Two tables log in on their phones.
    let login = |t: usize| {
        let b = Browser::new(driver, &base);
        b.go("/events/1/table");
        b.fill("input[name=table]", &t.to_string());
        b.fill("input[name=code]", &codes[t - 1]);
        b.click("form button");
        let h1 = format!("table {t}</h1>");
        assert!(b.wait(&[&h1]).contains(&h1), "table {t} logged in");
        b
    };
    let t1 = login(1);
    let t2 = login(2);

    // A second device (the director's) opens table 1's first form before table 1 saves.
    d.go("/events/1/table/1/deal/1-1/1");
    // Table 1: South self-draws 12, then three draws. The preview is screenshotted.
    t1.go("/events/1/table/1/deal/1-1/1");
    t1.click("input[value=self]");
    t1.click("select[name=winner] option[value=S]");
    t1.fill("input[name=value]", "12");
    t1.screenshot("score-entry");
    // The same form on a phone: one field a line, large tap targets.
    t1.resize(390, 844);
    t1.screenshot("score-entry-phone");
    t1.resize(1100, 1000);
    t1.click("form button");
    let preview = t1.wait(&["id=\"preview\""]);
    assert!(
        preview.contains("<td>36</td>") && preview.contains("<td>-12</td>"),
        "{preview}"
    );
    t1.screenshot("score-preview");
    t1.click("form button");
    let saved = t1.wait(&["id=\"saved\""]);
    assert!(saved.contains("id=\"saved\""), "{saved}");
    assert!(
        saved.contains("id=\"next\""),
        "a next-sitting button: {saved}"
    );
    t1.resize(390, 844);
    t1.screenshot("score-saved-phone");
    t1.resize(1100, 1000);
    for hand in 2..=4 {
        let page = enter(
            &t1,
            &format!("/events/1/table/1/deal/1-1/{hand}"),
            &["input[value=draw]"],
            &[],
        );
        assert!(page.contains("id=\"saved\""), "{page}");
    }
    // Table 2: East wins 10 on West's discard, then three draws.
    let page = enter(
        &t2,
        "/events/1/table/2/deal/1-2/1",
        &[
            "input[value=discard]",
            "select[name=discarder] option[value=W]",
            "input[name=win_E]",
        ],
        &[("input[name=value_E]", "10")],
    );
    assert!(page.contains("id=\"saved\""), "{page}");
    for hand in 2..=4 {
        let page = enter(
            &t2,
            &format!("/events/1/table/2/deal/1-2/{hand}"),
            &["input[value=draw]"],
            &[],
        );
        assert!(page.contains("id=\"saved\""), "{page}");
    }
    // The second device now saves a different result for table 1's first hand: a conflict.
    d.click("input[value=self]");
    d.click("select[name=winner] option[value=S]");
    d.fill("input[name=value]", "16");
    d.click("form button");
    d.wait(&["id=\"preview\""]);
    d.click("form button");
    let page = d.wait(&["id=\"conflict\""]);
    assert!(page.contains("id=\"conflict\""), "{page}");
    d.go("/director/events/1");
    assert!(d.source().contains("S self-drawn 16"));
    d.screenshot("director-event");
    d.resize(390, 844);
    d.screenshot("director-event-phone");
    d.go("/director");
    assert!(d.source().contains("<h2>Sessions</h2>"));
    d.screenshot("director-sessions-phone");
    d.resize(1100, 1000);
    d.screenshot("director-sessions");
    d.go("/director/events/1");
    d.click("tr.conflict input[type=checkbox]");
    d.click("button[name=accept][value='0']"); // keep the stored result for the ticked
    let page = d.wait_for(|s| !s.contains("class=\"conflict\""));
    assert!(
        !page.contains("class=\"conflict\"") && page.contains("<h1>Browser open</h1>"),
        "{page}"
    );

    // The standings, read from the page, against rules §5 worked by hand:
    // deal 1-1: S 36,0,0,0 (avg 9): +27 → 5, −9 → −2; E/W/N −12,0,0,0 (avg −3): −9 → −2, +3 → +1.
    // deal 1-2: E 34,0,0,0 (avg 8.5): +25.5 → 5, −8.5 → −2; W −18,0,0,0 (avg −4.5): −13.5 → −3,
    // +4.5 → +1; S and N −8,0,0,0 (avg −2): −6 → −2, +2 → +1.
    let imp_first = |deal: &str, wind: usize| match (deal, wind) {
        ("1-1", 1) | ("1-2", 0) => 5,
        ("1-2", 2) => -3,
        _ => -2,
    };
    let imp_other = |deal: &str, wind: usize| match (deal, wind) {
        ("1-1", 1) | ("1-2", 0) => -2,
        _ => 1,
    };
    let store = {
        let s = store::SqliteStore::open(&db).unwrap();
        s.event(1).unwrap()
    };
    let mut expected: BTreeMap<u32, i64> = BTreeMap::new();
    for (deal, table) in [("1-1", 1), ("1-2", 2)] {
        for hand in 1..=4 {
            let (_, tp) = server::service::sitting(&store.movement, deal, table, hand).unwrap();
            for (w, p) in tp.players_by_wind().iter().enumerate() {
                let imp = if hand == 1 {
                    imp_first(deal, w)
                } else {
                    imp_other(deal, w)
                };
                *expected.entry(*p).or_default() += imp;
            }
        }
    }
    let anon = Browser::new(driver, &base);
    anon.go("/events/1/standings");
    let page = anon.source();
    for (p, imp) in &expected {
        let row = format!("<td>{p}</td><td>Player {p}</td><td>2</td>");
        let at = page
            .find(&row)
            .unwrap_or_else(|| panic!("player {p} in {page}"));
        let cells: Vec<&str> = page[at..].split("</td><td>").take(5).collect();
        assert_eq!(cells[4].parse::<i64>().unwrap(), *imp, "player {p}");
    }
    anon.screenshot("standings");
    anon.go("/events/1/deals");
    assert!(anon.source().contains("<td>34</td><td>25.5</td><td>5</td>"));
    anon.screenshot("deal-tables");
    anon.go("/events/1/big");
    assert!(anon.source().contains("page 1 of 1 · 16 players"));
    drop(server);
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}
