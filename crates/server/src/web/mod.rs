//! The web application: the routes of each audience (the director, the tables at the
//! venue, the public, the players online), every page from a template ([`pages`]), and
//! the helpers handlers share to read forms and sessions.

pub mod director;
pub mod pages;
pub mod players;
pub mod public;
pub mod venue;

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, MethodRouter};
use axum::Router;
use store::{Role, Session, Store};

use crate::auth::{check_csrf, session_of};
use crate::service::{AppError, AppResult};

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
            guards: Arc::new(crate::guard::Guards::new(store.clone())),
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

/// A router that keeps the path of every route it is given, so that the paths can be
/// listed from the router itself (the secrecy walk asks every one of them).
pub struct Routes {
    router: Router<App>,
    paths: Vec<String>,
}

impl Routes {
    /// No routes yet.
    pub fn new() -> Routes {
        Routes {
            router: Router::new(),
            paths: Vec::new(),
        }
    }

    /// Adds a route, as [`Router::route`] does.
    pub fn route(mut self, path: &str, method: MethodRouter<App>) -> Routes {
        self.paths.push(path.to_string());
        self.router = self.router.route(path, method);
        self
    }

    /// Adds another audience's routes under a layer of their own (their layout and error
    /// page).
    fn merge_with(
        mut self,
        other: Routes,
        layer: impl FnOnce(Router<App>) -> Router<App>,
    ) -> Routes {
        self.paths.extend(other.paths);
        self.router = self.router.merge(layer(other.router));
        self
    }
}

impl Default for Routes {
    fn default() -> Routes {
        Routes::new()
    }
}

/// Every route of the application, each audience's with its layout and error page, and
/// their paths.
fn routes() -> Routes {
    use axum::middleware::from_fn;
    Routes::new()
        .merge_with(director::routes(), |r| {
            r.layer(from_fn(pages::for_director))
        })
        .merge_with(venue::routes(), |r| r.layer(from_fn(pages::for_venue)))
        .merge_with(public::routes(), |r| r.layer(from_fn(pages::for_public)))
        .merge_with(players::routes(), |r| r.layer(from_fn(pages::for_players)))
        .route("/lang/{code}", get(crate::i18n::switch))
}

/// The path of every route the application answers (with `{name}` for each part a
/// request fills in), as the router was given them.
pub fn route_paths() -> Vec<String> {
    routes().paths
}

/// Every route of the application: each audience's, with its layout and error page.
pub fn router(app: App) -> Router {
    use axum::middleware::from_fn;
    routes()
        .router
        .layer(from_fn(crate::i18n::scope))
        .layer(from_fn(crate::guard::headers))
        .layer(from_fn(crate::guard::deadline))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
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
