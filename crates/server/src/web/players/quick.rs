//! Quick match over HTTP: joining the queue (a guest is made for someone not signed in),
//! the waiting page and the state it asks for every second, and leaving.

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use minijinja::context;
use serde_json::json;

use super::account::with_cookie;
use super::open::new_guest;
use super::{check_csrf, player, posting_player, render, start_session, App, Fields, Page, Role};
use crate::guard::Client;
use crate::service::AppError;

/// `POST /play/quick` (and `POST /play/now`, the front page's button): into the queue,
/// then to the waiting page. Someone not signed in becomes a guest first.
pub async fn join(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let (me, cookie) = match player(&app, &headers)? {
        Some((s, me)) => {
            check_csrf(&s, f.get("csrf"))?;
            super::by_hand(&me)?;
            (me, None)
        }
        None => {
            app.guards.newcomer(&client)?;
            let me = new_guest(&app)?;
            let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: me.id })?;
            (me, Some(cookie))
        }
    };
    let bots_ok = match f.get("bots").map(String::as_str) {
        None | Some("") | Some("no") => false,
        Some("yes") | Some("on") => true,
        Some(other) => {
            return Err(AppError::Invalid(format!(
                "bots: '{}' is neither yes nor no",
                other.chars().take(20).collect::<String>()
            )))
        }
    };
    let hall = app.hall.clone();
    let me2 = me.clone();
    tokio::task::spawn_blocking(move || play::quick::join(&hall, &me2, bots_ok))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(match cookie {
        Some(c) => with_cookie(c, "/play/quick"),
        None => Redirect::to("/play/quick").into_response(),
    })
}

/// `GET /play/quick`: the waiting page (it asks for the state every second and goes to
/// the table once there is one).
pub async fn page(State(app): State<App>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let standing = match &me {
        Some((_, p)) => play::quick::seen(&app.hall, p.id)?,
        None => None,
    };
    if let Some(t) = standing.as_ref().and_then(|s| s.table) {
        return Ok(Redirect::to(&format!("/play/t/{t}")).into_response());
    }
    render(
        "players/quick.html",
        context! {
            title => "Quick match",
            me => me.as_ref().map(|(_, p)| json!({"name": p.name, "account": p.account})),
            csrf => me.as_ref().map(|(s, _)| s.csrf.clone()),
            standing => standing,
            crowd => play::quick::crowd(&app.hall),
        },
    )
}

/// `GET /play/quick/state.json`: where the signed-in player stands in the queue (and that
/// they still wait); `{"queued": false}` when they are not in it.
pub async fn state(State(app): State<App>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let body = match me {
        None => json!({"queued": false}),
        Some((_, p)) => match play::quick::seen(&app.hall, p.id)? {
            None => json!({"queued": false}),
            Some(s) => json!({
                "queued": true,
                "waiting": s.waiting,
                "waited_s": s.waited_s,
                "wait_s": s.wait_s,
                "bots_in_s": s.bots_in_s,
                "table": s.table,
            }),
        },
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response())
}

/// `POST /play/quick/leave`: out of the queue, back to the lobby.
pub async fn leave(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let (_, me) = posting_player(&app, &headers, &f)?;
    play::quick::leave(&app.hall, me.id)?;
    Ok(Redirect::to("/play").into_response())
}
