//! The table's page and its WebSocket: who may sit or watch (the secrecy rule),
//! and the messages between the browser and the table's task.

use super::pump::connection;
use super::replay::table_spec;
use super::{
    context, hand_sight, header, json, player, table_sight, viewer_of, App, AppError, AppResult,
    HandSummary, Hands, HeaderMap, IntoResponse, Page, Path, Sight, State, StatusCode, TableSpec,
    WebSocketUpgrade, MAX_MESSAGE,
};

/// `GET /play/t/{id}`: the table's page (its script connects to the socket).
pub async fn table_page(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    table_page_with(&app, id, &headers, None, StatusCode::OK)
}

/// The table's page; `signin`: its guest form that failed, shown again with the message.
pub(super) fn table_page_with(
    app: &App,
    id: i64,
    headers: &HeaderMap,
    signin: Option<serde_json::Value>,
    status: StatusCode,
) -> Page {
    let me = player(app, headers)?;
    let viewer = viewer_of(app, headers)?;
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
    let then = what_next(app, &spec, me.as_ref().map(|(_, p)| p.id))?;
    crate::web::pages::render_status(
        status,
        "players/table.html",
        context! {
            signin => signin,
            title => format!("Table {id}"),
            id => id,
            what => crate::i18n::describe_table(&spec),
            me => me.as_ref().map(|(_, p)| json!({"id": p.id, "name": p.name})),
            csrf => me.as_ref().map(|(s, _)| s.csrf.clone()),
            prefs => match &me {
                Some((_, p)) => app.store.prefs(p.id)?,
                None => None,
            },
            hands => hands,
            hints_allowed => spec.hints_allowed(),
            then => then,
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

/// What the end of the table offers besides the lobby: at a challenge's table, its deal's
/// results and the person's next deal not yet taken (while the challenge is open); at an
/// event's, the event; at any other, playing again.
fn what_next(app: &App, spec: &TableSpec, me: Option<i64>) -> AppResult<serde_json::Value> {
    if let Some(c) = spec.challenge.as_ref().filter(|c| !c.par) {
        let loaded = play::challenge::load(&app.hall, c.id)?;
        let open = loaded.stage(play::challenge::now_s()) == play::challenge::Stage::Open;
        let deals = loaded.spec.deals;
        let next = me.filter(|_| open).and_then(|p| {
            (1..deals)
                .map(|k| (c.index + k) % deals)
                .find(|&i| loaded.play_of(p, i).is_none())
        });
        return Ok(json!({
            "challenge": c.id,
            "deal": c.index + 1,
            "next": next.map(|i| i + 1),
        }));
    }
    if let Some(s) = &spec.sitting {
        return Ok(json!({"event": s.event}));
    }
    Ok(json!({"again": me.is_some()}))
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
pub(super) fn same_origin(headers: &HeaderMap) -> bool {
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
    // A bot account's program signs in with its API token, and is fed its seat.
    let bot = crate::auth::bot_of(app.store.as_ref(), &headers)?;
    let feed = bot.is_some();
    let (who, viewer) = match bot {
        Some(b) => (
            Some((b.id, play::names::shown(&b))),
            play::secrecy::Viewer::Person(b.id),
        ),
        // A bot account's browser watches: its moves come from its program only.
        None => (
            player(&app, &headers)?
                .filter(|(_, p)| !p.bot)
                .map(|(_, p)| (p.id, play::names::shown(&p))),
            viewer_of(&app, &headers)?,
        ),
    };
    let spec = table_spec(&app, id)?;
    if let Sight::Hidden(why) = table_sight(&app.hall, &spec, viewer, None)? {
        return Err(AppError::Forbidden(why));
    }
    let ws = ws.max_message_size(MAX_MESSAGE);
    match app.hall.locate(id)? {
        play::Located::Here(room) => {
            let conn = app.hall.conn_id();
            Ok(ws
                .on_upgrade(move |socket| connection(socket, room, conn, who, viewer, feed))
                .into_response())
        }
        play::Located::Elsewhere(_) if headers.contains_key(super::relay::RELAYED_BY) => {
            Err(AppError::Limited(
                "this table is moving to another server; try again in a few seconds".into(),
            ))
        }
        play::Located::Elsewhere(owner) => {
            // The owner checks the cookie or the token as it checks anyone's.
            let pass: Vec<(header::HeaderName, String)> = [header::COOKIE, header::AUTHORIZATION]
                .into_iter()
                .filter_map(|h| {
                    let v = headers.get(&h)?.to_str().ok()?.to_string();
                    Some((h, v))
                })
                .collect();
            Ok(ws
                .on_upgrade(move |socket| {
                    super::relay::relay(socket, app, id, owner, pass, (who, viewer, feed))
                })
                .into_response())
        }
    }
}
