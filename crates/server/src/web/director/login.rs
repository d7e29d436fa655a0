//! The director's first-run password, login and logout.

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::context;
use store::Role;

use crate::auth::{clear_cookie, start_session, verify_password};
use crate::guard::Client;
use crate::service::AppError;
use crate::web::pages::render;
use crate::web::{field, App, Fields, Page};

fn redirect_with_cookie(to: &str, cookie: String) -> Response {
    ([(header::SET_COOKIE, cookie)], Redirect::to(to)).into_response()
}

/// `GET /setup`: the first-run form for the director password (to `/login` once one is set).
pub async fn setup_page(State(app): State<App>) -> Page {
    if app.store.director_hash()?.is_some() {
        return Ok(Redirect::to("/login").into_response());
    }
    render(
        "director/setup.html",
        context! { title => "First run: director password" },
    )
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
    render(
        "director/login.html",
        context! { title => "Director login" },
    )
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
