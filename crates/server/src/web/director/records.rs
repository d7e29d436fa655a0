//! The director's records of an event: its results as CSV or JSON, and the audit trail.

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use minijinja::context;
use serde_json::json;
use store::EventId;
use tournament::export::csv_field;

use crate::service::AppError;
use crate::web::pages::render;
use crate::web::{data, director_or_login, to_login, App, Page};

/// `GET …/results.{fmt}`: the event's results as CSV or JSON.
pub async fn export_results(
    State(app): State<App>,
    Path((id, fmt)): Path<(EventId, String)>,
    headers: HeaderMap,
) -> Page {
    crate::web::director(&app, &headers)?;
    let e = app.store.event(id)?;
    let results = app.store.results(id)?;
    match fmt.as_str() {
        "csv" => {
            let mut s =
                String::from("deal,table,hand,result,ms_e,ms_s,ms_w,ms_n,version,entered_by,at\n");
            for r in &results {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{},{},{},{},{}",
                    csv_field(&r.deal),
                    r.table,
                    r.hand,
                    csv_field(&r.entry.describe()),
                    r.points[0],
                    r.points[1],
                    r.points[2],
                    r.points[3],
                    r.version,
                    csv_field(&r.by),
                    r.at
                );
            }
            Ok(data("text/csv; charset=utf-8", s))
        }
        "json" => {
            let rs: Vec<_> = results
                .iter()
                .map(|r| serde_json::json!({"deal": r.deal, "table": r.table, "hand": r.hand, "entry": r.entry, "points": r.points, "version": r.version, "entered_by": r.by, "at": r.at}))
                .collect();
            let v = serde_json::json!({"event": e.name, "results": rs});
            Ok(data("application/json", v.to_string()))
        }
        other => Err(AppError::NotFound(format!(
            "format '{other}' (use csv or json)"
        ))),
    }
}

/// `GET …/audit`: the event's audit trail, oldest first.
pub async fn audit(State(app): State<App>, Path(id): Path<EventId>, headers: HeaderMap) -> Page {
    if director_or_login(&app, &headers).is_none() {
        return Ok(to_login());
    }
    let e = app.store.event(id)?;
    let cut = |s: Option<String>| s.unwrap_or_default().chars().take(200).collect::<String>();
    let lines: Vec<_> = app
        .store
        .audit(id)?
        .into_iter()
        .map(|l| {
            json!({
                "at": l.at,
                "who": l.who,
                "what": l.what,
                "before": cut(l.before),
                "after": cut(l.after),
            })
        })
        .collect();
    render(
        "director/audit.html",
        context! { title => format!("{} — audit trail", e.name), lines => lines },
    )
}
