//! Every route over HTTP (in process): pages, bad input, and every authorisation rule.
//!
//! Longer than most files: it is one table of every route against every role, kept in one
//! place so that a route added without its rule shows up here.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use server::service::{create_event, parse_entrants, sitting};
use server::{router, App};
use store::SqliteStore;
use tower::ServiceExt;

/// A browser: one cookie jar.
struct Browser {
    app: Router,
    cookie: Option<String>,
}

struct Reply {
    status: StatusCode,
    location: Option<String>,
    body: String,
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl Browser {
    fn new(app: &App) -> Browser {
        Browser {
            app: router(app.clone()),
            cookie: None,
        }
    }

    async fn send(&mut self, req: Request<Body>) -> Reply {
        let res = self.app.clone().oneshot(req).await.unwrap();
        if let Some(c) = res.headers().get(header::SET_COOKIE) {
            let c = c.to_str().unwrap();
            let pair = c.split(';').next().unwrap().to_string();
            self.cookie = if c.contains("Max-Age=0") {
                None
            } else {
                Some(pair)
            };
        }
        let status = res.status();
        let location = res
            .headers()
            .get(header::LOCATION)
            .map(|l| l.to_str().unwrap().to_string());
        let body = res.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            location,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    async fn get(&mut self, path: &str) -> Reply {
        let mut r = Request::get(path);
        if let Some(c) = &self.cookie {
            r = r.header(header::COOKIE, c);
        }
        self.send(r.body(Body::empty()).unwrap()).await
    }

    async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        let mut r =
            Request::post(path).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(c) = &self.cookie {
            r = r.header(header::COOKIE, c);
        }
        self.send(r.body(Body::from(body.join("&"))).unwrap()).await
    }

    /// The token of the login form on `path` (its cookie is kept).
    async fn login_form(&mut self, path: &str) -> String {
        let page = self.get(path).await;
        let at = page
            .body
            .find("name=\"form\" value=\"")
            .expect("a login form with a token")
            + 19;
        page.body[at..].split('"').next().unwrap().to_string()
    }

    /// The cross-site token of the forms on `path`.
    async fn csrf(&mut self, path: &str) -> String {
        let page = self.get(path).await;
        let at = page
            .body
            .find("name=\"csrf\" value=\"")
            .expect("a form with a token")
            + 19;
        page.body[at..].split('"').next().unwrap().to_string()
    }
}

fn app() -> App {
    App::new(
        Arc::new(SqliteStore::in_memory().unwrap()),
        server::play::PlayConfig::default(),
    )
}

fn players16() -> String {
    (1..=16).map(|i| format!("Player {i}\n")).collect()
}

/// An app with a director password and one 16-player event (id 1).
fn app_with_event() -> App {
    let a = app();
    server::auth::set_director_password(a.store.as_ref(), "director pw", "test").unwrap();
    create_event(
        a.store.as_ref(),
        "Open",
        false,
        parse_entrants(&players16()).unwrap(),
        &table::set::SetKey::from_bytes([1; 32]),
        None,
        "test",
    )
    .unwrap();
    a
}

async fn director(a: &App) -> Browser {
    let mut b = Browser::new(a);
    let r = b.post("/login", &[("password", "director pw")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    b
}

async fn table(a: &App, t: u32) -> Browser {
    let code = a.store.event(1).unwrap().table_codes[t as usize - 1].clone();
    let mut b = Browser::new(a);
    let form = b.login_form("/events/1/table").await;
    let r = b
        .post(
            "/events/1/table",
            &[
                ("form", &form),
                ("table", &t.to_string()),
                ("code", &code.to_lowercase()),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    b
}

#[tokio::test]
async fn first_run_sets_the_password_and_director_pages_need_it() {
    let a = app();
    let mut b = Browser::new(&a);
    assert_eq!(b.get("/").await.status, StatusCode::OK);
    assert_eq!(b.get("/director").await.location.as_deref(), Some("/login"));
    assert_eq!(b.get("/login").await.location.as_deref(), Some("/setup"));
    assert_eq!(b.get("/setup").await.status, StatusCode::OK);
    let r = b.post("/setup", &[("password", "short")]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("at least 8"), "{}", r.body);
    let r = b.post("/setup", &[("password", "director pw")]).await;
    assert_eq!(r.location.as_deref(), Some("/director"));
    assert_eq!(b.get("/director").await.status, StatusCode::OK);
    // Once set, the first-run page cannot change it.
    let mut other = Browser::new(&a);
    assert_eq!(
        other
            .post("/setup", &[("password", "takeover pw")])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        other
            .post("/login", &[("password", "takeover pw")])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        other.get("/setup").await.location.as_deref(),
        Some("/login")
    );

    // Creating events: the token is required, bad input is named.
    let csrf = b.csrf("/director").await;
    let players = players16();
    let no_token = b
        .post(
            "/director/events",
            &[("name", "X"), ("players", &players), ("seed", "1")],
        )
        .await;
    assert_eq!(no_token.status, StatusCode::FORBIDDEN);
    let wrong = b
        .post(
            "/director/events",
            &[
                ("csrf", "forged"),
                ("name", "X"),
                ("players", &players),
                ("seed", "1"),
            ],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN);
    let fifteen: String = (1..=15).map(|i| format!("P{i}\n")).collect();
    let r = b
        .post(
            "/director/events",
            &[
                ("csrf", &csrf),
                ("name", "X"),
                ("players", &fifteen),
                ("seed", "1"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("15 players"), "{}", r.body);
    let r = b
        .post(
            "/director/events",
            &[
                ("csrf", &csrf),
                ("name", "X"),
                ("players", &players),
                ("key", "x"),
            ],
        )
        .await;
    assert!(
        r.body
            .contains("key: 64 hexadecimal digits, not &#39;x&#39;")
            || r.body.contains("key: 64 hexadecimal digits, not 'x'"),
        "{}",
        r.body
    );
    let r = b
        .post(
            "/director/events",
            &[
                ("csrf", &csrf),
                ("name", "Spring open"),
                ("players", &players),
            ],
        )
        .await;
    assert_eq!(r.location.as_deref(), Some("/director/events/1"));
    let page = b.get("/director/events/1").await.body;
    let e = a.store.event(1).unwrap();
    // A new secret set: its commitment and key are on the director's page, not elsewhere.
    let key = table::set::SetKey::parse(e.deal_key.as_deref().unwrap()).unwrap();
    assert!(page.contains(&key.commitment()) && page.contains(&key.hex()));
    let public = a.store.event(1).map(|_| ()).map(|_| key.hex()).unwrap();
    for path in ["/events/1/deals", "/events/1/standings", "/"] {
        let body = Browser::new(&a).get(path).await.body;
        assert!(!body.contains(&public), "{path} shows the key");
    }
    assert!(Browser::new(&a)
        .get("/events/1/deals")
        .await
        .body
        .contains(&key.commitment()));
    assert!(
        e.table_codes.iter().all(|c| page.contains(c.as_str())),
        "codes shown to the director"
    );
    // Logged out, director pages send to the login and posts are refused.
    let r = b.post("/logout", &[("csrf", &csrf)]).await;
    assert_eq!(r.location.as_deref(), Some("/"));
    assert_eq!(
        b.get("/director/events/1").await.location.as_deref(),
        Some("/login")
    );
    assert_eq!(
        b.post("/director/events/1/hide", &[("csrf", &csrf), ("hide", "1")])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn team_events_need_teams_of_four() {
    let a = app_with_event();
    let mut d = director(&a).await;
    let csrf = d.csrf("/director").await;
    let bad = "name,team\nA,Red\nB,Red\nC,Red\n";
    let r = d
        .post(
            "/director/events",
            &[
                ("csrf", &csrf),
                ("name", "T"),
                ("kind", "team"),
                ("players", bad),
                ("seed", "1"),
            ],
        )
        .await;
    assert!(
        r.body.contains("team &#39;Red&#39; has 3") || r.body.contains("team 'Red' has 3"),
        "{}",
        r.body
    );
    let mut ok = String::from("name,team\n");
    for t in ["Red", "Blue", "Green", "Gold"] {
        for m in 1..=4 {
            ok.push_str(&format!("{t} {m},{t}\n"));
        }
    }
    let r = d
        .post(
            "/director/events",
            &[
                ("csrf", &csrf),
                ("name", "Teams"),
                ("kind", "team"),
                ("players", &ok),
                ("seed", "1"),
            ],
        )
        .await;
    assert_eq!(r.location.as_deref(), Some("/director/events/2"));
    assert!(a.store.event(2).unwrap().team);
    let s = d.get("/events/2/standings").await.body;
    assert!(s.contains("<h2>Teams</h2>") && s.contains("Gold"), "{s}");
}

#[tokio::test]
async fn printables_exports_and_the_audit_trail() {
    let a = app_with_event();
    let mut anon = Browser::new(&a);
    for p in ["labels", "guides", "tables", "sheets", "slips", "standings"] {
        let r = anon.get(&format!("/director/events/1/print/{p}")).await;
        assert_eq!(
            r.location.as_deref(),
            Some("/login"),
            "{p} is for the director"
        );
    }
    assert_eq!(
        anon.get("/director/events/1/results.csv").await.status,
        StatusCode::FORBIDDEN
    );
    let mut d = director(&a).await;
    let labels = d.get("/director/events/1/print/labels").await.body;
    // 20 deals, each with the four seats' walls in label order.
    assert_eq!(labels.matches("<section class=\"deal\">").count(), 20);
    assert!(labels.contains("size: A4"));
    let guides = d.get("/director/events/1/print/guides").await.body;
    assert_eq!(guides.matches("class=\"card\"").count(), 16);
    let tables = d.get("/director/events/1/print/tables").await.body;
    let code = &a.store.event(1).unwrap().table_codes[2];
    assert!(tables.contains("Table 3") && tables.contains(code.as_str()));
    let sheets = d.get("/director/events/1/print/sheets").await.body;
    assert_eq!(sheets.matches("class=\"sheet\"").count(), 20);
    assert_eq!(
        d.get("/director/events/1/print/menus").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        d.get("/director/events/9").await.status,
        StatusCode::NOT_FOUND
    );
    let csv = d.get("/director/events/1/results.csv").await.body;
    assert!(csv.starts_with("deal,table,hand,result"));
    assert_eq!(
        d.get("/director/events/1/results.xml").await.status,
        StatusCode::NOT_FOUND
    );
    let audit = d.get("/director/events/1/audit").await.body;
    assert!(audit.contains("event created"));
}

#[tokio::test]
async fn tables_enter_their_own_deals_with_a_preview_and_conflicts_go_to_the_director() {
    let a = app_with_event();
    let mut t1 = table(&a, 1).await;
    let mut t1b = table(&a, 1).await; // a second phone at the same table
    let mut t2 = table(&a, 2).await;
    let mut anon = Browser::new(&a);
    // Codes are checked.
    let form = anon.login_form("/events/1/table").await;
    let r = anon
        .post(
            "/events/1/table",
            &[("form", &form), ("table", "1"), ("code", "WRONG")],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.body.contains("wrong code"), "{}", r.body);
    assert_eq!(
        anon.get("/events/1/table/1").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(t1.get("/events/1/table/1").await.status, StatusCode::OK);
    assert_eq!(
        t2.get("/events/1/table/1").await.status,
        StatusCode::FORBIDDEN
    );
    // Table 1 plays deal 1-1 in every hand of round 1; deal 1-2 is not played there.
    let form = "/events/1/table/1/deal/1-1/1";
    assert_eq!(
        t1.get("/events/1/table/1/deal/1-2/1").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(t2.get(form).await.status, StatusCode::FORBIDDEN);
    let csrf = t1.csrf(form).await;
    let csrf_b = t1b.csrf(form).await;
    let csrf2 = t2.csrf("/events/1/table/2/deal/1-2/1").await;
    // Table 2 cannot post table 1's result, even with its own token.
    let r = t2
        .post(
            form,
            &[
                ("csrf", &csrf2),
                ("version", "0"),
                ("step", "save"),
                ("kind", "draw"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t1
        .post(
            form,
            &[("version", "0"), ("step", "save"), ("kind", "draw")],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "no token");
    // Impossible entries.
    let r = t1
        .post(
            form,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("kind", "self"),
                ("winner", "S"),
                ("value", "7"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("at least 8"), "{}", r.body);
    let r = t1
        .post(
            form,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("kind", "discard"),
                ("discarder", "E"),
                ("win_E", "1"),
                ("value_E", "9"),
            ],
        )
        .await;
    assert!(
        r.body.contains("both the discarder and a winner"),
        "{}",
        r.body
    );
    let r = t1
        .post(
            form,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("kind", "self"),
                ("winner", "Q"),
                ("value", "9"),
            ],
        )
        .await;
    assert!(
        r.body.contains("winner: &#39;Q&#39;") || r.body.contains("winner: 'Q'"),
        "{}",
        r.body
    );
    // The preview shows every seat's match points before saving (rules §4: self-drawn 12
    // gives the winner 12 + 24 and each other seat −(4 + 8)).
    let r = t1
        .post(
            form,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("step", "preview"),
                ("kind", "self"),
                ("winner", "S"),
                ("value", "12"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body.contains("<td>S</td><td>")
            && r.body.contains("<td>36</td>")
            && r.body.contains("<td>-12</td>"),
        "{}",
        r.body
    );
    assert!(
        a.store.results(1).unwrap().is_empty(),
        "a preview saves nothing"
    );
    let r = t1
        .post(
            form,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("step", "save"),
                ("kind", "self"),
                ("winner", "S"),
                ("value", "12"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("id=\"saved\""), "{}", r.body);
    // The second phone loaded the empty form too: its different entry is a conflict.
    let r = t1b
        .post(
            form,
            &[
                ("csrf", &csrf_b),
                ("version", "0"),
                ("step", "save"),
                ("kind", "self"),
                ("winner", "S"),
                ("value", "16"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        a.store.results(1).unwrap()[0].points,
        [-12, 36, -12, -12],
        "not overwritten"
    );
    // The director sees it and decides.
    let mut d = director(&a).await;
    let page = d.get("/director/events/1").await.body;
    assert!(
        page.contains("class=\"conflict\"") && page.contains("S self-drawn 16"),
        "{page}"
    );
    let dcsrf = d.csrf("/director/events/1").await;
    let r = d
        .post(
            "/director/events/1/conflicts/1",
            &[("csrf", &dcsrf), ("accept", "0")],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(a.store.conflicts(1).unwrap().is_empty());
    assert_eq!(
        d.post(
            "/director/events/1/conflicts/1",
            &[("csrf", &dcsrf), ("accept", "1")]
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );

    // A win scored by the calculator: rules §1's hand won by East on South's discard is
    // 14 by S4 (see the CLI tests), so E gets 14 + 24 and S pays 14 + 8.
    let form2 = "/events/1/table/1/deal/1-1/2";
    let r = t1
        .post(
            form2,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("step", "preview"),
                ("kind", "discard"),
                ("discarder", "S"),
                ("win_E", "1"),
                ("hand_E", "[123m3][555p2][EEEE]789sPP"),
            ],
        )
        .await;
    assert!(
        r.body.contains("E 14 on S&#39;s discard") || r.body.contains("E 14 on S's discard"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("<td>38</td>") && r.body.contains("<td>-22</td>"),
        "{}",
        r.body
    );
    let r = t1
        .post(
            form2,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("kind", "discard"),
                ("discarder", "S"),
                ("win_E", "1"),
                ("value_E", "20"),
                ("hand_E", "[123m3][555p2][EEEE]789sPP"),
            ],
        )
        .await;
    assert!(
        r.body.contains("value 20 entered but the hand scores 14"),
        "{}",
        r.body
    );
    let r = t1
        .post(
            form2,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("kind", "discard"),
                ("discarder", "S"),
                ("win_E", "1"),
                ("hand_E", "123m"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn standings_give_the_imp_of_spec_5_and_can_be_hidden() {
    let a = app_with_event();
    let mut t1 = table(&a, 1).await;
    let csrf = t1.csrf("/events/1/table/1/deal/1-1/1").await;
    // Deal 1-1 at its four sittings: South self-draws 12 in hand 1, draws in hands 2–4.
    let sittings: [(u32, &[(&str, &str)]); 4] = [
        (1, &[("kind", "self"), ("winner", "S"), ("value", "12")]),
        (2, &[("kind", "draw")]),
        (3, &[("kind", "draw")]),
        (4, &[("kind", "draw")]),
    ];
    for (hand, fields) in sittings {
        let mut f = vec![("csrf", csrf.as_str()), ("version", "0"), ("step", "save")];
        f.extend_from_slice(fields);
        let r = t1
            .post(&format!("/events/1/table/1/deal/1-1/{hand}"), &f)
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    // South: 36, 0, 0, 0 → average 9; DIF +27 is 5 IMP, DIF −9 is −2 IMP.
    // The other seats: −12, 0, 0, 0 → average −3; DIF −9 → −2, DIF +3 → +1.
    let e = a.store.event(1).unwrap();
    let seat = |hand: u32, wind: usize| {
        let (_, tp) = sitting(&e.movement, "1-1", 1, hand).unwrap();
        tp.players_by_wind()[wind]
    };
    let mut anon = Browser::new(&a);
    let json: serde_json::Value =
        serde_json::from_str(&anon.get("/events/1/standings.json").await.body).unwrap();
    let imp_of = |p: u32| {
        json["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["player"] == p)
            .map(|l| l["imp"].as_i64().unwrap())
            .unwrap()
    };
    assert_eq!(imp_of(seat(1, 1)), 5);
    assert_eq!(imp_of(seat(1, 0)), -2);
    assert_eq!(imp_of(seat(2, 1)), -2);
    assert_eq!(imp_of(seat(2, 0)), 1);
    let deals = anon.get("/events/1/deals").await.body;
    assert!(
        deals.contains("<td>36</td><td>27</td><td>5</td>"),
        "{deals}"
    );
    let csv = anon.get("/events/1/standings.csv").await.body;
    assert!(
        csv.starts_with("rank,player,name,hands,ms,imp,penalty_imp\n1,"),
        "{csv}"
    );
    assert!(anon
        .get("/events/1/big")
        .await
        .body
        .contains("id=\"pager\">page 1 of 1 · 16 players"));
    assert!(anon
        .get("/events/1/standings")
        .await
        .body
        .contains("http-equiv=\"refresh\""));

    // Hidden: the public sees a notice, the director still sees them.
    let mut d = director(&a).await;
    let dcsrf = d.csrf("/director/events/1").await;
    d.post(
        "/director/events/1/hide",
        &[("csrf", &dcsrf), ("hide", "1")],
    )
    .await;
    let page = anon.get("/events/1/standings").await.body;
    assert!(
        page.contains("hidden") && !page.contains("id=\"standings\""),
        "{page}"
    );
    assert_eq!(
        anon.get("/events/1/standings.json").await.status,
        StatusCode::FORBIDDEN
    );
    assert!(!anon
        .get("/events/1/deals")
        .await
        .body
        .contains("<td>27</td>"));
    assert!(d
        .get("/events/1/standings")
        .await
        .body
        .contains("id=\"standings\""));

    // Penalties: an IMP deduction shows in the standings; bad input is named.
    let winner = seat(1, 1);
    let p = winner.to_string();
    let r = d
        .post(
            "/director/events/1/penalties",
            &[
                ("csrf", &dcsrf),
                ("player", &p),
                ("kind", "imp"),
                ("imp", "2"),
                ("reason", "late"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let json: serde_json::Value =
        serde_json::from_str(&d.get("/events/1/standings.json").await.body).unwrap();
    let line = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["player"] == winner)
        .unwrap()
        .clone();
    assert_eq!(
        (line["imp"].as_i64(), line["penalty_imp"].as_i64()),
        (Some(3), Some(2)),
        "{line}"
    );
    let r = d
        .post(
            "/director/events/1/penalties",
            &[
                ("csrf", &dcsrf),
                ("player", "99"),
                ("kind", "imp"),
                ("imp", "2"),
            ],
        )
        .await;
    assert!(r.body.contains("player 99"), "{}", r.body);
    let r = d
        .post(
            "/director/events/1/penalties",
            &[
                ("csrf", &dcsrf),
                ("player", "1"),
                ("kind", "jail"),
                ("imp", "2"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = d
        .post("/director/events/1/penalties/1/remove", &[("csrf", &dcsrf)])
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(a.store.penalties(1).unwrap().is_empty());

    // Swaps and replacements keep every result.
    let r = d
        .post(
            "/director/events/1/swap",
            &[("csrf", &dcsrf), ("a", "1"), ("b", "2"), ("round", "2")],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = d
        .post(
            "/director/events/1/swap",
            &[("csrf", &dcsrf), ("a", "1"), ("b", "1"), ("round", "2")],
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Player 3 has results: the director is asked first, then confirms.
    let r = d
        .post(
            "/director/events/1/player",
            &[("csrf", &dcsrf), ("player", "3"), ("name", "Substitute")],
        )
        .await;
    assert!(r.body.contains("id=\"confirm\""), "{}", r.body);
    let r = d
        .post(
            "/director/events/1/player",
            &[
                ("csrf", &dcsrf),
                ("player", "3"),
                ("name", "Substitute"),
                ("confirm", "1"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(a.store.results(1).unwrap().len(), 4);
    assert!(d
        .get("/events/1/standings")
        .await
        .body
        .contains("Substitute"));
}

#[tokio::test]
async fn players_sign_in_as_guests_or_accounts_and_forms_name_what_is_wrong() {
    let a = app();
    let mut g = Browser::new(&a);
    let lobby = g.get("/play").await;
    assert_eq!(lobby.status, StatusCode::OK);
    assert!(lobby.body.contains("action=\"/play/guest\""));
    // Opening a table needs a player.
    let r = g.post("/play/tables", &[("kind", "duplicate")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // A guest: a name is enough (but not an empty one).
    let r = g.post("/play/guest", &[("name", "  ")]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("name"), "{}", r.body);
    let r = g.post("/play/guest", &[("name", "Gus <b>")]).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.body.contains("&#39;&lt;&#39; (character 5") || r.body.contains("'&lt;' (character 5"),
        "named and escaped: {}",
        r.body
    );
    let r = g.post("/play/guest", &[("name", "Gus O'Neil")]).await;
    assert_eq!(r.location.as_deref(), Some("/play"));
    let lobby = g.get("/play").await;
    assert!(
        lobby.body.contains("Gus O&#39;Neil") || lobby.body.contains("Gus O&#39;Neil"),
        "escaped: {}",
        lobby.body
    );
    // Accounts: a password of 8 characters at least, names unique, the right password only.
    let mut h = Browser::new(&a);
    let r = h
        .post("/play/register", &[("name", "Hana"), ("password", "short")])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("password"), "{}", r.body);
    let r = h
        .post(
            "/play/register",
            &[("name", "Hana"), ("password", "long enough")],
        )
        .await;
    assert_eq!(r.location.as_deref(), Some("/play"));
    let mut i = Browser::new(&a);
    let r = i
        .post(
            "/play/register",
            &[("name", "hana"), ("password", "another one")],
        )
        .await;
    assert!(r.body.contains("already exists"), "{}", r.body);
    let r = i
        .post(
            "/play/login",
            &[("name", "HANA"), ("password", "wrong password")],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = i
        .post(
            "/play/login",
            &[("name", "HANA"), ("password", "long enough")],
        )
        .await;
    assert_eq!(r.location.as_deref(), Some("/play"));
    // The table form: each bad field is named, nothing is created.
    let csrf = g.csrf("/play").await;
    for (field, value, says) in [
        ("deals", "0", "deals: 1 to 64"),
        ("hands", "17", "hands: 1 to 16"),
        ("limit", "0", "limit: 1 to 600"),
        ("seed", "-3", "seed: '-3'"),
        ("p1", "grandmaster", "no bot called 'grandmaster'"),
        ("kind", "chess", "kind: 'chess'"),
        ("event", "99", "event 99"),
        ("practice", "event:99", "event 99"),
        ("practice", "challenge:x", "practice: 'challenge:x'"),
    ] {
        let kind = if field == "hands" {
            "regular"
        } else {
            "duplicate"
        };
        let mut fields = vec![("csrf", csrf.as_str()), ("place", "0")];
        if field != "kind" {
            fields.push(("kind", kind));
        }
        fields.push((field, value));
        let r = g.post("/play/tables", &fields).await;
        assert!(r.status.is_client_error(), "{field}: {}", r.status);
        // Pages escape the quote as &#39;.
        let body = r.body.replace("&#39;", "'");
        assert!(body.contains(says), "{field}: {}", r.body);
    }
    assert!(a.store.play_tables(false, 10).unwrap().is_empty());
    // Without the form's token nothing is opened either.
    let r = g.post("/play/tables", &[("kind", "duplicate")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_director_settles_several_conflicts_at_once_and_sees_each_rounds_board() {
    use tournament::entry::{Outcome, ScoreEntry};
    let a = app_with_event();
    let win = |value| ScoreEntry {
        outcome: Outcome::SelfDrawn {
            winner: mcr::Wind::South,
            value,
        },
        false_hu: vec![],
    };
    let s = a.store.as_ref();
    s.save_result(1, "1-1", 1, 1, &win(10), 0, "table 1, phone a")
        .unwrap();
    s.save_result(1, "1-2", 2, 1, &win(12), 0, "table 2, phone a")
        .unwrap();
    s.save_result(1, "1-1", 1, 1, &win(30), 0, "table 1, phone b")
        .unwrap();
    s.save_result(1, "1-2", 2, 1, &win(32), 0, "table 2, phone b")
        .unwrap();
    let mut d = director(&a).await;
    let page = d.get("/director/events/1").await.body;
    // Round 1: 2 of 16 sittings entered, both in conflict; table 3's first hand missing.
    assert!(page.contains("<td>2 of 16</td>"), "{page}");
    assert!(page.contains("t3 h1"), "{page}");
    assert!(
        page.contains("<td>0 of 16</td><td>not started</td>"),
        "{page}"
    );
    assert!(page.contains("<td>t1 h1, t2 h1</td>"), "{page}");
    let ids: Vec<i64> = a.store.conflicts(1).unwrap().iter().map(|c| c.id).collect();
    assert_eq!(ids.len(), 2);
    let csrf = d.csrf("/director/events/1").await;
    let none = d
        .post(
            "/director/events/1/conflicts",
            &[("csrf", &csrf), ("accept", "1")],
        )
        .await;
    assert_eq!(none.status, StatusCode::UNPROCESSABLE_ENTITY);
    let (c0, c1) = (format!("c{}", ids[0]), format!("c{}", ids[1]));
    let r = d
        .post(
            "/director/events/1/conflicts",
            &[("csrf", &csrf), ("accept", "1"), (&c0, "1"), (&c1, "1")],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(a.store.conflicts(1).unwrap().is_empty());
    let values: Vec<String> = a
        .store
        .results(1)
        .unwrap()
        .iter()
        .map(|r| r.entry.describe())
        .collect();
    assert!(
        values.iter().any(|v| v.contains("30")) && values.iter().any(|v| v.contains("32")),
        "{values:?}"
    );
}

#[tokio::test]
async fn replacing_or_swapping_players_with_results_asks_first_and_says_what_moves() {
    use tournament::entry::{Outcome, ScoreEntry};
    let a = app_with_event();
    let seats = &a.store.event(1).unwrap().movement.rounds[0].hands[0].tables[0].seats;
    let (p, q) = (seats[0].player, seats[1].player);
    let entry = ScoreEntry {
        outcome: Outcome::Draw,
        false_hu: vec![],
    };
    a.store
        .save_result(1, "1-1", 1, 1, &entry, 0, "table 1, phone a")
        .unwrap();
    let mut d = director(&a).await;
    let csrf = d.csrf("/director/events/1").await;
    let (ps, qs) = (p.to_string(), q.to_string());
    // Replacing player p: a page that names the result, nothing changed yet.
    let r = d
        .post(
            "/director/events/1/player",
            &[("csrf", &csrf), ("player", &ps), ("name", "Sub")],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body.contains("id=\"confirm\"") && r.body.contains("1-1 at table 1, hand 1"),
        "{}",
        r.body
    );
    assert_ne!(
        a.store.event(1).unwrap().players[p as usize - 1].name,
        "Sub"
    );
    // Confirmed (the page's own form re-posts with confirm=1).
    let r = d
        .post(
            "/director/events/1/player",
            &[
                ("csrf", &csrf),
                ("player", &ps),
                ("name", "Sub"),
                ("confirm", "1"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(
        a.store.event(1).unwrap().players[p as usize - 1].name,
        "Sub"
    );
    // Swapping p and q from round 2: no result there yet, no question.
    let r = d
        .post(
            "/director/events/1/swap",
            &[("csrf", &csrf), ("a", &ps), ("b", &qs), ("round", "2")],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    // From round 1: the entered sitting moves, so it asks.
    let r = d
        .post(
            "/director/events/1/swap",
            &[("csrf", &csrf), ("a", &ps), ("b", &qs), ("round", "1")],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("move with the seats"), "{}", r.body);
}

#[tokio::test]
async fn tables_enter_only_open_rounds_and_closing_a_round_logs_them_out() {
    let a = app_with_event();
    let mut t1 = table(&a, 1).await;
    let form = |deal: &str, hand: u32| format!("/events/1/table/1/deal/{deal}/{hand}");
    // A new event starts with round 1 open: the table sees it, not round 2.
    assert_eq!(t1.get(&form("1-1", 1)).await.status, StatusCode::OK);
    let r = t1.get(&form("2-1", 1)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.body.contains("round 2 is not open yet"), "{}", r.body);
    let list = t1.get("/events/1/table/1").await.body;
    assert!(
        list.contains("/deal/1-1/1") && !list.contains("/deal/2-1/1"),
        "{list}"
    );
    // The director opens round 2 and closes round 1.
    let mut d = director(&a).await;
    let csrf = d.csrf("/director/events/1").await;
    for (round, open) in [("2", "1"), ("1", "0")] {
        let r = d
            .post(
                &format!("/director/events/1/rounds/{round}"),
                &[("csrf", &csrf), ("open", open)],
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER);
    }
    assert_eq!(
        a.store.round_states(1).unwrap(),
        vec![(1, false), (2, true)]
    );
    // Closing a round ended the table's session.
    assert_eq!(t1.get(&form("2-1", 1)).await.status, StatusCode::FORBIDDEN);
    let mut t1 = table(&a, 1).await;
    assert_eq!(t1.get(&form("2-1", 1)).await.status, StatusCode::OK);
    let r = t1.get(&form("1-1", 1)).await;
    assert!(r.body.contains("round 1 is closed"), "{}", r.body);
    // The director still enters round 1.
    assert_eq!(d.get(&form("1-1", 1)).await.status, StatusCode::OK);
    let page = d.get("/director/events/1").await.body;
    assert!(
        page.contains("closed") && page.contains(">reopen<"),
        "{page}"
    );
    // New codes: the old one no longer logs in, the new one does.
    let old = a.store.event(1).unwrap().table_codes[0].clone();
    let r = d.post("/director/events/1/codes", &[("csrf", &csrf)]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let new = a.store.event(1).unwrap().table_codes[0].clone();
    assert_ne!(old, new);
    assert_eq!(t1.get(&form("2-1", 1)).await.status, StatusCode::FORBIDDEN);
    let mut phone = Browser::new(&a);
    let token = phone.login_form("/events/1/table").await;
    let r = phone
        .post(
            "/events/1/table",
            &[("form", &token), ("table", "1"), ("code", &old)],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        table(&a, 1).await.get(&form("2-1", 1)).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_phone_form_names_the_players_shows_the_saved_result_and_offers_the_next_sitting() {
    let a = app_with_event();
    let mut t1 = table(&a, 1).await;
    let path = "/events/1/table/1/deal/1-1/1";
    let csrf = t1.csrf(path).await;
    let page = t1.get(path).await.body;
    // The seat choices carry the players' names.
    let e = a.store.event(1).unwrap();
    let tp = &e.movement.rounds[0].hands[0].tables[0];
    let south = tp
        .seats
        .iter()
        .find(|x| x.wind == mcr::Wind::South)
        .unwrap()
        .player;
    let name = &e.players[south as usize - 1].name;
    assert!(
        page.contains(&format!("<option value=\"S\">S — {south} {name}</option>")),
        "{page}"
    );
    // A win on a discard by S and W (E discarded), saved …
    let r = t1
        .post(
            path,
            &[
                ("csrf", &csrf),
                ("version", "0"),
                ("step", "save"),
                ("kind", "discard"),
                ("discarder", "E"),
                ("win_S", "1"),
                ("value_S", "12"),
                ("win_W", "1"),
                ("value_W", "9"),
                ("fhu_N", "1"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // … offers the table's next sitting …
    assert!(
        r.body
            .contains("id=\"next\" href=\"/events/1/table/1/deal/1-1/2\""),
        "{}",
        r.body
    );
    // … and the form shows it again when edited.
    let page = t1.get(path).await.body;
    assert!(page.contains("value=\"discard\" checked"), "{page}");
    assert!(page.contains("<option value=\"E\" selected>"), "{page}");
    assert!(
        page.contains("name=\"win_S\" value=\"1\" checked"),
        "{page}"
    );
    assert!(
        page.contains("name=\"value_S\" type=\"number\" min=\"8\" size=\"4\" value=\"12\""),
        "{page}"
    );
    assert!(
        page.contains("name=\"value_W\" type=\"number\" min=\"8\" size=\"4\" value=\"9\""),
        "{page}"
    );
    assert!(
        page.contains("name=\"fhu_N\" value=\"1\" checked"),
        "{page}"
    );
    assert!(
        !page.contains("name=\"win_N\" value=\"1\" checked"),
        "{page}"
    );
}
