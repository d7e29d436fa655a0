//! The director's printables: deal label sheets, guide cards, table cards with a QR code
//! to the score-entry page, score sheets, result slips and the final standings.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use store::EventId;

use crate::service::AppError;
use crate::web::public::compute;
use crate::web::{data, director_or_login, to_login, App, Page};

/// `?base=` of the table cards: the address phones use to reach this server, when the
/// one the director's browser used is not it (a proxy, a public name).
#[derive(Deserialize)]
pub struct PrintQuery {
    base: Option<String>,
}

/// Longest `base` address accepted.
const MAX_BASE: usize = 200;

/// The address phones should use: `base` if given, else the scheme and host this request
/// came in on.
fn base_url(q: &PrintQuery, headers: &HeaderMap) -> Result<String, AppError> {
    if let Some(b) = q.base.as_deref().map(str::trim).filter(|b| !b.is_empty()) {
        let ok = (b.starts_with("http://") || b.starts_with("https://"))
            && b.len() <= MAX_BASE
            && !b.contains(|c: char| c.is_whitespace() || c == '"' || c == '<');
        if !ok {
            return Err(AppError::Invalid(format!(
                "base: '{}' is not an http:// or https:// address of at most {MAX_BASE} characters",
                b.chars().take(60).collect::<String>()
            )));
        }
        return Ok(b.trim_end_matches('/').to_string());
    }
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost:8080");
    let scheme = if crate::guard::over_https(headers) {
        "https"
    } else {
        "http"
    };
    Ok(format!("{scheme}://{host}"))
}

/// `GET …/print/{what}`: a printable page for A4.
pub async fn print(
    State(app): State<App>,
    Path((id, what)): Path<(EventId, String)>,
    Query(q): Query<PrintQuery>,
    headers: HeaderMap,
) -> Page {
    if director_or_login(&app, &headers).is_none() {
        return Ok(to_login());
    }
    let e = app.store.event(id)?;
    let names: Vec<String> = e.players.iter().map(|p| p.name.clone()).collect();
    let body = match what.as_str() {
        "labels" => {
            let deals: Vec<_> = e
                .movement
                .deal_names()
                .into_iter()
                .filter_map(|d| e.deal(&d).map(|deal| (d, deal)))
                .collect();
            crate::print::labels(&deals)
        }
        "guides" => crate::print::guide_cards(&e.name, &e.movement, &names),
        "tables" => {
            let base = base_url(&q, &headers)?;
            crate::print::table_cards(&e.name, &e.movement, &e.table_codes, |t| {
                format!("{base}/events/{id}/table?table={t}")
            })
        }
        "sheets" => crate::print::score_sheets(&e.name, &e.movement, &names),
        "slips" => crate::print::result_slips(&e.name, &compute(&app, id)?.individual),
        "standings" => {
            let c = compute(&app, id)?;
            crate::print::final_standings(&e.name, &c.individual, c.team.as_ref(), |p| {
                e.withdrawals
                    .iter()
                    .find(|w| w.player == p)
                    .map(|w| format!("withdrew from round {}", w.from_round))
            })
        }
        other => {
            return Err(AppError::NotFound(format!(
                "printable '{other}' (labels, guides, tables, sheets, slips or standings)"
            )))
        }
    }
    .map_err(|e| AppError::Internal(format!("printable {what}: {e}")))?;
    Ok(data("text/html; charset=utf-8", body))
}
