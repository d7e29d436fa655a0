//! HTTP side of online play: sign-in (guest or account), the lobby, opening a table, the
//! table page and its WebSocket, and the replay viewer. Pages come from templates with
//! automatic HTML escaping; the browser code is plain ES modules served from `assets/`.

pub mod challenges;
pub mod events;
pub mod lobby;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use futures_util::{SinkExt, StreamExt};
use minijinja::context;
use serde::Deserialize;
use serde_json::json;
use store::{Person, Role, Session};
use table::log::{start_of, HandLog};
use tokio::sync::mpsc;

use crate::auth::{
    check_csrf, clear_cookie, hash_password, session_of, start_session, verify_password,
};
use crate::guard::Client;
use crate::service::{AppError, AppResult};
use crate::web::{App, Fields, Page};
use play::actor::{ClientMsg, Cmd};
use play::room::HandSummary;
use play::secrecy::{hand_sight, table_sight, Sight, Viewer};
use play::spec::{DealRef, Hands, Place, Practice, TableSpec};
use play::view::{board, win_json, Eye};

/// Largest message a browser may send (a move is under 100 bytes).
const MAX_MESSAGE: usize = 4096;

pub(crate) use crate::web::pages::render;

/// The players' routes: signing in, the lobby, tables, replays, challenges, online events,
/// and the browser code.
pub fn routes() -> axum::Router<App> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/play", get(lobby::lobby))
        .route("/play/guest", post(guest))
        .route("/play/login", post(login))
        .route("/play/register", post(register))
        .route("/play/logout", post(logout))
        .route("/play/tables", post(open_table))
        .route("/play/t/{id}", get(table_page))
        .route("/play/t/{id}/ws", get(socket))
        .route("/play/t/{id}/set.json", get(set_json))
        .route("/play/t/{id}/hands/{n}", get(hand_log_or_page))
        .route("/play/t/{id}/hands/{n}/step", get(replay_step))
        .route("/assets/{name}", get(asset))
        .route("/play/c", get(challenges::list).post(challenges::publish))
        .route("/play/c/{id}", get(challenges::page))
        .route("/play/c/{id}/play", post(challenges::play))
        .route("/play/c/{id}/close", post(challenges::close))
        .route("/play/c/{id}/deal/{n}", get(challenges::deal))
        .route("/play/c/{id}/reveal.json", get(challenges::reveal))
        .route("/play/e/{id}", get(events::page))
        .route("/play/e/{id}/join/{token}", get(events::join))
}

/// The browser code and style, compiled into the binary.
pub async fn asset(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "play.js" => (include_str!("../../../assets/play.js"), "text/javascript"),
        "board.js" => (include_str!("../../../assets/board.js"), "text/javascript"),
        "tiles.js" => (include_str!("../../../assets/tiles.js"), "text/javascript"),
        "replay.js" => (include_str!("../../../assets/replay.js"), "text/javascript"),
        "play.css" => (include_str!("../../../assets/play.css"), "text/css"),
        _ => return (StatusCode::NOT_FOUND, "no such file").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The signed-in player, if any.
pub fn player(app: &App, headers: &HeaderMap) -> AppResult<Option<(Session, Person)>> {
    match session_of(app.store.as_ref(), headers)? {
        Some(s) => match s.role {
            Role::Player { person } => {
                let p = app.store.person(person)?;
                Ok(Some((s, p)))
            }
            _ => Ok(None),
        },
        None => Ok(None),
    }
}

/// Who is asking, as the secrecy rule knows them.
pub fn viewer_of(app: &App, headers: &HeaderMap) -> AppResult<Viewer> {
    Ok(
        match session_of(app.store.as_ref(), headers)?.map(|s| s.role) {
            Some(Role::Director) => Viewer::Director,
            Some(Role::Player { person }) => Viewer::Person(person),
            _ => Viewer::Anonymous,
        },
    )
}

fn with_cookie(cookie: String, to: &str) -> Response {
    ([(header::SET_COOKIE, cookie)], Redirect::to(to)).into_response()
}

/// `?next=/play/…`: where to go after signing in.
#[derive(Deserialize)]
pub struct Back {
    #[serde(default)]
    next: Option<String>,
}

/// Only paths of this site are followed after signing in.
fn next_path(b: &Back) -> String {
    match &b.next {
        Some(n) if n.starts_with("/play") && !n.starts_with("//") => n.clone(),
        _ => "/play".into(),
    }
}

/// `POST /play/guest`: signs in as a guest under the name given.
pub async fn guest(
    State(app): State<App>,
    client: Client,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let name = play::names::check(f.get("name").map(String::as_str).unwrap_or(""))
        .map_err(AppError::Invalid)?;
    app.guards.newcomer(&client)?;
    let person = app.store.create_person(&name, None)?;
    let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
    Ok(with_cookie(cookie, &next_path(&b)))
}

/// `POST /play/register`: creates an account (name and password) and signs in.
pub async fn register(
    State(app): State<App>,
    client: Client,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let name = play::names::check(f.get("name").map(String::as_str).unwrap_or(""))
        .map_err(AppError::Invalid)?;
    app.guards.newcomer(&client)?;
    let password = f.get("password").cloned().unwrap_or_default();
    let hash = app
        .guards
        .hash_job(move || hash_password(&password))
        .await??;
    let person = app.store.create_person(&name, Some(&hash))?;
    let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
    Ok(with_cookie(cookie, &next_path(&b)))
}

/// `POST /play/login`: signs in to an account. Wrong passwords count against the client's
/// address as the director's do.
pub async fn login(
    State(app): State<App>,
    client: Client,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let key = format!("password:{}", client.0);
    if let Err(wait) = app.guards.password.check(&key) {
        tracing::warn!(client = %client.0, "player login refused: too many wrong passwords");
        return Err(AppError::Limited(format!(
            "too many wrong passwords from this address: try again in {wait} s"
        )));
    }
    let name = f.get("name").map(|s| s.trim()).unwrap_or("");
    let password = f.get("password").cloned().unwrap_or_default();
    let found = app.store.account(name)?;
    let person = match found {
        Some((p, hash)) => {
            let ok = app
                .guards
                .hash_job(move || verify_password(&password, &hash))
                .await?;
            ok.then_some(p)
        }
        None => None,
    };
    let Some(person) = person else {
        app.guards.password.fail(&key);
        tracing::warn!(client = %client.0, "player login failed");
        return Err(AppError::Forbidden(
            "no account with that name and password".into(),
        ));
    };
    let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
    Ok(with_cookie(cookie, &next_path(&b)))
}

/// `POST /play/logout`: signs out.
pub async fn logout(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    if let Some((s, _)) = player(&app, &headers)? {
        check_csrf(&s, f.get("csrf"))?;
        app.store.end_session(&s.token)?;
    }
    Ok(with_cookie(clear_cookie(), "/play"))
}

/// A form number in a range, naming the field when it is not.
pub(crate) fn num<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    f: &Fields,
    name: &str,
    default: T,
    lo: T,
    hi: T,
) -> AppResult<T> {
    let v = match f.get(name).map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => default,
        Some(s) => s
            .parse()
            .map_err(|_| AppError::Invalid(format!("{name}: '{s}' is not a number")))?,
    };
    if v < lo || v > hi {
        return Err(AppError::Invalid(format!("{name}: {lo} to {hi}, not {v}")));
    }
    Ok(v)
}

/// A new secret key for a table's own deal set.
pub(crate) fn new_key() -> table::set::SetKey {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the system has randomness");
    table::set::SetKey::from_bytes(b)
}

/// The deals of a released set a form names (`event:3`, `challenge:5`): their seeds and
/// labels, and where they come from.
fn practice_deals(app: &App, from: &str, count: usize) -> AppResult<(Vec<DealRef>, Practice)> {
    let bad = || {
        AppError::Invalid(format!(
            "practice: '{}' is neither event:N nor challenge:N",
            from.chars().take(40).collect::<String>()
        ))
    };
    let (kind, id) = from.split_once(':').ok_or_else(bad)?;
    let id: i64 = id.trim().parse().map_err(|_| bad())?;
    match kind {
        "event" => {
            let ev = app.store.event(id)?;
            if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Event(id))? {
                return Err(AppError::Forbidden(format!(
                    "event {id}: its deals are not released for practice (its director releases them after the event)"
                )));
            }
            let deals = ev
                .movement
                .deal_names()
                .into_iter()
                .enumerate()
                .take(count)
                .map(|(i, label)| DealRef {
                    seed: ev.deal_seed(i),
                    label,
                })
                .collect();
            Ok((deals, Practice::Event { id }))
        }
        "challenge" => {
            let c = play::challenge::load(&app.hall, id)?;
            if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Challenge(id))? {
                return Err(AppError::Forbidden(format!(
                    "challenge {id}: its deals are shown once it has closed and its last hand is over"
                )));
            }
            let deals = (0..c.spec.deals.min(count))
                .map(|i| DealRef {
                    seed: c.spec.deal_seed(i),
                    label: (i + 1).to_string(),
                })
                .collect();
            Ok((deals, Practice::Challenge { id }))
        }
        _ => Err(bad()),
    }
}

/// The table a form describes. Without a seed its deals (or walls) come from a new secret
/// set of its own; with a seed, or from a released set, it is a practice table whose deals
/// anyone may know.
pub fn spec_from_form(app: &App, f: &Fields, owner: i64) -> AppResult<TableSpec> {
    let place: usize = num(f, "place", 0, 0, 3)?;
    let places: [Place; 4] = std::array::from_fn(|p| {
        if p == place {
            return Place::Person;
        }
        match f.get(&format!("p{p}")).map(|s| s.trim()) {
            Some("person") => Place::Person,
            Some(level) if !level.is_empty() => Place::Bot {
                level: level.to_string(),
            },
            _ => Place::Bot {
                level: "strong".into(),
            },
        }
    });
    let seed: Option<u64> = match f.get("seed").map(|s| s.trim()).filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(
            s.parse()
                .map_err(|_| AppError::Invalid(format!("seed: '{s}' is not a whole number")))?,
        ),
    };
    // The older form named an event: practice from that event's released deals.
    let field = |n: &str| f.get(n).map(|s| s.trim()).filter(|s| !s.is_empty());
    let from = field("practice")
        .map(String::from)
        .or_else(|| field("event").map(|e| format!("event:{e}")));
    let key = new_key();
    let mut deals_key = None;
    let mut practice = None;
    let hands = match f.get("kind").map(|s| s.as_str()) {
        Some("regular") => {
            let hands = num(f, "hands", 16usize, 1, 16)?;
            match seed {
                Some(seed) => {
                    if seed.checked_add(hands as u64).is_none() {
                        return Err(AppError::Invalid(format!("seed: {seed} is too large")));
                    }
                    practice = Some(Practice::Seed);
                    Hands::Regular { seed, hands }
                }
                None => {
                    deals_key = Some(key.hex());
                    Hands::Regular {
                        seed: key.seed(0),
                        hands,
                    }
                }
            }
        }
        Some("duplicate") | None => {
            let count = num(f, "deals", 4usize, 1, play::spec::MAX_DEALS)?;
            let deals = match (&from, seed) {
                (Some(from), _) => {
                    let (deals, p) = practice_deals(app, from, count)?;
                    practice = Some(p);
                    deals
                }
                (None, Some(seed)) => {
                    if seed.checked_add(count as u64).is_none() {
                        return Err(AppError::Invalid(format!("seed: {seed} is too large")));
                    }
                    practice = Some(Practice::Seed);
                    (0..count)
                        .map(|i| DealRef {
                            seed: seed + i as u64,
                            label: (i + 1).to_string(),
                        })
                        .collect()
                }
                (None, None) => {
                    deals_key = Some(key.hex());
                    (0..count)
                        .map(|i| DealRef {
                            seed: key.seed(i),
                            label: (i + 1).to_string(),
                        })
                        .collect()
                }
            };
            Hands::Duplicate { deals }
        }
        Some(k) => {
            return Err(AppError::Invalid(format!(
                "kind: '{k}' is neither duplicate nor regular"
            )))
        }
    };
    let spec = TableSpec {
        hands,
        places,
        owner,
        owner_place: place,
        limit_s: num(f, "limit", 15, 1, play::spec::MAX_LIMIT_S)?,
        bank_s: num(f, "bank", 30, 0, play::spec::MAX_BANK_S)?,
        challenge: None,
        sitting: None,
        deals_key,
        practice,
        rules_version: None,
    };
    let spec = TableSpec {
        rules_version: TableSpec::current_rules_version(&spec.hands),
        ..spec
    };
    spec.check().map_err(AppError::Invalid)?;
    Ok(spec)
}

/// `POST /play/tables`: opens a table from the lobby's form and goes to it.
pub async fn open_table(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let (s, me) = player(&app, &headers)?.ok_or_else(|| {
        AppError::Forbidden("sign in (as a guest or with an account) first".into())
    })?;
    check_csrf(&s, f.get("csrf"))?;
    app.hall.check_table_limit(&me).map_err(AppError::Limited)?;
    let spec = spec_from_form(&app, &f, me.id)?;
    let id = app
        .hall
        .open_table(spec, &play::names::shown(&me))
        .map_err(AppError::Invalid)?;
    Ok(Redirect::to(&format!("/play/t/{id}")).into_response())
}

/// `GET /play/t/{id}`: the table's page (its script connects to the socket).
pub async fn table_page(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let viewer = viewer_of(&app, &headers)?;
    let stored = app.store.play_table(id)?;
    let spec: TableSpec = serde_json::from_str(&stored.spec)
        .map_err(|e| AppError::Internal(format!("table {id}: {e}")))?;
    let mut hands = Vec::new();
    for h in app.store.hands_of_table(id)? {
        let Ok(s) = serde_json::from_str::<HandSummary>(&h.summary) else {
            continue;
        };
        if hand_sight(&app.hall, id, &spec, s.hand_no, viewer)?.shown() {
            hands.push(
                json!({"no": s.hand_no, "label": s.label, "points": s.points, "names": s.names}),
            );
        }
    }
    if let Sight::Hidden(why) = table_sight(&app.hall, &spec, viewer, None)? {
        // A table that may not be watched still shows the finished hands open to you.
        if hands.is_empty() {
            return Err(AppError::Forbidden(why));
        }
    }
    render(
        "players/table.html",
        context! {
            title => format!("Table {id}"),
            id => id,
            what => crate::i18n::describe_table(&spec),
            me => me.as_ref().map(|(_, p)| json!({"id": p.id, "name": p.name})),
            csrf => me.as_ref().map(|(s, _)| s.csrf.clone()),
            hands => hands,
            set => match spec.key() {
                Some(k) => Some(json!({
                    "commitment": k.commitment(),
                    "released": play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Table(id))?,
                })),
                None => None,
            },
            back => match (&spec.challenge, &spec.sitting) {
                (Some(c), _) if !c.par => Some(json!({"href": format!("/play/c/{}", c.id), "text": "back to the challenge"})),
                (_, Some(s)) => Some(json!({"href": format!("/play/e/{}", s.event), "text": "back to the event"})),
                _ => None,
            },
        },
    )
}

/// `GET /play/t/{id}/set.json`: the table's own deal set with its key, once the table is
/// over (before, the commitment only).
pub async fn set_json(State(app): State<App>, Path(id): Path<i64>) -> Page {
    let stored = app.store.play_table(id)?;
    let spec: TableSpec = serde_json::from_str(&stored.spec)
        .map_err(|e| AppError::Internal(format!("table {id}: {e}")))?;
    let Some(key) = spec.key() else {
        return Err(AppError::NotFound(format!(
            "table {id} has no deal set of its own (it plays practice deals, or a challenge's or an event's)"
        )));
    };
    if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Table(id))? {
        return Err(AppError::Forbidden(format!(
            "table {id} is still playing: its key is published when it is over; committed to: {}",
            key.commitment()
        )));
    }
    let (kind, labels): (table::set::SetKind, Vec<String>) = match &spec.hands {
        Hands::Duplicate { deals } => (
            table::set::SetKind::Duplicate,
            deals.iter().map(|d| d.label.clone()).collect(),
        ),
        Hands::Regular { hands, .. } => (
            table::set::SetKind::Regular,
            (1..=*hands).map(|i| i.to_string()).collect(),
        ),
    };
    let r = table::set::reveal(&format!("table {id}"), kind, &key, &labels);
    let body = serde_json::to_string_pretty(&r).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// Refuses a WebSocket opened from another site's page (cookies would go with it).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true; // not a browser
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest == host)
}

/// `GET /play/t/{id}/ws`: the table's WebSocket (same origin only).
pub async fn socket(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Page {
    if !same_origin(&headers) {
        return Err(AppError::Forbidden(
            "this table cannot be opened from another site".into(),
        ));
    }
    let who = player(&app, &headers)?.map(|(_, p)| (p.id, play::names::shown(&p)));
    let viewer = viewer_of(&app, &headers)?;
    let spec = table_spec(&app, id)?;
    if let Sight::Hidden(why) = table_sight(&app.hall, &spec, viewer, None)? {
        return Err(AppError::Forbidden(why));
    }
    let room = app.hall.room(id).map_err(AppError::NotFound)?;
    let conn = app.hall.conn_id();
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| connection(socket, room, conn, who, viewer))
        .into_response())
}

/// Pumps one WebSocket: states out, moves in.
async fn connection(
    socket: WebSocket,
    room: mpsc::UnboundedSender<Cmd>,
    conn: u64,
    who: play::actor::Who,
    viewer: Viewer,
) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<String>(64);
    // Weak, so that the channel closes when the table lets go of this connection.
    let errors = tx.downgrade();
    if room
        .send(Cmd::Join {
            conn,
            who,
            viewer,
            tx,
        })
        .is_err()
    {
        return;
    }
    // When the table drops this connection (too slow to keep up), the sending half ends
    // and the socket is closed, so that the browser reconnects and gets the whole state.
    let mut out = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.into())).await.is_err() {
                break;
            }
        }
    });
    loop {
        let m = tokio::select! {
            m = stream.next() => m,
            _ = &mut out => break,
        };
        let text = match m {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            Some(Ok(_)) => continue,
        };
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(msg) => {
                if room.send(Cmd::Client { conn, msg }).is_err() {
                    break;
                }
            }
            Err(e) => {
                if let Some(tx) = errors.upgrade() {
                    let _ = tx.try_send(
                        json!({"type": "error", "message": format!("message not understood: {e}")})
                            .to_string(),
                    );
                }
            }
        }
    }
    let _ = room.send(Cmd::Leave { conn });
    out.abort();
}

fn table_spec(app: &App, id: i64) -> AppResult<TableSpec> {
    let stored = app.store.play_table(id)?;
    serde_json::from_str(&stored.spec).map_err(|e| AppError::Internal(format!("table {id}: {e}")))
}

/// The views of a finished hand someone may have (seat letters, `all` included when the
/// hand is open to them).
fn hand_views(app: &App, id: i64, n: u32, viewer: Viewer) -> AppResult<Vec<&'static str>> {
    let spec = table_spec(app, id)?;
    match hand_sight(&app.hall, id, &spec, n as usize, viewer)? {
        Sight::Open => Ok(vec!["E", "S", "W", "N", "all"]),
        Sight::Seat(w) => Ok(vec![["E", "S", "W", "N"][w.index()]]),
        Sight::Watch => Err(AppError::Forbidden(format!(
            "hand {n} of table {id} is open to its players only"
        ))),
        Sight::Hidden(why) => Err(AppError::Forbidden(why)),
    }
}

fn stored_hand(app: &App, id: i64, n: u32) -> AppResult<(store::StoredHand, HandLog)> {
    let h = app
        .store
        .hands_of_table(id)?
        .into_iter()
        .find(|h| h.hand_no == n)
        .ok_or_else(|| AppError::NotFound(format!("table {id} has no finished hand {n}")))?;
    let log: HandLog = serde_json::from_str(&h.log)
        .map_err(|e| AppError::Internal(format!("hand {n} of table {id}: {e}")))?;
    Ok((h, log))
}

/// `/play/t/{id}/hands/{n}`: the replay viewer, or with `.json` the hand's log.
pub async fn hand_log_or_page(
    State(app): State<App>,
    Path((id, n)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Page {
    let viewer = viewer_of(&app, &headers)?;
    if let Some(num) = n.strip_suffix(".json") {
        let num: u32 = num
            .parse()
            .map_err(|_| AppError::NotFound(format!("no hand '{n}'")))?;
        if !hand_views(&app, id, num, viewer)?.contains(&"all") {
            return Err(AppError::Forbidden(format!(
                "the log of hand {num} of table {id} holds every seat's tiles: it is shown once everyone has played the deal"
            )));
        }
        let (h, _) = stored_hand(&app, id, num)?;
        return Ok(([(header::CONTENT_TYPE, "application/json")], h.log).into_response());
    }
    let n: u32 = n
        .parse()
        .map_err(|_| AppError::NotFound(format!("no hand '{n}'")))?;
    let views = hand_views(&app, id, n, viewer)?;
    replay_page(&app, id, n, views)
}

fn replay_page(app: &App, id: i64, n: u32, views: Vec<&'static str>) -> Page {
    let (h, _) = stored_hand(app, id, n)?;
    let s: HandSummary =
        serde_json::from_str(&h.summary).map_err(|e| AppError::Internal(e.to_string()))?;
    render(
        "players/replay.html",
        context! {
            title => format!("Table {id}, hand {n}"),
            id => id,
            n => n,
            label => s.label,
            names => s.names,
            views => views,
        },
    )
}

/// `?view=E&at=12` on a replay step: the seat (or `all` once public) and the event number.
#[derive(Deserialize)]
pub struct StepQuery {
    view: String,
    at: usize,
}

/// One moment of a finished hand, from one seat's eyes or with every hand open.
pub async fn replay_step(
    State(app): State<App>,
    Path((id, n)): Path<(i64, u32)>,
    Query(q): Query<StepQuery>,
    headers: HeaderMap,
) -> Page {
    let views = hand_views(&app, id, n, viewer_of(&app, &headers)?)?;
    if !views.contains(&q.view.as_str()) {
        return Err(AppError::Forbidden(format!(
            "view: '{}' is not open to you for this hand (you may have {})",
            q.view,
            views.join(", ")
        )));
    }
    let (h, log) = stored_hand(&app, id, n)?;
    let s: HandSummary =
        serde_json::from_str(&h.summary).map_err(|e| AppError::Internal(e.to_string()))?;
    let eye =
        match q.view.as_str() {
            "all" => Eye::Open,
            v => Eye::Seat(mcr::Wind::parse(v).ok_or_else(|| {
                AppError::Invalid(format!("view: '{v}' is not E, S, W, N or all"))
            })?),
        };
    let mut table = start_of(&log).map_err(|e| AppError::Internal(e.to_string()))?;
    let at = q.at.min(log.actions.len());
    for d in &log.actions[..at] {
        table
            .apply(d.seat, d.action)
            .map_err(|e| AppError::Internal(e.to_string()))?;
    }
    let mut out = json!({
        "total": log.actions.len(),
        "at": at,
        "names": s.names,
        "board": board(&table, eye),
    });
    if let Some(r) = table.result() {
        out["result"] = json!({
            "kind": r.kind,
            "wins": r.wins.iter().map(win_json).collect::<Vec<_>>(),
            "points": r.points,
        });
    }
    // The coming move, when this view may know it before it is made.
    if let Some(d) = log
        .actions
        .get(at)
        .filter(|d| eye == Eye::Open || eye == Eye::Seat(d.seat))
    {
        out["next"] = json!({"seat": d.seat, "action": d.action.to_string()});
    }
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        out.to_string(),
    )
        .into_response())
}
