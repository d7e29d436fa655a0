//! HTTP: the router, page layout, and turning errors into pages.

pub mod director;
pub mod pages;
pub mod players;
pub mod public;
pub mod venue;

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use store::{Role, Session, Store};

use crate::auth::{check_csrf, session_of};
use crate::i18n::tr;
use crate::service::{AppError, AppResult};
use players as playweb;
use players::challenges as challenge;

pub use tournament::print::esc;

/// Shared state of every handler.
#[derive(Clone)]
pub struct App {
    /// Where everything is kept.
    pub store: Arc<dyn Store>,
    /// The tables of online play.
    pub hall: Arc<play::Hall>,
    /// Limits on failed passwords and table codes.
    pub guards: Arc<crate::guard::Guards>,
}

impl App {
    /// The application over `store`, with online play set up by `config`.
    pub fn new(store: Arc<dyn Store>, config: play::PlayConfig) -> App {
        App {
            hall: Arc::new(play::Hall::new(store.clone(), config)),
            guards: Arc::new(crate::guard::Guards::default()),
            store,
        }
    }
}

/// Form fields by name.
pub type Fields = HashMap<String, String>;

/// Largest request body accepted (a 128-player entrant list is a few KB).
pub const MAX_BODY: usize = 256 * 1024;
/// Longest text accepted in one form field, in characters (names, notes, lists have their
/// own, smaller limits where they are read).
pub const MAX_FIELD: usize = 20_000;

/// Every route of the application.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(public::home))
        .route("/setup", get(director::setup_page).post(director::setup))
        .route("/login", get(director::login_page).post(director::login))
        .route("/logout", post(director::logout))
        .route("/director", get(director::events))
        .route("/director/events", post(director::create_event))
        .route("/director/sessions/{sid}/end", post(director::end_session))
        .route("/director/events/{id}", get(director::event))
        .route(
            "/director/events/{id}/player",
            post(director::replace_player),
        )
        .route("/director/events/{id}/swap", post(director::swap))
        .route(
            "/director/events/{id}/conflicts",
            post(director::resolve_many),
        )
        .route(
            "/director/events/{id}/rounds/{round}",
            post(director::set_round),
        )
        .route("/director/events/{id}/codes", post(director::new_codes))
        .route(
            "/director/events/{id}/checkin",
            post(director::day::check_in),
        )
        .route(
            "/director/events/{id}/withdraw",
            post(director::day::withdraw),
        )
        .route(
            "/director/events/{id}/withdraw/{player}/cancel",
            post(director::day::cancel_withdrawal),
        )
        .route(
            "/director/events/{id}/clock",
            post(director::day::set_clock),
        )
        .route(
            "/director/events/{id}/release",
            post(director::deals::release),
        )
        .route("/events/{id}/set.json", get(director::deals::set_json))
        .route("/director/events/{id}/hide", post(director::hide))
        .route(
            "/director/events/{id}/conflicts/{cid}",
            post(director::resolve),
        )
        .route(
            "/director/events/{id}/penalties",
            post(director::add_penalty),
        )
        .route(
            "/director/events/{id}/penalties/{pid}/remove",
            post(director::remove_penalty),
        )
        .route(
            "/director/events/{id}/print/{what}",
            get(director::print::print),
        )
        .route(
            "/director/events/{id}/results.{fmt}",
            get(director::export_results),
        )
        .route("/director/events/{id}/audit", get(director::audit))
        .route("/events/{id}/standings", get(public::standings))
        .route(
            "/events/{id}/standings.{fmt}",
            get(public::export_standings),
        )
        .route("/events/{id}/big", get(public::big::big_screen))
        .route("/events/{id}/ranking.csv", get(public::export_ranking))
        .route("/events/{id}/deals", get(public::deal_tables))
        .route(
            "/events/{id}/table",
            get(venue::login_page).post(venue::login),
        )
        .route("/events/{id}/table/{t}", get(venue::deals))
        .route(
            "/events/{id}/table/{t}/deal/{deal}/{hand}",
            get(venue::entry_form).post(venue::entry_post),
        )
        .route("/play", get(players::lobby::lobby))
        .route("/play/guest", post(playweb::guest))
        .route("/play/login", post(playweb::login))
        .route("/play/register", post(playweb::register))
        .route("/play/logout", post(playweb::logout))
        .route("/play/tables", post(playweb::open_table))
        .route("/play/t/{id}", get(playweb::table_page))
        .route("/play/t/{id}/ws", get(playweb::socket))
        .route("/play/t/{id}/set.json", get(playweb::set_json))
        .route("/play/t/{id}/hands/{n}", get(playweb::hand_log_or_page))
        .route("/play/t/{id}/hands/{n}/step", get(playweb::replay_step))
        .route("/assets/{name}", get(playweb::asset))
        .route("/play/c", get(challenge::list).post(challenge::publish))
        .route("/play/c/{id}", get(challenge::page))
        .route("/play/c/{id}/play", post(challenge::play))
        .route("/play/c/{id}/close", post(challenge::close))
        .route("/play/c/{id}/deal/{n}", get(challenge::deal))
        .route("/play/c/{id}/reveal.json", get(challenge::reveal))
        .route("/play/e/{id}", get(players::events::page))
        .route("/play/e/{id}/join/{token}", get(players::events::join))
        .route("/director/events/{id}/online", post(director::online))
        .route("/lang/{code}", get(crate::i18n::switch))
        .layer(axum::middleware::from_fn(crate::i18n::scope))
        .layer(axum::middleware::from_fn(crate::guard::headers))
        .layer(axum::middleware::from_fn(crate::guard::deadline))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60em;padding:.8em;line-height:1.4}\
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #999;padding:.25em .5em;text-align:center}\
th{background:#eee}input,select,button{font-size:1em;padding:.35em;margin:.15em 0}\
.err{background:#fdd;border:1px solid #c00;padding:.5em}.ok{background:#dfd;border:1px solid #090;padding:.5em}\
.warn{background:#ffd;border:1px solid #a80;padding:.5em}nav a{margin-right:1em}nav a.lang{float:right;margin:0}\
fieldset{margin:.5em 0}label{display:inline-block;margin-right:1em}form.inline{display:inline}.wide{overflow-x:auto}\
.big{font-size:2.2em}.big td,.big th{padding:.2em .8em}\
a.button{display:inline-block;padding:.6em 1em;border:1px solid #555;border-radius:.3em;background:#eee;text-decoration:none;color:#000}\
@media (max-width:600px){form.entry input,form.entry select,form.entry button{font-size:1.15em;min-height:2.6em}\
form.entry input[type=radio],form.entry input[type=checkbox]{min-height:0;transform:scale(1.6);margin:.5em .7em .5em .3em;vertical-align:middle}\
form.entry label{display:block;margin:.3em 0}form.entry fieldset{min-width:0}\
form.entry input,form.entry select{max-width:100%;box-sizing:border-box}a.button{font-size:1.15em}}\
@media print{nav,form{display:none}}";

/// A whole page; `refresh` reloads it every so many seconds.
pub fn page(title: &str, body: &str, refresh: Option<u32>) -> String {
    let meta = refresh
        .map(|s| format!("<meta http-equiv=\"refresh\" content=\"{s}\">"))
        .unwrap_or_default();
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{meta}\
         <title>{t} — dupmj</title><style>{STYLE}</style></head><body>\n\
         <nav><a href=\"/\">dupmj</a><a href=\"/director\">{director}</a>{switch}</nav>\n<h1>{t}</h1>\n{body}\n</body></html>\n",
        t = esc(title),
        lang = crate::i18n::lang().code(),
        director = tr("director"),
        switch = crate::i18n::switch_link(),
    )
}

/// An HTML response.
pub fn html(status: StatusCode, title: &str, body: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page(title, body, None),
    )
        .into_response()
}

/// A download or data response.
pub fn data(content_type: &'static str, body: String) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// What a handler returns: a page or an error page.
pub type Page = Result<Response, AppError>;

/// The director's session, or an error (GET handlers redirect to the login instead).
pub fn director(app: &App, headers: &HeaderMap) -> AppResult<Session> {
    match session_of(app.store.as_ref(), headers)? {
        Some(s) if s.role == Role::Director => Ok(s),
        _ => Err(AppError::Forbidden("the director must log in".into())),
    }
}

/// For GET pages of the director: the session, if logged in (else send [`to_login`]).
pub fn director_or_login(app: &App, headers: &HeaderMap) -> Option<Session> {
    director(app, headers).ok()
}

/// A redirect to the director's login.
pub fn to_login() -> Response {
    Redirect::to("/login").into_response()
}

/// A director POST: the session and its cross-site token.
pub fn director_post(app: &App, headers: &HeaderMap, f: &Fields) -> AppResult<Session> {
    let s = director(app, headers)?;
    check_csrf(&s, f.get("csrf"))?;
    Ok(s)
}

/// The hidden field every form of a session carries.
pub fn csrf_field(s: &Session) -> String {
    format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        esc(&s.csrf)
    )
}

/// A required form field, trimmed.
pub fn field<'a>(f: &'a Fields, name: &str) -> AppResult<&'a str> {
    short_field(f, name, MAX_FIELD)
}

/// A name-like field (an event, a player, a team, a note): at most `most` characters.
pub fn short_field<'a>(f: &'a Fields, name: &str, most: usize) -> AppResult<&'a str> {
    let v = f
        .get(name)
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| AppError::Invalid(format!("the field '{name}' is missing")))?;
    if v.chars().count() > most {
        return Err(AppError::Invalid(format!(
            "{name}: {} characters; at most {most}",
            v.chars().count()
        )));
    }
    Ok(v)
}

/// An optional number in a query string (`?page=2`): absent or empty is `None`, anything
/// else must be a number.
pub fn query_number<T: std::str::FromStr>(v: Option<&str>, name: &str) -> AppResult<Option<T>> {
    match v.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| {
            AppError::Invalid(format!(
                "{name}: '{}' is not a number",
                v.chars().take(40).collect::<String>()
            ))
        }),
    }
}

/// A required number field.
pub fn number<T: std::str::FromStr>(f: &Fields, name: &str) -> AppResult<T> {
    let v = field(f, name)?;
    v.parse()
        .map_err(|_| AppError::Invalid(format!("{name}: '{v}' is not a valid number")))
}
