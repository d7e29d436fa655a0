//! The organiser's day at the venue: checking players in, late withdrawals with the
//! substitute or bot who takes the seat, and the round clock shown on the big screen.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Form;
use play::when::now_s;
use serde_json::{json, Value};
use store::{Event, EventId, StandIn, Withdrawal};

use super::{back, confirm_page, sittings_with_results, MAX_NAME};
use crate::service::{entrant_name, AppError};
use crate::web::{director_post, field, number, short_field, App, Fields, Page};

/// Longest round clock the director may set, in minutes.
pub const MAX_CLOCK_MINUTES: i64 = 24 * 60;

/// What the event page shows of the day: check-ins, who is absent, each player's
/// withdrawal, and the round clock.
pub fn values(e: &Event) -> Value {
    let n = e.players.len();
    let absent: Vec<String> = (1..=n as u32)
        .filter(|p| !e.checked_in.contains(p))
        .map(|p| format!("{p} {}", entrant_name(e, p)))
        .collect();
    let absent = if absent.is_empty() || absent.len() == n {
        String::new()
    } else if absent.len() > 12 {
        format!(
            "{} … and {} more",
            absent[..12].join(", "),
            absent.len() - 12
        )
    } else {
        absent.join(", ")
    };
    let players: Vec<Value> = e
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let no = i as u32 + 1;
            json!({
                "no": no,
                "name": p.name,
                "team": p.team.clone().unwrap_or_default(),
                "here": e.checked_in.contains(&no),
                "withdrawal": e.withdrawals.iter().find(|w| w.player == no).map(|w| {
                    json!({"from": w.from_round, "stand_in": w.stand_in_name(&p.name)})
                }),
            })
        })
        .collect();
    let clock = e.clock.map(|(round, ends)| {
        let left = ends - now_s();
        json!({"round": round, "left": left, "shown": crate::web::public::minutes_seconds(left)})
    });
    json!({
        "checked_in": e.checked_in.len(),
        "absent": absent,
        "players": players,
        "clock": clock,
    })
}

/// `POST …/checkin`: checks a player in (`present` = 1) or takes it back.
pub async fn check_in(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let player: u32 = number(&f, "player")?;
    let present = match field(&f, "present")? {
        "1" => true,
        "0" => false,
        other => {
            return Err(AppError::Invalid(format!(
                "present: '{other}' (1 to check in, 0 to take it back)"
            )))
        }
    };
    tracing::info!(
        event = id,
        player,
        present,
        action = "check_in",
        "director action"
    );
    app.store.set_checked_in(id, player, present, "director")?;
    Ok(back_to_players(id))
}

fn back_to_players(id: EventId) -> axum::response::Response {
    use axum::response::IntoResponse;
    axum::response::Redirect::to(&format!("/director/events/{id}#players")).into_response()
}

/// `POST …/withdraw`: a player withdraws from a round on; a substitute or a bot plays
/// the seat. Results already entered from that round on move to the stand-in, so that
/// asks for confirmation first.
pub async fn withdraw(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = director_post(&app, &headers, &f)?;
    let player: u32 = number(&f, "player")?;
    let from_round: u32 = number(&f, "round")?;
    let stand_in = match field(&f, "by")? {
        "bot" => StandIn::Bot,
        "substitute" => StandIn::Substitute(short_field(&f, "name", MAX_NAME)?.to_string()),
        other => {
            return Err(AppError::Invalid(format!(
                "by: '{other}' (substitute or bot)"
            )))
        }
    };
    let e = app.store.event(id)?;
    if player == 0 || player as usize > e.players.len() {
        return Err(AppError::Invalid(format!(
            "player: no player {player} (1 to {})",
            e.players.len()
        )));
    }
    let w = Withdrawal {
        player,
        from_round,
        stand_in,
    };
    let moved = sittings_with_results(&e, &app.store.results(id)?, &[player], from_round);
    if !moved.is_empty() && f.get("confirm").map(String::as_str) != Some("1") {
        let what = format!(
            "Player {player} ({}) withdraws from round {from_round}. Results already entered from then on will count for {} instead: {}.",
            entrant_name(&e, player),
            w.stand_in_name(&entrant_name(&e, player)),
            moved.join(", ")
        );
        return confirm_page(&s, &format!("/director/events/{id}/withdraw"), &f, &what);
    }
    tracing::info!(
        event = id,
        player,
        from_round,
        action = "withdraw",
        "director action"
    );
    app.store.withdraw(id, &w, "director")?;
    Ok(back_to_players(id))
}

/// `POST …/withdraw/{player}/cancel`: takes a withdrawal back.
pub async fn cancel_withdrawal(
    State(app): State<App>,
    Path((id, player)): Path<(EventId, u32)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    tracing::info!(
        event = id,
        player,
        action = "cancel_withdrawal",
        "director action"
    );
    app.store.cancel_withdrawal(id, player, "director")?;
    Ok(back_to_players(id))
}

/// `POST …/clock`: starts the round clock for `minutes` (0 stops it).
pub async fn set_clock(
    State(app): State<App>,
    Path(id): Path<EventId>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let minutes: i64 = number(&f, "minutes")?;
    if !(0..=MAX_CLOCK_MINUTES).contains(&minutes) {
        return Err(AppError::Invalid(format!(
            "minutes: 0 to {MAX_CLOCK_MINUTES}, not {minutes}"
        )));
    }
    let stop = f.get("stop").map(String::as_str) == Some("1");
    let clock = if stop || minutes == 0 {
        None
    } else {
        Some((number(&f, "round")?, now_s() + minutes * 60))
    };
    tracing::info!(event = id, minutes, action = "set_clock", "director action");
    app.store.set_clock(id, clock, "director")?;
    Ok(back(id))
}
