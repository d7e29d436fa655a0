//! What the table page's own queue talks to: the check of an entry before it is saved, and
//! the save of an entry the phone kept, under the key the phone gave it, so that an entry
//! sent again after a lost answer (a dropped connection, a server restart) is recorded once.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Form;
use mcr::Wind;
use serde_json::{json, Value};
use store::{EventId, Role, Saved};
use tournament::entry::ScoreEntry;

use super::{entry_from, names_at, phone_tag, round_open, seating, table_session};
use crate::auth::check_csrf;
use crate::i18n::{describe, seat_name};
use crate::service::{AppError, AppResult};
use crate::web::players::api;
use crate::web::{field, number, App, Fields};

/// The entry of a form sent for a sitting, checked against the table's session, the
/// round's state and the seating; with the seats' names.
fn read_entry(
    app: &App,
    headers: &HeaderMap,
    (id, t, deal, hand): (EventId, u32, &str, u32),
    f: &Fields,
) -> AppResult<(store::Session, ScoreEntry, [String; 4])> {
    let s = table_session(app, headers, id, t)?;
    check_csrf(&s, f.get("csrf"))?;
    let e = app.store.event(id)?;
    let (round, tp) = seating(&e, deal, t, hand)?;
    round_open(app, &s, id, round)?;
    let names = names_at(&e, tp.players_by_wind(), round);
    let prevalent = e.deal(deal).map_or(Wind::East, |d| d.prevalent);
    Ok((s, entry_from(f, prevalent)?, names))
}

/// Each seat's name and match points under an entry, for the phone to show.
fn points_json(entry: &ScoreEntry, names: &[String; 4]) -> AppResult<Value> {
    let points = entry
        .match_points()
        .map_err(|er| AppError::Invalid(er.to_string()))?;
    Ok(Wind::ALL
        .iter()
        .map(|&w| json!({"seat": seat_name(w), "name": names[w.index()], "points": points[w.index()]}))
        .collect())
}

/// `POST …/deal/{deal}/{hand}/check.json`: what an entry reads as and each seat's match
/// points, saving nothing (the preview of the form, for the page's script).
pub async fn check(
    State(app): State<App>,
    Path((id, t, deal, hand)): Path<(EventId, u32, String, u32)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Response {
    api((|| {
        let (_, entry, names) = read_entry(&app, &headers, (id, t, &deal, hand), &f)?;
        Ok(json!({
            "described": describe(&entry),
            "seats": points_json(&entry, &names)?,
        }))
    })())
}

/// `POST …/deal/{deal}/{hand}/send.json`: saves an entry the phone kept under its `key`
/// with the `version` it was made on. The answer says what happened: `recorded` (saved, or
/// the same entry already stored) with the version, or `conflict` (409: a different entry
/// was saved first, kept aside for the director); the same answer for the same key, however
/// many times it comes.
pub async fn send(
    State(app): State<App>,
    Path((id, t, deal, hand)): Path<(EventId, u32, String, u32)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Response {
    let answer = (|| {
        let (s, entry, names) = read_entry(&app, &headers, (id, t, &deal, hand), &f)?;
        let key = field(&f, "key")?;
        let version: u32 = number(&f, "version")?;
        let who = if s.role == Role::Director {
            "director".to_string()
        } else {
            format!("table {t}, phone {}", phone_tag(&s.token))
        };
        let saved = app
            .store
            .save_result_once(id, key, (&deal, t, hand), &entry, version, &who)?;
        let described = describe(&entry);
        Ok(match saved {
            Saved::Saved { version } | Saved::Unchanged { version } => json!({
                "state": "recorded",
                "version": version,
                "described": described,
                "seats": points_json(&entry, &names)?,
            }),
            Saved::Conflict { .. } => {
                tracing::warn!(event = id, table = t, deal = %deal, hand, by = %who, "conflicting result kept aside for the director");
                json!({"state": "conflict", "described": described})
            }
        })
    })();
    let conflict = matches!(&answer, Ok(v) if v["state"] == "conflict");
    let mut r = api(answer);
    if conflict {
        *r.status_mut() = StatusCode::CONFLICT;
    }
    r.into_response()
}

/// `GET /events/{id}/table/{t}/results.json`: what the server holds for each sitting of the
/// table, `{"deal/hand": "S self-drawn 12"}`, so that a phone sees the other phone's entries.
pub async fn results(
    State(app): State<App>,
    Path((id, t)): Path<(EventId, u32)>,
    headers: HeaderMap,
) -> Response {
    api((|| {
        table_session(&app, &headers, id, t)?;
        let held: serde_json::Map<String, Value> = app
            .store
            .results(id)?
            .into_iter()
            .filter(|r| r.table == t)
            .map(|r| (format!("{}/{}", r.deal, r.hand), json!(describe(&r.entry))))
            .collect();
        Ok(Value::Object(held))
    })())
}
