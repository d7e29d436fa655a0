//! The director's pages: first-run password, login, events, seating changes, conflicts,
//! penalties, printables, exports and the audit trail.

pub mod day;
pub mod deals;
pub mod print;

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use store::{Entrant, EventId, Role, Session};
use tournament::export::csv_field;
use tournament::standings::{Penalty, PenaltyKind};

use crate::auth::{clear_cookie, start_session, verify_password};
use crate::guard::Client;
use crate::service::{create_event as make_event, parse_entrants_for, AppError, AppResult};
use crate::web::to_login;
use crate::web::{
    csrf_field, data, director_or_login, director_post, esc, field, html, number, short_field, App,
    Fields, Page,
};

/// Longest event name accepted, in characters.
const MAX_EVENT_NAME: usize = 120;
/// Longest player or team name accepted (as in an entrant list).
pub(super) const MAX_NAME: usize = 80;
/// Longest penalty reason accepted.
const MAX_NOTE: usize = 500;

fn redirect_with_cookie(to: &str, cookie: String) -> Response {
    ([(header::SET_COOKIE, cookie)], Redirect::to(to)).into_response()
}

/// `GET /setup`: the first-run form for the director password (to `/login` once one is set).
pub async fn setup_page(State(app): State<App>) -> Page {
    if app.store.director_hash()?.is_some() {
        return Ok(Redirect::to("/login").into_response());
    }
    Ok(html(
        StatusCode::OK,
        "First run: director password",
        "<form method=\"post\" action=\"/setup\"><p><label>Password (8 characters or more) <input type=\"password\" name=\"password\" required minlength=\"8\"></label></p><button>Set password</button></form>",
    ))
}

/// `POST /setup`: sets the first director password and logs the director in. Only from
/// the server's own machine (anyone on the venue's network could otherwise take the event
/// before the organiser does), and only once: two posts at the same moment set one password.
pub async fn setup(State(app): State<App>, client: Client, Form(f): Form<Fields>) -> Page {
    if !app.guards.is_local(&client) {
        tracing::warn!(client = %client.0, "first-run setup refused: not from this machine");
        return Err(AppError::Forbidden(
            "the first director password is set from the server's own machine (http://127.0.0.1:…/setup) or with `dupmj password`".into(),
        ));
    }
    let password = field(&f, "password")?.to_string();
    let hash = app
        .guards
        .hash_job(move || crate::auth::hash_password(&password))
        .await??;
    if !app.store.set_first_director_hash(&hash, "first run")? {
        return Err(AppError::Forbidden(
            "the director password is already set (change it with `dupmj password`)".into(),
        ));
    }
    tracing::info!(client = %client.0, "director password set at first run");
    let (_, cookie) = start_session(app.store.as_ref(), Role::Director)?;
    Ok(redirect_with_cookie("/director", cookie))
}

/// `GET /login`: the director's login form (to `/setup` while no password is set).
pub async fn login_page(State(app): State<App>) -> Page {
    if app.store.director_hash()?.is_none() {
        return Ok(Redirect::to("/setup").into_response());
    }
    Ok(html(
        StatusCode::OK,
        "Director login",
        "<form method=\"post\" action=\"/login\"><p><label>Password <input type=\"password\" name=\"password\" required></label></p><button>Log in</button></form>",
    ))
}

/// `POST /login`: checks the director password and starts a session. Wrong passwords are
/// counted per client address: past the limit the address waits (and it is logged).
pub async fn login(State(app): State<App>, client: Client, Form(f): Form<Fields>) -> Page {
    let key = format!("password:{}", client.0);
    if let Err(wait) = app.guards.password.check(&key) {
        tracing::warn!(client = %client.0, "director login refused: too many wrong passwords");
        return Err(AppError::Limited(format!(
            "too many wrong passwords from this address: try again in {wait} s"
        )));
    }
    let hash = app
        .store
        .director_hash()?
        .ok_or_else(|| AppError::Forbidden("no director password yet: open /setup".into()))?;
    let password = f.get("password").cloned().unwrap_or_default();
    if !app
        .guards
        .hash_job(move || verify_password(&password, &hash))
        .await?
    {
        app.guards.password.fail(&key);
        tracing::warn!(client = %client.0, "director login failed: wrong password");
        return Err(AppError::Forbidden("wrong password".into()));
    }
    tracing::info!(client = %client.0, "director logged in");
    let (_, cookie) = start_session(app.store.as_ref(), Role::Director)?;
    Ok(redirect_with_cookie("/director", cookie))
}

/// `POST /logout`: ends the director's session.
pub async fn logout(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    if let Some(s) = crate::auth::session_of(app.store.as_ref(), &headers)? {
        crate::auth::check_csrf(&s, f.get("csrf"))?;
        app.store.end_session(&s.token)?;
    }
    Ok(redirect_with_cookie("/", clear_cookie()))
}

/// `GET /director`: the director's list of events and the form for a new one.
pub async fn events(State(app): State<App>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let mut body = String::from("<h2>Events</h2><ul>");
    for (id, name) in app.store.events()? {
        let _ = write!(
            body,
            "<li><a href=\"/director/events/{id}\">{}</a></li>",
            esc(&name)
        );
    }
    let _ = write!(
        body,
        "</ul><h2>New event</h2><form method=\"post\" action=\"/director/events\">{}\
         <p><label>Name <input name=\"name\" required></label></p>\
         <p><label><input type=\"radio\" name=\"kind\" value=\"individual\" checked> individual</label>\
         <label><input type=\"radio\" name=\"kind\" value=\"team\"> teams of four</label></p>\
         <p><label>Players, one per line: <code>name</code>, or <code>name,team</code> for a team event (CSV with a <code>name,team</code> header also works)<br>\
         <textarea name=\"players\" rows=\"10\" cols=\"40\" required></textarea></label></p>\
         <p><label>Deal set key <input name=\"key\" size=\"66\" maxlength=\"64\" pattern=\"[0-9a-fA-F]{{64}}\"></label> (blank: a new secret key; give the key of a set made with <code>dupmj deal --new-set</code> to play its deals)</p>\
         <p><label>Rounds <input name=\"rounds\" type=\"number\" min=\"1\" size=\"4\"></label> (individual events; blank: the movement's full length, 5 rounds of 4 hands for 16 players)</p>\
         <button>Create event and movement</button></form>\
         <form method=\"post\" action=\"/logout\">{}<button>Log out</button></form>",
        csrf_field(&s),
        csrf_field(&s)
    );
    body.push_str(&sessions_section(&app, &s)?);
    Ok(html(StatusCode::OK, "Director", &body))
}

/// The sessions signed in now, each with a button that ends it.
fn sessions_section(app: &App, me: &Session) -> AppResult<String> {
    let mut b = String::from(
        "<h2>Sessions</h2><p>Everyone signed in now. A session ends by itself (director 12 h, \
         tables 24 h, players 30 days), when its owner logs out, or here; a new director \
         password ends every director session.</p>\
         <div class=\"wide\"><table><tr><th>#</th><th>who</th><th>since (UTC)</th><th>until (UTC)</th><th></th></tr>",
    );
    for x in app.store.sessions()? {
        let who = match x.role {
            Role::Director => "director".to_string(),
            Role::Table { event, table } => format!("event {event}, table {table}"),
            Role::Player { person } => format!("player {person}"),
        };
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><form method=\"post\" action=\"/director/sessions/{}/end\">{}<button>End</button></form></td></tr>",
            x.id,
            esc(&who),
            esc(&x.created[..16.min(x.created.len())]),
            esc(&x.expires[..16.min(x.expires.len())]),
            x.id,
            csrf_field(me)
        );
    }
    b.push_str("</table></div>");
    Ok(b)
}

/// `POST /director/sessions/{sid}/end`: ends a session (a lost phone, a table done for the day).
pub async fn end_session(
    State(app): State<App>,
    Path(sid): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(session = sid, action = "end_session", "director action");
    app.store.end_session_id(sid, "director")?;
    Ok(Redirect::to("/director").into_response())
}

/// `POST /director/events`: creates an event from the form (players, movement, deals).
pub async fn create_event(
    State(app): State<App>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(action = "create_event", "director action");
    let name = short_field(&f, "name", MAX_EVENT_NAME)?;
    let team = f.get("kind").map(String::as_str) == Some("team");
    let entrants = parse_entrants_for(field(&f, "players")?, team)?;
    let key = match f.get("key").map(|k| k.trim()).filter(|k| !k.is_empty()) {
        Some(k) => table::set::SetKey::parse(k).map_err(AppError::Invalid)?,
        None => crate::web::players::new_key(),
    };
    let rounds: Option<u32> = match f.get("rounds").map(|r| r.trim()) {
        None | Some("") => None,
        Some(_) => Some(number(&f, "rounds")?),
    };
    let id = make_event(
        app.store.as_ref(),
        name,
        team,
        entrants,
        &key,
        rounds,
        "director",
    )?;
    Ok(Redirect::to(&format!("/director/events/{id}")).into_response())
}

/// `GET /director/events/{id}`: one event's page: players, results, conflicts, penalties.
pub async fn event(State(app): State<App>, Path(id): Path<EventId>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let e = app.store.event(id)?;
    let results = app.store.results(id)?;
    let csrf = csrf_field(&s);
    let mut b = String::new();
    let _ = write!(
        b,
        "<p>{} players, {} · {} results entered</p>\
         <p><a href=\"/events/{id}/standings\">standings</a> · <a href=\"/events/{id}/big\">big screen</a> · <a href=\"/events/{id}/deals\">deal tables</a> · \
         <a href=\"/director/events/{id}/audit\">audit trail</a> · results <a href=\"/director/events/{id}/results.csv\">CSV</a> <a href=\"/director/events/{id}/results.json\">JSON</a> · \
         standings <a href=\"/events/{id}/standings.csv\">CSV</a> <a href=\"/events/{id}/standings.json\">JSON</a> · <a href=\"/events/{id}/ranking.csv\">ranking for rating bodies</a></p>\
         <p>Print (A4): <a href=\"/director/events/{id}/print/labels\">deal label sheets</a> · <a href=\"/director/events/{id}/print/guides\">guide cards</a> · \
         <a href=\"/director/events/{id}/print/tables\">table cards</a> · <a href=\"/director/events/{id}/print/sheets\">score sheets</a> · \
         <a href=\"/director/events/{id}/print/slips\">result slips</a> · <a href=\"/director/events/{id}/print/standings\">final standings</a></p>\
         <form method=\"get\" action=\"/director/events/{id}/print/tables\"><label>Table cards for phones that reach this server at \
         <input name=\"base\" size=\"28\" placeholder=\"http://192.168.1.10:8080\"></label> <button>Print</button> (empty: the address of this page)</form>",
        e.players.len(),
        e.movement.method,
        results.len()
    );
    let conflicts = app.store.conflicts(id)?;
    let states = app.store.round_states(id)?;
    b.push_str(&day::clock_section(&e, &csrf));
    b.push_str(&round_board(
        &e.movement,
        &results,
        &conflicts,
        &states,
        id,
        &csrf,
    ));
    if !conflicts.is_empty() {
        let _ = write!(
            b,
            "<h2>Conflicts</h2><form method=\"post\" action=\"/director/events/{id}/conflicts\">{csrf}\
             <div class=\"wide\"><table><tr><th></th><th>deal</th><th>table</th><th>hand</th><th>stored</th><th>second entry</th><th>by</th></tr>"
        );
        for c in &conflicts {
            let stored = results
                .iter()
                .find(|r| r.deal == c.deal && r.table == c.table && r.hand == c.hand)
                .map(|r| r.entry.describe())
                .unwrap_or_default();
            let _ = write!(
                b,
                "<tr class=\"conflict\"><td><input type=\"checkbox\" name=\"c{cid}\" value=\"1\"></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&c.deal), c.table, c.hand, esc(&stored), esc(&c.entry.describe()), esc(&c.by), cid = c.id
            );
        }
        b.push_str(
            "</table></div><p>For the ticked: <button name=\"accept\" value=\"1\">use the second entry</button> \
             <button name=\"accept\" value=\"0\">keep the stored result</button></p></form>",
        );
    }
    let _ = write!(
        b,
        "<h2>Standings</h2><form method=\"post\" action=\"/director/events/{id}/hide\">{csrf}<button name=\"hide\" value=\"{}\">{}</button></form>",
        if e.hide_standings { 0 } else { 1 },
        if e.hide_standings { "Show the standings to everyone" } else { "Hide the standings (last rounds)" }
    );
    b.push_str(&online_section(&app, &e, &csrf)?);
    b.push_str(&deals::section(&app, &e, &csrf)?);
    b.push_str("<h2>Tables</h2><table><tr><th>table</th><th>score-entry code</th></tr>");
    for (i, code) in e.table_codes.iter().enumerate() {
        let _ = write!(
            b,
            "<tr><td>{}</td><td><code>{}</code></td></tr>",
            i + 1,
            esc(code)
        );
    }
    let _ = write!(
        b,
        "</table><form method=\"post\" action=\"/director/events/{id}/codes\">{csrf}\
         <button>New codes for every table</button> (for the next round: the phones log in again)</form>"
    );
    b.push_str(&day::players_section(&e, &csrf));
    let _ = write!(
        b,
        "<form method=\"post\" action=\"/director/events/{id}/player\">{csrf}<fieldset><legend>Replace a player (results stay with the seat)</legend>\
         <label>Player # <input name=\"player\" type=\"number\" min=\"1\" required></label> <label>New name <input name=\"name\" required></label> <label>Team <input name=\"team\"></label> <button>Replace</button></fieldset></form>\
         <form method=\"post\" action=\"/director/events/{id}/swap\">{csrf}<fieldset><legend>Swap two players' seats from a round on (earlier rounds and results kept)</legend>\
         <label>Player # <input name=\"a\" type=\"number\" min=\"1\" required></label> <label>and # <input name=\"b\" type=\"number\" min=\"1\" required></label> <label>from round <input name=\"round\" type=\"number\" min=\"1\" value=\"1\" required></label> <button>Swap</button></fieldset></form>"
    );
    b.push_str("<h2>Penalties</h2><table><tr><th>player</th><th>kind</th><th>deal</th><th>IMP</th><th>reason</th><th></th></tr>");
    for (pid, p) in app.store.penalties(id)? {
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{:?}</td><td>{}</td><td>{}</td><td>{}</td><td><form method=\"post\" action=\"/director/events/{id}/penalties/{pid}/remove\">{csrf}<button>remove</button></form></td></tr>",
            p.player, p.kind, esc(p.deal.as_deref().unwrap_or("")), p.imp, esc(&p.reason)
        );
    }
    let _ = write!(
        b,
        "</table><form method=\"post\" action=\"/director/events/{id}/penalties\">{csrf}<fieldset><legend>Add a penalty</legend>\
         <label>Player # <input name=\"player\" type=\"number\" min=\"1\" required></label> \
         <label>Kind <select name=\"kind\"><option value=\"imp\">IMP deduction</option><option value=\"dead_hand\">dead hand (note)</option><option value=\"barred_from_hu\">barred from Hu (note)</option></select></label> \
         <label>IMP <input name=\"imp\" type=\"number\" min=\"0\" value=\"0\"></label> <label>Deal <input name=\"deal\" size=\"5\"></label> <label>Reason <input name=\"reason\"></label> <button>Add</button></fieldset></form>"
    );
    Ok(html(StatusCode::OK, &e.name, &b))
}

pub(super) fn back(id: EventId) -> Response {
    Redirect::to(&format!("/director/events/{id}")).into_response()
}

/// `POST …/player`: gives a player number a new name (and team), e.g. a substitute.
pub async fn replace_player(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = director_post(&app, &headers, &f)?;
    let team = match f.get("team").map(|t| t.trim()).filter(|t| !t.is_empty()) {
        Some(_) => Some(short_field(&f, "team", MAX_NAME)?.to_string()),
        None => None,
    };
    let now = Entrant {
        name: short_field(&f, "name", MAX_NAME)?.to_string(),
        team,
    };
    let player: u32 = number(&f, "player")?;
    let e = app.store.event(id)?;
    let was = e
        .players
        .get(player as usize - 1)
        .ok_or_else(|| AppError::Invalid(format!("player: no player {player}")))?;
    let moved = sittings_with_results(&e, &app.store.results(id)?, &[player], 1);
    if !moved.is_empty() && f.get("confirm").map(String::as_str) != Some("1") {
        let what = format!(
            "Player {player} is {} and has results already: {} (deal at table, hand). They stay with the seat: from now on they count for {}.",
            was.name,
            moved.join(", "),
            now.name
        );
        return Ok(confirm_page(
            &s,
            &format!("/director/events/{id}/player"),
            &f,
            &what,
        ));
    }
    tracing::info!(event = id, action = "replace_player", "director action");
    app.store.set_player(id, player, &now, "director")?;
    Ok(back(id))
}

/// The sittings from round `from` on where one of `players` sits and a result is entered,
/// as `deal at table t, hand h`.
pub(super) fn sittings_with_results(
    e: &store::Event,
    results: &[store::StoredResult],
    players: &[u32],
    from: u32,
) -> Vec<String> {
    let mut out = Vec::new();
    for r in e.movement.rounds.iter().filter(|r| r.round >= from) {
        for h in &r.hands {
            for t in &h.tables {
                let sits = t.seats.iter().any(|x| players.contains(&x.player));
                let entered = results
                    .iter()
                    .any(|x| x.deal == t.deal && x.table == t.table && x.hand == h.hand);
                if sits && entered {
                    out.push(format!("{} at table {}, hand {}", t.deal, t.table, h.hand));
                }
            }
        }
    }
    out
}

/// A page that says what a change would move and asks again, re-posting the same fields
/// with `confirm=1`.
pub(super) fn confirm_page(s: &Session, action: &str, f: &Fields, what: &str) -> Response {
    let mut hidden = String::new();
    for (k, v) in f {
        if k != "csrf" && k != "confirm" {
            let _ = write!(
                hidden,
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                esc(k),
                esc(v)
            );
        }
    }
    html(
        StatusCode::OK,
        "Please confirm",
        &format!(
            "<p class=\"warn\" id=\"confirm\">{}</p><form method=\"post\" action=\"{}\">{}{hidden}\
             <input type=\"hidden\" name=\"confirm\" value=\"1\"><button>Yes, do it</button> \
             <a href=\"javascript:history.back()\">No, go back</a></form>",
            esc(what),
            esc(action),
            csrf_field(s)
        ),
    )
}

/// `POST …/swap`: exchanges two players' seats from a round on.
pub async fn swap(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = director_post(&app, &headers, &f)?;
    let (a, b, round): (u32, u32, u32) = (number(&f, "a")?, number(&f, "b")?, number(&f, "round")?);
    let e = app.store.event(id)?;
    let moved = sittings_with_results(&e, &app.store.results(id)?, &[a, b], round);
    if !moved.is_empty() && f.get("confirm").map(String::as_str) != Some("1") {
        let what = format!(
            "From round {round} on, players {a} and {b} exchange seats. Results already entered there move with the seats to the other player: {}.",
            moved.join(", ")
        );
        return Ok(confirm_page(
            &s,
            &format!("/director/events/{id}/swap"),
            &f,
            &what,
        ));
    }
    tracing::info!(event = id, action = "swap", "director action");
    app.store.swap_players(id, a, b, round, "director")?;
    Ok(back(id))
}

/// `POST …/hide`: hides or shows the public standings (`hide` = 1 hides).
pub async fn hide(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "hide", "director action");
    app.store
        .set_hide_standings(id, field(&f, "hide")? == "1", "director")?;
    Ok(back(id))
}

/// Plays the event online: players link their seats, tables open from the start time.
pub async fn online(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "online", "director action");
    let start_in: u32 = crate::web::players::num(&f, "start_in", 10, 0, 60 * 24 * 31)?;
    let limit: u32 = crate::web::players::num(&f, "limit", 20, 1, play::spec::MAX_LIMIT_S)?;
    let bank: u32 = crate::web::players::num(&f, "bank", 60, 0, play::spec::MAX_BANK_S)?;
    let bot = f.get("bot").map(|s| s.as_str()).unwrap_or("strong");
    play::online::enable(&app.hall, id, start_in, limit, bank, bot, "director")
        .map_err(AppError::Invalid)?;
    Ok(back(id))
}

/// `POST …/conflicts/{cid}`: settles a conflict between two entries of a sitting.
pub async fn resolve(
    State(app): State<App>,
    Path((id, cid)): Path<(EventId, i64)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "resolve", "director action");
    app.store
        .resolve_conflict(id, cid, field(&f, "accept")? == "1", "director")?;
    Ok(back(id))
}

/// `POST …/rounds/{round}`: opens (`open` = 1) or closes a round for the tables.
pub async fn set_round(
    State(app): State<App>,
    Path((id, round)): Path<(EventId, u32)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let open = field(&f, "open")? == "1";
    tracing::info!(
        event = id,
        round,
        open,
        action = "set_round",
        "director action"
    );
    app.store.set_round(id, round, open, "director")?;
    Ok(back(id))
}

/// `POST …/codes`: gives every table a new code (for the next round) and logs the
/// tables' phones out.
pub async fn new_codes(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "new_codes", "director action");
    let tables = app.store.event(id)?.table_codes.len();
    let codes: Vec<String> = (0..tables)
        .map(|_| crate::service::random_code(crate::service::TABLE_CODE_LEN))
        .collect();
    app.store.set_table_codes(id, &codes, "director")?;
    Ok(back(id))
}

/// `POST …/conflicts`: settles every ticked conflict (fields `c<id>`) the same way.
pub async fn resolve_many(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let accept = field(&f, "accept")? == "1";
    let mut ids: Vec<i64> = f
        .keys()
        .filter_map(|k| k.strip_prefix('c')?.parse().ok())
        .collect();
    ids.sort_unstable();
    if ids.is_empty() {
        return Err(AppError::Invalid("tick at least one conflict".into()));
    }
    tracing::info!(
        event = id,
        action = "resolve_many",
        conflicts = ids.len(),
        "director action"
    );
    for cid in ids {
        app.store.resolve_conflict(id, cid, accept, "director")?;
    }
    Ok(back(id))
}

/// Per round: sittings entered, and those missing or in conflict, by table and hand.
fn round_board(
    m: &tournament::movement::Movement,
    results: &[store::StoredResult],
    conflicts: &[store::Conflict],
    states: &[(u32, bool)],
    id: EventId,
    csrf: &str,
) -> String {
    let mut b = String::from(
        "<h2>Rounds</h2><p>Tables enter only the open rounds; closing a round locks it to the \
         director and logs its phones out.</p><div class=\"wide\"><table class=\"board\"><tr><th>round</th><th>for the tables</th>\
         <th>entered</th><th>missing</th><th>in conflict</th></tr>",
    );
    for r in &m.rounds {
        let (mut done, mut all) = (0, 0);
        let mut missing = Vec::new();
        let mut disputed = Vec::new();
        for h in &r.hands {
            for t in &h.tables {
                all += 1;
                let at = |deal: &str, table: u32, hand: u32| {
                    deal == t.deal && table == t.table && hand == h.hand
                };
                if results.iter().any(|x| at(&x.deal, x.table, x.hand)) {
                    done += 1;
                } else {
                    missing.push(format!("t{} h{}", t.table, h.hand));
                }
                if conflicts.iter().any(|x| at(&x.deal, x.table, x.hand)) {
                    disputed.push(format!("t{} h{}", t.table, h.hand));
                }
            }
        }
        // A round nobody has started is one word, and a long list is cut.
        let missing = if done == 0 {
            "not started".to_string()
        } else if missing.len() > 24 {
            format!(
                "{} … and {} more",
                missing[..24].join(", "),
                missing.len() - 24
            )
        } else {
            missing.join(", ")
        };
        let state = states.iter().find(|(n, _)| *n == r.round).map(|x| x.1);
        let (label, button) = match (states.is_empty(), state) {
            (true, _) => ("every round (no round control)", None),
            (_, Some(true)) => ("open", Some(("0", "close"))),
            (_, Some(false)) => ("closed", Some(("1", "reopen"))),
            (_, None) => ("not opened", Some(("1", "open"))),
        };
        let control = button
            .map(|(v, word)| {
                format!(
                    " <form class=\"inline\" method=\"post\" action=\"/director/events/{id}/rounds/{}\">{csrf}\
                     <button name=\"open\" value=\"{v}\">{word}</button></form>",
                    r.round
                )
            })
            .unwrap_or_default();
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{label}{control}</td><td>{done} of {all}</td><td>{}</td><td>{}</td></tr>",
            r.round,
            esc(&missing),
            esc(&disputed.join(", "))
        );
    }
    b.push_str("</table></div>");
    b
}

/// `POST …/penalties`: adds a penalty (IMP, false Hu or barred from Hu) to a player.
pub async fn add_penalty(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "add_penalty", "director action");
    let kind = match field(&f, "kind")? {
        "imp" => PenaltyKind::Imp,
        "dead_hand" => PenaltyKind::DeadHand,
        "barred_from_hu" => PenaltyKind::BarredFromHu,
        other => {
            return Err(AppError::Invalid(format!(
                "kind: '{other}' is not a penalty kind"
            )))
        }
    };
    let imp: i32 = f
        .get("imp")
        .filter(|v| !v.trim().is_empty())
        .map_or(Ok(0), |_| number(&f, "imp"))?;
    if imp < 0 {
        return Err(AppError::Invalid(
            "imp: a deduction is entered as a positive number".into(),
        ));
    }
    let deal = f
        .get("deal")
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty());
    if let Some(d) = &deal {
        let e = app.store.event(id)?;
        if !e.movement.deal_names().contains(d) {
            return Err(AppError::Invalid(format!(
                "deal: '{d}' is not a deal of this event"
            )));
        }
    }
    let p = Penalty {
        player: number(&f, "player")?,
        kind,
        deal,
        imp,
        reason: match f.get("reason").map(|r| r.trim()).filter(|r| !r.is_empty()) {
            Some(_) => short_field(&f, "reason", MAX_NOTE)?.to_string(),
            None => String::new(),
        },
    };
    app.store.add_penalty(id, &p, "director")?;
    Ok(back(id))
}

/// `POST …/penalties/{pid}/remove`: withdraws a penalty.
pub async fn remove_penalty(
    State(app): State<App>,
    Path((id, pid)): Path<(EventId, i64)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "remove_penalty", "director action");
    app.store.remove_penalty(id, pid, "director")?;
    Ok(back(id))
}

/// `GET …/results.{fmt}`: the event's results as CSV or JSON.
pub async fn export_results(
    State(app): State<App>,
    Path((id, fmt)): Path<(EventId, String)>,
    headers: HeaderMap,
) -> Page {
    super::director(&app, &headers)?;
    let e = app.store.event(id)?;
    let results = app.store.results(id)?;
    match fmt.as_str() {
        "csv" => {
            let mut s =
                String::from("deal,table,hand,result,ms_e,ms_s,ms_w,ms_n,version,entered_by,at\n");
            for r in &results {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{},{}",
                    csv_field(&r.deal),
                    r.table,
                    r.hand,
                    csv_field(&r.entry.describe()),
                    r.points[0],
                    r.points[1],
                    r.points[2],
                    r.points[3],
                    r.version,
                    csv_field(&r.by),
                    r.at
                );
            }
            Ok(data("text/csv; charset=utf-8", s))
        }
        "json" => {
            let rs: Vec<_> = results
                .iter()
                .map(|r| serde_json::json!({"deal": r.deal, "table": r.table, "hand": r.hand, "entry": r.entry, "points": r.points, "version": r.version, "entered_by": r.by, "at": r.at}))
                .collect();
            let v = serde_json::json!({"event": e.name, "results": rs});
            Ok(data("application/json", v.to_string()))
        }
        other => Err(AppError::NotFound(format!(
            "format '{other}' (use csv or json)"
        ))),
    }
}

/// `GET …/audit`: the event's audit trail, newest first.
pub async fn audit(State(app): State<App>, Path(id): Path<EventId>, headers: HeaderMap) -> Page {
    if director_or_login(&app, &headers).is_none() {
        return Ok(to_login());
    }
    let e = app.store.event(id)?;
    let mut b = String::from(
        "<table><tr><th>when</th><th>who</th><th>what</th><th>before</th><th>after</th></tr>",
    );
    for l in app.store.audit(id)? {
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
            esc(&l.at),
            esc(&l.who),
            esc(&l.what),
            esc(&l.before.unwrap_or_default().chars().take(200).collect::<String>()),
            esc(&l.after.unwrap_or_default().chars().take(200).collect::<String>())
        );
    }
    b.push_str("</table>");
    Ok(html(
        StatusCode::OK,
        &format!("{} — audit trail", e.name),
        &b,
    ))
}

/// The event page's part on online play: the form that starts it, or each player's link.
fn online_section(app: &App, e: &store::Event, csrf: &str) -> crate::service::AppResult<String> {
    use play::online;
    let id = e.id;
    let mut b = String::from("<h2>Online play</h2>");
    let Some(st) = online::load(&app.hall, id)? else {
        let _ = write!(
            b,
            "<p>Instead of score entry, the event can be played at tables of online play: each player links their seat with a personal link, the tables open at the start and the results are entered by themselves. Seats nobody links are played by the bot.</p>\
<form method=\"post\" action=\"/director/events/{id}/online\">{csrf}\
<label>starts in (minutes) <input name=\"start_in\" type=\"number\" min=\"0\" value=\"10\"></label> \
<label>seconds per decision <input name=\"limit\" type=\"number\" min=\"1\" max=\"600\" value=\"20\"></label> \
<label>extra seconds <input name=\"bank\" type=\"number\" min=\"0\" max=\"3600\" value=\"60\"></label> \
<label>bot <select name=\"bot\"><option>strong</option><option>medium</option><option>easy</option><option>random</option></select></label> \
<button>Play this event online</button></form>"
        );
        return Ok(b);
    };
    let _ = write!(
        b,
        "<p>Starts {}; {} s per decision and {} s extra; the bot is {}. Players' page: <a href=\"/play/e/{id}\">/play/e/{id}</a>.</p><table><tr><th>#</th><th>name</th><th>personal link</th><th>linked to</th></tr>",
        play::challenge::utc(st.settings.start),
        st.settings.limit_s,
        st.settings.bank_s,
        esc(&st.settings.bot)
    );
    for (i, (p, token)) in e.players.iter().zip(&st.settings.tokens).enumerate() {
        let who = match st.person_of(i as u32 + 1) {
            Some(person) => esc(&app.store.person(person)?.name),
            None => "— (the bot)".to_string(),
        };
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{}</td><td><code>/play/e/{id}/join/{}</code></td><td>{who}</td></tr>",
            i + 1,
            esc(&p.name),
            esc(token)
        );
    }
    b.push_str("</table>");
    Ok(b)
}
