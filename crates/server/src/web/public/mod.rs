//! Pages anyone may read: the front page and the rules ([`home`]), standings (live, big screen, exports) and the
//! per-deal result tables — unless the director has hidden them.

pub mod big;
pub mod home;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use minijinja::context;
use serde_json::{json, Value};
use store::{Event, EventId, Role};
use table::set::{SetKey, SetKind};
use tournament::export::{line_json, ranking_csv, standings_csv, team_line_json};

use crate::auth::session_of;
use crate::i18n::{seat_name, tr};
use crate::service::{sitting_of, AppError, AppResult};
use crate::web::pages::render;
use crate::web::{data, App, Page};

/// The public routes.
pub fn routes() -> crate::web::Routes {
    use axum::routing::get;
    crate::web::Routes::new()
        .route("/", get(home::home))
        .route("/rules", get(home::rules))
        .route("/events/{id}/standings", get(standings))
        .route("/events/{id}/standings.{fmt}", get(export_standings))
        .route("/events/{id}/big", get(big::big_screen))
        .route("/events/{id}/ranking.csv", get(export_ranking))
        .route("/events/{id}/deals", get(deal_tables))
        .route("/events/{id}/set.json", get(set_json))
        .route("/seasons/{id}", get(season))
        .route("/seasons/{id}/standings.csv", get(season_csv))
        .route("/seasons/{id}/print", get(season_print))
}

pub use crate::service::Computed;

/// An event's standings from its stored results.
pub fn compute(app: &App, id: EventId) -> AppResult<Computed> {
    crate::service::compute(&app.hall, id)
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

/// The page shown while the standings are hidden.
pub fn hidden_page(e: &Event) -> Page {
    render("public/hidden.html", context! { title => e.name })
}

/// The standings as the templates show them: teams (in a team event) and players.
fn standings_values(c: &Computed) -> Value {
    let teams: Option<Vec<Value>> = c.team.as_ref().map(|t| {
        t.lines
            .iter()
            .map(|l| json!({"rank": l.rank, "name": l.name, "hands": l.hands, "ms": l.ms, "imp": l.imp}))
            .collect()
    });
    let players: Vec<Value> = c
        .individual
        .lines
        .iter()
        .map(|l| {
            json!({
                "rank": l.rank,
                "player": l.player,
                "name": l.name,
                "hands": l.hands,
                "ms": l.ms,
                "imp": l.imp,
                "penalty_imp": l.penalty_imp,
                "stands_in_for": l.stands_in_for,
                // Online events mark hands the bot played for a player.
                "bot_hands": c.bot_hands.get(&l.player),
                "withdrew": c.event.withdrawals.iter().find(|w| w.player == l.player).map(|w| w.from_round),
            })
        })
        .collect();
    json!({
        "teams": teams,
        "players": players,
        "standins": c.individual.lines.iter().any(|l| l.stands_in_for.is_some()),
    })
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

/// `GET /events/{id}/standings`: the live standings, refreshing by themselves.
pub async fn standings(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
) -> Page {
    let c = compute(&app, id)?;
    if !visible(&app, &headers, &c.event)? {
        return hidden_page(&c.event);
    }
    let v = standings_values(&c);
    render(
        "public/standings.html",
        context! {
            title => c.event.name,
            refresh => 20,
            entered => c.entered,
            expected => c.expected,
            teams => v["teams"],
            players => v["players"],
            standins => v["standins"],
        },
    )
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
        return hidden_page(&c.event);
    }
    let names: Vec<String> = c.event.players.iter().map(|p| p.name.clone()).collect();
    let mut deals = Vec::new();
    for deal in c.event.movement.deal_names() {
        let mut entries = Vec::new();
        for ds in c.individual.deal_seats.iter().filter(|d| d.deal == deal) {
            for e in &ds.entries {
                let (table, hand) = sitting_of(e.table);
                entries.push(json!({
                    "seat": seat_name(ds.wind),
                    "table": table,
                    "hand": hand,
                    "player": e.player,
                    "name": names.get(e.player as usize - 1).cloned().unwrap_or_default(),
                    "ms": e.ms,
                    "dif": e.dif.to_string(),
                    "imp": e.imp,
                }));
            }
        }
        if !entries.is_empty() {
            deals.push(json!({"name": deal, "entries": entries}));
        }
    }
    let key = key_of(&c.event);
    render(
        "public/deal_tables.html",
        context! {
            title => format!("{} — {}", c.event.name, tr("deals")),
            id => id,
            deals => deals,
            commitment => key.map(|k| k.commitment()),
            released => c.event.deals_released,
        },
    )
}

/// `GET /events/{id}/standings.{csv,json}`: the standings as a download (refused while
/// they are hidden from this request).
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
            let v = json!({"event": c.event.name, "players": lines, "teams": teams});
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

/// The event's secret key, if it has one.
pub fn key_of(e: &Event) -> Option<SetKey> {
    e.deal_key.as_deref().and_then(|k| SetKey::parse(k).ok())
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

/// `GET /seasons/{id}`: a season's standings.
pub async fn season(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let v = season_of(&app, &headers, id)?;
    render(
        "public/season.html",
        context! { title => v.season.name.clone(), s => v.json() },
    )
}

/// A season as this request may see it (the director sees the hidden standings too).
fn season_of(app: &App, headers: &HeaderMap, id: i64) -> AppResult<crate::season::SeasonView> {
    let director = matches!(
        session_of(app.store.as_ref(), headers)?.map(|s| s.role),
        Some(Role::Director)
    );
    crate::season::season_view(&app.hall, id, director)
}

/// `GET /seasons/{id}/standings.csv`: the season's standings as CSV (counted results
/// marked `*`).
pub async fn season_csv(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let v = season_of(&app, &headers, id)?;
    Ok(data("text/csv; charset=utf-8", v.csv()))
}

/// `GET /seasons/{id}/print`: the season's standings on A4.
pub async fn season_print(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let v = season_of(&app, &headers, id)?;
    render(
        "print/season.html",
        context! { title => v.season.name.clone(), s => v.json() },
    )
}
