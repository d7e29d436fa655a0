//! What a public site needs: names nobody can fake, limits on new people per address and
//! on tables per person, tables left alone that end instead of being played out by bots,
//! and the lobby's finished tables with their results, a page at a time.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use common::*;
use http_body_util::BodyExt;
use serde_json::json;
use server::play::spec::Place;
use server::App;
use tower::ServiceExt;

fn encode(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A form posted from `from` (an address), with an optional cookie: status and body.
async fn post(
    a: &App,
    path: &str,
    from: &str,
    cookie: Option<&str>,
    fields: &[(&str, &str)],
) -> (StatusCode, String) {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect();
    let mut req =
        Request::post(path).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    let mut req = req.body(Body::from(body.join("&"))).unwrap();
    let addr: SocketAddr = format!("{from}:5000").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(addr));
    let res = server::router(a.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// How many people the store holds.
fn people(a: &App) -> usize {
    (1..500).take_while(|&i| a.store.person(i).is_ok()).count()
}

#[tokio::test]
async fn names_that_pass_for_someone_else_are_refused_and_nothing_is_stored() {
    let a = common::app(None);
    let (st, body) = post(
        &a,
        "/play/register",
        "10.0.0.1",
        None,
        &[("name", "Alice"), ("password", "long enough")],
    )
    .await;
    assert_eq!(st, StatusCode::SEE_OTHER, "{body}");
    let before = people(&a);
    // (input, what the refusal says), each tried as a guest and as an account, each from
    // its own address so that no limit gets in the way.
    let cases: [(&str, &str); 20] = [
        ("ALICE", "already exists"),
        ("Ａｌｉｃｅ", "already exists"),
        ("alice ", "already exists"),
        ("\u{0410}lice", "mixes scripts"),
        ("Alic\u{0435}", "mixes scripts"),
        ("Ali\u{200B}ce", "U+200B"),
        ("Alice\u{200D}", "U+200D"),
        ("\u{202E}ecilA", "U+202E"),
        ("Ali\u{2067}ce", "U+2067"),
        ("Al\u{00AD}ice", "U+00AD"),
        ("\u{3164}", "U+1160"),
        ("Alice\u{FE0F}", "U+FE0F"),
        ("bot (strong)", "'(' (character 5"),
        ("par (strong bot)", "'(' (character 5"),
        ("Bot Alice", "word 'bot'"),
        ("Ｐａｒ", "word 'par'"),
        ("b\u{03BF}t", "mixes scripts"),
        ("strong", "reserved"),
        ("Random", "reserved"),
        ("Al\u{0000}ice", "control"),
    ];
    for (i, (name, says)) in cases.iter().enumerate() {
        for (path, extra) in [
            ("/play/guest", None),
            ("/play/register", Some(("password", "long enough"))),
        ] {
            let mut f = vec![("name", *name)];
            f.extend(extra);
            let from = format!("10.1.{}.{}", i, path.len());
            let (st, body) = post(&a, path, &from, None, &f).await;
            assert_eq!(
                st,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{path} {name:?}: {body}"
            );
            assert!(body.contains("name:"), "{path} {name:?}: {body}");
            let shown = body.replace("&#39;", "'");
            assert!(shown.contains(says), "{path} {name:?}: {says} in {body}");
        }
    }
    assert_eq!(people(&a), before, "nothing stored for a refused name");
    // Names from every script are welcome; a guest is marked as one wherever shown.
    for (i, name) in ["Zoë", "李 Wei", "O'Neil-Smith", "Μαρία", "Иван"]
        .iter()
        .enumerate()
    {
        let (st, body) = post(
            &a,
            "/play/guest",
            &format!("10.2.0.{i}"),
            None,
            &[("name", name)],
        )
        .await;
        assert_eq!(st, StatusCode::SEE_OTHER, "{name}: {body}");
    }
    assert_eq!(people(&a), before + 5);
    let p = a.store.person(before as i64 + 2).unwrap();
    assert_eq!(server::play::names::shown(&p), "李 Wei (guest)");
}

#[tokio::test]
async fn new_people_from_one_address_are_limited_to_five_a_minute() {
    let a = common::app(None);
    for i in 0..5 {
        let (st, body) = post(
            &a,
            "/play/guest",
            "10.0.0.9",
            None,
            &[("name", &format!("G{i}"))],
        )
        .await;
        assert_eq!(st, StatusCode::SEE_OTHER, "{body}");
    }
    let before = people(&a);
    for (path, extra) in [
        ("/play/guest", None),
        ("/play/register", Some(("password", "long enough"))),
    ] {
        let mut f = vec![("name", "Sixth")];
        f.extend(extra);
        let (st, body) = post(&a, path, "10.0.0.9", None, &f).await;
        assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{path}: {body}");
        assert!(body.contains("5 a minute"), "{body}");
    }
    assert_eq!(people(&a), before);
    // Another address is not held up.
    let (st, _) = post(&a, "/play/guest", "10.0.0.10", None, &[("name", "Other")]).await;
    assert_eq!(st, StatusCode::SEE_OTHER);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_has_three_tables_going_and_an_account_ten() {
    let a = common::app(None);
    let addr = serve(a.clone()).await;
    for (who, cookie, most) in [
        ("guest", person(&a, "Gus").1, 3),
        ("account", account(&a, "Acc").1, 10),
    ] {
        let csrf = csrf_of(&a, &cookie);
        for i in 0..most {
            let (st, _, body) = http(
                &a,
                "POST",
                "/play/tables",
                Some(&cookie),
                &[("csrf", &csrf), ("kind", "duplicate"), ("deals", "2")],
            )
            .await;
            assert_eq!(st, 303, "{who} table {}: {body}", i + 1);
        }
        let before = a.store.play_tables(false, 1000).unwrap().len();
        let (st, _, body) = http(
            &a,
            "POST",
            "/play/tables",
            Some(&cookie),
            &[("csrf", &csrf), ("kind", "duplicate")],
        )
        .await;
        assert_eq!(st, 429, "{who}: {body}");
        assert!(
            body.contains(&format!("you have {most} tables going")),
            "{body}"
        );
        assert_eq!(a.store.play_tables(false, 1000).unwrap().len(), before);
    }
    // Sitting down at someone else's table counts too.
    let (host, hc) = person(&a, "Host");
    let spec = duplicate(
        1..2,
        [Place::Person, Place::Person, bot("easy"), bot("easy")],
        host,
    );
    let t = a.hall.open_table(spec, "Host (guest)").unwrap();
    let _ = hc;
    let gus = a.store.account("Gus").unwrap();
    assert!(gus.is_none(), "Gus is a guest");
    let gus_cookie = {
        // Gus is person 1.
        let (s, _) =
            server::auth::start_session(a.store.as_ref(), store::Role::Player { person: 1 })
                .unwrap();
        format!("{}={}", server::auth::COOKIE, s.token)
    };
    let mut c = Client::connect(addr, t, Some(&gus_cookie)).await;
    c.until(|_| true).await;
    c.send(json!({"type": "sit", "place": 1})).await;
    let m = loop {
        let m = c.next().await;
        if m["type"] == "error" {
            break m;
        }
    };
    assert!(
        m["message"].as_str().unwrap().contains("3 tables going"),
        "{m}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_nobody_is_at_ends_and_the_lobby_lists_it_with_its_result() {
    let a = common::app_idle(None, Duration::from_millis(1500));
    let addr = serve(a.clone()).await;
    let (me, cookie) = person(&a, "Ann");
    let mut spec = duplicate(
        1..5,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        me,
    );
    spec.limit_s = 600;
    let t = a.hall.open_table(spec, "Ann (guest)").unwrap();
    // A table of four bots that somebody watches for a moment.
    let bots = duplicate(
        7..9,
        [bot("easy"), bot("easy"), bot("easy"), bot("easy")],
        me,
    );
    let mut bots_spec = bots;
    bots_spec.owner_place = 0;
    let b = a.hall.open_table(bots_spec, "Ann (guest)").unwrap();
    let mut w = Client::connect(addr, b, None).await;
    w.until(|_| true).await;
    // Ann plays the first hand and leaves at her first move of the second.
    let mut c = Client::connect(addr, t, Some(&cookie)).await;
    loop {
        let s = c.next().await;
        if s["type"] != "state" {
            continue;
        }
        if s["stage"] == "between" {
            c.send(json!({"type": "next"})).await;
            continue;
        }
        if s["hand_no"] == 2 && my_move(&s) {
            break;
        }
        if my_move(&s) {
            let legal = s["legal"].as_array().unwrap();
            let act = legal
                .iter()
                .find(|x| x["action"] == "pass")
                .or_else(|| legal.iter().find(|x| x["action"] == "discard"))
                .unwrap_or(&legal[0])
                .clone();
            c.act(s["step"].as_u64().unwrap(), act).await;
        }
    }
    let left = Instant::now();
    c.close().await;
    w.close().await;
    // Nobody at either: both end within the idle time, not played out by bots.
    for id in [t, b] {
        while !a.store.play_table(id).unwrap().finished {
            assert!(
                left.elapsed() < Duration::from_secs(20),
                "table {id} did not end"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    assert!(left.elapsed() >= Duration::from_millis(1400));
    assert_eq!(
        a.store.hands_of_table(t).unwrap().len(),
        1,
        "hand 2 counts nothing"
    );
    assert!(a
        .hall
        .lobby()
        .iter()
        .all(|l| l.id != t || l.stage == "over"));
    // The lobby's finished list: the table, left after 1 of 4 hands, with names and points.
    let (_, _, lobby) = http(&a, "GET", "/play", None, &[]).await;
    let row = lobby
        .split(&format!("data-table=\"{t}\""))
        .nth(1)
        .expect("listed among the finished")
        .split("</tr>")
        .next()
        .unwrap()
        .to_string();
    assert!(row.contains("left after 1 of 4 hands"), "{row}");
    let h = &a.store.hands_of_table(t).unwrap()[0];
    let s: server::play::room::HandSummary = serde_json::from_str(&h.summary).unwrap();
    assert!(
        row.contains(&format!("Ann (guest) {}", s.points[0])),
        "{row}"
    );
    // A table that is over and reloaded says so.
    let mut again = Client::connect(addr, t, Some(&cookie)).await;
    let st = again.until(|_| true).await;
    assert_eq!(st["stage"], "over");
    assert_eq!(st["final"]["abandoned"], true);
}

#[tokio::test]
async fn the_lobby_lists_finished_tables_newest_first_twenty_a_page() {
    let a = common::app(None);
    let spec = serde_json::to_string(&duplicate(
        1..2,
        [bot("easy"), bot("easy"), bot("easy"), bot("easy")],
        0,
    ))
    .unwrap();
    let mut ids = Vec::new();
    for _ in 0..25 {
        let id = a.store.create_play_table(&spec, true).unwrap();
        a.store.update_play_table(id, &spec, true).unwrap();
        ids.push(id);
    }
    let rows = |page: &str| -> Vec<i64> {
        page.split("data-table=\"")
            .skip(1)
            .map(|x| x.split('"').next().unwrap().parse().unwrap())
            .collect()
    };
    let (st, _, p1) = http(&a, "GET", "/play", None, &[]).await;
    assert_eq!(st, 200);
    let want: Vec<i64> = ids.iter().rev().take(20).copied().collect();
    assert_eq!(rows(&p1), want);
    assert!(p1.contains("page 1 of 2") && p1.contains("/play?page=2"));
    let (_, _, p2) = http(&a, "GET", "/play?page=2", None, &[]).await;
    let want: Vec<i64> = ids.iter().rev().skip(20).copied().collect();
    assert_eq!(rows(&p2), want);
    let (_, _, p3) = http(&a, "GET", "/play?page=3", None, &[]).await;
    assert!(rows(&p3).is_empty());
    for bad in ["0", "abc", "-1"] {
        let (st, _, body) = http(&a, "GET", &format!("/play?page={bad}"), None, &[]).await;
        assert_eq!(st, 422, "{bad}: {body}");
        assert!(body.contains("page:"), "{body}");
    }
}
