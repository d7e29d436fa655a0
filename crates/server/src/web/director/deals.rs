//! An event's deal set: its commitment and key for the director, the release for practice
//! after the event, and the published set once released.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use serde_json::{json, Value};
use store::{Event, EventId};

use crate::service::AppError;
use crate::web::public::key_of;
use crate::web::{director_post, App, Fields, Page};

/// Sittings of the movement with no result yet.
fn missing(app: &App, e: &Event) -> Result<usize, AppError> {
    let results = app.store.results(e.id)?;
    Ok(crate::service::sittings(e).saturating_sub(results.len()))
}

/// What the director's "Deals" section shows: the set's commitment and key (or an older
/// event's seed), whether it is released, and how many sittings lack a result.
pub fn values(app: &App, e: &Event) -> Result<Value, AppError> {
    let key = key_of(e);
    Ok(json!({
        "count": e.movement.deal_names().len(),
        "commitment": key.as_ref().map(|k| k.commitment()),
        "key": key.as_ref().map(|k| k.hex()),
        "seed": e.deal_seed,
        "released": e.deals_released,
        "missing": if e.deals_released { 0 } else { missing(app, e)? },
    }))
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
