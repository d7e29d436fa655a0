//! Pages anyone may read: the event list, standings (live, big screen, exports) and the
//! per-deal result tables — unless the director has hidden them.

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use store::{Event, EventId, Role};
use tournament::export::{line_json, ranking_csv, standings_csv, team_line_json};
use tournament::standings::{Standings, TeamStandings};

use super::{data, esc, html, page, App, Page};
use crate::auth::session_of;
use crate::i18n::{seat_name, tr, trf};
use crate::service::{results_of, sitting_of, AppError, AppResult};

pub async fn home(State(app): State<App>) -> Page {
    let mut body = format!("<h2>{}</h2><ul>", tr("Events"));
    for (id, name) in app.store.events()? {
        let _ = write!(
            body,
            "<li>{} — <a href=\"/events/{id}/standings\">{}</a> · <a href=\"/events/{id}/big\">{}</a> · <a href=\"/events/{id}/deals\">{}</a> · <a href=\"/events/{id}/table\">{}</a></li>",
            esc(&name),
            tr("standings"),
            tr("big screen"),
            tr("deal tables"),
            tr("score entry")
        );
    }
    let _ = write!(
        body,
        "</ul><p><a href=\"/play\">{}</a> · <a href=\"/director\">{}</a></p>",
        tr("Play online"),
        tr("Director")
    );
    Ok(html(StatusCode::OK, tr("Duplicate MCR"), &body))
}

/// Standings of an event, or why they are not shown.
pub struct Computed {
    pub event: Event,
    pub individual: Standings,
    pub team: Option<TeamStandings>,
    pub entered: usize,
    pub expected: usize,
    /// Online events: by player, hands the bot played for them.
    pub bot_hands: std::collections::BTreeMap<u32, u32>,
}

pub fn compute(app: &App, id: EventId) -> AppResult<Computed> {
    let event = app.store.event(id)?;
    let stored = app.store.results(id)?;
    let results = results_of(app.store.as_ref(), &event, &stored)?;
    let individual = results
        .individual()
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let team = if event.team {
        Some(
            results
                .team()
                .map_err(|e| AppError::Internal(e.to_string()))?,
        )
    } else {
        None
    };
    let expected = event
        .movement
        .rounds
        .iter()
        .flat_map(|r| &r.hands)
        .map(|h| h.tables.len())
        .sum();
    let entered = stored.len();
    let bot_hands = play::online::bot_hands(&app.hall, id)?;
    Ok(Computed {
        event,
        individual,
        team,
        entered,
        expected,
        bot_hands,
    })
}

/// Whether this request may see the standings of `e`.
pub fn visible(app: &App, headers: &HeaderMap, e: &Event) -> AppResult<bool> {
    if !e.hide_standings {
        return Ok(true);
    }
    let s = session_of(app.store.as_ref(), headers)?;
    Ok(matches!(s.map(|s| s.role), Some(Role::Director)))
}

/// The standings for a download: refused while they are hidden from this request.
fn shown(app: &App, headers: &HeaderMap, id: EventId) -> AppResult<Computed> {
    let c = compute(app, id)?;
    if !visible(app, headers, &c.event)? {
        return Err(AppError::Forbidden("the standings are hidden".into()));
    }
    Ok(c)
}

pub fn hidden_page(e: &Event) -> Response {
    html(
        StatusCode::OK,
        &e.name,
        &format!(
            "<p class=\"warn\">{}</p>",
            tr("The standings are hidden for the last rounds. They will be shown at the end.")
        ),
    )
}

/// The standings tables as HTML.
pub fn standings_html(c: &Computed) -> String {
    let mut s = String::new();
    if let Some(t) = &c.team {
        let _ = write!(
            s,
            "<h2>{}</h2><table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>IMP</th></tr>",
            tr("Teams"),
            tr("rank"),
            tr("team"),
            tr("deals"),
            tr("ms")
        );
        for l in &t.lines {
            let _ = write!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                l.rank,
                esc(&l.name),
                l.hands,
                l.ms,
                l.imp
            );
        }
        let _ = write!(s, "</table><h2>{}</h2>", tr("Players"));
    }
    let _ = write!(
        s,
        "<div class=\"wide\"><table id=\"standings\"><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>IMP</th><th>{}</th></tr>",
        tr("rank"),
        tr("player"),
        tr("name"),
        tr("hands"),
        tr("ms"),
        tr("penalty IMP")
    );
    for l in &c.individual.lines {
        // Online events mark hands the bot played for a player.
        let mut bot = match c.bot_hands.get(&l.player) {
            Some(n) => format!(
                " <span class=\"bot\" title=\"{}\">({})</span>",
                tr("hands played by the bot"),
                trf("bot: {} hands", &[&n])
            ),
            None => String::new(),
        };
        if let Some(w) = c.event.withdrawals.iter().find(|w| w.player == l.player) {
            let _ = write!(
                bot,
                " <span class=\"withdrew\">({})</span>",
                trf("withdrew from round {}", &[&w.from_round])
            );
        }
        let (rank, class, number) = match l.stands_in_for {
            Some(p) => ("—".to_string(), " class=\"standin\"", trf("for {}", &[&p])),
            None => (l.rank.to_string(), "", l.player.to_string()),
        };
        let _ = write!(
            s,
            "<tr{class}><td>{rank}</td><td>{number}</td><td>{}{bot}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&l.name),
            l.hands,
            l.ms,
            l.imp,
            l.penalty_imp
        );
    }
    s.push_str("</table></div>");
    if c.individual.lines.iter().any(|l| l.stands_in_for.is_some()) {
        let _ = write!(
            s,
            "<p class=\"note\">{}</p>",
            tr("— a substitute or bot who took the seat of a player who withdrew: their results count for the field, but they are not ranked.")
        );
    }
    s
}

/// Seconds as "m:ss", or "h:mm:ss" from an hour up.
pub fn minutes_seconds(secs: i64) -> String {
    let s = secs.max(0);
    let (h, m, x) = (s / 3600, s % 3600 / 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{x:02}")
    } else {
        format!("{m}:{x:02}")
    }
}

pub async fn standings(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Page {
    let c = compute(&app, id)?;
    if !visible(&app, &headers, &c.event)? {
        return Ok(hidden_page(&c.event));
    }
    let body = format!(
        "<p>{}</p>{}",
        trf(
            "{} of {} table results entered. This page refreshes by itself.",
            &[&c.entered, &c.expected]
        ),
        standings_html(&c)
    );
    Ok(html_refresh(&c.event.name, &body, 20))
}

fn html_refresh(title: &str, body: &str, secs: u32) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page(title, body, Some(secs)),
    )
        .into_response()
}

/// Per-deal tables laid out like S3 Appendix 3: for each deal and seat, every
/// table's match points, the difference from the average (DIF) and the IMP.
pub async fn deal_tables(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Page {
    let c = compute(&app, id)?;
    if !visible(&app, &headers, &c.event)? {
        return Ok(hidden_page(&c.event));
    }
    let names: Vec<String> = c.event.players.iter().map(|p| p.name.clone()).collect();
    let mut body = String::new();
    for deal in c.event.movement.deal_names() {
        let seats: Vec<_> = c
            .individual
            .deal_seats
            .iter()
            .filter(|d| d.deal == deal)
            .collect();
        if seats.is_empty() {
            continue;
        }
        let _ = write!(
            body,
            "<h2>{}</h2><div class=\"wide\"><table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>DIF</th><th>IMP</th></tr>",
            trf("Deal {}", &[&esc(&deal)]),
            tr("seat"),
            tr("table"),
            tr("hand"),
            tr("player"),
            tr("ms")
        );
        for ds in seats {
            for e in &ds.entries {
                let name = names
                    .get(e.player as usize - 1)
                    .cloned()
                    .unwrap_or_default();
                let (table, hand) = sitting_of(e.table);
                let _ = write!(
                    body,
                    "<tr><td>{}</td><td>{table}</td><td>{hand}</td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    seat_name(ds.wind),
                    e.player,
                    esc(&name),
                    e.ms,
                    e.dif,
                    e.imp
                );
            }
        }
        body.push_str("</table></div>");
    }
    if body.is_empty() {
        let _ = write!(body, "<p>{}</p>", tr("No results yet."));
    }
    body.insert_str(0, &super::deals::public_line(&c.event));
    Ok(html(
        StatusCode::OK,
        &format!("{} — {}", c.event.name, tr("deals")),
        &body,
    ))
}

pub async fn export_standings(
    State(app): State<App>,
    Path((id, fmt)): Path<(EventId, String)>,
    headers: HeaderMap,
) -> Page {
    let c = shown(&app, &headers, id)?;
    match fmt.as_str() {
        "csv" => Ok(data(
            "text/csv; charset=utf-8",
            standings_csv(&c.individual),
        )),
        "json" => {
            let lines: Vec<_> = c.individual.lines.iter().map(line_json).collect();
            let teams: Option<Vec<_>> = c
                .team
                .as_ref()
                .map(|t| t.lines.iter().map(team_line_json).collect());
            let v = serde_json::json!({"event": c.event.name, "players": lines, "teams": teams});
            Ok(data("application/json", v.to_string()))
        }
        other => Err(AppError::NotFound(format!(
            "format '{other}' (use csv or json)"
        ))),
    }
}

/// `GET /events/{id}/ranking.csv`: the final ranking for a rating body
/// (`docs/ranking-export.md`), shown when the standings are.
pub async fn export_ranking(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Page {
    let c = shown(&app, &headers, id)?;
    let e = &c.event;
    let csv = ranking_csv(
        &e.name,
        &c.individual,
        |p| e.players.get(p as usize - 1).and_then(|x| x.team.clone()),
        |p| {
            e.withdrawals
                .iter()
                .find(|w| w.player == p)
                .map(|w| w.from_round)
        },
    );
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                axum::http::header::CONTENT_DISPOSITION,
                "attachment; filename=\"ranking.csv\"",
            ),
        ],
        csv,
    )
        .into_response())
}
