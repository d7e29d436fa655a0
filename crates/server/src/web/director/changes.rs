//! What the director changes on an event's page: players replaced or swapped, the
//! standings hidden, online play, conflicts settled, rounds opened and closed, new table
//! codes, penalties. Each is one store transaction with its audit line.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Form;
use store::{Entrant, EventId};
use tournament::standings::{Penalty, PenaltyKind};

use super::{back, confirm_page, sittings_with_results, MAX_NAME};
use crate::service::AppError;
use crate::web::{director_post, field, number, short_field, App, Fields, Page};

/// Longest penalty reason accepted.
const MAX_NOTE: usize = 500;

/// `POST …/player`: gives a player number a new name (and team), e.g. a substitute.
pub async fn replace_player(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = director_post(&app, &headers, &f)?;
    let team = match f.get("team").map(|t| t.trim()).filter(|t| !t.is_empty()) {
        Some(_) => Some(short_field(&f, "team", MAX_NAME)?.to_string()),
        None => None,
    };
    let now = Entrant {
        name: short_field(&f, "name", MAX_NAME)?.to_string(),
        team,
    };
    let player: u32 = number(&f, "player")?;
    let e = app.store.event(id)?;
    let was = e
        .players
        .get(player as usize - 1)
        .ok_or_else(|| AppError::Invalid(format!("player: no player {player}")))?;
    let moved = sittings_with_results(&e, &app.store.results(id)?, &[player], 1);
    if !moved.is_empty() && f.get("confirm").map(String::as_str) != Some("1") {
        let what = format!(
            "Player {player} is {} and has results already: {} (deal at table, hand). They stay with the seat: from now on they count for {}.",
            was.name,
            moved.join(", "),
            now.name
        );
        return confirm_page(&s, &format!("/director/events/{id}/player"), &f, &what);
    }
    tracing::info!(event = id, action = "replace_player", "director action");
    app.store.set_player(id, player, &now, "director")?;
    Ok(back(id))
}

/// `POST …/swap`: exchanges two players' seats from a round on.
pub async fn swap(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = director_post(&app, &headers, &f)?;
    let (a, b, round): (u32, u32, u32) = (number(&f, "a")?, number(&f, "b")?, number(&f, "round")?);
    let e = app.store.event(id)?;
    let moved = sittings_with_results(&e, &app.store.results(id)?, &[a, b], round);
    if !moved.is_empty() && f.get("confirm").map(String::as_str) != Some("1") {
        let what = format!(
            "From round {round} on, players {a} and {b} exchange seats. Results already entered there move with the seats to the other player: {}.",
            moved.join(", ")
        );
        return confirm_page(&s, &format!("/director/events/{id}/swap"), &f, &what);
    }
    tracing::info!(event = id, action = "swap", "director action");
    app.store.swap_players(id, a, b, round, "director")?;
    Ok(back(id))
}

/// `POST …/hide`: hides or shows the public standings (`hide` = 1 hides).
pub async fn hide(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "hide", "director action");
    app.store
        .set_hide_standings(id, field(&f, "hide")? == "1", "director")?;
    Ok(back(id))
}

/// Plays the event online: players link their seats, tables open from the start time.
pub async fn online(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "online", "director action");
    let start_in: u32 = crate::web::players::num(&f, "start_in", 10, 0, 60 * 24 * 31)?;
    let limit: u32 = crate::web::players::num(&f, "limit", 20, 1, play::spec::MAX_LIMIT_S)?;
    let bank: u32 = crate::web::players::num(&f, "bank", 60, 0, play::spec::MAX_BANK_S)?;
    let bot = f.get("bot").map(|s| s.as_str()).unwrap_or("strong");
    play::online::enable(&app.hall, id, start_in, limit, bank, bot, "director")?;
    Ok(back(id))
}

/// `POST …/conflicts/{cid}`: settles a conflict between two entries of a sitting.
pub async fn resolve(
    State(app): State<App>,
    Path((id, cid)): Path<(EventId, i64)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "resolve", "director action");
    app.store
        .resolve_conflict(id, cid, field(&f, "accept")? == "1", "director")?;
    Ok(back(id))
}

/// `POST …/rounds/{round}`: opens (`open` = 1) or closes a round for the tables.
pub async fn set_round(
    State(app): State<App>,
    Path((id, round)): Path<(EventId, u32)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let open = field(&f, "open")? == "1";
    tracing::info!(
        event = id,
        round,
        open,
        action = "set_round",
        "director action"
    );
    app.store.set_round(id, round, open, "director")?;
    Ok(back(id))
}

/// `POST …/codes`: gives every table a new code (for the next round) and logs the
/// tables' phones out.
pub async fn new_codes(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "new_codes", "director action");
    let tables = app.store.event(id)?.table_codes.len();
    let codes: Vec<String> = (0..tables)
        .map(|_| crate::service::random_code(crate::service::TABLE_CODE_LEN))
        .collect();
    app.store.set_table_codes(id, &codes, "director")?;
    Ok(back(id))
}

/// `POST …/conflicts`: settles every ticked conflict (fields `c<id>`) the same way.
pub async fn resolve_many(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let accept = field(&f, "accept")? == "1";
    let mut ids: Vec<i64> = f
        .keys()
        .filter_map(|k| k.strip_prefix('c')?.parse().ok())
        .collect();
    ids.sort_unstable();
    if ids.is_empty() {
        return Err(AppError::Invalid("tick at least one conflict".into()));
    }
    tracing::info!(
        event = id,
        action = "resolve_many",
        conflicts = ids.len(),
        "director action"
    );
    for cid in ids {
        app.store.resolve_conflict(id, cid, accept, "director")?;
    }
    Ok(back(id))
}

/// `POST …/penalties`: adds a penalty (IMP, false Hu or barred from Hu) to a player.
pub async fn add_penalty(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "add_penalty", "director action");
    let kind = match field(&f, "kind")? {
        "imp" => PenaltyKind::Imp,
        "dead_hand" => PenaltyKind::DeadHand,
        "barred_from_hu" => PenaltyKind::BarredFromHu,
        other => {
            return Err(AppError::Invalid(format!(
                "kind: '{other}' is not a penalty kind"
            )))
        }
    };
    let imp: i32 = f
        .get("imp")
        .filter(|v| !v.trim().is_empty())
        .map_or(Ok(0), |_| number(&f, "imp"))?;
    if imp < 0 {
        return Err(AppError::Invalid(
            "imp: a deduction is entered as a positive number".into(),
        ));
    }
    let deal = f
        .get("deal")
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty());
    if let Some(d) = &deal {
        let e = app.store.event(id)?;
        if !e.movement.deal_names().contains(d) {
            return Err(AppError::Invalid(format!(
                "deal: '{d}' is not a deal of this event"
            )));
        }
    }
    let p = Penalty {
        player: number(&f, "player")?,
        kind,
        deal,
        imp,
        reason: match f.get("reason").map(|r| r.trim()).filter(|r| !r.is_empty()) {
            Some(_) => short_field(&f, "reason", MAX_NOTE)?.to_string(),
            None => String::new(),
        },
    };
    app.store.add_penalty(id, &p, "director")?;
    Ok(back(id))
}

/// `POST …/penalties/{pid}/remove`: withdraws a penalty.
pub async fn remove_penalty(
    State(app): State<App>,
    Path((id, pid)): Path<(EventId, i64)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(event = id, action = "remove_penalty", "director action");
    app.store.remove_penalty(id, pid, "director")?;
    Ok(back(id))
}
