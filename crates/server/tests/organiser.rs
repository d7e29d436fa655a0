//! The organiser's day over HTTP (in process): check-in, a late withdrawal with a
//! substitute who plays on, the round clock and the big screen's pages, and the ranking
//! export.

mod common;

use common::{csrf_of, director, http, live_event as event};
use serde_json::Value;
use server::App;
use tournament::entry::{Outcome, ScoreEntry};

/// Enters every sitting of `rounds`: East self-draws a value that differs by table and hand,
/// so the IMP are not all 0.
fn enter_rounds(a: &App, rounds: &[u32]) {
    let e = a.store.event(1).unwrap();
    for r in e
        .movement
        .rounds
        .iter()
        .filter(|r| rounds.contains(&r.round))
    {
        for h in &r.hands {
            for t in &h.tables {
                let entry = ScoreEntry {
                    outcome: Outcome::SelfDrawn {
                        winner: mcr::Wind::East,
                        value: 8 + 4 * t.table + h.hand,
                    },
                    false_hu: vec![],
                };
                a.store
                    .save_result(1, &t.deal, t.table, h.hand, &entry, 0, "test")
                    .unwrap();
            }
        }
    }
}

/// The standings as JSON lines, by player number.
async fn lines(a: &App) -> Vec<Value> {
    let (status, _, body) = http(a, "GET", "/events/1/standings.json", None, &[]).await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    v["players"].as_array().unwrap().clone()
}

fn line(lines: &[Value], player: u64) -> (i64, i64, i64) {
    let l = lines.iter().find(|l| l["player"] == player).unwrap();
    (
        l["imp"].as_i64().unwrap(),
        l["ms"].as_i64().unwrap(),
        l["hands"].as_i64().unwrap(),
    )
}

#[tokio::test]
async fn the_director_checks_players_in_and_only_the_director() {
    let a = common::app(None);
    event(&a, 16);
    let d = director(&a);
    let csrf = csrf_of(&a, &d);
    for p in ["3", "7"] {
        let (status, to, _) = http(
            &a,
            "POST",
            "/director/events/1/checkin",
            Some(&d),
            &[("csrf", &csrf), ("player", p), ("present", "1")],
        )
        .await;
        assert_eq!(
            (status, to.as_deref()),
            (303, Some("/director/events/1#players"))
        );
    }
    http(
        &a,
        "POST",
        "/director/events/1/checkin",
        Some(&d),
        &[("csrf", &csrf), ("player", "7"), ("present", "0")],
    )
    .await;
    let (_, _, page) = http(&a, "GET", "/director/events/1", Some(&d), &[]).await;
    assert!(page.contains("1 of 16 checked in."), "{page}");
    assert!(
        page.contains("Not here: 1 Player 1, 2 Player 2, 4 Player 4"),
        "{page}"
    );
    assert_eq!(page.matches("<tr class=\"here\">").count(), 1);
    // A player the event does not have is named; nobody else may check in.
    let (status, _, page) = http(
        &a,
        "POST",
        "/director/events/1/checkin",
        Some(&d),
        &[("csrf", &csrf), ("player", "17"), ("present", "1")],
    )
    .await;
    assert!(
        status == 404 && page.contains("player 17"),
        "{status} {page}"
    );
    let (status, _, _) = http(
        &a,
        "POST",
        "/director/events/1/checkin",
        None,
        &[("player", "4"), ("present", "1")],
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        a.store
            .event(1)
            .unwrap()
            .checked_in
            .into_iter()
            .collect::<Vec<_>>(),
        vec![3]
    );
}

#[tokio::test]
async fn a_substitute_plays_on_for_the_field_and_is_listed_unranked() {
    // Reference: the same results with only round 1 entered give player 1's share of it.
    let only_first = common::app(None);
    event(&only_first, 16);
    enter_rounds(&only_first, &[1]);
    let first = line(&lines(&only_first).await, 1);

    let a = common::app(None);
    event(&a, 16);
    enter_rounds(&a, &[1, 2]);
    let both = lines(&a).await;
    let all = line(&both, 1);
    assert!(first.2 > 0 && all.2 > first.2, "{first:?} {all:?}");

    // Player 1 withdraws from round 2: round 2 is entered already, so the director is asked.
    let d = director(&a);
    let csrf = csrf_of(&a, &d);
    let form = [
        ("csrf", csrf.as_str()),
        ("player", "1"),
        ("round", "2"),
        ("by", "substitute"),
        ("name", "Lee"),
    ];
    let (status, _, page) = http(&a, "POST", "/director/events/1/withdraw", Some(&d), &form).await;
    assert!(status == 200 && page.contains("id=\"confirm\""), "{page}");
    assert!(
        page.contains("will count for Lee (for Player 1) instead: 2-"),
        "{page}"
    );
    assert!(a.store.event(1).unwrap().withdrawals.is_empty());
    let mut confirmed = form.to_vec();
    confirmed.push(("confirm", "1"));
    let (status, _, _) = http(
        &a,
        "POST",
        "/director/events/1/withdraw",
        Some(&d),
        &confirmed,
    )
    .await;
    assert_eq!(status, 303);

    let after = lines(&a).await;
    assert_eq!(line(&after, 1), first, "player 1 keeps round 1 only");
    let sub = after.iter().find(|l| l["stands_in_for"] == 1).unwrap();
    assert_eq!(sub["name"], "Lee (for Player 1)");
    assert_eq!(sub["rank"], 0);
    assert_eq!(
        (
            sub["imp"].as_i64().unwrap(),
            sub["ms"].as_i64().unwrap(),
            sub["hands"].as_i64().unwrap()
        ),
        (all.0 - first.0, all.1 - first.1, all.2 - first.2),
        "the substitute has player 1's round 2"
    );
    // Everyone else is unchanged, and ranks 1 to 16 are the entrants'.
    for p in 2..=16 {
        assert_eq!(line(&after, p), line(&both, p), "player {p}");
    }
    assert!(after[..16].iter().all(|l| l["rank"].as_u64().unwrap() >= 1));

    let (_, _, page) = http(&a, "GET", "/events/1/standings", None, &[]).await;
    assert!(
        page.contains("<tr class=\"standin\"><td>—</td><td>for 1</td><td>Lee (for Player 1)"),
        "{page}"
    );
    assert!(
        page.contains("Player 1 <span class=\"withdrew\">(withdrew from round 2)</span>"),
        "{page}"
    );

    // The table's form names the substitute in round 2 and the player in round 1.
    let e = a.store.event(1).unwrap();
    let seat_of = |round: u32| {
        e.movement.rounds[round as usize - 1]
            .hands
            .iter()
            .find_map(|h| {
                h.tables
                    .iter()
                    .find(|t| t.seats.iter().any(|s| s.player == 1))
                    .map(|t| (t.table, t.deal.clone(), h.hand))
            })
            .unwrap()
    };
    for (round, name) in [(1, "1 Player 1<"), (2, "1 Lee (for Player 1)<")] {
        let (t, deal, hand) = seat_of(round);
        let (_, _, form) = http(
            &a,
            "GET",
            &format!("/events/1/table/{t}/deal/{deal}/{hand}"),
            Some(&d),
            &[],
        )
        .await;
        assert!(form.contains(name), "round {round}: {form}");
    }

    // The ranking export leaves the substitute out and marks the withdrawal.
    let (status, _, csv) = http(&a, "GET", "/events/1/ranking.csv", None, &[]).await;
    assert_eq!(status, 200);
    assert_eq!(csv.lines().count(), 17, "{csv}");
    assert!(csv.starts_with("event,place,player,name,team,imp,ms,hands,base_rank,status\nOpen,1,"));
    assert!(!csv.contains("Lee"));
    let p1 = csv
        .lines()
        .find(|l| l.split(',').nth(2) == Some("1"))
        .unwrap();
    assert!(p1.ends_with(",withdrew from round 2"), "{p1}");

    // Taken back: player 1 has both rounds again.
    let (status, _, _) = http(
        &a,
        "POST",
        "/director/events/1/withdraw/1/cancel",
        Some(&d),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(status, 303);
    assert_eq!(line(&lines(&a).await, 1), all);

    // Every link of the director's pages and the public ones of this event answers.
    for (who, cookie) in [("director", Some(d.as_str())), ("nobody", None)] {
        let starts = [
            "/director",
            "/director/events/1",
            "/events/1/standings",
            "/",
        ];
        let pages = common::links_answer(&a, who, cookie, &starts, 600).await;
        assert!(pages > 20, "{who}: {pages} pages");
    }
}

#[tokio::test]
async fn a_withdrawal_names_what_is_wrong() {
    let a = common::app(None);
    event(&a, 16);
    let d = director(&a);
    let csrf = csrf_of(&a, &d);
    for (fields, needle) in [
        (
            vec![("player", "0"), ("round", "2"), ("by", "bot")],
            "no player 0",
        ),
        (
            vec![("player", "2"), ("round", "9"), ("by", "bot")],
            "1 to 5, not 9",
        ),
        (
            vec![("player", "2"), ("round", "2"), ("by", "substitute")],
            "'name' is missing",
        ),
        (
            vec![("player", "2"), ("round", "2"), ("by", "ghost")],
            "substitute or bot",
        ),
    ] {
        let mut f = fields.clone();
        f.push(("csrf", &csrf));
        let (status, _, page) = http(&a, "POST", "/director/events/1/withdraw", Some(&d), &f).await;
        assert!(
            status == 422 && page.contains(needle),
            "{fields:?}: {status} {page}"
        );
    }
    assert!(a.store.event(1).unwrap().withdrawals.is_empty());
}

#[tokio::test]
async fn the_big_screen_shows_the_round_clock_and_pages_through_128_players() {
    let a = common::app(None);
    event(&a, 128);
    let d = director(&a);
    let csrf = csrf_of(&a, &d);
    let (status, _, _) = http(
        &a,
        "POST",
        "/director/events/1/clock",
        Some(&d),
        &[("csrf", &csrf), ("round", "2"), ("minutes", "30")],
    )
    .await;
    assert_eq!(status, 303);
    let mut seen = std::collections::BTreeMap::new();
    for page in 1..=4 {
        let (status, _, body) =
            http(&a, "GET", &format!("/events/1/big?page={page}"), None, &[]).await;
        assert_eq!(status, 200);
        assert!(
            body.contains("<span id=\"round\">Round 2 of 5</span>"),
            "{body}"
        );
        let left: i64 = body
            .split("data-left=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!((1790..=1800).contains(&left), "{left}");
        assert!(
            body.contains(&format!("page {page} of 4 · 128 players")),
            "{body}"
        );
        let next = page % 4 + 1;
        assert!(
            body.contains(&format!("url=/events/1/big?page={next}\"")),
            "{body}"
        );
        for name in body.split("<td class=\"name\">").skip(1) {
            let name = name.split('<').next().unwrap().to_string();
            *seen.entry(name).or_insert(0) += 1;
        }
    }
    assert_eq!(seen.len(), 128);
    assert!(seen.values().all(|&n| n == 1), "each player on one page");
    // Stopped: no clock.
    http(
        &a,
        "POST",
        "/director/events/1/clock",
        Some(&d),
        &[
            ("csrf", &csrf),
            ("round", "2"),
            ("minutes", "30"),
            ("stop", "1"),
        ],
    )
    .await;
    let (_, _, body) = http(&a, "GET", "/events/1/big", None, &[]).await;
    assert!(!body.contains("id=\"clock\"") && body.contains("page 1 of 4"));
    let (status, _, body) = http(
        &a,
        "POST",
        "/director/events/1/clock",
        Some(&d),
        &[("csrf", &csrf), ("round", "2"), ("minutes", "-5")],
    )
    .await;
    assert!(
        status == 422 && body.contains("minutes: 0 to 1440, not -5"),
        "{body}"
    );
}

#[tokio::test]
async fn table_cards_carry_the_entry_address_and_slips_the_results() {
    let a = common::app(None);
    event(&a, 16);
    enter_rounds(&a, &[1]);
    let d = director(&a);
    let get = |path: String| {
        let (a, d) = (a.clone(), d.clone());
        async move { http(&a, "GET", &path, Some(&d), &[]).await }
    };
    let (_, _, cards) =
        get("/director/events/1/print/tables?base=https://mj.example.org/".into()).await;
    assert_eq!(cards.matches("<svg class=\"qr\"").count(), 4);
    assert!(cards.contains("<p class=\"event\">Open</p>"));
    assert!(
        cards.contains("Score entry: https://mj.example.org/events/1/table?table=3"),
        "{cards}"
    );
    let (status, _, page) =
        get("/director/events/1/print/tables?base=javascript:alert(1)".into()).await;
    assert!(
        status == 422 && page.contains("base: 'javascript:alert(1)'"),
        "{page}"
    );
    // The QR code's address fills the table in.
    let (_, _, login) = http(&a, "GET", "/events/1/table?table=3", None, &[]).await;
    assert!(login.contains("max=\"4\" value=\"3\" required"), "{login}");
    let (_, _, login) = http(&a, "GET", "/events/1/table?table=9", None, &[]).await;
    assert!(!login.contains("value=\"9\""));

    // Slips: one per player, each with the hands entered and the standings' totals.
    let (_, _, slips) = get("/director/events/1/print/slips".into()).await;
    assert_eq!(slips.matches("class=\"card slip\"").count(), 16);
    let st = lines(&a).await;
    let (imp, ms, hands) = line(&st, 5);
    let p5 = slips
        .split("<h3>Player 5 (5)")
        .nth(1)
        .unwrap()
        .split("</div>")
        .next()
        .unwrap();
    assert_eq!(p5.matches("<tr><td>").count() as i64, hands);
    assert!(
        p5.contains(&format!("{hands} hands · {ms} ms · {imp} IMP")),
        "{p5}"
    );
    let (_, _, fin) = get("/director/events/1/print/standings".into()).await;
    assert!(fin.contains("<h1>Open — final standings</h1>"));
    assert_eq!(fin.matches("<tr><td>").count(), 16);
}

#[tokio::test]
async fn players_and_tables_read_chinese_by_switch_or_browser() {
    let a = common::app(None);
    event(&a, 16);
    // The switch keeps the choice in a cookie and goes back, only to a path of this site.
    let (status, to, _) = http(
        &a,
        "GET",
        "/lang/zh?back=/events/1/table%3Ftable%3D2",
        None,
        &[],
    )
    .await;
    assert_eq!(
        (status, to.as_deref()),
        (303, Some("/events/1/table?table=2"))
    );
    let (_, to, _) = http(&a, "GET", "/lang/zh?back=//evil.example/", None, &[]).await;
    assert_eq!(to.as_deref(), Some("/"));
    let zh = "dupmj_lang=zh";
    let (_, _, login) = http(&a, "GET", "/events/1/table", Some(zh), &[]).await;
    assert!(
        login.contains("<html lang=\"zh\">") && login.contains("录分码"),
        "{login}"
    );
    assert!(
        login.contains("href=\"/lang/en?back=/events/1/table\""),
        "{login}"
    );
    let (_, _, st) = http(&a, "GET", "/events/1/standings", Some(zh), &[]).await;
    assert!(
        st.contains("<th>名次</th>") && st.contains("已录入 0 / 80 桌成绩"),
        "{st}"
    );
    let (_, _, big) = http(&a, "GET", "/events/1/big", Some(zh), &[]).await;
    assert!(big.contains("第 1 / 1 页 · 16 名选手"), "{big}");
    // The table's form, with the director's session and Chinese chosen.
    let d = director(&a);
    let both = format!("{d}; {zh}");
    let e = a.store.event(1).unwrap();
    let tp = &e.movement.rounds[0].hands[0].tables[0];
    let (_, _, form) = http(
        &a,
        "GET",
        &format!("/events/1/table/{}/deal/{}/1", tp.table, tp.deal),
        Some(&both),
        &[],
    )
    .await;
    assert!(
        form.contains("自摸和牌") && form.contains("<option value=\"E\">东 — "),
        "{form}"
    );
    // Errors: the title in Chinese.
    let (status, _, err) = http(&a, "GET", "/events/1/table/1", Some(zh), &[]).await;
    assert!(
        status == 403 && err.contains("<h1>不允许</h1>") && err.contains("请先以第 1 桌登录"),
        "{err}"
    );
    // Online play: the page and the texts its scripts use.
    let (_, _, lobby) = http(&a, "GET", "/play", Some(zh), &[]).await;
    assert!(
        lobby.contains("<html lang=\"zh\">") && lobby.contains("以游客身份对局"),
        "{lobby}"
    );
    assert!(lobby.contains("\"Pass\":\"过\""), "{lobby}");
    // English stays the default, and the scripts get no dictionary.
    let (_, _, lobby) = http(&a, "GET", "/play", None, &[]).await;
    assert!(
        lobby.contains("<html lang=\"en\">") && lobby.contains("id=\"i18n\">{}</script>"),
        "{lobby}"
    );
}

#[tokio::test]
async fn odd_addresses_and_forms_get_a_clear_answer() {
    let a = common::app(None);
    event(&a, 16);
    let d = director(&a);
    let csrf = csrf_of(&a, &d);
    let err = |body: &str| {
        body.split("class=\"err\">")
            .nth(1)
            .unwrap_or("")
            .split('<')
            .next()
            .unwrap()
            .to_string()
    };
    for (path, want) in [
        ("/events/1/big?page=abc", "page: 'abc' is not a number"),
        ("/events/1/big?page=-3", "page: '-3' is not a number"),
        ("/events/1/table?table=abc", "table: 'abc' is not a number"),
    ] {
        let (status, _, body) = http(&a, "GET", path, None, &[]).await;
        assert_eq!((status, err(&body).as_str()), (422, want), "{path}");
    }
    // A page past the last shows the last; a table the event does not have is not filled in.
    let (_, _, body) = http(&a, "GET", "/events/1/big?page=99", None, &[]).await;
    assert!(body.contains("page 1 of 1"));
    // (path, fields, status, error)
    type Post<'a> = (&'a str, Vec<(&'a str, &'a str)>, u16, &'a str);
    let mut posts: Vec<Post> = vec![
        (
            "/director/events/1/checkin",
            vec![("player", "2"), ("present", "maybe")],
            422,
            "present: 'maybe' (1 to check in, 0 to take it back)",
        ),
        (
            "/director/events/1/withdraw",
            vec![("player", "abc"), ("round", "2"), ("by", "bot")],
            422,
            "player: 'abc' is not a valid number",
        ),
        (
            "/director/events/1/clock",
            vec![("round", "0"), ("minutes", "5")],
            422,
            "round: 1 to 5, not 0",
        ),
        (
            "/director/events/1/withdraw/5/cancel",
            vec![],
            404,
            "not found: a withdrawal of player 5 in event 1",
        ),
    ];
    let long = "x".repeat(81);
    posts.push((
        "/director/events/1/withdraw",
        vec![
            ("player", "2"),
            ("round", "2"),
            ("by", "substitute"),
            ("name", &long),
        ],
        422,
        "name: 81 characters; at most 80",
    ));
    for (path, mut f, status, want) in posts {
        f.push(("csrf", &csrf));
        let (got, _, body) = http(&a, "POST", path, Some(&d), &f).await;
        assert_eq!((got, err(&body).as_str()), (status, want), "{path} {f:?}");
    }
    // Nothing was stored by any of them.
    let e = a.store.event(1).unwrap();
    assert!(e.checked_in.is_empty() && e.withdrawals.is_empty() && e.clock.is_none());
}
