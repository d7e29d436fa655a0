//! Seasons and sign-ups in headless Chromium, at desktop and phone sizes, in English and
//! Chinese: a player makes an account and signs up from the public page, the director sees
//! the list and seats a substitute, and the season's page shows its standings with the
//! counted results marked. No page is wider than its window. Pictures
//! `docs/screenshots/season-*.png` and `signup-*.png` (the lobby's card of one's sign-ups
//! among them) with `DUPMJ_SCREENSHOTS=1`.

mod common;
mod webdriver;

use store::prelude::*;
use tournament::entry::{Outcome, ScoreEntry};
use tournament::signup::{Act, Rules};
use webdriver::{start_driver, Browser, Proc};

/// Two live events of 16 with round 1 entered (East self-draws a value by table and
/// hand), a season of both, and an open sign-up with 14 people in and a substitute.
fn make_scene(db: &std::path::Path) {
    let s = store::SqliteStore::open(db).unwrap();
    server::auth::set_director_password(&s, "season test pw", "test").unwrap();
    let names: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    for (n, name) in [(1u32, "Spring club night"), (2, "Summer club night")] {
        let id = server::service::create_event(
            &s,
            name,
            false,
            server::service::parse_entrants(&names).unwrap(),
            &table::set::SetKey::from_bytes([n as u8; 32]),
            Some(2),
            "test",
        )
        .unwrap();
        let e = s.event(id).unwrap();
        for h in &e.movement.rounds[0].hands {
            for t in &h.tables {
                let entry = ScoreEntry {
                    outcome: Outcome::SelfDrawn {
                        winner: mcr::Wind::ALL[(t.table as usize + n as usize) % 4],
                        value: 8 + 3 * t.table + h.hand * n,
                    },
                    false_hu: vec![],
                };
                s.save_result(id, &t.deal, t.table, h.hand, &entry, 0, "t")
                    .unwrap();
            }
        }
    }
    s.create_season(
        &store::Season {
            id: 0,
            name: "Club season 2027".into(),
            rules: tournament::season::Rules {
                best: 1,
                measure: tournament::season::Measure::Total,
            },
            final_k: 8,
            parts: vec![(store::PartKind::Event, 1), (store::PartKind::Event, 2)],
            final_event: None,
        },
        "test",
    )
    .unwrap();
    let id = s
        .create_signup(
            &store::NewSignUp {
                name: "Autumn open".into(),
                kind: store::EventKind::Live,
                rules: Rules {
                    cap: 16,
                    approval: false,
                },
                deadline: 4_102_444_800, // 2100-01-01
                note: "Club room, Saturday 14:00".into(),
            },
            "test",
        )
        .unwrap();
    for i in 1..=14 {
        let p = s.create_person(&format!("Member {i}"), Some("x")).unwrap();
        let act = Act::Join {
            who: p.id,
            name: p.name,
        };
        s.add_signup_act(id, &act, 0, "test").unwrap();
    }
    let sub = s.create_person("Stand-by Sam", Some("x")).unwrap();
    let act = Act::Substitute {
        who: sub.id,
        name: sub.name,
    };
    s.add_signup_act(id, &act, 0, "test").unwrap();
}

/// No part of the page wider than the window.
fn fits(b: &Browser, what: &str) {
    let wide = b.exec("return document.documentElement.scrollWidth - window.innerWidth");
    assert!(
        wide.as_i64().unwrap() <= 1,
        "{what}: the page is {wide} px wider than the window"
    );
}

#[test]
fn seasons_and_sign_ups_on_desktop_and_phone_in_both_languages() {
    let db = common::fresh_db("seasons");
    make_scene(&db);
    let (child, addr) = common::serve(&db);
    let _server = Proc(child);
    let (_driver, driver) = start_driver();
    let base = format!("http://{addr}");

    // A player makes an account and signs up: the 15th in.
    let p = Browser::new(driver, &base);
    p.sign_up("Dora");
    p.go("/play/signups");
    p.wait(&["Autumn open"]);
    p.click("#signups a");
    p.wait(&["Sign up to play"]);
    p.click("button[value=join]");
    let page = p.wait(&["You are in (number 15)."]);
    assert!(page.contains("<li>Dora</li>"), "{page}");
    fits(&p, "sign-up");
    p.screenshot("signup");
    p.resize(390, 844);
    fits(&p, "sign-up on a phone");
    p.screenshot("signup-phone");
    p.go("/lang/zh?back=/play/signups/1");
    p.wait(&["你已入选（第 15 位）。"]);
    fits(&p, "sign-up on a phone in Chinese");
    p.screenshot("signup-phone-zh");
    // The lobby says where she stands (nobody is sent word).
    p.go("/play");
    let page = p.wait(&["我的报名"]);
    assert!(page.contains("你已入选（第 15 位）。"), "{page}");
    fits(&p, "lobby with a sign-up on a phone in Chinese");
    p.screenshot("signup-lobby-phone-zh");

    // The season's page: both events, the counted result of each line in bold.
    p.go("/seasons/1");
    let page = p.wait(&["Summer club night"]);
    assert!(page.contains("class=\"counted\""), "{page}");
    fits(&p, "season on a phone in Chinese");
    p.screenshot("season-phone-zh");
    p.go("/lang/en?back=/seasons/1");
    p.wait(&["The best 1 of 2 events count"]);
    fits(&p, "season on a phone");
    p.screenshot("season-phone");
    p.resize(1280, 900);
    fits(&p, "season");
    p.screenshot("season");
    let rows = p.exec("return document.querySelectorAll('#season tbody tr').length");
    assert_eq!(rows.as_u64(), Some(16), "every player of both events");
    p.go("/play");
    let page = p.wait(&["Your sign-ups"]);
    assert!(page.contains("You are in (number 15)."), "{page}");
    fits(&p, "lobby with a sign-up");
    p.screenshot("signup-lobby");

    // The director: the sign-up's list, a substitute seated.
    let d = Browser::new(driver, &base);
    d.go("/login");
    d.fill("input[name=password]", "season test pw");
    d.click("form button");
    d.wait(&["<h1>Director</h1>"]);
    d.go("/director/signups/1");
    d.wait(&["Stand-by Sam"]);
    d.click("#substitutes button[value=seat]");
    let page = d.wait(&["<h2>Substitutes (0)</h2>"]);
    assert!(page.contains("<h2>In (16 of 16)</h2>"), "{page}");
    fits(&d, "director's sign-up");
    d.screenshot("signup-director");
    d.go("/director/seasons/1");
    d.wait(&["Make the final"]);
    fits(&d, "director's season");
    d.screenshot("season-director");
    // The final's form: live or online.
    d.exec("document.querySelector('form[action$=\"/final\"]').scrollIntoView()");
    let online = d.exec(
        "return document.querySelectorAll('form[action$=\"/final\"] input[name=kind]').length",
    );
    assert_eq!(online.as_u64(), Some(2), "live and online");
    d.screenshot("season-director-final");
    d.resize(390, 844);
    d.go("/director/signups/1");
    d.wait(&["Stand-by Sam"]);
    fits(&d, "director's sign-up on a phone");
    d.screenshot("signup-director-phone");
}
