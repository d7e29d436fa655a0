//! What stays with a player: the profile, "my games", the rating over compared hands, the
//! leaderboard, and the account's life (a guest made an account keeps their games; a new
//! password; an export of one's own data only; a deleted account whose results stay in
//! everyone else's comparisons unchanged).

mod common;

use common::*;
use serde_json::Value;
use server::play::history;
use server::play::secrecy::Viewer;
use server::play::spec::Place;

/// An account signed in: (person, cookie, csrf).
fn signed_up(app: &server::App, name: &str) -> (i64, String, String) {
    let hash = server::auth::hash_password("password1").unwrap();
    let p = app.store.create_person(name, Some(&hash)).unwrap();
    let (s, _) =
        server::auth::start_session(app.store.as_ref(), store::Role::Player { person: p.id })
            .unwrap();
    let cookie = format!("{}={}", server::auth::COOKIE, s.token);
    let csrf = csrf_of(app, &cookie);
    (p.id, cookie, csrf)
}

/// `person` plays two duplicate deals (seeds 41 and 42, not practice) against easy bots:
/// Hu when offered, else pass, else the first discard.
async fn play_two(app: &server::App, addr: std::net::SocketAddr, person: i64, cookie: &str) {
    let spec = duplicate(
        41..43,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        person,
    );
    let id = app.hall.open_table(spec, "x").unwrap();
    let mut c = Client::connect(addr, id, Some(cookie)).await;
    loop {
        let s = c.next().await;
        if s["type"] != "state" {
            continue;
        }
        match s["stage"].as_str() {
            Some("over") => break,
            Some("between") => {
                c.send(serde_json::json!({"type": "next"})).await;
                continue;
            }
            _ => {}
        }
        if my_move(&s) {
            let legal = s["legal"].as_array().unwrap();
            let a = ["hu", "pass", "discard"]
                .iter()
                .find_map(|k| legal.iter().find(|x| x["action"] == *k))
                .unwrap_or(&legal[0])
                .clone();
            c.act(s["step"].as_u64().unwrap(), a).await;
        }
    }
    c.close().await;
}

/// Total IMP and compared hands of each person, from their profiles.
fn imps(app: &server::App, people: &[i64]) -> Vec<(i64, usize)> {
    people
        .iter()
        .map(|&p| {
            let pr = history::profile(&app.hall, p, Viewer::Anonymous, 5).unwrap();
            (pr.imp, pr.compared)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profiles_ratings_exports_and_a_deleted_account() {
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (ann, ann_c, ann_csrf) = signed_up(&app, "Ann");
    let (bo, bo_c, bo_csrf) = signed_up(&app, "Bo");
    let (cy, cy_c, _) = signed_up(&app, "Cy");
    for (p, c) in [(ann, &ann_c), (bo, &bo_c), (cy, &cy_c)] {
        play_two(&app, addr, p, c).await;
    }
    // Each deal-seat was held by three people and the par: everyone is compared and rated.
    let before = imps(&app, &[ann, bo, cy]);
    for (imp, compared) in &before {
        assert!(*compared >= 2, "{before:?}");
        let _ = imp;
    }
    let r = history::ratings(&app.hall).unwrap();
    for p in [ann, bo, cy] {
        let x = &r.people[&p];
        assert!(x.hands >= 2 && x.provisional(), "{x:?}");
    }
    // IMP at a deal-seat add up to about zero over its holders (the par included).
    let seats = history::deal_seats(&app.hall).unwrap();
    assert!(seats.iter().all(|s| s.results.len() == 4), "{seats:?}");

    // The profile page: rating, statistics, the last hands with their replays.
    let (status, _, page) = http(&app, "GET", "/play/p/Ann", None, &[]).await;
    assert_eq!(status, 200, "{page}");
    for needle in [
        "id=\"rating\"",
        "provisional",
        "id=\"stats\"",
        "id=\"last\"",
        "/play/t/",
    ] {
        assert!(page.contains(needle), "{needle}: {page}");
    }
    // Unknown players and odd names: not found, the name shown escaped.
    for path in [
        "/play/p/Nobody",
        "/play/p/%3Cscript%3Ex",
        "/play/p/..%2F..%2Fetc",
    ] {
        let (status, _, body) = http(&app, "GET", path, None, &[]).await;
        assert_eq!(status, 404, "{path}");
        assert!(!body.contains("<script>x"), "{body}");
    }
    // Export: your own data only.
    let (status, _, body) = http(&app, "GET", "/play/p/Ann/export.json", Some(&ann_c), &[]).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["person"]["name"], "Ann");
    assert_eq!(v["hands"].as_array().unwrap().len(), 2);
    let (status, _, _) = http(&app, "GET", "/play/p/Bo/export.json", Some(&ann_c), &[]).await;
    assert_eq!(status, 403, "someone else's data");
    let (status, _, _) = http(&app, "GET", "/play/p/Ann/export.json", None, &[]).await;
    assert_eq!(status, 403);

    // A new password: the old one is asked for.
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/me/password",
        Some(&ann_c),
        &[
            ("csrf", &ann_csrf),
            ("password", "wrong password"),
            ("new", "another secret"),
        ],
    )
    .await;
    assert_eq!(status, 403);
    let (status, _, page) = http(
        &app,
        "POST",
        "/play/me/password",
        Some(&ann_c),
        &[
            ("csrf", &ann_csrf),
            ("password", "password1"),
            ("new", "another secret"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{page}");
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/login",
        None,
        &[("name", "Ann"), ("password", "another secret")],
    )
    .await;
    assert_eq!(status, 303);

    // Bo deletes his account: gone by name, his hands' names anonymised, and nobody
    // else's IMP moves (his results stay in the comparisons).
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/me/delete",
        Some(&bo_c),
        &[("csrf", &bo_csrf), ("password", "password1")],
    )
    .await;
    assert_eq!(status, 422, "the box must be ticked");
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/me/delete",
        Some(&bo_c),
        &[
            ("csrf", &bo_csrf),
            ("password", "password1"),
            ("confirm", "yes"),
        ],
    )
    .await;
    assert_eq!(status, 303);
    assert_eq!(imps(&app, &[ann, bo, cy]), before);
    let (status, _, _) = http(&app, "GET", "/play/p/Bo", None, &[]).await;
    assert_eq!(status, 404);
    let (status, _, _) = http(&app, "GET", "/play/me", Some(&bo_c), &[]).await;
    assert_eq!(status, 403, "his session went with the account");
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/login",
        None,
        &[("name", "Bo"), ("password", "password1")],
    )
    .await;
    assert_eq!(status, 403);
    for (h, seat) in app.store.hands_of_person(bo, 0, 10).unwrap() {
        let s: Value = serde_json::from_str(&h.summary).unwrap();
        assert_eq!(s["names"][seat], "deleted player", "{s}");
    }

    // The leaderboard lists the bots' levels; a bad period is refused by name.
    let (status, _, board) = http(&app, "GET", "/play/leaderboard", None, &[]).await;
    assert_eq!(status, 200);
    assert!(
        board.contains("bot-line") && board.contains("id=\"leaderboard\""),
        "{board}"
    );
    let (status, _, body) = http(&app, "GET", "/play/leaderboard?period=7y", None, &[]).await;
    assert!(status == 422 && body.contains("period"), "{body}");
    let (status, _, _) = http(&app, "GET", "/play/leaderboard?period=30d", None, &[]).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_made_an_account_keeps_their_games() {
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (guest, cookie) = person(&app, "Dee");
    play_two(&app, addr, guest, &cookie).await;
    let (status, _, page) = http(&app, "GET", "/play/me", Some(&cookie), &[]).await;
    assert_eq!(status, 200);
    assert!(
        page.contains("2 hands") && page.contains("action=\"/play/register\""),
        "{page}"
    );
    let csrf = csrf_of(&app, &cookie);
    let (status, _, _) = http(
        &app,
        "POST",
        "/play/register",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("name", "Deirdre"),
            ("password", "long enough"),
        ],
    )
    .await;
    assert_eq!(status, 303);
    let (p, _) = app.store.account("Deirdre").unwrap().unwrap();
    assert_eq!(p.id, guest, "the same person, now an account");
    assert_eq!(app.store.hand_count_of_person(p.id).unwrap(), 2);
}
