//! Training over HTTP: the drills page, the day's set, a drill's question and the answer
//! (`play::drills`). Everything is the signed-in player's own; a position from a hand is
//! given only once its deal is open to everyone (`play::drills::mine` asks the secrecy
//! rule), and the problem of the day's answers only to those who have answered it.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Form;
use minijinja::context;
use play::drills::daily::{self, Answer};
use play::drills::DrillKey;
use serde::Deserialize;
use serde_json::{json, Value};
use table::engine::Action;

use super::{api, by_hand, player, posting_player, render, signed_in_player, App, Fields, Page};
use crate::service::{AppError, AppResult};

/// `GET /play/drills`: the page (its script asks for the day's set); for someone not
/// signed in, the way to start as a guest.
pub async fn page(State(app): State<App>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    render(
        "players/drills.html",
        context! {
            title => "Drills",
            me => me.as_ref().map(|(_, p)| json!({"name": p.name, "account": p.account})),
            csrf => me.as_ref().map(|(s, _)| s.csrf.clone()),
        },
    )
}

fn signed_in(app: &App, headers: &HeaderMap) -> AppResult<i64> {
    Ok(signed_in_player(app, headers)?.1.id)
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?
}

/// `GET /play/drills/set.json`: today's set, progress and the problem of the day.
pub async fn set_json(State(app): State<App>, headers: HeaderMap) -> Response {
    let r = async {
        let me = signed_in(&app, &headers)?;
        let hall = app.hall.clone();
        blocking(move || Ok(daily::set(&hall, me, daily::today())?)).await
    };
    api(r.await)
}

/// `?key=fan:12`: which drill.
#[derive(Deserialize)]
pub struct KeyQuery {
    key: String,
}

/// `GET /play/drills/question.json?key=…`: a drill's question (a position as its seat saw
/// it, a winning hand, a hand after a draw).
pub async fn question_json(
    State(app): State<App>,
    headers: HeaderMap,
    Query(q): Query<KeyQuery>,
) -> Response {
    let r = async {
        let me = signed_in(&app, &headers)?;
        let key = DrillKey::parse(&q.key)?;
        let hall = app.hall.clone();
        blocking(move || Ok(daily::question(&hall, me, key)?)).await
    };
    api(r.await)
}

/// The answer field: a move (`{"action": "discard", "tile": "5p"}`) or points and fans
/// (`{"points": 12, "fans": [48, 76]}`).
fn answer_of(text: &str) -> AppResult<Answer> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Fans {
        points: u32,
        #[serde(default)]
        fans: Vec<u8>,
    }
    if let Ok(a) = serde_json::from_str::<Action>(text) {
        return Ok(Answer::Move(a));
    }
    match serde_json::from_str::<Fans>(text) {
        Ok(f) if f.points <= 1000 && f.fans.len() <= 90 => Ok(Answer::Fans {
            points: f.points,
            fans: f.fans,
        }),
        _ => Err(AppError::Invalid(format!(
            "answer: '{}' is neither a move nor points and fans",
            text.chars().take(60).collect::<String>()
        ))),
    }
}

/// `POST /play/drills/answer` (`csrf`, `key`, `answer`): the grade, the answer and when
/// the drill comes back.
pub async fn answer(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Response {
    let r = async {
        let (_, me) = posting_player(&app, &headers, &f)?;
        by_hand(&me)?;
        let key = DrillKey::parse(f.get("key").map(String::as_str).unwrap_or(""))?;
        let given = answer_of(f.get("answer").map(String::as_str).unwrap_or(""))?;
        let hall = app.hall.clone();
        blocking(move || -> AppResult<Value> {
            Ok(daily::answer(&hall, me.id, key, &given, daily::today())?)
        })
        .await
    };
    api(r.await)
}
