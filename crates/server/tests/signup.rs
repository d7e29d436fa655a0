//! Sign-up over HTTP (in process): a cap of 16, twenty sign-ups and three withdrawals —
//! who is in and in which order, what each one's lobby says (who moved up from the
//! waitlist) — and the event made from it.

mod common;

use common::{account, all_links_lead_somewhere, csrf_of, director, http, person};

#[tokio::test]
async fn twenty_sign_up_for_sixteen_places_three_withdraw_and_the_event_is_made() {
    let app = common::app(None);
    let dir = director(&app);
    let (st, loc, body) = http(
        &app,
        "POST",
        "/director/signups",
        Some(&dir),
        &[
            ("csrf", &csrf_of(&app, &dir)),
            ("name", "Spring open"),
            ("kind", "online"),
            ("cap", "16"),
            ("deadline", "2099-06-01T12:00"),
            ("note", "Saturday 14:00 UTC"),
        ],
    )
    .await;
    assert_eq!(
        (st, loc.as_deref()),
        (303, Some("/director/signups/1")),
        "{body}"
    );
    let players: Vec<(i64, String)> = (1..=20)
        .map(|i| account(&app, &format!("Player {i:02}")))
        .collect();
    let post = |cookie: String, action: &'static str| {
        let app = app.clone();
        async move {
            let csrf = csrf_of(&app, &cookie);
            http(
                &app,
                "POST",
                "/play/signups/1",
                Some(&cookie),
                &[("csrf", &csrf), ("action", action)],
            )
            .await
        }
    };
    for (_, cookie) in &players {
        let (st, _, body) = post(cookie.clone(), "join").await;
        assert_eq!(st, 303, "{body}");
    }
    // Players 3 and 9 (in) and 18 (on the waitlist) withdraw.
    for i in [3, 9, 18] {
        let (st, _, body) = post(players[i - 1].1.clone(), "withdraw").await;
        assert_eq!(st, 303, "{body}");
    }
    // By hand: 1–16 less 3 and 9, then 17 and 19 move up; 20 waits, first.
    let mut expected: Vec<usize> = (1..=16).filter(|i| ![3, 9].contains(i)).collect();
    expected.extend([17, 19]);
    let (_, _, page) = http(&app, "GET", "/play/signups/1", Some(&players[19].1), &[]).await;
    assert!(page.contains("You are on the waitlist, number 1"), "{page}");
    let in_list = page
        .split("<ol id=\"in\">")
        .nth(1)
        .unwrap()
        .split("</ol>")
        .next()
        .unwrap();
    let shown: Vec<usize> = in_list
        .split("<li>Player ")
        .skip(1)
        .map(|x| x[..2].parse().unwrap())
        .collect();
    assert_eq!(shown, expected);
    println!("cap 16, 20 sign-ups, 3 withdrawals: in {shown:?}, waiting [20]");
    // Nobody is sent word: the lobby tells each where they stand, and who moved up.
    for (i, says) in [
        (
            17,
            Some("You are in (number 15): you moved up from the waitlist."),
        ),
        (
            19,
            Some("You are in (number 16): you moved up from the waitlist."),
        ),
        (1, Some("You are in (number 1).")),
        (20, Some("You are on the waitlist, number 1")),
        (18, None),
    ] {
        let (st, _, page) = http(&app, "GET", "/play", Some(&players[i - 1].1), &[]).await;
        assert_eq!(st, 200, "{page}");
        let card = page
            .split("<section class=\"card\" id=\"my-signups\">")
            .nth(1)
            .map(|c| c.split("</section>").next().unwrap());
        match says {
            Some(text) => {
                let card = card.unwrap_or_else(|| panic!("player {i}: no sign-ups card"));
                assert!(card.contains("Spring open"), "player {i}: {card}");
                assert!(card.contains(text), "player {i}: {card}");
                assert_eq!(
                    card.contains("moved up"),
                    i == 17 || i == 19,
                    "player {i}: {card}"
                );
            }
            None => assert!(card.is_none(), "player {i} withdrew: {card:?}"),
        }
    }
    let (_, _, page) = http(&app, "GET", "/play/signups/1", Some(&players[16].1), &[]).await;
    assert!(
        page.contains("You are in (number 15): you moved up from the waitlist."),
        "{page}"
    );
    // Each one's export says where they stand.
    for (i, place, n) in [
        (20, "waiting", Some(1)),
        (17, "in", Some(15)),
        (18, "withdrawn", None),
    ] {
        let path = format!("/play/p/Player%20{i:02}/export.json");
        let (st, _, body) = http(&app, "GET", &path, Some(&players[i - 1].1), &[]).await;
        assert_eq!(st, 200, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        let s = &v["signups"][0];
        assert_eq!(
            (s["signup"].as_i64(), s["place"].as_str(), s["n"].as_u64()),
            (Some(1), Some(place), n),
            "{s}"
        );
    }
    // A guest cannot sign up; a second sign-up is refused with why.
    let (_, guest) = person(&app, "Guest");
    let (st, _, body) = post(guest, "join").await;
    assert_eq!(st, 403);
    assert!(body.contains("make an account first"), "{body}");
    // Nor does a bot account, from its browser.
    let (robo, robo_cookie) = account(&app, "Robo");
    app.store.make_bot(robo).unwrap();
    let (st, _, body) = post(robo_cookie, "join").await;
    assert_eq!(st, 403, "{body}");
    assert!(
        body.contains("a bot account plays through its program"),
        "{body}"
    );
    let (st, _, body) = post(players[0].1.clone(), "join").await;
    assert_eq!(st, 422);
    assert!(body.contains("has signed up already"), "{body}");

    // The director makes the event: the sixteen in, in order, each seat linked.
    let (st, loc, body) = http(
        &app,
        "POST",
        "/director/signups/1/make",
        Some(&dir),
        &[("csrf", &csrf_of(&app, &dir)), ("rounds", "1")],
    )
    .await;
    assert_eq!(
        (st, loc.as_deref()),
        (303, Some("/director/events/1")),
        "{body}"
    );
    let e = app.store.event(1).unwrap();
    let names: Vec<String> = e.players.iter().map(|p| p.name.clone()).collect();
    let want: Vec<String> = expected.iter().map(|i| format!("Player {i:02}")).collect();
    assert_eq!(names, want);
    let linked: Vec<(u32, i64)> = app.store.event_people(1).unwrap();
    assert_eq!(linked.len(), 16);
    for (slot, p) in linked {
        assert_eq!(p, players[expected[slot as usize - 1] - 1].0, "slot {slot}");
    }
    assert!(app.store.online(1).unwrap().is_some(), "an online event");
    // Closed now.
    let (st, _, body) = post(players[19].1.clone(), "withdraw").await;
    assert_eq!(st, 422);
    assert!(body.contains("closed"), "{body}");
    let (_, _, page) = http(&app, "GET", "/director/signups/1", Some(&dir), &[]).await;
    assert!(page.contains("event 1"), "{page}");
    // The lobby now leads to the event.
    let (_, _, page) = http(&app, "GET", "/play", Some(&players[16].1), &[]).await;
    assert!(
        page.contains("the event is made. <a href=\"/play/e/1\">"),
        "{page}"
    );
    all_links_lead_somewhere(
        &app,
        &dir,
        &players[16].1,
        &["/director/signups", "/director/signups/1"],
    )
    .await;
}
