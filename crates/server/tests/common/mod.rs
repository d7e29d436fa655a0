//! A dupmj server in the test's own runtime, people signed in, and WebSocket clients that
//! send and read what a browser would.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::play::spec::{DealRef, Hands, Place, TableSpec};
use server::play::PlayConfig;
use server::App;
use store::{Role, SqliteStore};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub fn app(db: Option<&std::path::Path>) -> App {
    app_idle(db, Duration::from_secs(600))
}

/// An app whose lobby tables end after `idle` with nobody at them.
pub fn app_idle(db: Option<&std::path::Path>, idle: Duration) -> App {
    let store = match db {
        Some(p) => SqliteStore::open(p).unwrap(),
        None => SqliteStore::in_memory().unwrap(),
    };
    App::new(
        Arc::new(store),
        PlayConfig {
            pace: Duration::ZERO,
            schedule: None,
            idle,
            ..Default::default()
        },
    )
}

/// Serves `app` on a free port of this runtime.
pub async fn serve(app: App) -> SocketAddr {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, server::router(app)).await.unwrap() });
    addr
}

/// A signed-in guest: their id and the Cookie header of their session.
pub fn person(app: &App, name: &str) -> (i64, String) {
    let p = app.store.create_person(name, None).unwrap();
    let (s, _) =
        server::auth::start_session(app.store.as_ref(), Role::Player { person: p.id }).unwrap();
    (p.id, format!("{}={}", server::auth::COOKIE, s.token))
}

/// A signed-in account (its password hash is not a real one: it never signs in by form).
pub fn account(app: &App, name: &str) -> (i64, String) {
    let p = app.store.create_person(name, Some("not a hash")).unwrap();
    let (s, _) =
        server::auth::start_session(app.store.as_ref(), Role::Player { person: p.id }).unwrap();
    (p.id, format!("{}={}", server::auth::COOKIE, s.token))
}

pub fn duplicate(seeds: std::ops::Range<u64>, places: [Place; 4], owner: i64) -> TableSpec {
    TableSpec {
        hands: Hands::Duplicate {
            deals: seeds
                .map(|s| DealRef {
                    seed: s,
                    label: format!("d{s}"),
                })
                .collect(),
        },
        places,
        owner,
        owner_place: 0,
        limit_s: 30,
        bank_s: 0,
        challenge: None,
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    }
}

pub fn bot(level: &str) -> Place {
    Place::Bot {
        level: level.into(),
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, table: i64, cookie: Option<&str>) -> Client {
        let mut req = format!("ws://{addr}/play/t/{table}/ws")
            .into_client_request()
            .unwrap();
        if let Some(c) = cookie {
            req.headers_mut().insert("cookie", c.parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        Client { ws }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn act(&mut self, step: u64, action: Value) {
        self.send(json!({"type": "act", "step": step, "action": action}))
            .await;
    }

    /// The next message, or None after `secs` seconds of silence.
    pub async fn next_within(&mut self, secs: f64) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(Duration::from_secs_f64(secs), self.ws.next())
                .await
                .ok()??
                .ok()?;
            if let Message::Text(t) = m {
                return Some(serde_json::from_str(&t).unwrap());
            }
        }
    }

    pub async fn next(&mut self) -> Value {
        self.next_within(20.0).await.expect("a message within 20 s")
    }

    /// Reads until a state satisfies `ok`.
    pub async fn until(&mut self, ok: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await;
            if m["type"] == "state" && ok(&m) {
                return m;
            }
        }
    }

    /// Reads until a message of any type satisfies `ok`.
    pub async fn until_any(&mut self, ok: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await;
            if ok(&m) {
                return m;
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Whether this state asks its seat for a move.
pub fn my_move(s: &Value) -> bool {
    s["legal"].as_array().is_some_and(|l| !l.is_empty())
}

/// A person alone with three bots at a new table of duplicate deals `seeds`, and the server
/// serving it: the table, the person's Cookie header, the address.
pub async fn alone(
    app: &App,
    name: &str,
    seeds: std::ops::Range<u64>,
    bots: [Place; 3],
) -> (i64, String, SocketAddr) {
    let (me, cookie) = person(app, name);
    let [a, b, c] = bots;
    let spec = duplicate(seeds, [Place::Person, a, b, c], me);
    let id = app.hall.open_table(spec, name).unwrap();
    (id, cookie, serve(app.clone()).await)
}

/// One request to the app in process: status, Location and body.
pub async fn http(
    app: &App,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    form: &[(&str, &str)],
) -> (u16, Option<String>, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let body: String = form
        .iter()
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let mut req = axum::http::Request::builder().method(method).uri(path);
    if let Some(c) = cookie {
        req = req.header("cookie", c);
    }
    if method == "POST" {
        req = req.header("content-type", "application/x-www-form-urlencoded");
    }
    let res = server::router(app.clone())
        .oneshot(req.body(axum::body::Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = res.status().as_u16();
    let location = res
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_string());
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    // Pages escape the apostrophe (&#39;); the tests read the text.
    let body = String::from_utf8_lossy(&bytes).replace("&#39;", "'");
    (status, location, body)
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A session's cross-site token, from the cookie's token.
pub fn csrf_of(app: &App, cookie: &str) -> String {
    let token = cookie.split('=').nth(1).unwrap();
    app.store.session(token).unwrap().unwrap().csrf
}

/// The director's Cookie header.
pub fn director(app: &App) -> String {
    let (s, _) = server::auth::start_session(app.store.as_ref(), Role::Director).unwrap();
    format!("{}={}", server::auth::COOKIE, s.token)
}

/// Plays the rest of the hand at `table` over a WebSocket: Hu when offered, else pass,
/// else the first discard; returns the last state.
pub async fn play_through(addr: SocketAddr, table: i64, cookie: &str) -> Value {
    let mut c = Client::connect(addr, table, Some(cookie)).await;
    loop {
        let s = c.next().await;
        if s["type"] != "state" {
            continue;
        }
        if s["stage"] == "over" {
            c.close().await;
            return s;
        }
        if my_move(&s) {
            let legal = s["legal"].as_array().unwrap();
            let a = legal
                .iter()
                .find(|x| x["action"] == "hu")
                .or_else(|| legal.iter().find(|x| x["action"] == "pass"))
                .or_else(|| legal.iter().find(|x| x["action"] == "discard"))
                .unwrap_or(&legal[0])
                .clone();
            c.act(s["step"].as_u64().unwrap(), a).await;
        }
    }
}

/// Lower bounds of |DIF| for 1, 2, … 20 IMP, copied from the table in rules §5.
pub const SPEC_BRACKETS: [i64; 20] = [
    2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296,
];

/// IMP of `ms` among `all` (itself included), worked out with whole numbers from the
/// rules' table: |ms − avg| ≥ b ⇔ |n·ms − Σ| ≥ n·b.
pub fn imp_by_hand(ms: i32, all: &[i32]) -> i32 {
    let n = all.len() as i64;
    let d = n * ms as i64 - all.iter().map(|&x| x as i64).sum::<i64>();
    let k = SPEC_BRACKETS.iter().filter(|&&b| d.abs() >= n * b).count() as i32;
    k * d.signum() as i32
}

/// Takes up deal `d` of challenge 1 over HTTP; the table it opened.
pub async fn take_up(app: &App, cookie: &str, d: usize, who: &str) -> i64 {
    let (st, loc, body) = http(
        app,
        "POST",
        "/play/c/1/play",
        Some(cookie),
        &[("csrf", &csrf_of(app, cookie)), ("deal", &d.to_string())],
    )
    .await;
    assert_eq!(st, 303, "{who} deal {d}: {body}");
    loc.unwrap().rsplit('/').next().unwrap().parse().unwrap()
}

/// The director publishes a challenge through the form at `/play/c` (the CSRF token
/// added); status, `Location` and body.
pub async fn publish_form(
    app: &App,
    director: &str,
    fields: &[(&str, &str)],
) -> (u16, Option<String>, String) {
    let csrf = csrf_of(app, director);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    http(app, "POST", "/play/c", Some(director), &all).await
}

/// An app whose quick-match queue fills seats with bots after `wait`.
pub fn app_waiting(wait: Duration) -> App {
    App::new(
        Arc::new(store::SqliteStore::in_memory().unwrap()),
        PlayConfig {
            pace: Duration::ZERO,
            quick_wait: wait,
            ..Default::default()
        },
    )
}

/// Joins the quick-match queue through the lobby's form (`bots`: bot accounts may sit).
pub async fn join(app: &App, cookie: &str, bots: bool) {
    let csrf = csrf_of(app, cookie);
    let mut form = vec![("csrf", csrf.as_str())];
    if bots {
        form.push(("bots", "yes"));
    }
    let (status, to, body) = http(app, "POST", "/play/quick", Some(cookie), &form).await;
    assert_eq!(
        (status, to.as_deref()),
        (303, Some("/play/quick")),
        "{body}"
    );
}

/// Where the person stands in the queue, as the waiting page asks.
pub async fn state(app: &App, cookie: &str) -> Value {
    let (status, _, body) = http(app, "GET", "/play/quick/state.json", Some(cookie), &[]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Asks for the state as the waiting page does, until a table is given (at most `secs`).
pub async fn table_within(app: &App, cookie: &str, secs: u64) -> i64 {
    let until = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let s = state(app, cookie).await;
        if let Some(t) = s["table"].as_i64() {
            return t;
        }
        assert_eq!(s["queued"], true, "{s}");
        assert!(
            std::time::Instant::now() < until,
            "no table within {secs} s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every queued review done by one reviewer at `think_ms` a decision; how many.
pub async fn review_all(app: &App, think_ms: u32) -> usize {
    let store = app.hall.store.clone();
    tokio::task::spawn_blocking(move || {
        let mut n = 0;
        while server::play::reviewer::review_one(store.as_ref(), "test", think_ms).unwrap() {
            n += 1;
        }
        n
    })
    .await
    .unwrap()
}

/// The director publishes challenge 1, "Monday": four deals for 24 hours, `strong` bots at
/// the tables, a `medium` par, the same seat for everyone, 60 s a move.
pub async fn publish_monday(app: &App, director: &str) {
    let (st, loc, body) = publish_form(
        app,
        director,
        &[
            ("name", "Monday"),
            ("deals", "4"),
            ("hours", "24"),
            ("level", "strong"),
            ("par", "medium"),
            ("rotation", "same"),
            ("limit", "60"),
            ("bank", "0"),
        ],
    )
    .await;
    assert_eq!(st, 303, "{body}");
    assert_eq!(loc.as_deref(), Some("/play/c/1"));
}

/// The director closes challenge 1 through its form (its deals are then revealed).
pub async fn close_challenge(app: &App, director: &str) {
    let (st, _, body) = http(
        app,
        "POST",
        "/play/c/1/close",
        Some(director),
        &[("csrf", &csrf_of(app, director))],
    )
    .await;
    assert_eq!(st, 303, "{body}");
}

/// Event 1, "Open": `players` named "Player n", a deal set of its own, the director's
/// password set.
#[allow(dead_code)]
pub fn live_event(a: &App, players: usize) {
    server::auth::set_director_password(a.store.as_ref(), "director pw", "test").unwrap();
    let names: String = (1..=players).map(|i| format!("Player {i}\n")).collect();
    server::service::create_event(
        a.store.as_ref(),
        "Open",
        false,
        server::service::parse_entrants(&names).unwrap(),
        &table::set::SetKey::from_bytes([1; 32]),
        None,
        "test",
    )
    .unwrap();
}

/// Follows every link to this site from `starts`, as `cookie` sees the pages, up to `most`
/// pages: each page's path with the status it answered other than 200 or a redirect
/// (empty: no broken link). Language switches are not followed (they change the cookie's
/// language, not what is linked).
#[allow(dead_code)]
pub async fn broken_links(
    app: &App,
    cookie: Option<&str>,
    starts: &[&str],
    most: usize,
) -> (usize, Vec<(String, String, u16)>) {
    let mut queue: std::collections::VecDeque<(String, String)> = starts
        .iter()
        .map(|s| (s.to_string(), "start".to_string()))
        .collect();
    let mut seen: std::collections::BTreeSet<String> =
        starts.iter().map(|s| s.to_string()).collect();
    let mut broken = Vec::new();
    let mut visited = 0;
    while let Some((path, from)) = queue.pop_front() {
        if visited == most {
            break;
        }
        visited += 1;
        let (status, _, body) = http(app, "GET", &path, cookie, &[]).await;
        if !(status == 200 || (300..400).contains(&status)) {
            broken.push((path.clone(), from, status));
            continue;
        }
        for link in body.split("href=\"").skip(1) {
            let link = link.split('"').next().unwrap_or("").replace("&amp;", "&");
            let link = link.split('#').next().unwrap_or("").to_string();
            if !link.starts_with('/') || link.starts_with("//") || link.starts_with("/lang/") {
                continue;
            }
            if seen.insert(link.clone()) {
                queue.push_back((link, path.clone()));
            }
        }
    }
    (visited, broken)
}

/// Every link followed from the director's pages (and `starts`), a player's lobby and the
/// public home page answers (200 or a redirect).
#[allow(dead_code)]
pub async fn all_links_lead_somewhere(app: &server::App, dir: &str, player: &str, starts: &[&str]) {
    let director: Vec<&str> = ["/director"].iter().chain(starts).copied().collect();
    for (who, cookie, starts) in [
        ("director", Some(dir), &director[..]),
        ("a player", Some(player), &["/play", "/play/signups"][..]),
        ("nobody", None, &["/", "/play"][..]),
    ] {
        links_answer(app, who, cookie, starts, 400).await;
    }
}

/// [`broken_links`] as `who`, asserting there are none: how many pages were followed.
#[allow(dead_code)]
pub async fn links_answer(
    app: &App,
    who: &str,
    cookie: Option<&str>,
    starts: &[&str],
    most: usize,
) -> usize {
    let (pages, broken) = broken_links(app, cookie, starts, most).await;
    println!("{who}: {pages} pages followed, {} broken", broken.len());
    assert!(
        broken.is_empty(),
        "{who}: broken links (page, linked from, status): {broken:?}"
    );
    pages
}
