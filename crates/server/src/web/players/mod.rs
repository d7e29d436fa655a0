//! HTTP side of online play: sign-in (guest or account), the lobby, opening a table, the
//! table page and its WebSocket, and the replay viewer. Pages come from templates with
//! automatic HTML escaping; the browser code is plain ES modules served from `assets/`.

pub mod challenges;
pub mod events;
pub mod lobby;

mod account;
mod bots;
mod drills;
mod open;
mod profile;
mod pump;
mod quick;
mod relay;
mod replay;
mod signups;
mod sitting;

use account::{guest, login, logout, register, set_prefs};
use open::{open_table, play_again};
use profile::{change_password, delete_account, export, leaderboard_page, me_page, profile_page};
use replay::{hand_log_or_page, replay_step};
use sitting::{set_json, socket, table_page};

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
pub fn routes() -> crate::web::Routes {
    use axum::routing::{get, post};
    crate::web::Routes::new()
        .route("/play", get(lobby::lobby))
        .route("/play/guest", post(guest))
        .route("/play/login", post(login))
        .route("/play/register", post(register))
        .route("/play/logout", post(logout))
        .route("/play/prefs", post(set_prefs))
        .route("/play/tables", post(open_table))
        .route("/play/now", post(quick::join))
        .route("/play/quick", get(quick::page).post(quick::join))
        .route("/play/quick/state.json", get(quick::state))
        .route("/play/quick/leave", post(quick::leave))
        .route("/play/p/{name}", get(profile_page))
        .route("/play/p/{name}/export.json", get(export))
        .route("/play/me", get(me_page))
        .route("/play/me/password", post(change_password))
        .route("/play/me/delete", post(delete_account))
        .route("/play/me/bot", post(bots::make_bot))
        .route("/play/me/tokens", post(bots::new_token))
        .route("/play/me/tokens/{id}/revoke", post(bots::revoke_token))
        .route("/api/bot/me", get(bots::me))
        .route("/api/bot/tables", post(bots::open_table))
        .route(
            "/api/bot/quick",
            get(bots::quick_state).post(bots::quick_join),
        )
        .route("/api/bot/quick/leave", post(bots::quick_leave))
        .route("/api/bot/challenges/{id}/play", post(bots::challenge_play))
        .route("/play/drills", get(drills::page))
        .route("/play/drills/set.json", get(drills::set_json))
        .route("/play/drills/question.json", get(drills::question_json))
        .route("/play/drills/answer", post(drills::answer))
        .route("/play/leaderboard", get(leaderboard_page))
        .route("/play/signups", get(signups::list))
        .route("/play/signups/{sid}", get(signups::page).post(signups::act))
        .route("/play/t/{id}", get(table_page))
        .route("/play/t/{id}/ws", get(socket))
        .route("/play/t/{id}/set.json", get(set_json))
        .route("/play/t/{id}/again", post(play_again))
        .route("/play/t/{id}/hands/{n}", get(hand_log_or_page))
        .route("/play/t/{id}/hands/{n}/step", get(replay_step))
        .route(
            "/play/t/{id}/hands/{n}/review.json",
            get(replay::hand_review),
        )
        .route("/play/t/{id}/hands/{n}/field.json", get(replay::hand_field))
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
        "review.js" => (include_str!("../../../assets/review.js"), "text/javascript"),
        "layout.js" => (include_str!("../../../assets/layout.js"), "text/javascript"),
        "sound.js" => (include_str!("../../../assets/sound.js"), "text/javascript"),
        "prefs.js" => (include_str!("../../../assets/prefs.js"), "text/javascript"),
        "sheets.js" => (include_str!("../../../assets/sheets.js"), "text/javascript"),
        "panels.js" => (include_str!("../../../assets/panels.js"), "text/javascript"),
        "quick.js" => (include_str!("../../../assets/quick.js"), "text/javascript"),
        "stamps.js" => (include_str!("../../../assets/stamps.js"), "text/javascript"),
        "drills.js" => (include_str!("../../../assets/drills.js"), "text/javascript"),
        "venue.js" => (include_str!("../../../assets/venue.js"), "text/javascript"),
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

/// The signed-in player; refused otherwise (a page or JSON only a player has).
pub fn signed_in_player(app: &App, headers: &HeaderMap) -> AppResult<(Session, Person)> {
    player(app, headers)?
        .ok_or_else(|| AppError::Forbidden("sign in (or play as a guest) first".into()))
}

/// A JSON answer: its JSON, or `{"error": …}` under the error's status (a program or a
/// page's script reads JSON, not an error page).
pub(crate) fn api(r: AppResult<serde_json::Value>) -> Response {
    let (status, body) = match r {
        Ok(v) => (StatusCode::OK, v),
        Err(e) => (e.status().0, json!({"error": e.shown()})),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// The signed-in player who sent a form with its session's token; refused otherwise.
pub fn posting_player(app: &App, headers: &HeaderMap, f: &Fields) -> AppResult<(Session, Person)> {
    let (s, me) = player(app, headers)?.ok_or_else(|| {
        AppError::Forbidden("sign in (as a guest or with an account) first".into())
    })?;
    check_csrf(&s, f.get("csrf"))?;
    Ok((s, me))
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

/// Refuses a bot account's browser what only a person does by hand (its program plays
/// through its token).
pub(crate) fn by_hand(me: &Person) -> AppResult<()> {
    if me.bot {
        return Err(AppError::Forbidden(
            "a bot account plays through its program, with its API token (docs/bots.md)".into(),
        ));
    }
    Ok(())
}

/// A new secret key for a table's own deal set.
pub(crate) use crate::service::new_key;

#[cfg(test)]
mod tests {
    /// Every file of the assets folder is served (a script one imports and the server
    /// does not know fails in the browser only).
    #[tokio::test]
    async fn every_asset_is_served() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert!(names.len() >= 10, "{names:?}");
        for name in names {
            let r = super::asset(axum::extract::Path(name.clone())).await;
            assert_eq!(r.status(), 200, "{name} is not served");
        }
    }

    /// The browser's stamps are the server's set, with the same words.
    #[test]
    fn the_page_knows_the_stamps_the_server_takes() {
        let js = include_str!("../../../assets/stamps.js");
        for (id, words) in play::room::stamps::STAMPS {
            let pair = format!("[\"{id}\", \"{words}\"]");
            assert!(js.contains(&pair), "stamps.js lacks {pair}");
        }
        let listed = js.lines().filter(|l| l.starts_with("  [\"")).count();
        assert_eq!(listed, play::room::stamps::STAMPS.len());
    }
}
