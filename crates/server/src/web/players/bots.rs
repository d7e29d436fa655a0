//! Bot accounts: the switch on the account's page (for good), its API tokens (each shown
//! once, revocable), and the routes its program uses with a token (`docs/bots.md`): who it
//! is, opening a table, the quick-match queue, a challenge's next deal. The table itself is
//! played over the table's WebSocket, as a browser plays it, with the seat's feed on top.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Form;
use serde_json::{json, Value};
use store::Person;

use super::profile::{checked_account, me_page_with};
use super::{api, App, Fields, Page};
use crate::service::{random_code, AppError, AppResult};

/// `POST /play/me/bot`: makes the account a bot account, for good (password and a ticked
/// box asked).
pub async fn make_bot(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let (s, me) = checked_account(&app, &headers, &f)?;
    if f.get("confirm").map(String::as_str) != Some("yes") {
        return Err(AppError::Invalid(
            "confirm: tick the box to make this a bot account for good".into(),
        ));
    }
    if me.bot {
        return Err(AppError::Invalid("this is a bot account already".into()));
    }
    app.store.make_bot(me.id)?;
    let me = app.store.person(me.id)?;
    me_page_with(
        &app,
        &s,
        &me,
        1,
        Some(json!({"text": "This is a bot account now. Make an API token for its program."})),
    )
}

/// `POST /play/me/tokens`: a new API token, shown on the page this once.
pub async fn new_token(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let (s, me) = bot_page_owner(&app, &headers, &f)?;
    let token = format!("dupmj_{}", random_code(32));
    app.store.add_api_token(me.id, &token)?;
    me_page_with(
        &app,
        &s,
        &me,
        1,
        Some(
            json!({"text": "A new API token: copy it now, it is not shown again.", "token": token}),
        ),
    )
}

/// `POST /play/me/tokens/{id}/revoke`: the token signs nobody in from now on.
pub async fn revoke_token(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let (s, me) = bot_page_owner(&app, &headers, &f)?;
    app.store.revoke_api_token(me.id, id)?;
    me_page_with(
        &app,
        &s,
        &me,
        1,
        Some(json!({"text": "The token is revoked."})),
    )
}

/// The signed-in owner of a bot account sending its page's form.
fn bot_page_owner(
    app: &App,
    headers: &HeaderMap,
    f: &Fields,
) -> AppResult<(store::Session, Person)> {
    let (s, me) = super::posting_player(app, headers, f)?;
    if !me.bot {
        return Err(AppError::Forbidden(
            "only a bot account has API tokens".into(),
        ));
    }
    Ok((s, me))
}

/// The bot account an API request's token signs in; refused without one.
fn bot(app: &App, headers: &HeaderMap) -> AppResult<Person> {
    crate::auth::bot_of(app.store.as_ref(), headers)?.ok_or_else(|| {
        AppError::Forbidden("give the bot account's API token: Authorization: Bearer TOKEN".into())
    })
}

/// `GET /api/bot/me`: the bot account the token signs in.
pub async fn me(State(app): State<App>, headers: HeaderMap) -> Response {
    api(bot(&app, &headers).map(|b| {
        json!({
            "id": b.id,
            "name": b.name,
            "shown": play::names::shown(&b),
            "tables": app.hall.open_tables_of(b.id),
            "most_tables": play::MAX_TABLES_BOT,
        })
    }))
}

/// `POST /api/bot/tables` (form fields as the lobby's: `deals`, `p1`…`p3` a bot level or
/// `person` to invite one, `limit`, `bank`): opens a rated table with the bot at East.
pub async fn open_table(
    State(app): State<App>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Response {
    api(open_for_bot(&app, &headers, f))
}

fn open_for_bot(app: &App, headers: &HeaderMap, mut f: Fields) -> AppResult<Value> {
    let b = bot(app, headers)?;
    app.hall.check_table_limit(&b)?;
    if f.contains_key("seed") || f.contains_key("practice") {
        return Err(AppError::Invalid(
            "seed, practice: a bot account plays rated tables of new deals only".into(),
        ));
    }
    for (k, v) in [("kind", "duplicate"), ("place", "0"), ("mode", "rated")] {
        f.insert(k.into(), v.into());
    }
    let spec = super::open::spec_from_form(app, &f, b.id)?;
    let id = app.hall.open_table(spec, &play::names::shown(&b))?;
    Ok(json!({"table": id}))
}

/// `POST /api/bot/quick`: into the quick-match queue (seated only with people who let
/// bot accounts play them).
pub async fn quick_join(State(app): State<App>, headers: HeaderMap) -> Response {
    let joined = async {
        let b = bot(&app, &headers)?;
        let hall = app.hall.clone();
        let s = tokio::task::spawn_blocking(move || play::quick::join(&hall, &b, false))
            .await
            .map_err(|e| AppError::Internal(e.to_string()))??;
        Ok(json!({"queued": true, "waiting": s.waiting, "table": s.table}))
    };
    api(joined.await)
}

/// `GET /api/bot/quick`: where the bot stands in the queue (and that it still waits).
pub async fn quick_state(State(app): State<App>, headers: HeaderMap) -> Response {
    api(bot(&app, &headers).and_then(|b| {
        Ok(match play::quick::seen(&app.hall, b.id)? {
            None => json!({"queued": false}),
            Some(s) => json!({"queued": true, "waiting": s.waiting, "table": s.table}),
        })
    }))
}

/// `POST /api/bot/quick/leave`: out of the queue.
pub async fn quick_leave(State(app): State<App>, headers: HeaderMap) -> Response {
    api(bot(&app, &headers).and_then(|b| Ok(json!({"left": play::quick::leave(&app.hall, b.id)?}))))
}

/// `POST /api/bot/challenges/{id}/play`: the bot's next deal of a challenge that lets bot
/// accounts play; its table.
pub async fn challenge_play(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Response {
    let taken = async {
        let b = bot(&app, &headers)?;
        let table = super::challenges::take_next(&app, id, &b).await?;
        Ok(json!({"table": table}))
    };
    api(taken.await)
}
