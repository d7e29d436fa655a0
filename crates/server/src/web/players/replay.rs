//! Finished hands: the log (as the secrecy rule allows to the viewer) and the
//! step-by-step replay page.

use super::{
    board, context, hand_sight, header, json, render, start_of, viewer_of, win_json, App, AppError,
    AppResult, Deserialize, Eye, HandLog, HandSummary, HeaderMap, IntoResponse, Page, Path, Query,
    Sight, State, TableSpec, Viewer,
};
use axum::http::StatusCode;
use store::ReviewState;

pub(super) fn table_spec(app: &App, id: i64) -> AppResult<TableSpec> {
    let stored = app.store.play_table(id)?;
    serde_json::from_str(&stored.spec).map_err(|e| AppError::Internal(format!("table {id}: {e}")))
}

/// The views of a finished hand someone may have (seat letters, `all` included when the
/// hand is open to them).
pub(super) fn hand_views(
    app: &App,
    id: i64,
    n: u32,
    viewer: Viewer,
) -> AppResult<Vec<&'static str>> {
    let spec = table_spec(app, id)?;
    match hand_sight(&app.hall, id, &spec, n as usize, viewer)? {
        Sight::Open => Ok(vec!["E", "S", "W", "N", "all"]),
        Sight::Seat(w) => Ok(vec![["E", "S", "W", "N"][w.index()]]),
        Sight::Watch => Err(AppError::Forbidden(format!(
            "hand {n} of table {id} is open to its players only"
        ))),
        Sight::Hidden(why) => Err(AppError::Forbidden(why)),
    }
}

pub(super) fn stored_hand(app: &App, id: i64, n: u32) -> AppResult<(store::StoredHand, HandLog)> {
    let h = app
        .store
        .hands_of_table(id)?
        .into_iter()
        .find(|h| h.hand_no == n)
        .ok_or_else(|| AppError::NotFound(format!("table {id} has no finished hand {n}")))?;
    let log: HandLog = serde_json::from_str(&h.log)
        .map_err(|e| AppError::Internal(format!("hand {n} of table {id}: {e}")))?;
    Ok((h, log))
}

/// `/play/t/{id}/hands/{n}`: the replay viewer, or with `.json` the hand's log.
pub async fn hand_log_or_page(
    State(app): State<App>,
    Path((id, n)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Page {
    let viewer = viewer_of(&app, &headers)?;
    if let Some(num) = n.strip_suffix(".json") {
        let num: u32 = num
            .parse()
            .map_err(|_| AppError::NotFound(format!("no hand '{n}'")))?;
        if !hand_views(&app, id, num, viewer)?.contains(&"all") {
            return Err(AppError::Forbidden(format!(
                "the log of hand {num} of table {id} holds every seat's tiles: it is shown once everyone has played the deal"
            )));
        }
        let (h, _) = stored_hand(&app, id, num)?;
        return Ok(([(header::CONTENT_TYPE, "application/json")], h.log).into_response());
    }
    let n: u32 = n
        .parse()
        .map_err(|_| AppError::NotFound(format!("no hand '{n}'")))?;
    let views = hand_views(&app, id, n, viewer)?;
    replay_page(&app, id, n, views, viewer)
}

/// The replay viewer, opening from the seat the viewer held in the hand (else from the
/// first view open to them).
pub(super) fn replay_page(
    app: &App,
    id: i64,
    n: u32,
    views: Vec<&'static str>,
    viewer: Viewer,
) -> Page {
    let (h, _) = stored_hand(app, id, n)?;
    let s: HandSummary =
        serde_json::from_str(&h.summary).map_err(|e| AppError::Internal(e.to_string()))?;
    let held = viewer
        .person()
        .and_then(|p| s.persons.iter().position(|&x| x == Some(p)))
        .map(|seat| ["E", "S", "W", "N"][seat])
        .filter(|v| views.contains(v));
    let start = held.or(views.first().copied()).unwrap_or("E");
    render(
        "players/replay.html",
        context! {
            title => format!("Table {id}, hand {n}"),
            id => id,
            n => n,
            label => s.label,
            names => s.names,
            views => views,
            start => start,
            held => held,
        },
    )
}

/// `?view=E&at=12` on a replay step: the seat (or `all` once public) and the event number.
#[derive(Deserialize)]
pub struct StepQuery {
    view: String,
    at: usize,
}

/// One moment of a finished hand, from one seat's eyes or with every hand open.
pub async fn replay_step(
    State(app): State<App>,
    Path((id, n)): Path<(i64, u32)>,
    Query(q): Query<StepQuery>,
    headers: HeaderMap,
) -> Page {
    let views = hand_views(&app, id, n, viewer_of(&app, &headers)?)?;
    if !views.contains(&q.view.as_str()) {
        return Err(AppError::Forbidden(format!(
            "view: '{}' is not open to you for this hand (you may have {})",
            q.view,
            views.join(", ")
        )));
    }
    let (h, log) = stored_hand(&app, id, n)?;
    let s: HandSummary =
        serde_json::from_str(&h.summary).map_err(|e| AppError::Internal(e.to_string()))?;
    let eye =
        match q.view.as_str() {
            "all" => Eye::Open,
            v => Eye::Seat(mcr::Wind::parse(v).ok_or_else(|| {
                AppError::Invalid(format!("view: '{v}' is not E, S, W, N or all"))
            })?),
        };
    let mut table = start_of(&log).map_err(|e| AppError::Internal(e.to_string()))?;
    let at = q.at.min(log.actions.len());
    for d in &log.actions[..at] {
        table
            .apply(d.seat, d.action)
            .map_err(|e| AppError::Internal(e.to_string()))?;
    }
    let mut out = json!({
        "total": log.actions.len(),
        "at": at,
        "names": s.names,
        "board": board(&table, eye),
    });
    if let Some(r) = table.result() {
        out["result"] = json!({
            "kind": r.kind,
            "wins": r.wins.iter().map(win_json).collect::<Vec<_>>(),
            "points": r.points,
        });
    }
    // The coming move, when this view may know it before it is made.
    if let Some(d) = log
        .actions
        .get(at)
        .filter(|d| eye == Eye::Open || eye == Eye::Seat(d.seat))
    {
        // In words for the log's readers; as the engine's move for the page to say.
        out["next"] = json!({"seat": d.seat, "action": d.action.to_string(), "move": d.action});
    }
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        out.to_string(),
    )
        .into_response())
}

/// A hand number from a path, who asks and the views of it they may have.
fn asked_hand(
    app: &App,
    id: i64,
    n: &str,
    headers: &HeaderMap,
) -> AppResult<(u32, Viewer, Vec<&'static str>)> {
    let n: u32 = n
        .parse()
        .map_err(|_| AppError::NotFound(format!("no hand '{n}'")))?;
    let viewer = viewer_of(app, headers)?;
    Ok((n, viewer, hand_views(app, id, n, viewer)?))
}

/// `/play/t/{id}/hands/{n}/review.json`: the hand's review by the expert, the seats the
/// secrecy rule shows the viewer (their own until the hand is open to them): `state` is
/// `none` (no person at the hand, or kept before reviews), `queued`, `failed` (with the
/// reason) or `done` (with `seats`).
pub async fn hand_review(
    State(app): State<App>,
    Path((id, n)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Page {
    let (n, _, views) = asked_hand(&app, id, &n, &headers)?;
    let (h, _) = stored_hand(&app, id, n)?;
    let body = match app.store.review_of(h.id)? {
        None => json!({"state": "none"}),
        Some(ReviewState::Queued) => json!({"state": "queued"}),
        Some(ReviewState::Failed(why)) => json!({"state": "failed", "reason": why}),
        Some(ReviewState::Done(text)) => {
            let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                AppError::Internal(format!("review of hand {n} of table {id}: {e}"))
            })?;
            seen_review(v, &views)
        }
    };
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response())
}

/// `?seat=S` on a field: the seat whose holders to compare.
#[derive(Deserialize)]
pub struct FieldQuery {
    #[serde(default)]
    seat: Option<String>,
}

/// `/play/t/{id}/hands/{n}/field.json`: everyone who held a seat of this hand's deal, and
/// at each decision who reached the same position and what they did
/// ([`play::field::Field`], `state` `open`). It shows every holder's tiles, so it needs
/// the whole hand open to the viewer: before that a 403 whose `reason` says when it
/// opens. The seat is the viewer's own in the hand unless `seat` names another (a
/// challenge's: its compared seat).
pub async fn hand_field(
    State(app): State<App>,
    Path((id, n)): Path<(i64, String)>,
    Query(q): Query<FieldQuery>,
    headers: HeaderMap,
) -> Page {
    let (n, viewer, views) = asked_hand(&app, id, &n, &headers)?;
    let json_reply = |status: StatusCode, body: serde_json::Value| {
        (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response()
    };
    if !views.contains(&"all") {
        let spec = table_spec(&app, id)?;
        let deal = play::secrecy::deal_state(&app.hall, &spec, n as usize - 1, true)?;
        let reason = format!(
            "the field shows every holder's tiles: it opens once the deal is over everywhere ({})",
            deal.why
        );
        return Ok(json_reply(
            StatusCode::FORBIDDEN,
            json!({"state": "closed", "reason": reason}),
        ));
    }
    let (h, _) = stored_hand(&app, id, n)?;
    let s: HandSummary =
        serde_json::from_str(&h.summary).map_err(|e| AppError::Internal(e.to_string()))?;
    let compared = h
        .deal_key
        .as_deref()
        .and_then(|k| k.strip_prefix("chal:"))
        .and_then(|k| k.rsplit(':').next())
        .and_then(|x| x.parse::<usize>().ok());
    let held = viewer
        .person()
        .and_then(|p| s.persons.iter().position(|&x| x == Some(p)));
    let seat = match &q.seat {
        Some(w) => mcr::Wind::parse(w)
            .ok_or_else(|| AppError::Invalid(format!("seat: '{w}' is not E, S, W or N")))?,
        None => mcr::Wind::from_index(
            compared
                .or(held)
                .or(s.persons.iter().position(Option::is_some))
                .unwrap_or(0),
        ),
    };
    if compared.is_some_and(|c| c != seat.index()) {
        return Err(AppError::NotFound(format!(
            "hand {n} of table {id} is a challenge's: its field is of seat {} only",
            ["E", "S", "W", "N"][compared.unwrap_or(0)]
        )));
    }
    let Some(field) = play::field::field_of(&app.hall, &h, seat)? else {
        return Err(AppError::NotFound(format!(
            "hand {n} of table {id} was dealt at its table only: it has no field"
        )));
    };
    let mut body = serde_json::to_value(&field).map_err(|e| AppError::Internal(e.to_string()))?;
    body["state"] = "open".into();
    Ok(json_reply(StatusCode::OK, body))
}

/// A done review with only the seats among `views` (seat letters).
fn seen_review(mut v: serde_json::Value, views: &[&str]) -> serde_json::Value {
    if let Some(seats) = v.get_mut("seats").and_then(|s| s.as_array_mut()) {
        seats.retain(|s| s["seat"].as_str().is_some_and(|w| views.contains(&w)));
    }
    v["state"] = "done".into();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A review of two people's seats shows a viewer of one seat that seat alone, a viewer
    /// of the whole hand both, a viewer of another seat neither.
    #[test]
    fn a_review_keeps_the_seats_the_viewer_may_see() {
        let review = json!({"reviewer": "expert", "seats": [
            {"seat": "S", "review": {"decisions": 3}},
            {"seat": "N", "review": {"decisions": 4}},
        ]});
        let seats = |views: &[&str]| -> Vec<String> {
            seen_review(review.clone(), views)["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["seat"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(seats(&["S"]), ["S"]);
        assert_eq!(seats(&["E", "S", "W", "N", "all"]), ["S", "N"]);
        assert!(seats(&["W"]).is_empty());
        assert_eq!(seen_review(review.clone(), &["N"])["state"], "done");
    }
}
