//! The director's list of events, the form for a new one, and the sessions signed in.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use minijinja::context;
use serde_json::json;
use store::Role;

use crate::service::{create_event as make_event, parse_entrants_for, AppError};
use crate::web::pages::render;
use crate::web::{
    director_or_login, director_post, field, number, short_field, to_login, App, Fields, Page,
};

/// Longest event name accepted, in characters.
const MAX_EVENT_NAME: usize = 120;

/// `GET /director`: the director's list of events, the form for a new one, and everyone
/// signed in (each session with a button that ends it).
pub async fn events(State(app): State<App>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let events: Vec<_> = app
        .store
        .events()?
        .into_iter()
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    let sessions: Vec<_> = app
        .store
        .sessions()?
        .into_iter()
        .map(|x| {
            let who = match x.role {
                Role::Director => "director".to_string(),
                Role::Table { event, table } => format!("event {event}, table {table}"),
                Role::Player { person } => format!("player {person}"),
            };
            json!({
                "id": x.id,
                "who": who,
                "created": x.created[..16.min(x.created.len())],
                "expires": x.expires[..16.min(x.expires.len())],
            })
        })
        .collect();
    // How far behind the reviewers are, all nodes together.
    let b = app.store.review_backlog()?;
    let reviews = json!({
        "queued": b.queued,
        "oldest_min": b.oldest_ms.map(|t| (store::now_ms() - t).max(0) / 60_000),
        "done": b.done,
        "failed": b.failed,
        "bound": store::REVIEW_QUEUE_MAX,
        "threads": app.hall.config.review_threads,
        "ms": app.hall.config.review_ms,
    });
    render(
        "director/events.html",
        context! { title => "Director", csrf => s.csrf, events => events, sessions => sessions, reviews => reviews },
    )
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
        Some(k) => table::set::SetKey::parse(k).map_err(|e| AppError::Invalid(e.to_string()))?,
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
