//! The table's second pass in headless Chromium, at 1366 × 768, 1920 × 1080, a phone upright
//! (390 × 844) and on its side (844 × 390): a person plays a table of two deals to its end.
//! Asserted: the clock counts the decision's own seconds before the bank, as the server
//! says at the same moment; the claim box never lies over a tile of your hand or your pond;
//! "Next hand" and "Play again" are inside the viewport without scrolling; the score sheet
//! is no wider than its panel; the other hands are readable on the phone at the hand's end;
//! the footer gives the deal set's key when the table ends, without a reload; "?" lists the
//! shortcuts; the replay opens from the seat you held, its slider and keys move it, and
//! names never break inside a word. Then the table and the profile in Chinese. Pictures
//! `docs/screenshots/table2-*.png` with `DUPMJ_SCREENSHOTS=1`.

mod common;
mod webdriver;

use std::time::{Duration, Instant};

use webdriver::{open, Engine, Proc, Window};

const SIZES: [(u32, u32); 4] = [(1366, 768), (1920, 1080), (390, 844), (844, 390)];

/// Asserts that `css` is drawn wholly inside the viewport with the page scrolled to its top.
fn in_view(b: &Window, css: &str, at: &str) {
    let r = b.exec(&format!(
        "window.scrollTo(0, 0); const e = document.querySelector({});
         if (!e) return null; const r = e.getBoundingClientRect();
         return {{x: r.left, y: r.top, w: r.width, h: r.height, vw: document.documentElement.clientWidth, vh: document.documentElement.clientHeight}};",
        serde_json::to_string(css).unwrap()
    ));
    assert!(r.is_object(), "{at}: no {css}");
    let f = |k: &str| r[k].as_f64().unwrap();
    assert!(
        f("w") > 0.0
            && f("x") >= -0.5
            && f("y") >= -0.5
            && f("x") + f("w") <= f("vw") + 0.5
            && f("y") + f("h") <= f("vh") + 0.5,
        "{at}: {css} is not inside the viewport: {r}"
    );
}

/// Tiles of your hand and of your pond that the claim box lies over.
const UNDER_CLAIM: &str = r#"
const claim = document.getElementById("claim");
if (!claim) return null;
const c = claim.getBoundingClientRect();
const hit = [...document.querySelectorAll(".my-hand .tile, .my-melds .tile, .pond-bottom .tile")].filter((t) => {
  const r = t.getBoundingClientRect();
  return Math.min(r.right, c.right) - Math.max(r.left, c.left) > 1 && Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top) > 1;
});
return hit.map((t) => `${t.closest(".my-hand, .my-melds, .pond") .className} ${t.dataset.tile}`);
"#;

fn claim_clear(b: &Window, at: &str) {
    // Let the box finish sliding in.
    std::thread::sleep(Duration::from_millis(250));
    let hit = b.exec(UNDER_CLAIM);
    if let Some(hit) = hit.as_array() {
        assert!(hit.is_empty(), "{at}: the claim box covers {hit:?}");
    }
}

/// The page's clock as shown and as the server sent it, read at one moment: the shown
/// own seconds and bank seconds, and the server's own and bank milliseconds less the time
/// since the message arrived.
fn clock(b: &Window) -> (f64, f64, f64, f64) {
    let v = b.exec(
        r##"const t = document.querySelector("#timer .time-text"); const c = window.dupmjTimings.clock;
           if (!t || !c) return null;
           const gone = performance.now() - c.at;
           return {text: t.textContent, own: c.own_ms - gone, bank: c.bank_ms - Math.max(0, gone - c.own_ms)};"##,
    );
    assert!(v.is_object(), "no clock on the page");
    let text = v["text"].as_str().unwrap();
    let nums: Vec<f64> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let (own, bank) = if text.starts_with("bank") {
        (0.0, nums[0])
    } else {
        (nums[0], nums.get(1).copied().unwrap_or(0.0))
    };
    (
        own,
        bank,
        v["own"].as_f64().unwrap() / 1000.0,
        v["bank"].as_f64().unwrap() / 1000.0,
    )
}

/// Plays one move the simple way (pass claims, discard the drawn tile); whether it did.
fn simple_move(b: &Window) -> bool {
    [
        "#claim button[data-action=hu]",
        "#claim button[data-action=pass]",
        "#claim button[data-action=bonus]",
        ".my-hand .tile.drawn.playable",
        ".my-hand .tile.playable",
    ]
    .iter()
    .any(|css| b.click_if(css))
}

/// Whether every word of the names in the table's corners lies on one line.
const WORDS_WHOLE: &str = r#"
const broken = [];
for (const n of document.querySelectorAll(".tag-name")) {
  const words = n.querySelectorAll(".word");
  if (!words.length) broken.push(`${n.textContent}: not in words`);
  for (const w of words) {
    const r = document.createRange();
    r.selectNodeContents(w);
    const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
    if (tops.size > 1) broken.push(w.textContent);
  }
}
return broken;
"#;

#[test]
fn a_table_played_to_its_end_at_four_sizes() {
    let db = common::fresh_db("table2");
    let (child, addr) = common::serve_with(&db, &["--bot-pace-ms", "40"]);
    let _server = Proc(child);
    let b = open(Engine::Chromium, &format!("http://{addr}"));
    b.viewport(1366, 768);
    b.sign_up("KeenMCR");
    b.go("/play");
    b.wait(&["id=\"me\""]);
    // Two new secret deals from South's seat, 20 s a decision and a 30 s bank.
    b.fill("input[name=deals]", "2");
    b.click("select[name=place] option[value='1']");
    b.fill("input[name=limit]", "20");
    b.fill("input[name=bank]", "30");
    b.click("#open");
    b.wait(&["class=\"my-hand\""]);
    let table = b
        .exec("return location.pathname")
        .as_str()
        .unwrap()
        .to_string();

    // The clock: wait at the first decision of ours, then read the page and what the
    // server sent at one moment, before and after a reload (a fresh message mid-decision).
    let start = Instant::now();
    while b.exec("return document.body.dataset.decision || ''") == "" {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no decision came"
        );
        std::thread::sleep(Duration::from_millis(40));
    }
    std::thread::sleep(Duration::from_millis(2600));
    let (own, bank, s_own, s_bank) = clock(&b);
    assert!(
        (own - s_own.ceil()).abs() <= 1.0 && (bank - s_bank.ceil()).abs() <= 1.0,
        "the page shows {own} s + {bank} bank, the server {s_own:.1} + {s_bank:.1}"
    );
    assert!(
        own <= 18.0 && bank == 30.0,
        "own time first: {own} s (+{bank} bank)"
    );
    b.go(&table);
    b.wait(&["class=\"my-hand\""]);
    let start = Instant::now();
    while !b.has("#timer .time-text") || b.text("#timer .time-text").is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no clock after a reload"
        );
        std::thread::sleep(Duration::from_millis(40));
    }
    let (own2, bank2, s_own2, s_bank2) = clock(&b);
    eprintln!("clock: {own} s (+{bank} bank) after 2.6 s; after a reload {own2} s (+{bank2} bank), the server {s_own2:.1} s + {s_bank2:.1} bank");
    assert!(
        own2 <= own && own2 >= own - 4.0 && bank2 == 30.0,
        "after a reload the decision's own time goes on where it was: {own2} s (+{bank2} bank)"
    );
    assert!((own2 - s_own2.ceil()).abs() <= 1.0 && (bank2 - s_bank2.ceil()).abs() <= 1.0);

    // "?" lists the shortcuts; Escape closes the list.
    b.keys(&["?"]);
    let help = b.text("#shortcuts");
    assert!(
        help.contains("Pung") && help.contains("Next hand"),
        "{help}"
    );
    b.screenshot("table2-shortcuts");
    b.keys(&["\u{E00C}"]);
    std::thread::sleep(Duration::from_millis(100));
    assert!(!b.has("#shortcuts"));

    let mut claims = 0;
    let mut hand_ends = 0;
    let start = Instant::now();
    while !b.has("#final") {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the table did not end"
        );
        if b.has("#claim") {
            let phone = claims % 2 == 1;
            let (w, h) = if phone { (390, 844) } else { (1366, 768) };
            b.viewport(w, h);
            claim_clear(&b, &format!("a claim at {w}×{h}"));
            if claims == 0 {
                for (w, h) in SIZES {
                    b.viewport(w, h);
                    claim_clear(&b, &format!("the first claim at {w}×{h}"));
                    b.screenshot(&format!("table2-claim-{w}x{h}"));
                }
            }
            claims += 1;
        }
        if b.has("#next-hand") {
            hand_ends += 1;
            for (w, h) in SIZES {
                b.viewport(w, h);
                std::thread::sleep(Duration::from_millis(200));
                in_view(&b, "#next-hand", &format!("the hand's end at {w}×{h}"));
                b.screenshot(&format!("table2-hand-end-{w}x{h}"));
            }
            // The other hands, readable on the phone.
            b.viewport(390, 844);
            std::thread::sleep(Duration::from_millis(200));
            let narrowest = b.exec(
                "const t = [...document.querySelectorAll('#end-hands .tile')].map((x) => x.getBoundingClientRect().width); return t.length ? Math.min(...t) : null",
            );
            let w = narrowest
                .as_f64()
                .expect("the other hands are shown at the hand's end");
            assert!(
                w >= 24.0,
                "the other hands' tiles are {w} px wide on the phone"
            );
            b.viewport(1366, 768);
            b.click("#next-hand");
            std::thread::sleep(Duration::from_millis(300));
            continue;
        }
        if !simple_move(&b) {
            std::thread::sleep(Duration::from_millis(40));
        } else {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    eprintln!("{claims} claims checked, {hand_ends} hand ends");
    assert!(hand_ends >= 1);

    // The table's end: what comes next is in view, the sheet fits its panel, and the
    // footer gives the key without a reload.
    for (w, h) in SIZES {
        b.viewport(w, h);
        std::thread::sleep(Duration::from_millis(250));
        let at = format!("the table's end at {w}×{h}");
        in_view(&b, "#play-again", &at);
        let fit = b.exec(
            "const s = document.querySelector('#final table.sheet'), f = document.getElementById('final');
             return {sheet: s.scrollWidth, panel: f.clientWidth, right: s.getBoundingClientRect().right, edge: f.getBoundingClientRect().right};",
        );
        assert!(
            fit["sheet"].as_f64() <= fit["panel"].as_f64()
                && fit["right"].as_f64().unwrap() <= fit["edge"].as_f64().unwrap() + 0.5,
            "{at}: the sheet is wider than its panel: {fit}"
        );
        b.screenshot(&format!("table2-final-{w}x{h}"));
    }
    let start = Instant::now();
    while !b.has("#set-link") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the footer kept the old words"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(b
        .text("#deal-set")
        .contains("dupmj verify set.json --commitment"));

    // The replay of the first hand opens from South, the seat held, and moves by its
    // slider, its move box and its keys.
    b.viewport(1366, 768);
    b.go(&format!("{table}/hands/1"));
    b.wait(&["id=\"replay\""]);
    let at = |b: &Window| -> String {
        let start = Instant::now();
        loop {
            let v = b.exec("return document.getElementById('replay').dataset.at || ''");
            let s = v.as_str().unwrap_or("").to_string();
            if !s.is_empty() || start.elapsed() > Duration::from_secs(5) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    at(&b);
    assert_eq!(b.exec("return document.getElementById('view').value"), "S");
    assert_eq!(
        b.exec("return document.querySelector('.tag-bottom').dataset.wind"),
        "S",
        "the replay opens from the seat held"
    );
    b.exec("const s = document.getElementById('slider'); s.value = '5'; s.dispatchEvent(new Event('input'))");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(at(&b), "5");
    assert!(b.text("#pos").starts_with("5 / "));
    // The next move in words (all hands open: every seat's move is said).
    b.click("#view option[value=all]");
    b.exec("document.activeElement.blur()");
    std::thread::sleep(Duration::from_millis(400));
    let next = b.text(".next-move");
    assert!(
        next.starts_with("Next: ") && !next.contains("undefined") && !next.contains('_'),
        "{next}"
    );
    b.keys(&["\u{E010}"]); // End
    std::thread::sleep(Duration::from_millis(400));
    let total = b
        .exec("return document.getElementById('slider').max")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(at(&b), total);
    b.keys(&["\u{E011}"]); // Home
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(at(&b), "0");
    b.fill("#goto", "7");
    b.exec("document.getElementById('goto').dispatchEvent(new Event('change'))");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(at(&b), "7");
    for (w, h) in SIZES {
        b.viewport(w, h);
        b.go(&format!("{table}/hands/1"));
        b.wait(&["id=\"replay\""]);
        std::thread::sleep(Duration::from_millis(500));
        let broken = b.exec(WORDS_WHOLE);
        assert_eq!(
            broken,
            serde_json::json!([]),
            "names broken inside a word at {w}×{h}"
        );
        if w == 390 {
            b.screenshot("table2-replay-390x844");
        }
    }

    // Play again: a new table of the same settings.
    b.viewport(1366, 768);
    b.go(&table);
    b.wait(&["id=\"play-again\""]);
    b.click("#play-again");
    b.wait(&["class=\"my-hand\""]);
    let again = b
        .exec("return location.pathname")
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(again, table);
    assert!(
        b.source().contains("2 deals") || b.source().contains("duplicate"),
        "same settings"
    );

    // The table and the profile in Chinese.
    b.go("/lang/zh?back=/play/p/KeenMCR");
    b.wait(&["复式等级分"]);
    let profile = b.text("body");
    assert!(
        profile.contains("流局") && profile.contains("第 1 副（1 / 2）"),
        "the profile in Chinese"
    );
    assert!(
        !profile.contains("deal 1 (1 of 2)") && !profile.contains("摸牌"),
        "no English label, no 摸牌 for draws"
    );
    b.screenshot("table2-profile-zh");
    b.go(&table);
    b.wait(&["id=\"final\""]);
    let sheet = b.text("#app");
    assert!(
        sheet.contains("本桌结束") && sheet.contains("再来一桌"),
        "{sheet}"
    );
    b.screenshot("table2-final-zh");
}
