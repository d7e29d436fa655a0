//! The printables and the big screen in headless Chromium: every box holds its content
//! (nothing cut off or overflowing), the PDF has the pages the layout promises, and the
//! big screen shows every row of a 128-player page at 1920 × 1080.

mod common;
mod webdriver;

use server::service::{create_event, parse_entrants};
use store::prelude::*;
use store::SqliteStore;
use tournament::entry::{Outcome, ScoreEntry};
use webdriver::{start_driver, Browser, Proc};

/// Boxes matching `css` whose content overflows them (by more than a pixel), as
/// "index: scroll size > box size".
fn overflowing(b: &Browser, css: &str) -> Vec<String> {
    let v = b.exec(&format!(
        "return [...document.querySelectorAll({})].flatMap((e,i)=>\
         (e.scrollHeight>e.clientHeight+1||e.scrollWidth>e.clientWidth+1)?\
         [i+': '+e.scrollWidth+'x'+e.scrollHeight+' > '+e.clientWidth+'x'+e.clientHeight]:[])",
        serde_json::to_string(css).unwrap()
    ));
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn count(b: &Browser, css: &str) -> u64 {
    b.exec(&format!(
        "return document.querySelectorAll({}).length",
        serde_json::to_string(css).unwrap()
    ))
    .as_u64()
    .unwrap()
}

#[test]
fn printables_fit_a4_and_the_big_screen_fits_1920_by_1080() {
    let db = common::fresh_db("print");
    {
        let s = SqliteStore::open(&db).unwrap();
        server::auth::set_director_password(&s, "print test pw", "test").unwrap();
        // Long names, to see that they fit their boxes too.
        let names: String = (1..=16)
            .map(|i| format!("Wilhelmina Konstantinopoulou-Smythe {i}\n"))
            .collect();
        create_event(
            &s,
            "Spring Duplicate Open",
            false,
            parse_entrants(&names).unwrap(),
            &table::set::SetKey::from_bytes([1; 32]),
            None,
            "t",
        )
        .unwrap();
        let many: String = (1..=128)
            .map(|i| format!("Player with a long name {i}\n"))
            .collect();
        create_event(
            &s,
            "Nationals",
            false,
            parse_entrants(&many).unwrap(),
            &table::set::SetKey::from_bytes([2; 32]),
            None,
            "t",
        )
        .unwrap();
        let e = s.event(1).unwrap();
        for h in &e.movement.rounds[0].hands {
            for t in &h.tables {
                let entry = ScoreEntry {
                    outcome: Outcome::SelfDrawn {
                        winner: mcr::Wind::South,
                        value: 8 + t.table,
                    },
                    false_hu: vec![],
                };
                s.save_result(1, &t.deal, t.table, h.hand, &entry, 0, "t")
                    .unwrap();
            }
        }
    }
    let (child, addr) = common::serve_with(&db, &["--bot-pace-ms", "0"]);
    let _server = Proc(child);
    let (_driver, driver) = start_driver();
    let b = Browser::new(driver, &format!("http://{addr}"));
    b.go("/login");
    b.fill("input[name=password]", "print test pw");
    b.click("form button");
    b.wait(&["<h1>Director</h1>"]);

    // Each printable: (path, box, boxes, printed pages).
    let cases = [
        ("guides", ".card", 16, 4),
        ("sheets", ".sheet", 20, 5),
        ("tables", ".tablecard", 4, 4),
        ("slips", ".card", 16, 4),
    ];
    for (what, css, boxes, pages) in cases {
        b.go(&format!("/director/events/1/print/{what}"));
        assert_eq!(count(&b, css), boxes, "{what}");
        assert_eq!(
            overflowing(&b, css),
            Vec::<String>::new(),
            "{what}: boxes overflow"
        );
        assert_eq!(
            overflowing(&b, ".page"),
            Vec::<String>::new(),
            "{what}: pages overflow"
        );
        assert_eq!(b.print_pages(), pages, "{what}: printed pages");
        b.screenshot(&format!("print-{what}"));
    }
    // The score sheets' table, border and all, ends inside the sheet (the initials column
    // is whole), and no name cell overflows.
    b.go("/director/events/1/print/sheets");
    let inside = b.exec(
        "return [...document.querySelectorAll('.sheet')].every(s=>\
         s.querySelector('table').getBoundingClientRect().right+1<=s.getBoundingClientRect().right)",
    );
    assert_eq!(inside, true, "the initials column is inside every sheet");
    assert_eq!(overflowing(&b, ".sheet td"), Vec::<String>::new());
    b.go("/director/events/1/print/standings");
    assert_eq!(count(&b, ".standings tbody tr"), 16);
    assert_eq!(b.print_pages(), 1);
    b.go("/director/events/2/print/standings");
    assert_eq!(count(&b, ".standings tbody tr"), 128);
    let pages = b.print_pages();
    assert!((3..=5).contains(&pages), "128 players on {pages} pages");

    // The big screen: 128 players in 4 pages of two columns, every row on screen.
    b.resize(1920, 1080);
    let inner = b.exec("return [window.innerWidth, window.innerHeight]");
    let (w, h) = (inner[0].as_f64().unwrap(), inner[1].as_f64().unwrap());
    let mut names = std::collections::BTreeSet::new();
    for page in 1..=4 {
        b.go(&format!("/events/2/big?page={page}"));
        assert_eq!(count(&b, "td.name"), 32, "page {page}");
        let bottom = b
            .exec("return Math.max(...[...document.querySelectorAll('tr,footer')].map(e=>e.getBoundingClientRect().bottom))")
            .as_f64()
            .unwrap();
        let right = b
            .exec("return Math.max(...[...document.querySelectorAll('table')].map(e=>e.getBoundingClientRect().right))")
            .as_f64()
            .unwrap();
        assert!(
            bottom <= h && right <= w,
            "page {page}: {right}x{bottom} in {w}x{h}"
        );
        assert_eq!(
            overflowing(&b, "td.name"),
            Vec::<String>::new(),
            "names cut"
        );
        let shown =
            b.exec("return [...document.querySelectorAll('td.name')].map(e=>e.textContent)");
        for n in shown.as_array().unwrap() {
            names.insert(n.as_str().unwrap().to_string());
        }
        if page == 1 {
            b.screenshot("big-screen");
        }
    }
    assert_eq!(names.len(), 128);

    // In Chinese, on a phone: the switch in the header, the score-entry login, the standings,
    // and a table of online play with its scripts' texts.
    b.resize(390, 844);
    b.go("/events/1/table?table=2");
    b.click("nav a.lang");
    let login = b.wait(&["<html lang=\"zh\">"]);
    assert!(
        login.contains("录分码") && login.contains("value=\"2\""),
        "{login}"
    );
    b.screenshot("zh-score-login-phone");
    b.go("/events/1/standings");
    assert!(b.source().contains("<th>名次</th>"));
    b.screenshot("zh-standings-phone");
    b.go("/play");
    b.fill("form[action='/play/guest'] input[name=name]", "小明");
    b.click("form[action='/play/guest'] button");
    b.wait(&["id=\"me\""]);
    b.fill("input[name=deals]", "1");
    b.fill("input[name=limit]", "120");
    b.click("#open");
    let table = b.wait(&["class=\"my-hand\""]);
    assert!(table.contains("庄家"), "the dealer badge in Chinese");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let wide = b.exec(
        "const w = document.documentElement.clientWidth; return [...document.querySelectorAll('body *')]\
         .filter((e) => e.getBoundingClientRect().right > w + 0.5).slice(0, 3)\
         .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + '/' + w)",
    );
    assert_eq!(wide, serde_json::json!([]), "wider than the phone's window");
    b.screenshot("zh-play-table-phone");
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}
