//! The organiser's day at the venue: checking players in, late withdrawals with the
//! substitute or bot who takes the seat, and the round clock shown on the big screen.

use std::fmt::Write as _;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Form;
use store::{Event, EventId, StandIn, Withdrawal};

use super::{back, confirm_page, sittings_with_results, MAX_NAME};
use crate::service::{entrant_name, AppError};
use crate::web::{director_post, esc, field, number, short_field, App, Fields, Page};

/// Longest round clock the director may set, in minutes.
const MAX_CLOCK_MINUTES: i64 = 24 * 60;

/// Seconds since 1970, from the server's clock.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The players table of the director's event page: check-in and withdrawal for each.
pub fn players_section(e: &Event, csrf: &str) -> String {
    let id = e.id;
    let n = e.players.len();
    let absent: Vec<String> = (1..=n as u32)
        .filter(|p| !e.checked_in.contains(p))
        .map(|p| format!("{p} {}", entrant_name(e, p)))
        .collect();
    let mut b = format!(
        "<h2 id=\"players\">Players</h2><p id=\"checkin-count\">{} of {n} checked in.{}</p>\
         <div class=\"wide\"><table class=\"players\"><tr><th>#</th><th>name</th><th>team</th><th>check-in</th><th>withdrawal</th></tr>",
        e.checked_in.len(),
        if absent.is_empty() || absent.len() == n {
            String::new()
        } else if absent.len() > 12 {
            format!(" Not here: {} … and {} more.", esc(&absent[..12].join(", ")), absent.len() - 12)
        } else {
            format!(" Not here: {}.", esc(&absent.join(", ")))
        }
    );
    for (i, p) in e.players.iter().enumerate() {
        let no = i as u32 + 1;
        let here = e.checked_in.contains(&no);
        let check = format!(
            "<form class=\"inline\" method=\"post\" action=\"/director/events/{id}/checkin\">{csrf}\
             <input type=\"hidden\" name=\"player\" value=\"{no}\"><button name=\"present\" value=\"{}\">{}</button></form>",
            if here { 0 } else { 1 },
            if here { "✓ here (undo)" } else { "check in" }
        );
        let gone = match e.withdrawals.iter().find(|w| w.player == no) {
            Some(w) => format!(
                "from round {}: {} <form class=\"inline\" method=\"post\" action=\"/director/events/{id}/withdraw/{no}/cancel\">{csrf}<button>take back</button></form>",
                w.from_round,
                esc(&w.stand_in_name(&p.name))
            ),
            None => String::new(),
        };
        let _ = write!(
            b,
            "<tr{}><td>{no}</td><td>{}</td><td>{}</td><td>{check}</td><td>{gone}</td></tr>",
            if here { " class=\"here\"" } else { "" },
            esc(&p.name),
            esc(p.team.as_deref().unwrap_or(""))
        );
    }
    let rounds = e.movement.rounds.len();
    let _ = write!(
        b,
        "</table></div>\
         <form method=\"post\" action=\"/director/events/{id}/withdraw\">{csrf}<fieldset><legend>A player withdraws: someone takes the seat (the player keeps earlier rounds; the stand-in is listed, unranked)</legend>\
         <label>Player # <input name=\"player\" type=\"number\" min=\"1\" max=\"{n}\" required></label> \
         <label>from round <input name=\"round\" type=\"number\" min=\"1\" max=\"{rounds}\" value=\"1\" required></label> \
         <label><input type=\"radio\" name=\"by\" value=\"substitute\" checked> substitute named <input name=\"name\" maxlength=\"{MAX_NAME}\"></label> \
         <label><input type=\"radio\" name=\"by\" value=\"bot\"> a bot</label> <button>Withdraw</button></fieldset></form>"
    );
    b
}

/// The round clock's form and state on the director's event page.
pub fn clock_section(e: &Event, csrf: &str) -> String {
    let id = e.id;
    let now = match e.clock {
        Some((round, ends)) => {
            let left = ends - unix_now();
            if left > 0 {
                format!(
                    "Round {round}: {} left. ",
                    crate::web::public::minutes_seconds(left)
                )
            } else {
                format!("Round {round}: time is up. ")
            }
        }
        None => "No clock running. ".to_string(),
    };
    format!(
        "<h2>Round clock</h2><form method=\"post\" action=\"/director/events/{id}/clock\">{csrf}<p id=\"clock-state\">{now}\
         <label>Round <input name=\"round\" type=\"number\" min=\"1\" max=\"{}\" value=\"{}\" required></label> \
         <label>minutes <input name=\"minutes\" type=\"number\" min=\"0\" max=\"{MAX_CLOCK_MINUTES}\" value=\"90\" required></label> \
         <button>Start the clock</button> <button name=\"stop\" value=\"1\">Stop it</button> (shown on the big screen)</p></form>",
        e.movement.rounds.len(),
        e.clock.map_or(1, |c| c.0)
    )
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
        return Ok(confirm_page(
            &s,
            &format!("/director/events/{id}/withdraw"),
            &f,
            &what,
        ));
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
        Some((number(&f, "round")?, unix_now() + minutes * 60))
    };
    tracing::info!(event = id, minutes, action = "set_clock", "director action");
    app.store.set_clock(id, clock, "director")?;
    Ok(back(id))
}
