//! The server as a hostile venue network would try it: guessed passwords and table codes
//! from one address and from many, the first-run page from another machine and from six
//! requests at once, huge fields, and the headers every page must carry.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, Response, StatusCode};
use http_body_util::BodyExt;
use server::service::{create_event, parse_entrants, TABLE_CODE_LEN};
use server::{router, App};
use store::SqliteStore;
use tower::ServiceExt;

fn app() -> App {
    App::new(
        Arc::new(SqliteStore::in_memory().unwrap()),
        server::play::PlayConfig::default(),
    )
}

fn app_with_event() -> App {
    let a = app();
    server::auth::set_director_password(a.store.as_ref(), "director pw", "test").unwrap();
    let players: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    create_event(
        a.store.as_ref(),
        "Open",
        false,
        parse_entrants(&players).unwrap(),
        &table::set::SetKey::from_bytes([1; 32]),
        None,
        "test",
    )
    .unwrap();
    a
}

fn form(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| {
            let enc: String = v
                .bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
                    _ => format!("%{b:02X}"),
                })
                .collect();
            format!("{k}={enc}")
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A POST from `from` (an address; None: no address, as the in-process tests send).
async fn post(a: &App, path: &str, from: Option<&str>, fields: &[(&str, &str)]) -> Response<Body> {
    let mut req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form(fields)))
        .unwrap();
    if let Some(ip) = from {
        let addr: SocketAddr = format!("{ip}:5000").parse().unwrap();
        req.extensions_mut().insert(ConnectInfo(addr));
    }
    router(a.clone()).oneshot(req).await.unwrap()
}

/// A table login as a phone does it: the form (its token and cookie), then the post.
async fn table_login(a: &App, from: Option<&str>, table: &str, code: &str) -> Response<Body> {
    let page = router(a.clone())
        .oneshot(Request::get("/events/1/table").body(Body::empty()).unwrap())
        .await
        .unwrap();
    let cookie = set_cookie(&page);
    let token = hidden(&body(page).await, "form");
    let mut req = Request::post("/events/1/table")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, cookie)
        .body(Body::from(form(&[
            ("form", &token),
            ("table", table),
            ("code", code),
        ])))
        .unwrap();
    if let Some(ip) = from {
        let addr: SocketAddr = format!("{ip}:5000").parse().unwrap();
        req.extensions_mut().insert(ConnectInfo(addr));
    }
    router(a.clone()).oneshot(req).await.unwrap()
}

/// The cookie a response sets (its name=value).
fn set_cookie(r: &Response<Body>) -> String {
    r.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

/// The value of the first hidden field `name` of a page.
fn hidden(page: &str, name: &str) -> String {
    let key = format!("name=\"{name}\" value=\"");
    let at = page.find(&key).unwrap() + key.len();
    page[at..].split('"').next().unwrap().to_string()
}

async fn body(r: Response<Body>) -> String {
    String::from_utf8_lossy(&r.into_body().collect().await.unwrap().to_bytes()).into_owned()
}

#[tokio::test]
async fn wrong_director_passwords_lock_out_that_address_only() {
    let a = app_with_event();
    for _ in 0..10 {
        let r = post(&a, "/login", Some("10.0.0.7"), &[("password", "guess")]).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
    }
    // The eleventh try is refused before the password is looked at, even the right one.
    let r = post(
        &a,
        "/login",
        Some("10.0.0.7"),
        &[("password", "director pw")],
    )
    .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(body(r).await.contains("try again in"));
    // The director at another address logs in.
    let r = post(
        &a,
        "/login",
        Some("10.0.0.8"),
        &[("password", "director pw")],
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn guessing_table_codes_is_stopped_per_address_and_per_table() {
    let a = app_with_event();
    let codes = a.store.event(1).unwrap().table_codes;
    assert!(codes
        .iter()
        .all(|c| c.len() == TABLE_CODE_LEN && TABLE_CODE_LEN >= 8));
    // One address: 20 wrong codes over tables 1, 3 and 4, then even a right one waits.
    for t in 0..20 {
        let table = ["1", "3", "4"][t % 3];
        let r = table_login(&a, Some("10.0.1.1"), table, "AAAAAAAA").await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
    }
    let r = table_login(&a, Some("10.0.1.1"), "1", &codes[0]).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // Many addresses against one table: 30 wrong codes lock that table for a while …
    for i in 0..30 {
        let ip = format!("10.0.2.{i}");
        let r = table_login(&a, Some(&ip), "2", "BBBBBBBB").await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "try {i}");
    }
    let r = table_login(&a, Some("10.0.3.1"), "2", &codes[1]).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // … but not the others.
    let r = table_login(&a, Some("10.0.3.1"), "3", &codes[2]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn the_first_run_page_is_for_this_machine_and_sets_one_password() {
    let a = app();
    let r = post(
        &a,
        "/setup",
        Some("192.168.1.50"),
        &[("password", "intruder pw")],
    )
    .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(body(r).await.contains("dupmj password"));
    assert!(a.store.director_hash().unwrap().is_none());
    // Six posts at once from this machine: exactly one sets the password and gets a session.
    let tries = (0..6).map(|i| {
        let a = a.clone();
        tokio::spawn(async move {
            let pw = format!("password {i}");
            post(&a, "/setup", Some("127.0.0.1"), &[("password", &pw)])
                .await
                .status()
        })
    });
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::SEE_OTHER)
            .count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::FORBIDDEN)
            .count(),
        5
    );
}

#[tokio::test]
async fn huge_fields_are_refused_and_errors_do_not_echo_them() {
    let a = app_with_event();
    let r = post(&a, "/login", None, &[("password", "director pw")]).await;
    let cookie = set_cookie(&r);
    let page = {
        let req = Request::get("/director/events/1")
            .header(header::COOKIE, &cookie)
            .body(Body::empty())
            .unwrap();
        body(router(a.clone()).oneshot(req).await.unwrap()).await
    };
    let csrf = hidden(&page, "csrf");
    let send = |path: &'static str, fields: Vec<(String, String)>| {
        let a = a.clone();
        let cookie = cookie.clone();
        async move {
            let f: Vec<(&str, &str)> = fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let req = Request::post(path)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .header(header::COOKIE, cookie)
                .body(Body::from(form(&f)))
                .unwrap();
            router(a).oneshot(req).await.unwrap()
        }
    };
    // A replacement name of 100,000 characters.
    let long = "N".repeat(100_000);
    let r = send(
        "/director/events/1/player",
        vec![
            ("csrf".into(), csrf.clone()),
            ("player".into(), "3".into()),
            ("name".into(), long.clone()),
        ],
    )
    .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = body(r).await;
    assert!(
        text.contains("at most 80"),
        "{}",
        &text[..text.len().min(300)]
    );
    assert!(
        text.len() < 5_000,
        "the error page echoed {} bytes",
        text.len()
    );
    assert_eq!(a.store.event(1).unwrap().players[2].name, "Player 3");
    // A 1.9 MB event name is over the body limit.
    let r = send(
        "/director/events",
        vec![
            ("csrf".into(), csrf.clone()),
            ("name".into(), "E".repeat(1_900_000)),
            ("players".into(), "x".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    // A 1,000-character event name is named as too long.
    let r = send(
        "/director/events",
        vec![
            ("csrf".into(), csrf),
            ("name".into(), "E".repeat(1_000)),
            ("players".into(), "x".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body(r).await.contains("name: 1000 characters; at most 120"));
}

#[tokio::test]
async fn every_page_carries_the_security_headers() {
    let a = app_with_event();
    let get = |path: &'static str, https: bool| {
        let a = a.clone();
        async move {
            let mut r = Request::get(path);
            if https {
                r = r.header("x-forwarded-proto", "https");
            }
            router(a)
                .oneshot(r.body(Body::empty()).unwrap())
                .await
                .unwrap()
        }
    };
    for path in [
        "/",
        "/login",
        "/events/1/standings",
        "/events/1/table",
        "/play",
    ] {
        let r = get(path, false).await;
        let h = r.headers();
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        assert_eq!(h[header::X_FRAME_OPTIONS], "DENY", "{path}");
        assert!(h[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'"));
        let private = path != "/" && path != "/events/1/standings";
        assert_eq!(
            h.get(header::CACHE_CONTROL)
                .is_some_and(|v| v == "no-store"),
            private,
            "{path}"
        );
    }
    // Behind an HTTPS proxy the session cookie is Secure; over plain HTTP it cannot be.
    let mut req = Request::post("/login")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("x-forwarded-proto", "https")
        .body(Body::from("password=director+pw"))
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo("127.0.0.1:1".parse::<SocketAddr>().unwrap()));
    let r = router(a.clone()).oneshot(req).await.unwrap();
    let cookie = r.headers()[header::SET_COOKIE].to_str().unwrap();
    assert!(cookie.ends_with("; Secure"), "{cookie}");
    let r = post(&a, "/login", None, &[("password", "director pw")]).await;
    assert!(!r.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .contains("Secure"));
}

#[tokio::test]
async fn a_login_flood_waits_its_turn_and_the_standings_still_answer() {
    let a = app_with_event();
    // 64 logins at once (wrong passwords from different addresses): at most two hash at a
    // time, the rest wait or are told the server is busy; none is lost.
    let flood: Vec<_> = (0..64)
        .map(|i| {
            let a = a.clone();
            tokio::spawn(async move {
                let ip = format!("10.9.{}.{}", i / 250, i % 250);
                post(&a, "/login", Some(&ip), &[("password", "wrong guess")])
                    .await
                    .status()
            })
        })
        .collect();
    let req = Request::get("/events/1/standings")
        .body(Body::empty())
        .unwrap();
    let standings = router(a.clone()).oneshot(req).await.unwrap();
    assert_eq!(standings.status(), StatusCode::OK);
    let mut forbidden = 0;
    let mut busy = 0;
    for f in flood {
        match f.await.unwrap() {
            StatusCode::FORBIDDEN => forbidden += 1,
            StatusCode::TOO_MANY_REQUESTS => busy += 1,
            s => panic!("unexpected {s}"),
        }
    }
    assert_eq!(forbidden + busy, 64);
    assert!(
        forbidden >= 18,
        "{forbidden} checked, {busy} refused as busy"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_half_requests_are_cut_off_and_do_not_lock_anyone_out() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};

    let a = app_with_event();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = server::listen::Limits {
        connections: 40,
        per_address: 10,
        headers: Duration::from_millis(500),
    };
    tokio::spawn(server::listen::serve(
        listener,
        router(a),
        limits,
        std::future::pending(),
    ));
    let half = b"GET /events/1/standings HTTP/1.1\r\nHost: x\r\n";
    // One client that sends half a request and waits: the server hangs up on it.
    let mut lone = TcpStream::connect(addr).await.unwrap();
    lone.write_all(half).await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), lone.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "an idle half request was never cut off");
    // 200 of them (five times the connection cap) and a real request still answers.
    let mut idle = Vec::new();
    for _ in 0..200 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let _ = s.write_all(half).await;
        idle.push(s);
    }
    let answer = tokio::time::timeout(Duration::from_secs(30), async {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /events/1/standings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        String::from_utf8_lossy(&out).into_owned()
    })
    .await
    .expect("the real request was never answered");
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "{}",
        &answer[..answer.len().min(200)]
    );
    drop(idle);
}

#[tokio::test]
async fn the_director_sees_and_ends_sessions_and_a_new_password_ends_theirs() {
    let a = app_with_event();
    let login = post(&a, "/login", None, &[("password", "director pw")]).await;
    let director = set_cookie(&login);
    let code = a.store.event(1).unwrap().table_codes[0].clone();
    let t = table_login(&a, None, "1", &code).await;
    let table = set_cookie(&t);
    let get = |path: &'static str, cookie: String| {
        let a = a.clone();
        async move {
            let req = Request::get(path)
                .header(header::COOKIE, cookie)
                .body(Body::empty())
                .unwrap();
            router(a).oneshot(req).await.unwrap()
        }
    };
    let page = body(get("/director", director.clone()).await).await;
    assert!(page.contains("event 1, table 1"), "{page}");
    assert_eq!(
        get("/events/1/table/1", table.clone()).await.status(),
        StatusCode::OK
    );
    // End the table's session from the list.
    let row = page.find("event 1, table 1").unwrap();
    let action = page[row..].find("/director/sessions/").unwrap() + row;
    let path = page[action..].split('"').next().unwrap().to_string();
    let csrf = hidden(&page, "csrf");
    let req = Request::post(path.as_str())
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, &director)
        .body(Body::from(format!("csrf={csrf}")))
        .unwrap();
    assert_eq!(
        router(a.clone()).oneshot(req).await.unwrap().status(),
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        get("/events/1/table/1", table).await.status(),
        StatusCode::FORBIDDEN
    );
    // The password changed (`dupmj password`): the director's session is over too.
    server::auth::set_director_password(a.store.as_ref(), "a new password", "cli").unwrap();
    let r = get("/director", director).await;
    assert_eq!(r.headers()[header::LOCATION], "/login");
}

#[tokio::test]
async fn a_table_login_needs_the_token_of_its_own_form() {
    let a = app_with_event();
    let code = a.store.event(1).unwrap().table_codes[0].clone();
    // Posted from elsewhere (no form cookie), with the right code: refused.
    let r = post(
        &a,
        "/events/1/table",
        None,
        &[("table", "1"), ("code", &code), ("form", "guess")],
    )
    .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(body(r).await.contains("login form"));
    assert_eq!(
        table_login(&a, None, "1", &code).await.status(),
        StatusCode::SEE_OTHER
    );
}
