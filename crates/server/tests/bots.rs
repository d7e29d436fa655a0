//! Bot accounts: made on the account's page for good, signed in by an API token that is
//! shown once and can be revoked; an outside bot of each protocol plays a rated table with
//! a person and the site's bots through `server::connect` (what `dupmj connect` runs), and a
//! challenge that lets bots play; a bot that crashes, answers garbage or sleeps past the
//! clock is replaced and the table plays on.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use agents::pool::{BotPool, Protocol};
use common::*;
use serde_json::Value;
use server::connect::{Played, Site, Source};
use server::play::room::HandSummary;
use server::play::spec::Place;
use server::App;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/bots")
}

/// A bot account and one of its tokens, made in the store.
fn bot_account(app: &App, name: &str) -> (i64, String) {
    let p = app.store.create_person(name, Some("not a hash")).unwrap();
    app.store.make_bot(p.id).unwrap();
    let token = format!("dupmj_test_{name}");
    app.store.add_api_token(p.id, &token).unwrap();
    (p.id, token)
}

/// Runs the bot `spec` on `addr` as `dupmj connect` does, on a thread of its own.
fn connect(
    addr: std::net::SocketAddr,
    token: &str,
    spec: &str,
    from: Source,
    limit: Duration,
) -> std::thread::JoinHandle<Result<Vec<Played>, String>> {
    let (token, spec) = (token.to_string(), spec.to_string());
    std::thread::spawn(move || {
        let (protocol, cmd) = Protocol::parse_spec(&spec)?;
        let pool = BotPool::with_protocol(cmd, limit, protocol);
        let site = Site::new(&format!("http://{addr}"), &token)?;
        server::connect::run(&site, &from, 1, pool, |line| eprintln!("{line}"))
    })
}

async fn api(app: &App, method: &str, path: &str, token: Option<&str>) -> (u16, Value) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut req = axum::http::Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let res = server::router(app.clone())
        .oneshot(req.body(axum::body::Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status().as_u16();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap())
}

fn hands(app: &App, table: i64) -> Vec<HandSummary> {
    app.store
        .hands_of_table(table)
        .unwrap()
        .iter()
        .map(|h| serde_json::from_str(&h.summary).unwrap())
        .collect()
}

#[tokio::test]
async fn a_bot_account_is_made_on_its_page_and_signs_in_by_its_token_until_revoked() {
    let app = app(None);
    let hash = server::auth::hash_password("correct horse").unwrap();
    let p = app.store.create_person("Robo", Some(&hash)).unwrap();
    let (s, _) =
        server::auth::start_session(app.store.as_ref(), store::Role::Player { person: p.id })
            .unwrap();
    let cookie = format!("{}={}", server::auth::COOKIE, s.token);
    let csrf = s.csrf.clone();
    // The box must be ticked, and the password right.
    let form = [("csrf", csrf.as_str()), ("password", "correct horse")];
    let (status, _, body) = http(&app, "POST", "/play/me/bot", Some(&cookie), &form).await;
    assert_eq!(status, 422, "{body}");
    let wrong = [
        ("csrf", csrf.as_str()),
        ("password", "wrong"),
        ("confirm", "yes"),
    ];
    let (status, _, _) = http(&app, "POST", "/play/me/bot", Some(&cookie), &wrong).await;
    assert_eq!(status, 403);
    let ok = [
        ("csrf", csrf.as_str()),
        ("password", "correct horse"),
        ("confirm", "yes"),
    ];
    let (status, _, body) = http(&app, "POST", "/play/me/bot", Some(&cookie), &ok).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("This is a bot account now"), "{body}");
    assert!(app.store.person(p.id).unwrap().bot);
    // For good: the form is gone, the tokens are there.
    assert!(!body.contains("action=\"/play/me/bot\""));
    assert!(body.contains("id=\"tokens\""));

    // A token, shown once.
    let (status, _, body) = http(
        &app,
        "POST",
        "/play/me/tokens",
        Some(&cookie),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(status, 200);
    let at = body
        .find("<code id=\"new-token\">")
        .expect("the token is shown")
        + 21;
    let token = body[at..].split('<').next().unwrap().to_string();
    assert!(token.starts_with("dupmj_") && token.len() == 38, "{token}");
    let (_, _, again) = http(&app, "GET", "/play/me", Some(&cookie), &[]).await;
    assert!(!again.contains(&token), "shown once only");

    let (status, me) = api(&app, "GET", "/api/bot/me", Some(&token)).await;
    assert_eq!((status, me["shown"].as_str()), (200, Some("Robo (bot)")));
    // No token, a wrong one: refused, in JSON, saying why.
    let (status, e) = api(&app, "GET", "/api/bot/me", None).await;
    assert_eq!(status, 403);
    assert!(e["error"].as_str().unwrap().contains("Bearer"), "{e}");
    let (status, e) = api(&app, "GET", "/api/bot/me", Some("dupmj_nothing")).await;
    assert_eq!(status, 403);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("wrong or was revoked"),
        "{e}"
    );
    // Revoked: refused from then on.
    let id = app.store.api_tokens(p.id).unwrap()[0].id;
    let (status, _, _) = http(
        &app,
        "POST",
        &format!("/play/me/tokens/{id}/revoke"),
        Some(&cookie),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = api(&app, "GET", "/api/bot/me", Some(&token)).await;
    assert_eq!(status, 403);

    // Its browser plays nothing by hand: no queue, no table of its own.
    let (status, _, body) = http(
        &app,
        "POST",
        "/play/quick",
        Some(&cookie),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("plays through its program"), "{body}");
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/tables",
        Some(&cookie),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!(status, 403);
    // Marked as a bot on its profile; the leaderboard filters by kind.
    let (_, _, profile) = http(&app, "GET", "/play/p/Robo", None, &[]).await;
    assert!(profile.contains("id=\"bot-badge\""), "{profile}");
    for who in ["people", "bots", "all"] {
        let (status, _, _) = http(
            &app,
            "GET",
            &format!("/play/leaderboard?who={who}"),
            None,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{who}");
    }
    let (status, _, _) = http(&app, "GET", "/play/leaderboard?who=robots", None, &[]).await;
    assert_eq!(status, 422);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_of_each_protocol_plays_a_rated_table_with_a_person_and_bots() {
    let app = app(None);
    let addr = serve(app.clone()).await;
    let dir = examples();
    let simple = dir.join("simple_bot.py");
    let botzone = dir.join("botzone_bot.py");
    let specs = [
        format!("cmd:python3 {}", simple.display()),
        // Kept running for the hand (one process a hand, not one a request: the arena's
        // tests cover a process a request).
        format!("botzone:python3 {} --keep-running", botzone.display()),
        format!(
            "botzone-simple:python3 {} --simple --keep-running",
            botzone.display()
        ),
    ];
    for (i, spec) in specs.iter().enumerate() {
        let (bot_id, token) = bot_account(&app, &format!("Robo{i}"));
        let (ann, cookie) = person(&app, &format!("Ann{i}"));
        // Ann opens a table and invites a bot account to South; easy bots West and North.
        let spec_t = duplicate(
            (50 + i as u64)..(51 + i as u64),
            [Place::Person, Place::Person, bot("easy"), bot("easy")],
            ann,
        );
        let table = app
            .hall
            .open_table(spec_t, &format!("Ann{i} (guest)"))
            .unwrap();
        let bot = connect(
            addr,
            &token,
            spec,
            Source::Table(table),
            Duration::from_secs(10),
        );
        let last = play_through(addr, table, &cookie).await;
        assert_eq!(last["stage"], "over", "{spec}: {last}");
        let played = tokio::task::spawn_blocking(move || bot.join().unwrap())
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(played.len(), 1);
        let p = &played[0];
        assert_eq!((p.table, p.hands), (table, 1), "{spec}: {p:?}");
        assert!(p.moves > 0, "{spec}: {p:?}");
        assert_eq!(p.faults, 0, "{spec}: {p:?}");
        // The hand is kept with the bot account at South, marked as a bot, its own play.
        let h = &hands(&app, table)[0];
        let seat = h.places.iter().position(|&pl| pl == 1).unwrap();
        assert_eq!(h.persons[seat], Some(bot_id), "{spec}");
        assert_eq!(h.names[seat], format!("Robo{i} (bot)"));
        assert!(!h.stood_in[seat], "{spec}: the bot played every move");
        let stored = app.store.play_table(table).unwrap();
        let spec_back: server::play::spec::TableSpec = serde_json::from_str(&stored.spec).unwrap();
        assert!(spec_back.rated());
        // Rated on the people's scale once the table is over (the table's task rates it).
        let mut rated = None;
        for _ in 0..100 {
            rated = app.store.rating(bot_id).unwrap();
            if rated.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let row = rated.unwrap_or_else(|| panic!("{spec}: the bot account is not rated"));
        assert_eq!(row.hands, 1, "{spec}");
        assert!(app.store.rating(ann).unwrap().is_some(), "{spec}: Ann too");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_plays_a_challenge_that_lets_bots_and_is_refused_by_one_that_does_not() {
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (_, token) = bot_account(&app, "Chal");
    let new = |bots: bool| server::play::challenge::NewChallenge {
        name: format!("bots {bots}"),
        deals: 4,
        copies: 1,
        opens_in_h: 0,
        hours: 24,
        level: "easy".into(),
        par: "easy".into(),
        rotation: tournament::challenge::Rotation::Same,
        limit_s: 30,
        bank_s: 0,
        scheduled: false,
        bots,
    };
    let hall = app.hall.clone();
    let (closed, open) = tokio::task::spawn_blocking(move || {
        let a = server::play::challenge::publish(&hall, &new(false)).unwrap();
        let b = server::play::challenge::publish(&hall, &new(true)).unwrap();
        (a, b)
    })
    .await
    .unwrap();
    let (status, e) = api(
        &app,
        "POST",
        &format!("/api/bot/challenges/{closed}/play"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 403);
    assert!(
        e["error"].as_str().unwrap().contains("is for people"),
        "{e}"
    );
    let spec = format!("cmd:python3 {}", examples().join("simple_bot.py").display());
    let bot = connect(
        addr,
        &token,
        &spec,
        Source::Challenge(open),
        Duration::from_secs(10),
    );
    let played = tokio::task::spawn_blocking(move || bot.join().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(played[0].hands, 1);
    let c = server::play::challenge::load(&app.hall, open).unwrap();
    let me = app.store.person_of_token(&token).unwrap().unwrap();
    let play = c.play_of(me.id, 0).expect("deal 1 taken up");
    assert_eq!(play.play_table, played[0].table);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_crashes_babbles_or_sleeps_is_replaced_and_the_table_plays_on() {
    let app = app(None);
    let addr = serve(app.clone()).await;
    // Sleeps 3 s on its first decision, then plays the first legal move at once.
    let dir = std::env::temp_dir().join(format!("dupmj-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sleeper = dir.join("sleeper.py");
    std::fs::write(
        &sleeper,
        "import json, sys, time\nfirst = True\nfor line in sys.stdin:\n    view = json.loads(line)['view']\n    if first:\n        time.sleep(3)\n        first = False\n    print(json.dumps(view['legal'][0]), flush=True)\n",
    )
    .unwrap();
    let sleeps = format!("cmd:python3 {}", sleeper.display());
    let cases = [
        ("crash", "cmd:sh -c 'exit 3'", Duration::from_secs(5)),
        (
            "garbage",
            "cmd:sh -c 'while read l; do echo nonsense; done'",
            Duration::from_secs(5),
        ),
        // Past the table's clock (2 s): the site plays the time-out default, the late
        // answer is refused as stale.
        ("sleeps", sleeps.as_str(), Duration::from_secs(60)),
    ];
    for (i, (what, spec, limit)) in cases.into_iter().enumerate() {
        let (bot_id, token) = bot_account(&app, &format!("Bad{i}"));
        let mut spec_t = duplicate(
            (70 + i as u64)..(71 + i as u64),
            [Place::Person, bot("easy"), bot("easy"), bot("easy")],
            bot_id,
        );
        spec_t.limit_s = 2;
        let table = app
            .hall
            .open_table(spec_t, &format!("Bad{i} (bot)"))
            .unwrap();
        let bot = connect(addr, &token, spec, Source::Table(table), limit);
        let played = tokio::task::spawn_blocking(move || bot.join().unwrap())
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(played[0].hands, 1, "{what}");
        let h = &hands(&app, table);
        assert_eq!(h.len(), 1, "{what}: the hand is kept");
        match what {
            "sleeps" => assert!(h[0].stood_in[0], "{what}: the clock's default played"),
            _ => assert!(played[0].faults > 0, "{what}: {:?}", played[0]),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_account_in_the_queue_sits_only_with_people_who_let_bots_play_them() {
    let app = app_waiting(Duration::from_secs(1));
    tokio::spawn(server::play::quick::matchmaker(app.hall.clone()));
    let (robo, token) = bot_account(&app, "Queuer");
    let (status, v) = api(&app, "POST", "/api/bot/quick", Some(&token)).await;
    assert_eq!((status, v["queued"].clone()), (200, true.into()), "{v}");
    // Bo does not let bots play him: after the wait, built-in bots; the bot account waits on.
    let (_, bo) = person(&app, "Bo");
    join(&app, &bo, false).await;
    let tb = table_within(&app, &bo, 10).await;
    let spec: server::play::spec::TableSpec =
        serde_json::from_str(&app.store.play_table(tb).unwrap().spec).unwrap();
    assert_eq!(
        spec.places.iter().filter(|p| **p == Place::Person).count(),
        1
    );
    let (_, v) = api(&app, "GET", "/api/bot/quick", Some(&token)).await;
    assert_eq!(
        (v["queued"].clone(), v["table"].clone()),
        (true.into(), Value::Null)
    );
    // Ann does: she and the bot account sit together.
    let (_, ann) = person(&app, "Ann");
    join(&app, &ann, true).await;
    let ta = table_within(&app, &ann, 10).await;
    let (_, v) = api(&app, "GET", "/api/bot/quick", Some(&token)).await;
    assert_eq!(v["table"], ta, "{v}");
    let sat = seated_at(&app, ta);
    assert!(sat.contains(&robo), "{sat:?}");
}

/// Who sits at table `id`, from its journal.
fn seated_at(app: &App, id: i64) -> Vec<i64> {
    app.store
        .journal(id)
        .unwrap()
        .iter()
        .filter_map(|e| {
            let v: Value = serde_json::from_str(e).ok()?;
            (v["t"] == "sit").then(|| v["person"].as_i64()).flatten()
        })
        .collect()
}

/// The seat's feed holds the seat's own sight only: another seat's draws and concealed
/// kongs without their tiles, the view's hand the seat's own (13 or 14 tiles with its
/// sets); and a browser's connection (a watcher here) is never sent a seat's feed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seats_feed_holds_only_what_the_seat_sees() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::Message;
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (robo, token) = bot_account(&app, "Feed");
    let table = app
        .hall
        .open_table(
            duplicate(
                90..91,
                [Place::Person, bot("easy"), bot("easy"), bot("easy")],
                robo,
            ),
            "Feed (bot)",
        )
        .unwrap();
    let (_, watcher_cookie) = person(&app, "Wanda");
    let mut watcher = Client::connect(addr, table, Some(&watcher_cookie)).await;
    // The watcher reads all along: how many states, and any seat's feed.
    let watched = tokio::spawn(async move {
        let (mut states, mut feeds) = (0, 0);
        while let Some(m) = watcher.next_within(5.0).await {
            states += usize::from(m["type"] == "state");
            feeds += usize::from(m["type"] == "seat");
            if m["stage"] == "over" {
                break;
            }
        }
        (states, feeds)
    });
    let mut req = format!("ws://{addr}/play/t/{table}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let (mut tx, mut rx) = ws.split();
    let (mut events, mut decisions) = (0, 0);
    while let Some(Ok(m)) = rx.next().await {
        let Message::Text(text) = m else { continue };
        let v: Value = serde_json::from_str(&text).unwrap();
        if v["type"] == "state" && v["stage"] == "over" {
            break;
        }
        if v["type"] != "seat" {
            continue;
        }
        for e in v["events"].as_array().unwrap() {
            events += 1;
            let theirs = e["seat"] != "E";
            if theirs && e["event"] == "draw" {
                assert!(e["tile"].is_null(), "another seat's draw shown: {e}");
            }
            if theirs && e["event"] == "kong" && e["kind"] == "concealed" {
                assert!(
                    e["tile"].is_null(),
                    "another seat's concealed kong shown: {e}"
                );
            }
            if e["event"] == "dealt" {
                assert_eq!(e["seat"], "E");
                assert_eq!(e["tiles"].as_array().unwrap().len(), 13);
            }
        }
        if let Some(step) = v["step"].as_u64() {
            decisions += 1;
            let view = &v["view"];
            assert_eq!(view["seat"], "E");
            let hand = view["hand"].as_array().unwrap().len();
            let sets = view["melds"][0].as_array().unwrap().len();
            assert!(
                [13, 14].contains(&(hand + 3 * sets)),
                "{hand} tiles and {sets} sets: {view}"
            );
            let a = json_first(&v["legal"]);
            let m = serde_json::json!({"type": "act", "step": step, "action": a});
            tx.send(Message::Text(m.to_string().into())).await.unwrap();
        }
    }
    assert!(
        events > 20 && decisions > 5,
        "{events} events, {decisions} decisions"
    );
    // The watcher saw the table to its end, never a seat's feed.
    let (states, feeds) = watched.await.unwrap();
    assert!(states > 20, "{states} states");
    assert_eq!(feeds, 0);
}

fn json_first(legal: &Value) -> Value {
    legal.as_array().unwrap()[0].clone()
}

/// A bot that disconnects is played for by the stand-in once its clock runs out, and takes
/// its place back when it comes back, told its hand from the start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_disconnects_is_replaced_and_comes_back() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::Message;
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (robo, token) = bot_account(&app, "Leaver");
    // Two deals: should the stand-in finish the first before the bot is back, the second
    // is told from its start.
    let mut spec = duplicate(
        95..97,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        robo,
    );
    spec.limit_s = 1;
    let table = app.hall.open_table(spec, "Leaver (bot)").unwrap();
    let open = || async {
        let mut req = format!("ws://{addr}/play/t/{table}/ws")
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        tokio_tungstenite::connect_async(req).await.unwrap().0
    };
    // Connected until its first decision, then gone without answering.
    let mut ws = open().await;
    while let Some(Ok(m)) = ws.next().await {
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(&t).unwrap();
        if v["type"] == "seat" && v["step"].is_u64() {
            break;
        }
    }
    drop(ws);
    // Its clock runs out: a stand-in plays its place.
    let (_, watcher) = person(&app, "Watcher");
    let mut w = Client::connect(addr, table, Some(&watcher)).await;
    let s = w.until(|s| s["places"][0]["away"] == true).await;
    assert_eq!(s["places"][0]["away"], true);
    // Back: its place again, and its hand from the start.
    let mut ws = open().await;
    let mut first_seat = None;
    let mut back = false;
    while let Some(Ok(m)) = ws.next().await {
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(&t).unwrap();
        if v["type"] == "state" {
            back |= v["places"][0]["away"] == false;
        }
        if v["type"] == "seat" && first_seat.is_none() {
            first_seat = Some(v["from"].clone());
        }
        if back && first_seat.is_some() {
            break;
        }
    }
    assert!(back, "the bot plays its place again");
    assert_eq!(
        first_seat,
        Some(Value::from(0)),
        "told from the hand's start"
    );
}
