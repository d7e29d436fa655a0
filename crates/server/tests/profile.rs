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
    play_spec(app, addr, cookie, spec).await;
}

/// Plays the table `spec` opens to its end, as `play_two` does; returns the table.
async fn play_spec(
    app: &server::App,
    addr: std::net::SocketAddr,
    cookie: &str,
    spec: server::play::spec::TableSpec,
) -> i64 {
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
    id
}

/// Table points as rules §8 gives them: 4, 2, 1, 0 by score, players who tie sharing the
/// points of the places they take.
fn rule_table_points(scores: [i64; 4]) -> [f64; 4] {
    const BY_PLACE: [f64; 4] = [4.0, 2.0, 1.0, 0.0];
    let mut out = [0.0; 4];
    for i in 0..4 {
        let above = scores.iter().filter(|&&x| x > scores[i]).count();
        let level = scores.iter().filter(|&&x| x == scores[i]).count();
        out[i] = BY_PLACE[above..above + level].iter().sum::<f64>() / level as f64;
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_regular_game_goes_on_the_record_with_its_table_points_and_not_into_the_rating() {
    use server::play::room::HandSummary;
    use server::play::spec::{Hands, TableSpec};
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (me, cookie, _) = signed_up(&app, "Regina");
    // Place 2 at the table (South's seat in hand 1), three easy bots.
    let base = duplicate(
        0..1,
        [bot("easy"), bot("easy"), Place::Person, bot("easy")],
        me,
    );
    let hands = Hands::Regular {
        seed: 3011,
        hands: 4,
    };
    let spec = TableSpec {
        rules_version: TableSpec::current_rules_version(&hands),
        owner_place: 2,
        hands,
        ..base
    };
    let table = play_spec(&app, addr, &cookie, spec).await;
    // The expected record, from the stored hands: totals by place, then the rule.
    let stored = app.store.hands_of_table(table).unwrap();
    assert_eq!(stored.len(), 4);
    let mut totals = [0i64; 4];
    for h in &stored {
        let sum: HandSummary = serde_json::from_str(&h.summary).unwrap();
        for seat in 0..4 {
            totals[sum.places[seat]] += sum.points[seat] as i64;
        }
    }
    assert_eq!(totals.iter().sum::<i64>(), 0, "{totals:?}");
    let want = rule_table_points(totals)[2];
    let p = history::profile(&app.hall, me, Viewer::Person(me), 5).unwrap();
    assert_eq!(p.regular.len(), 1, "{:?}", p.regular);
    let g = &p.regular[0];
    assert_eq!((g.table, g.played, g.of), (table, 4, 4));
    assert_eq!(g.score, totals[2]);
    assert_eq!(
        g.place,
        1 + totals.iter().filter(|&&x| x > totals[2]).count()
    );
    assert_eq!(g.table_points, Some(want));
    // Not rated: nobody else held these tiles.
    assert_eq!(p.compared, 0);
    assert!(p.rated.is_none());
    // The profile and my games show the record.
    for path in ["/play/p/Regina", "/play/me"] {
        let (status, _, page) = http(&app, "GET", path, Some(&cookie), &[]).await;
        assert_eq!(status, 200, "{path}: {page}");
        assert!(page.contains("id=\"regular\""), "{path}: {page}");
        assert!(
            page.contains(&format!("<td class=\"num\">{want}</td>")),
            "{path}: table points {want} not shown: {page}"
        );
        assert!(
            page.contains(&format!("href=\"/play/t/{table}\"")),
            "{path}"
        );
    }
}

#[test]
fn the_rule_splits_tied_places() {
    assert_eq!(rule_table_points([5, 3, 1, -9]), [4.0, 2.0, 1.0, 0.0]);
    assert_eq!(rule_table_points([0, 0, 0, 0]), [1.75; 4]);
    assert_eq!(rule_table_points([8, 8, -8, -8]), [3.0, 3.0, 0.5, 0.5]);
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
    // The people's deal-seats (East) hold the three of them and the par (played with the
    // easy bots they sat with); the bots' seats hold the bots alone, with no par.
    let seats = history::deal_seats(&app.hall).unwrap();
    for s in &seats {
        let people = s
            .results
            .iter()
            .filter(|(h, _)| matches!(h, tournament::rating::Holder::Person(_)))
            .count();
        let par = s
            .results
            .iter()
            .filter(|(h, _)| *h == tournament::rating::Holder::Bot("strong".into()))
            .count();
        if s.key.ends_with("/E") {
            assert_eq!((people, par, s.results.len()), (3, 1, 4), "{s:?}");
        } else {
            assert_eq!((people, par, s.results.len()), (0, 0, 3), "{s:?}");
        }
    }

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

    // Every link from a player's pages — profiles, replays, reviews, the leaderboard —
    // answers, for Bo and for nobody.
    for (who, cookie, starts) in [
        (
            "Bo",
            Some(bo_c.as_str()),
            &["/play", "/play/me", "/play/p/Ann", "/play/leaderboard"][..],
        ),
        (
            "nobody",
            None,
            &["/play", "/play/p/Ann", "/play/leaderboard"][..],
        ),
    ] {
        let pages = common::links_answer(&app, who, cookie, starts, 600).await;
        assert!(pages > 20, "{who}: {pages} pages");
    }

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
    let (status, to, _) = http(&app, "GET", "/play/me", Some(&bo_c), &[]).await;
    assert_eq!(status, 303, "his session went with the account");
    assert_eq!(to.as_deref(), Some("/play"), "to the lobby, to sign in");
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

#[test]
fn the_30_day_leaderboard_lists_those_who_played_in_the_last_30_days_rated_over_them() {
    let dir = std::env::temp_dir().join(format!("dupmj-period-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("period.sqlite");
    std::fs::remove_file(&db).ok();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let app = app(Some(&db));
    let addr = rt.block_on(serve(app.clone()));
    let (old, old_cookie, _) = signed_up(&app, "Olive");
    rt.block_on(play_two(&app, addr, old, &old_cookie));
    // Olive's hands were played 40 days ago.
    let c = rusqlite::Connection::open(&db).unwrap();
    let moved = c
        .execute(
            "UPDATE play_hands SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-40 days')",
            [],
        )
        .unwrap();
    assert_eq!(moved, 2);
    let (new, new_cookie, _) = signed_up(&app, "Nina");
    rt.block_on(play_two(&app, addr, new, &new_cookie));
    let board = |period: &str| -> Vec<(String, usize)> {
        let (status, _, page) = rt.block_on(http(
            &app,
            "GET",
            &format!("/play/leaderboard?period={period}"),
            None,
            &[],
        ));
        assert_eq!(status, 200);
        let since = (period == "30d").then(|| {
            server::play::challenge::utc(server::play::challenge::now_s() - 30 * 86_400)[..10]
                .to_string()
        });
        let lines = history::leaderboard(&app.hall, 1, since.as_deref()).unwrap();
        assert!(page.contains("id=\"leaderboard\""));
        lines
            .into_iter()
            .filter_map(|l| match l {
                history::Line::Player { name, rated, .. } => Some((name, rated.hands)),
                history::Line::Bot { .. } => None,
            })
            .collect()
    };
    let mut all = board("all");
    all.sort();
    assert_eq!(all, vec![("Nina".to_string(), 2), ("Olive".to_string(), 2)]);
    // Over the last 30 days only Nina played, and her rating rests on her hands then.
    assert_eq!(board("30d"), vec![("Nina".to_string(), 2)]);
    std::fs::remove_dir_all(&dir).ok();
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

/// Waits (at most a minute) until table `id` is over.
async fn until_over(app: &server::App, id: i64) {
    let start = std::time::Instant::now();
    while !app.store.play_table(id).unwrap().finished {
        assert!(start.elapsed().as_secs() < 60, "table {id} never ended");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Fair play: a hand whose tiles you were shown is yours and stays rated whoever finished
/// it; a hand a stand-in played before you ever saw it is not yours; what the stand-in
/// chose never counts as your play; every list says so in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_never_escapes_a_hand_and_a_stand_ins_play_is_never_yours() {
    let app = app(None);
    let addr = serve(app.clone()).await;
    let (me, cookie, _) = signed_up(&app, "Leaver");
    let places = [Place::Person, bot("easy"), bot("easy"), bot("easy")];
    let quick = |seeds| {
        let mut s = duplicate(seeds, places.clone(), me);
        s.limit_s = 1;
        s.bank_s = 0;
        s
    };
    // 1. Shown, then gone to another page: a medium stand-in finishes it.
    let seen = app.hall.open_table(quick(61..62), "Leaver").unwrap();
    let mut c = Client::connect(addr, seen, Some(&cookie)).await;
    c.until(|s| s["type"] == "state" && s["board"].is_object())
        .await;
    c.close().await;
    until_over(&app, seen).await;
    // 2. Never looked at: played by the stand-in from the first time-out on.
    let unseen = app.hall.open_table(quick(62..63), "Leaver").unwrap();
    until_over(&app, unseen).await;

    let summary = |t: i64| -> server::play::room::HandSummary {
        let h = &app.store.hands_of_table(t).unwrap()[0];
        serde_json::from_str(&h.summary).unwrap()
    };
    use server::play::room::Held;
    let medium = || "medium".to_string();
    assert_eq!(summary(seen).held(0), Held::FinishedBy { bot: medium() });
    assert_eq!(summary(unseen).held(0), Held::Unseen { bot: medium() });

    // Each table's task rates its session once the table is over, on a thread of its own:
    // wait for both (a minute at most).
    let start = std::time::Instant::now();
    while !history::unrated(&app.hall).unwrap().is_empty() {
        assert!(
            start.elapsed().as_secs() < 60,
            "the sessions were not rated"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Rated: the hand seen (against the par), not the other; kept as a rebuild finds it.
    let kept = history::kept(&app.hall, me).unwrap().expect("rated");
    assert_eq!(kept.hands, 1, "{kept:?}");
    let r = history::ratings(&app.hall).unwrap();
    assert_eq!(r.people[&me].hands, 1, "{:?}", r.people[&me]);
    let rebuilt = history::rebuild(&app.hall).unwrap();
    assert!(rebuilt.differences.is_empty(), "{:?}", rebuilt.differences);
    assert_eq!((rebuilt.sessions, rebuilt.unrated), (2, 0));
    let keys = history::compared_keys(&app.hall, me).unwrap();
    assert_eq!(keys.len(), 1, "{keys:?}");
    // Statistics: neither hand is their own play.
    let p = history::profile(&app.hall, me, Viewer::Person(me), 10).unwrap();
    assert_eq!(
        (p.hands, p.played, p.wins, p.dealt_in, p.draws),
        (2, 0, 0, 0, 0)
    );
    assert_eq!(p.compared, 1);
    assert!(p.fans.is_empty() && p.win_points == 0);

    // Said in words on "my games", the profile and the export, in English and Chinese.
    let (_, _, mine) = http(&app, "GET", "/play/me", Some(&cookie), &[]).await;
    assert!(
        mine.contains("finished by bot (medium) after you left"),
        "{mine}"
    );
    assert!(mine.contains("you never saw these tiles"), "{mine}");
    assert_eq!(mine.matches("<td>compared").count(), 1, "{mine}");
    let (_, _, profile) = http(&app, "GET", "/play/p/Leaver", None, &[]).await;
    assert!(profile.contains("finished by bot (medium) after you left"));
    let zh = format!("{cookie}; dupmj_lang=zh");
    let (_, _, mine_zh) = http(&app, "GET", "/play/me", Some(&zh), &[]).await;
    assert!(
        mine_zh.contains("你离开后由机器人（中等）打完"),
        "{mine_zh}"
    );
    let (_, _, export) = http(
        &app,
        "GET",
        "/play/p/Leaver/export.json",
        Some(&cookie),
        &[],
    )
    .await;
    let export: Value = serde_json::from_str(&export).unwrap();
    let kinds: Vec<&str> = export["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["held"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 2);
    assert!(
        kinds.contains(&"finished_by") && kinds.contains(&"unseen"),
        "{kinds:?}"
    );
}
