//! Training at `/play/drills`: a guest's day of drills (fan and route drills), the
//! schedule after right and wrong answers, the problem of the day with everyone's answers,
//! progress kept when the guest makes an account, bad input refused; drills from one's own
//! reviewed hands, shown as the seat saw the position, and none from a challenge's deal
//! before the challenge is revealed.

mod common;

use common::{
    bot, csrf_of, director, http, person, play_through, publish_monday, review_all, serve, take_up,
};
use serde_json::{json, Value};
use server::play::drills::daily::today;
use server::play::drills::{fans, routes, DrillKey};
use server::App;

async fn get(app: &App, path: &str, cookie: &str) -> (u16, Value) {
    let (st, _, body) = http(app, "GET", path, Some(cookie), &[]).await;
    (
        st,
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{path}: {body}")),
    )
}

/// A drill's question, as `cookie`'s player asks for it.
async fn question(app: &App, cookie: &str, key: &str) -> (u16, Value) {
    get(
        app,
        &format!("/play/drills/question.json?key={key}"),
        cookie,
    )
    .await
}

async fn answer(app: &App, cookie: &str, key: &str, a: &Value) -> (u16, Value) {
    let csrf = csrf_of(app, cookie);
    let (st, _, body) = http(
        app,
        "POST",
        "/play/drills/answer",
        Some(cookie),
        &[("csrf", &csrf), ("key", key), ("answer", &a.to_string())],
    )
    .await;
    (
        st,
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{key}: {body}")),
    )
}

/// The fan drill's right answer, worked out by the calculator.
fn right_fans(seed: u64) -> Value {
    let r = fans::reading(seed, &mcr::Rules::seeds());
    let nos: Vec<u64> = r["fans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["no"].as_u64().unwrap())
        .collect();
    json!({"points": r["total"], "fans": nos})
}

/// A discard the planner reckons loses the nearest route.
fn wrong_discard(seed: u64) -> Value {
    let (options, _) = routes::answer(seed);
    let near = options[0].distance;
    let o = options
        .iter()
        .find(|o| o.distance > near)
        .expect("a drill where the choice matters");
    json!({"action": "discard", "tile": o.tile})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guests_day_of_drills() {
    let app = common::app(None);
    let (ada, cookie) = person(&app, "Ada");
    let day = today();

    // Not signed in: the page offers a guest's start; the JSON says why not.
    let (st, _, page) = http(&app, "GET", "/play/drills", None, &[]).await;
    assert_eq!(st, 200);
    assert!(
        page.contains("action=\"/play/guest?next=/play/drills\""),
        "{page}"
    );
    let (st, _, body) = http(&app, "GET", "/play/drills/set.json", None, &[]).await;
    assert_eq!(st, 403, "{body}");

    let (st, set) = get(&app, "/play/drills/set.json", &cookie).await;
    assert_eq!(st, 200, "{set}");
    let drills = set["drills"].as_array().unwrap().clone();
    let kinds: Vec<&str> = drills.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "fan").count(), 2, "{set}");
    assert_eq!(kinds.iter().filter(|k| **k == "route").count(), 2, "{set}");
    assert_eq!(set["progress"]["answered"], 0);
    assert_eq!(set["problem"]["key"], format!("day:{day}"));

    // Fans right, routes wrong: the fans come back in a day with their factor up, the
    // routes tomorrow too, from the start.
    for d in &drills {
        let key = d["key"].as_str().unwrap();
        let (st, q) = question(&app, &cookie, key).await;
        assert_eq!(st, 200, "{q}");
        match DrillKey::parse(key).unwrap() {
            DrillKey::Fan(seed) => {
                assert!(q["choices"].as_array().unwrap().len() >= 10, "{q}");
                let (st, a) = answer(&app, &cookie, key, &right_fans(seed)).await;
                assert_eq!(st, 200, "{a}");
                assert_eq!(
                    (a["grade"].as_u64(), a["right"].as_bool()),
                    (Some(5), Some(true)),
                    "{a}"
                );
                assert_eq!(a["back_in_days"], 1);
                assert!(a["command"].as_str().unwrap().starts_with("dupmj fan '"));
            }
            DrillKey::Route(seed) => {
                // The question is a turn after a draw, with its discards to choose from.
                assert_eq!(q["decision"]["kind"], "turn", "{q}");
                assert!(q["decision"]["drew"].is_string());
                let (st, a) = answer(&app, &cookie, key, &wrong_discard(seed)).await;
                assert_eq!(st, 200, "{a}");
                assert_eq!(
                    (a["grade"].as_u64(), a["right"].as_bool()),
                    (Some(1), Some(false)),
                    "{a}"
                );
                let (_, best) = routes::answer(seed);
                assert_eq!(a["best"], serde_json::to_value(best).unwrap());
                assert_eq!(a["back_in_days"], 1);
            }
            other => panic!("{other:?} in a newcomer's set"),
        }
    }
    let cards: Vec<store::DrillCard> = drills
        .iter()
        .map(|d| {
            app.store
                .drill_card(ada, d["key"].as_str().unwrap())
                .unwrap()
                .unwrap()
        })
        .collect();
    for c in &cards {
        assert_eq!(c.due_day, day + 1, "{c:?}");
        let ease = if c.drill.starts_with("fan:") {
            2600
        } else {
            2500
        };
        assert_eq!((c.answered, c.ease_milli), (1, ease), "{c:?}");
    }
    let (_, set) = get(&app, "/play/drills/set.json", &cookie).await;
    assert!(set["drills"].as_array().unwrap().is_empty(), "{set}");
    let p = &set["progress"];
    assert_eq!(
        (
            p["answered"].as_u64(),
            p["right"].as_u64(),
            p["due"].as_u64()
        ),
        (Some(4), Some(2), Some(0))
    );

    // The problem of the day: the same for everyone; each sees everyone's first answers.
    let (_, bea_cookie) = person(&app, "Bea");
    let problem = format!("day:{day}");
    let (_, qa) = question(&app, &cookie, &problem).await;
    let (_, qb) = question(&app, &bea_cookie, &problem).await;
    assert_eq!(qa, qb);
    let (right, wrong) = match server::play::drills::daily::problem(&app.hall, day).unwrap() {
        DrillKey::Fan(seed) => {
            let r = right_fans(seed);
            let mut w = r.clone();
            w["points"] = json!(r["points"].as_u64().unwrap() + 1);
            (r, w)
        }
        DrillKey::Route(seed) => {
            let (_, best) = routes::answer(seed);
            (serde_json::to_value(best).unwrap(), wrong_discard(seed))
        }
        other => panic!("{other:?}"),
    };
    let (st, a) = answer(&app, &cookie, &problem, &right).await;
    assert_eq!(st, 200, "{a}");
    assert_eq!(a["everyone"].as_array().unwrap().len(), 1, "{a}");
    let (_, b) = answer(&app, &bea_cookie, &problem, &wrong).await;
    let everyone = b["everyone"].as_array().unwrap();
    assert_eq!(everyone.len(), 2, "{b}");
    assert_eq!(
        everyone.iter().filter(|e| e["right"] == true).count(),
        1,
        "{b}"
    );
    assert!(everyone.iter().all(|e| e["count"] == 1), "{b}");

    // Bad input: named, refused, nothing kept.
    let before = app.store.drill_progress(ada, day).unwrap();
    for (key, a, status, said) in [
        ("chess:1", json!({"points": 8}), 422, "drill: 'chess:1'"),
        (
            "fan:999",
            json!({"points": 8}),
            404,
            "not one of your drills",
        ),
        (
            drills[0]["key"].as_str().unwrap(),
            json!({"dance": 1}),
            422,
            "answer: ",
        ),
        (
            &format!("day:{}", day + 3),
            json!({"points": 8}),
            404,
            "not out yet",
        ),
    ] {
        let (st, e) = answer(&app, &cookie, key, &a).await;
        assert_eq!(st, status, "{key}: {e}");
        assert!(e["error"].as_str().unwrap().contains(said), "{key}: {e}");
    }
    // Another's drill is not shown to Bea.
    let (st, e) = question(&app, &bea_cookie, drills[0]["key"].as_str().unwrap()).await;
    assert_eq!(st, 404, "{e}");
    let wrong_kind = drills.iter().find(|d| d["kind"] == "fan").unwrap()["key"]
        .as_str()
        .unwrap()
        .to_string();
    let (st, e) = answer(&app, &cookie, &wrong_kind, &json!({"action": "pass"})).await;
    assert_eq!(st, 422, "{e}");
    let (st, _, _) = http(
        &app,
        "POST",
        "/play/drills/answer",
        Some(&cookie),
        &[("key", &wrong_kind), ("answer", "{\"points\":8}")],
    )
    .await;
    assert_eq!(st, 403, "no form token, no answer");
    assert_eq!(app.store.drill_progress(ada, day).unwrap(), before);

    // Her data export carries her drills and their schedule.
    let (st, export) = get(&app, "/play/p/me/export.json", &cookie).await;
    assert_eq!(st, 200);
    let d = &export["drills"];
    assert_eq!(
        (d["answered"].as_u64(), d["right"].as_u64()),
        (Some(5), Some(3)),
        "{d}"
    );
    assert_eq!(d["cards"].as_array().unwrap().len(), 4, "{d}");
    assert!(
        d["cards"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["due_day"] == day + 1),
        "{d}"
    );

    // The guest makes an account from the drills page (or from "my games"): the same person,
    // progress and all.
    for (page, form, kept) in [
        (
            "/play/drills",
            "action=\"/play/register?next=/play/drills\"",
            "Your drills and their schedule come with you.",
        ),
        (
            "/play/me",
            "action=\"/play/register\"",
            "Your games so far come with you.",
        ),
    ] {
        let (st, _, body) = http(&app, "GET", page, Some(&cookie), &[]).await;
        assert_eq!(st, 200, "{page}");
        assert!(body.contains(form) && body.contains(kept), "{page}: {body}");
    }
    let csrf = csrf_of(&app, &cookie);
    let (st, _, body) = http(
        &app,
        "POST",
        "/play/register?next=/play/drills",
        Some(&cookie),
        &[
            ("csrf", &csrf),
            ("name", "Ada Lovelace"),
            ("password", "a long password"),
        ],
    )
    .await;
    assert_eq!(st, 303, "{body}");
    assert!(app.store.person(ada).unwrap().account);
    assert_eq!(app.store.drill_progress(ada, day).unwrap().answered, 5);
}

/// Play drills come from the player's own reviewed hands, show the position as their seat
/// saw it (checked against the hand's log), answer with the expert's candidates; another
/// person cannot open them; a challenge's deal gives none until it is revealed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drills_from_own_hands_follow_the_secrecy_rule() {
    let app = common::app(None);
    let addr = serve(app.clone()).await;
    let dir = director(&app);
    publish_monday(&app, &dir).await;
    let (me, cookie) = person(&app, "Rhea");
    let ct = take_up(&app, &cookie, 1, "Rhea").await;
    play_through(addr, ct, &cookie).await;
    // Lobby tables of her own with strong bots, open once played.
    let mut tables = Vec::new();
    for seed in 30..33 {
        let spec = common::duplicate(
            seed..seed + 1,
            [
                server::play::spec::Place::Person,
                bot("strong"),
                bot("strong"),
                bot("strong"),
            ],
            me,
        );
        let t = app.hall.open_table(spec, "Rhea").unwrap();
        play_through(addr, t, &cookie).await;
        tables.push(t);
    }
    review_all(&app, 20).await;

    let (st, set) = get(&app, "/play/drills/set.json", &cookie).await;
    assert_eq!(st, 200, "{set}");
    let plays: Vec<String> = set["drills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "play")
        .map(|d| d["key"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !plays.is_empty(),
        "her first-discard play makes costly mistakes: {set}"
    );
    assert!(
        plays.iter().all(|k| !k.starts_with(&format!("play:{ct}:"))),
        "no drill from the challenge yet: {plays:?}"
    );
    // The challenge's hand was not looked through: it waits for the reveal.
    let ch_hand = app.store.hands_of_table(ct).unwrap()[0].id;
    assert!(!app.store.mined_hands(me).unwrap().contains(&ch_hand));
    let (st, e) = question(&app, &cookie, &format!("play:{ct}:1:4")).await;
    assert_eq!(st, 404, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("not one of your drills"),
        "{e}"
    );
    // Asked of the drills' module itself, the position is refused for the secret deal.
    let hall = app.hall.clone();
    let e = tokio::task::spawn_blocking(move || {
        server::play::drills::mine::question(&hall, me, ct, 1, 4).unwrap_err()
    })
    .await
    .unwrap();
    assert!(e.to_string().contains("still secret"), "{e}");

    // The position is the log's, from her seat: her tiles, nobody else's.
    let key = &plays[0];
    let DrillKey::Play { table: t, hand, at } = DrillKey::parse(key).unwrap() else {
        unreachable!()
    };
    assert!(tables.contains(&t));
    let (_, q) = question(&app, &cookie, key).await;
    let (st, _, log) = http(
        &app,
        "GET",
        &format!("/play/t/{t}/hands/{hand}.json"),
        Some(&cookie),
        &[],
    )
    .await;
    assert_eq!(st, 200);
    let log: table::log::HandLog = serde_json::from_str(&log).unwrap();
    let p = server::play::drills::position(&log, at).unwrap();
    assert_eq!(q["board"], p.board);
    assert_eq!(q["seat"], "E");
    for (i, s) in q["board"]["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(s.get("hand").is_some(), i == 0, "{s}");
    }
    assert_eq!(q["legal"], serde_json::to_value(&p.legal).unwrap());
    // Answered as she played then: wrong, with the expert's candidates, best first.
    let (st, a) = answer(&app, &cookie, key, &serde_json::to_value(p.played).unwrap()).await;
    assert_eq!(st, 200, "{a}");
    assert_eq!(a["grade"], 1, "{a}");
    assert_eq!(a["played"], serde_json::to_value(p.played).unwrap());
    let c = a["candidates"].as_array().unwrap();
    assert!(c.len() >= 2 && c[0]["move"] == a["best"], "{a}");
    assert!(
        c.iter()
            .any(|x| x["move"] == a["played"] && x["gives_up"].as_f64().unwrap() >= 1.0),
        "{a}"
    );
    assert_eq!(a["replay"], format!("/play/t/{t}/hands/{hand}"));
    // The field at that position: her own branch, with the move she made.
    let field = a["field"].as_array().unwrap();
    let hers = field.iter().find(|b| b["yours"] == true).unwrap();
    assert_eq!(hers["move"], a["played"], "{a}");

    // Someone else cannot open it.
    let (_, other) = person(&app, "Otto");
    let (st, e) = question(&app, &other, key).await;
    assert_eq!(st, 404, "{e}");

    // The director closes the challenge: its deal is public, its hand is looked through.
    common::close_challenge(&app, &dir).await;
    get(&app, "/play/drills/set.json", &cookie).await;
    assert!(app.store.mined_hands(me).unwrap().contains(&ch_hand));
}
