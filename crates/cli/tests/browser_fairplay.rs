//! Fair play in headless Chromium: a rated table's options say why there are no hints, a
//! practice table's show them, and a hand finished by a stand-in after its player left is
//! said so on "my games" and the profile, in English and in Chinese (pictures
//! `docs/screenshots/fairplay-*.png` with `DUPMJ_SCREENSHOTS=1`).

mod common;
mod webdriver;

use webdriver::{open, Engine, Proc, Window};

/// Opens a table of one duplicate deal from the lobby's form: practice or rated, with
/// `fields` filled in.
fn open_table(b: &Window, practice: bool, fields: &[(&str, &str)]) {
    b.go("/play");
    b.wait(&["id=\"mode\""]);
    if practice {
        b.click("input[name=mode][value=practice]");
    }
    b.fill("input[name=deals]", "1");
    for (name, value) in fields {
        b.fill(&format!("input[name={name}]"), value);
    }
    b.click("#open");
}

#[test]
fn hints_only_at_practice_tables_and_a_stand_ins_hand_said_in_words() {
    let db = common::fresh_db("fairplay");
    let (child, addr) = common::serve_with(&db, &["--bot-pace-ms", "0"]);
    let _server = Proc(child);
    let b = open(Engine::Chromium, &format!("http://{addr}"));
    b.viewport(1366, 768);
    b.sign_up("Rin");

    // The lobby's form: rated or practice.
    b.go("/play");
    let lobby = b.wait(&["id=\"mode\""]);
    assert!(lobby.contains("practice (hints allowed)"), "{lobby}");
    b.exec("document.getElementById('mode').scrollIntoView()");
    b.screenshot("fairplay-lobby-mode");
    b.viewport(390, 844);
    b.exec("document.getElementById('mode').scrollIntoView()");
    b.screenshot("fairplay-lobby-mode-phone");
    b.viewport(1366, 768);

    // A rated table (the default): the options say why there are no hints.
    open_table(&b, false, &[]);
    let table = b.wait(&["id=\"options\""]);
    assert!(table.contains("id=\"hints-off\""), "{table}");
    assert!(table.contains("off at a rated table"), "{table}");
    b.exec("document.getElementById('options').open = true");
    b.screenshot("fairplay-rated-options");
    b.play_until("#final");

    // A practice table: the hints box, once asked for.
    open_table(&b, true, &[]);
    b.wait(&["id=\"options\""]);
    b.exec("document.getElementById('options').open = true");
    b.wait(&["name=\"hints\""]);
    assert!(!b.has("#hints-off"), "hints are allowed here");
    b.click("#options input[name=hints]");
    let with = b.wait(&["id=\"hints\""]);
    assert!(with.contains("id=\"hints\""), "the hints box: {with}");
    b.screenshot("fairplay-practice-hints");
    b.play_until("#final");

    // A rated table left at once: shown, then finished by the stand-in.
    open_table(&b, false, &[("limit", "1"), ("bank", "0")]);
    b.wait(&["class=\"my-hand\""]);
    b.go("/play/me");
    let start = std::time::Instant::now();
    let mine = loop {
        b.go("/play/me");
        let s = b.wait(&["id=\"games\""]);
        if s.contains("finished by bot (medium) after you left") {
            break s;
        }
        assert!(start.elapsed().as_secs() < 60, "never finished: {s}");
        std::thread::sleep(std::time::Duration::from_millis(300));
    };
    assert!(mine.contains("compared"), "{mine}");
    b.screenshot("fairplay-my-games");
    b.go("/play/p/Rin");
    let profile = b.wait(&["id=\"last\""]);
    assert!(
        profile.contains("finished by bot (medium) after you left"),
        "{profile}"
    );
    // Two hands of Rin's own play at rated tables: the practice table counts nowhere.
    assert!(
        profile.contains("hands of own play at rated tables"),
        "{profile}"
    );
    b.screenshot("fairplay-profile");
    b.viewport(390, 844);
    b.click("nav a.lang");
    b.wait(&["<html lang=\"zh\">"]);
    b.go("/play/p/Rin");
    let zh = b.wait(&["你离开后由机器人"]);
    assert!(zh.contains("你离开后由机器人（中等）打完"), "{zh}");
    b.exec("document.getElementById('last').scrollIntoView()");
    b.screenshot("fairplay-zh-profile-phone");
    b.go("/play/me");
    let zh = b.wait(&["你离开后由机器人"]);
    assert!(zh.contains("已比较"), "{zh}");
}
