//! What the table and the front pages give a player: options kept per player (bad ones
//! refused with the field named), one click to a table against bots, sign-in errors on the
//! form they came from, the home and rules pages, and the table's messages: ponds with the
//! claimed tiles marked, waits of a win, a score sheet hand by hand, and a time-out told in
//! words.

mod common;

use common::*;
use serde_json::Value;
use server::play::spec::{Hands, Place, TableSpec};

#[tokio::test]
async fn options_are_kept_per_player_and_bad_ones_are_refused_by_name() {
    let app = app(None);
    let (me, cookie) = person(&app, "Opal");
    let csrf = csrf_of(&app, &cookie);
    let good = r#"{"autoHu":true,"noCalls":false,"sort":"hmsp","mute":true}"#;
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/prefs",
        Some(&cookie),
        &[("csrf", &csrf), ("prefs", good)],
    )
    .await;
    assert_eq!(status, 204);
    for (bad, says) in [
        (
            r#"{"sort":"random"}"#,
            "'sort' must be one of msp, mps, hmsp",
        ),
        (r#"{"autoHu":"yes"}"#, "'autoHu' must be true or false"),
        (r#"{"theme":"dark"}"#, "unknown option 'theme'"),
        (r#"[1,2]"#, "not a JSON object"),
        ("{", "not JSON"),
    ] {
        let (status, _, body) = http(
            &app,
            "POST",
            "/play/prefs",
            Some(&cookie),
            &[("csrf", &csrf), ("prefs", bad)],
        )
        .await;
        assert_eq!(status, 422, "{bad}: {body}");
        assert!(body.contains(says), "{bad}: {body}");
    }
    let long = format!(r#"{{"sort":"msp","x":"{}"}}"#, "a".repeat(1100));
    let (status, _, body) = http(
        &app,
        "POST",
        "/play/prefs",
        Some(&cookie),
        &[("csrf", &csrf), ("prefs", &long)],
    )
    .await;
    assert!(status == 422 && body.contains("at most 1024"), "{body}");
    // Without the form's token, or without a session: refused, nothing stored.
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/prefs",
        Some(&cookie),
        &[("prefs", r#"{"mute":false}"#)],
    )
    .await;
    assert_eq!(status, 403);
    let (status, _, _) = http(&app, "POST", "/play/prefs", None, &[("prefs", "{}")]).await;
    assert_eq!(status, 403);
    // The good set is what the table page hands its script, as it was sent.
    let kept: Value = serde_json::from_str(&app.store.prefs(me).unwrap().unwrap()).unwrap();
    assert_eq!(kept, serde_json::from_str::<Value>(good).unwrap());
    let (_, to, _) = http(
        &app,
        "POST",
        "/play/tables",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("deals", "1"),
            ("p1", "easy"),
            ("p2", "easy"),
            ("p3", "easy"),
        ],
    )
    .await;
    let (_, _, page) = http(&app, "GET", &to.unwrap(), Some(&cookie), &[]).await;
    assert!(
        page.contains(r#"data-prefs="{&quot;autoHu&quot;:true"#),
        "{page}"
    );
}

#[tokio::test]
async fn sign_in_errors_show_on_the_form_they_came_from_with_the_players_header() {
    let app = app(None);
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/register",
        None,
        &[("name", "Rosa"), ("password", "correct horse")],
    )
    .await;
    assert_eq!(status, 303);
    let cases = [
        (
            "/play/login",
            vec![("name", "Rosa"), ("password", "wrong horse")],
            "login",
        ),
        (
            "/play/register",
            vec![("name", "Rosa"), ("password", "another one")],
            "register",
        ),
        ("/play/guest", vec![("name", "")], "guest"),
    ];
    for (path, form, which) in cases {
        let (status, _, body) = http(&app, "POST", path, None, &form).await;
        assert!((400..500).contains(&status), "{path}: {status}");
        // The lobby with its sign-in forms, the message above the form it came from.
        let form_at = body
            .find(&format!("action=\"/play/{which}\""))
            .unwrap_or_else(|| panic!("{path}: no {which} form: {body}"));
        let err_at = body.find("id=\"signin-error\"").expect("a message");
        assert!(err_at > form_at, "{path}: the message is not in its form");
        let next_form = body[form_at + 1..]
            .find("<form")
            .map_or(usize::MAX, |i| i + form_at + 1);
        assert!(
            err_at < next_form,
            "{path}: the message is under another form"
        );
        assert!(
            body.contains("href=\"/play\""),
            "{path}: the players' header"
        );
        assert!(!body.contains("Director"), "{path}: the director's page");
        if which != "guest" {
            assert!(body.contains("value=\"Rosa\""), "{path}: the name is kept");
        }
    }
}

#[tokio::test]
async fn the_home_page_invites_and_the_rules_list_every_fan() {
    let app = app(None);
    let (status, _, home) = http(&app, "GET", "/", None, &[]).await;
    assert_eq!(status, 200);
    for needle in [
        "action=\"/play/now\"",
        "href=\"/rules\"",
        "href=\"/play/c\"",
        "lang=",
        "href=\"/lang/zh?back=/\"",
    ] {
        assert!(home.contains(needle), "{needle}: {home}");
    }
    let (status, _, rules) = http(&app, "GET", "/rules", None, &[]).await;
    assert_eq!(status, 200);
    let rows = rules.matches("<tr><td>").count();
    assert_eq!(rows, 81, "{rules}");
    // From the rule book: Big Four Winds 88, Seven Pairs 24, Chicken Hand 8, Flower Tiles 1.
    for (name, points) in [
        ("Big Four Winds", 88),
        ("Seven Pairs", 24),
        ("Chicken Hand", 8),
        ("Flower Tiles", 1),
    ] {
        let at = rules.find(&format!("<td>{name}</td>")).expect(name);
        let row_end = at + rules[at..].find("</tr>").unwrap();
        assert!(
            rules[at..row_end].contains(&format!("<td class=\"num\">{points}</td>")),
            "{name}"
        );
    }
}

/// Plays `spec` from place 0 over the socket: Hu when offered, a pung or chow when offered
/// (so ponds get claimed tiles), else the first discard; returns every state message.
async fn play_all(app: &server::App, spec: TableSpec) -> Vec<Value> {
    let addr = serve(app.clone()).await;
    let (me, cookie) = person(app, "Sam");
    let spec = TableSpec { owner: me, ..spec };
    let id = app.hall.open_table(spec, "Sam").unwrap();
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let mut all = Vec::new();
    loop {
        let m = c.next().await;
        if m["type"] != "state" {
            continue;
        }
        all.push(m.clone());
        if m["stage"] == "over" {
            return all;
        }
        if m["stage"] == "between" {
            c.send(serde_json::json!({"type": "next"})).await;
            continue;
        }
        if my_move(&m) {
            let legal = m["legal"].as_array().unwrap();
            let pick = ["hu", "pung", "chow", "discard"]
                .iter()
                .find_map(|a| legal.iter().find(|x| x["action"] == *a))
                .unwrap_or(&legal[0])
                .clone();
            c.act(m["step"].as_u64().unwrap(), pick).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ponds_mark_claimed_tiles_wins_name_their_waits_and_the_sheet_adds_up() {
    let app = app(None);
    let places = [Place::Person, bot("easy"), bot("easy"), bot("easy")];
    let spec = TableSpec {
        hands: Hands::Regular {
            seed: 2611,
            hands: 4,
        },
        ..duplicate(0..1, places, 0)
    };
    let spec = TableSpec {
        rules_version: TableSpec::current_rules_version(&spec.hands),
        ..spec
    };
    let states = play_all(&app, spec).await;
    let mut taken = 0;
    for m in &states {
        let Some(board) = m.get("board") else {
            continue;
        };
        for (i, s) in board["seats"].as_array().unwrap().iter().enumerate() {
            let pond = s["pond"].as_array().unwrap();
            // The pond is every discard in order; claimed ones stay, marked with the taker.
            let kept: Vec<&Value> = pond
                .iter()
                .filter(|d| d.get("by").is_none())
                .map(|d| &d["tile"])
                .collect();
            let discards: Vec<&Value> = s["discards"].as_array().unwrap().iter().collect();
            assert_eq!(kept, discards, "seat {i}: {s}");
            for d in pond.iter().filter(|d| d.get("by").is_some()) {
                taken += 1;
                let by = d["by"].as_str().unwrap();
                assert_ne!(
                    by,
                    s["wind"].as_str().unwrap(),
                    "a seat took its own discard"
                );
                // The taker shows a meld holding that tile.
                let taker = board["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["wind"] == by)
                    .unwrap();
                assert!(
                    taker["melds"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|meld| meld["tiles"].as_array().unwrap().contains(&d["tile"])),
                    "{d} taken by {by}, who shows no meld with it"
                );
            }
        }
        for w in m["result"]["wins"].as_array().into_iter().flatten() {
            let waits: Vec<&str> = w["waits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert!(waits.contains(&w["win"].as_str().unwrap()), "{w}");
        }
    }
    assert!(taken > 0, "no claimed tile in four hands");
    let last = states.last().unwrap();
    let sheet = last["final"]["sheet"].as_array().unwrap();
    assert_eq!(sheet.len(), 4, "{last}");
    let mut totals = [0i64; 4];
    for (h, row) in sheet.iter().enumerate() {
        assert_eq!(row["hand"], h + 1);
        let pts: Vec<i64> = row["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(pts.iter().sum::<i64>(), 0, "hand {}: {row}", h + 1);
        for (t, p) in totals.iter_mut().zip(&pts) {
            *t += p;
        }
        // Four different seats, and the dealer moves on as a regular game's does.
        let seats: std::collections::BTreeSet<&str> = row["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(seats.len(), 4, "{row}");
    }
    let scores: Vec<i64> = last["final"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    assert_eq!(scores, totals.to_vec(), "the totals are the rows added up");
}

/// The `data-then` of a table's page: what its end offers.
fn then_of(page: &str) -> serde_json::Value {
    let at = page.find("data-then='").expect("data-then") + 11;
    serde_json::from_str(page[at..].split('\'').next().unwrap()).unwrap()
}

fn spec_of(app: &server::App, id: i64) -> TableSpec {
    serde_json::from_str(&app.store.play_table(id).unwrap().spec).unwrap()
}

#[tokio::test]
async fn play_again_opens_the_same_settings_with_new_deals() {
    let app = app(None);
    let (_, cookie) = account(&app, "Quinn");
    let csrf = csrf_of(&app, &cookie);
    let form = [
        ("csrf", csrf.as_str()),
        ("kind", "duplicate"),
        ("deals", "3"),
        ("place", "2"),
        ("p0", "easy"),
        ("p1", "random"),
        ("p3", "person"),
        ("limit", "25"),
        ("bank", "40"),
        ("mode", "practice"),
    ];
    let (st, to, body) = http(&app, "POST", "/play/tables", Some(&cookie), &form).await;
    assert_eq!(st, 303, "{body}");
    let first: i64 = to.unwrap()[8..].parse().unwrap();
    let (_, _, page) = http(&app, "GET", &format!("/play/t/{first}"), Some(&cookie), &[]).await;
    assert_eq!(then_of(&page), serde_json::json!({"again": true}));
    // Without the form's token: refused. A bad place or table is named; nothing opens.
    let again = format!("/play/t/{first}/again");
    let (st, _, _) = http(&app, "POST", &again, Some(&cookie), &[("place", "2")]).await;
    assert_eq!(st, 403);
    for (path, place, code, says) in [
        (again.as_str(), "9", 422, "place"),
        (again.as_str(), "east", 422, "place"),
        ("/play/t/999/again", "0", 404, "999"),
    ] {
        let form = [("csrf", csrf.as_str()), ("place", place)];
        let (st, _, body) = http(&app, "POST", path, Some(&cookie), &form).await;
        assert_eq!(st, code, "{path} place {place}: {body}");
        assert!(body.contains(says), "{path} place {place}: {body}");
    }
    assert_eq!(app.hall.open_tables_of(spec_of(&app, first).owner), 1);
    let (st, to, body) = http(
        &app,
        "POST",
        &again,
        Some(&cookie),
        &[("csrf", &csrf), ("place", "2")],
    )
    .await;
    assert_eq!(st, 303, "{body}");
    let second: i64 = to.unwrap()[8..].parse().unwrap();
    assert_ne!(second, first);
    let (a, b) = (spec_of(&app, first), spec_of(&app, second));
    assert_eq!(b.places, a.places, "the same seats and bots");
    assert_eq!((b.limit_s, b.bank_s, b.owner_place), (25, 40, 2));
    assert_eq!(b.practice, a.practice);
    let (Hands::Duplicate { deals: da }, Hands::Duplicate { deals: db }) = (&a.hands, &b.hands)
    else {
        panic!("not duplicate");
    };
    assert_eq!(db.len(), 3);
    assert!(
        da.iter().all(|d| db.iter().all(|e| e.seed != d.seed)),
        "new deals"
    );
    assert_ne!(a.deals_key, b.deals_key, "a new secret set");

    // A seed's practice goes on to the deals after its own.
    let form = [("csrf", csrf.as_str()), ("deals", "2"), ("seed", "100")];
    let (_, to, _) = http(&app, "POST", "/play/tables", Some(&cookie), &form).await;
    let seeded: i64 = to.unwrap()[8..].parse().unwrap();
    let (st, to, _) = http(
        &app,
        "POST",
        &format!("/play/t/{seeded}/again"),
        Some(&cookie),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(st, 303);
    let next = spec_of(&app, to.unwrap()[8..].parse().unwrap());
    let Hands::Duplicate { deals } = &next.hands else {
        panic!("not duplicate");
    };
    assert_eq!(deals.iter().map(|d| d.seed).collect::<Vec<_>>(), [102, 103]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_tables_end_offers_the_next_deal_and_the_results() {
    let app = app(None);
    let dir = common::director(&app);
    let (st, _, body) = common::publish_form(
        &app,
        &dir,
        &[
            ("name", "Next"),
            ("deals", "4"),
            ("hours", "24"),
            ("level", "easy"),
            ("par", "easy"),
        ],
    )
    .await;
    assert_eq!(st, 303, "{body}");
    let (_, cookie) = person(&app, "Rae");
    let table = common::take_up(&app, &cookie, 2, "Rae").await;
    let (_, _, page) = http(&app, "GET", &format!("/play/t/{table}"), Some(&cookie), &[]).await;
    // Deal 2 taken: the next not yet taken is deal 3, then 4, then deal 1.
    assert_eq!(
        then_of(&page),
        serde_json::json!({"challenge": 1, "deal": 2, "next": 3})
    );
    common::take_up(&app, &cookie, 3, "Rae").await;
    common::take_up(&app, &cookie, 4, "Rae").await;
    let (_, _, page) = http(&app, "GET", &format!("/play/t/{table}"), Some(&cookie), &[]).await;
    assert_eq!(
        then_of(&page),
        serde_json::json!({"challenge": 1, "deal": 2, "next": 1})
    );
    // A challenge's table is not played again.
    let csrf = csrf_of(&app, &cookie);
    let (st, _, body) = http(
        &app,
        "POST",
        &format!("/play/t/{table}/again"),
        Some(&cookie),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("next deal"), "{body}");
}
