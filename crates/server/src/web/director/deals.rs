//! An event's deal set: its commitment and key for the director, the release for practice
//! after the event, and the published set once released.

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use store::{Event, EventId};
use table::set::{SetKey, SetKind};

use crate::i18n::trf;
use crate::service::AppError;
use crate::web::{data, director_post, App, Fields, Page};

/// The event's secret key, if it has one.
pub fn key_of(e: &Event) -> Option<SetKey> {
    e.deal_key.as_deref().and_then(|k| SetKey::parse(k).ok())
}

/// Sittings of the movement with no result yet.
fn missing(app: &App, e: &Event) -> Result<usize, AppError> {
    let results = app.store.results(e.id)?;
    let expected: usize = e
        .movement
        .rounds
        .iter()
        .flat_map(|r| &r.hands)
        .map(|h| h.tables.len())
        .sum();
    Ok(expected.saturating_sub(results.len()))
}

/// The director's "Deals" section of an event's page (`csrf`: the form's hidden field).
pub fn section(app: &App, e: &Event, csrf: &str) -> Result<String, AppError> {
    let id = e.id;
    let mut b = String::from("<h2>Deals</h2>");
    match key_of(e) {
        Some(k) => {
            let _ = write!(
                b,
                "<p>{} deals from a secret set, committed to before play: <code>{}</code> \
                 (shown on the public deal tables page). Its key, for rebuilding the deals with \
                 <code>dupmj deal --key KEY --deals {}</code>: \
                 <details><summary>show the key</summary><code>{}</code></details></p>",
                e.movement.deal_names().len(),
                k.commitment(),
                e.movement.deal_names().len(),
                k.hex()
            );
        }
        None => {
            let _ = write!(
                b,
                "<p>Deals from seed {} (an event made before deal sets: each deal's seed is the one \
                 before plus 1).</p>",
                e.deal_seed
            );
        }
    }
    if e.deals_released {
        let _ = write!(
            b,
            "<p class=\"ok\">Released for practice: anyone may play these deals in the lobby and see \
             every hand. The set, for checking: <a href=\"/events/{id}/set.json\">set.json</a>.</p>"
        );
    } else {
        let left = missing(app, e)?;
        let warning = if left > 0 {
            format!(
                "<p class=\"warn\">{left} sitting(s) have no result yet: tables that still have to play \
                 would see their deals. <label><input type=\"checkbox\" name=\"confirm\" value=\"1\"> \
                 release anyway</label></p>"
            )
        } else {
            String::new()
        };
        let _ = write!(
            b,
            "<form method=\"post\" action=\"/director/events/{id}/release\">{}{warning}\
             <button>Release the deals for practice</button> (after the event: anyone may then play them \
             in the lobby and see every hand; never entered into the event)</form>",
            csrf
        );
    }
    Ok(b)
}

/// `POST /director/events/{id}/release`: releases the deals for practice; with sittings
/// still without a result only when confirmed.
pub async fn release(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let e = app.store.event(id)?;
    let left = missing(&app, &e)?;
    if left > 0 && f.get("confirm").map(String::as_str) != Some("1") {
        return Err(AppError::Invalid(format!(
            "confirm: {left} sitting(s) of event {id} have no result yet; tick 'release anyway' to release the deals all the same"
        )));
    }
    tracing::info!(event = id, action = "release_deals", "director action");
    app.store.release_deals(id, "director")?;
    Ok(Redirect::to(&format!("/director/events/{id}")).into_response())
}

/// `GET /events/{id}/set.json`: the event's deal set with its key, once released.
pub async fn set_json(State(app): State<App>, Path(id): Path<EventId>) -> Page {
    let e = app.store.event(id)?;
    let Some(key) = key_of(&e) else {
        return Err(AppError::NotFound(format!(
            "event {id} was made before deal sets: its deals come from seed {}",
            if e.deals_released {
                e.deal_seed.to_string()
            } else {
                "(kept by the director)".into()
            }
        )));
    };
    if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Event(id))? {
        return Err(AppError::Forbidden(format!(
            "event {id}: its deals are published when its director releases them; committed to: {}",
            key.commitment()
        )));
    }
    let r = table::set::reveal(
        &format!("event {id}: {}", e.name),
        SetKind::Duplicate,
        &key,
        &e.movement.deal_names(),
    );
    let body = serde_json::to_string_pretty(&r).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(data("application/json", body))
}

/// The line the public deal tables page shows about the set.
pub fn public_line(e: &Event) -> String {
    match key_of(e) {
        Some(k) if e.deals_released => format!(
            "<p>{} <a href=\"/events/{}/set.json\">set.json</a></p>",
            trf(
                "Deals committed to before play: {}. Released for practice; the set, to check with dupmj verify:",
                &[&k.commitment()]
            ),
            e.id
        ),
        Some(k) => format!(
            "<p>{}</p>",
            trf(
                "Deals committed to before play: {}. The key is published when the director releases the deals.",
                &[&k.commitment()]
            )
        ),
        None => String::new(),
    }
}
