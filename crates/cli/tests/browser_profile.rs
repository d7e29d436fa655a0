//! A player's pages in headless Chromium, desktop and phone, English and Chinese: an
//! account plays two tables of one duplicate deal by clicking (each compared with the
//! par), a one-hand regular game and eight more deals, then its profile, "my games" and the
//! leaderboard (with the account on it) are opened and their pictures taken
//! (`docs/screenshots/{profile,my-games,leaderboard}*.png` with `DUPMJ_SCREENSHOTS=1`).

mod common;
mod webdriver;

use webdriver::{open, Engine, Proc};

#[test]
fn profile_my_games_and_leaderboard_at_desktop_and_phone_sizes() {
    let db = common::fresh_db("profile");
    // One reviewer at a small budget: the profile shows the reviews over time.
    let (child, addr) = common::serve_reviewed(&db, 10);
    let _server = Proc(child);
    let b = open(Engine::Chromium, &format!("http://{addr}"));
    b.viewport(1366, 768);
    b.sign_up("Mei");
    // Two tables of one deal each: two rated sessions, so the rating has a history.
    for _ in 0..2 {
        b.go("/play");
        b.fill("input[name=deals]", "1");
        b.click("#open");
        b.play_until("#final");
    }
    // The profile: rated against the par on both deal-seats, the chart needs two points.
    b.go("/play/p/Mei");
    let page = b.wait(&["id=\"rating\""]);
    assert!(
        page.contains("provisional") && page.contains("2 rated hands"),
        "{page}"
    );
    assert!(
        page.contains("class=\"chart\""),
        "a chart of the rating: {page}"
    );
    // A one-hand regular game (its record, not the rating) and eight more duplicate deals,
    // so that Mei reaches the leaderboard's 10 rated hands.
    b.viewport(1366, 768);
    b.go("/play");
    b.click("input[name=kind][value=regular]");
    b.fill("input[name=hands]", "1");
    b.click("#open");
    b.play_until("#final");
    b.go("/play");
    b.fill("input[name=deals]", "8");
    b.click("#open");
    b.play_until("#final");
    b.go("/play/p/Mei");
    let page = b.wait(&["id=\"rating\""]);
    assert!(page.contains("10 rated hands"), "{page}");
    assert!(page.contains("id=\"regular-games\""), "{page}");
    b.screenshot("profile");
    // The reviews over time, once the reviewer has been through Mei's hands.
    let start = std::time::Instant::now();
    loop {
        b.go("/play/p/Mei");
        let page = b.wait(&["id=\"rating\""]);
        if page.contains("review of 11 hands") || page.contains("review of 10 hands") {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the reviews did not reach the profile"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let kinds = b
        .exec("return document.querySelectorAll('#review-kinds tr').length")
        .as_u64()
        .unwrap();
    assert!(kinds >= 2, "decisions by kind");
    b.exec("document.getElementById('reviewed').scrollIntoView()");
    b.screenshot("profile-review");
    b.viewport(390, 844);
    b.exec("document.getElementById('reviewed').scrollIntoView()");
    b.screenshot("profile-review-phone");
    let w = b
        .exec("return document.documentElement.scrollWidth")
        .as_u64()
        .unwrap();
    assert!(w <= 400, "the profile fits a phone: {w}px");
    b.exec("window.scrollTo(0, 0)");
    b.screenshot("profile-phone");
    b.exec("document.getElementById('regular').scrollIntoView()");
    b.screenshot("profile-regular-phone");
    b.go("/play/me");
    let me = b.wait(&["id=\"games\""]);
    assert!(
        me.contains("11 hands") && me.contains("id=\"regular\""),
        "{me}"
    );
    b.screenshot("my-games-phone");
    b.go("/play/leaderboard");
    let board = b.wait(&["id=\"leaderboard\""]);
    assert!(board.contains("bot-line"), "{board}");
    assert!(
        board.contains("href=\"/play/p/Mei\""),
        "Mei on the board: {board}"
    );
    b.screenshot("leaderboard-phone");
    b.viewport(1366, 768);
    b.screenshot("leaderboard");
    b.viewport(390, 844);
    // In Chinese.
    b.click("nav a.lang");
    let zh = b.wait(&["<html lang=\"zh\">"]);
    assert!(zh.contains("排行榜"), "{zh}");
    b.screenshot("zh-leaderboard-phone");
    b.go("/play/p/Mei");
    let zh = b.wait(&["复式等级分"]);
    assert!(zh.contains("暂定"), "{zh}");
    b.viewport(1366, 768);
    b.screenshot("zh-profile");
    assert!(zh.contains("专家眼中的决策"), "the reviews in Chinese");
    b.exec("document.getElementById('reviewed').scrollIntoView()");
    b.screenshot("zh-profile-review");
}
