//! The director's pages: first-run password, login, events, an event's page, seating
//! changes, conflicts, penalties, the organiser's day, the deal set, printables, exports,
//! the audit trail, and around the events sign-ups and seasons.

pub mod changes;
pub mod day;
pub mod deals;
pub mod event;
pub mod events;
pub mod login;
pub mod print;
pub mod records;
pub mod seasons;

use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use minijinja::context;
use store::{EventId, Session};

use crate::web::pages::render;
use crate::web::{Fields, Page};

/// The director's routes.
pub fn routes() -> crate::web::Routes {
    let ev = |rest: &str| format!("/director/events/{{id}}{rest}");
    crate::web::Routes::new()
        .route("/setup", get(login::setup_page).post(login::setup))
        .route("/login", get(login::login_page).post(login::login))
        .route("/logout", post(login::logout))
        .route("/director", get(events::events))
        .route("/director/events", post(events::create_event))
        .route("/director/sessions/{sid}/end", post(events::end_session))
        .route(
            "/director/signups",
            get(seasons::signups).post(seasons::create_signup),
        )
        .route("/director/signups/{sid}", get(seasons::signup))
        .route("/director/signups/{sid}/act", post(seasons::signup_act))
        .route(
            "/director/signups/{sid}/make",
            post(seasons::make_from_signup),
        )
        .route(
            "/director/seasons",
            get(seasons::seasons).post(seasons::create_season),
        )
        .route("/director/seasons/{sid}", get(seasons::season))
        .route("/director/seasons/{sid}/parts", post(seasons::add_part))
        .route("/director/seasons/{sid}/final", post(seasons::final_event))
        .route(&ev(""), get(event::event))
        .route(&ev("/player"), post(changes::replace_player))
        .route(&ev("/swap"), post(changes::swap))
        .route(&ev("/conflicts"), post(changes::resolve_many))
        .route(&ev("/conflicts/{cid}"), post(changes::resolve))
        .route(&ev("/rounds/{round}"), post(changes::set_round))
        .route(&ev("/codes"), post(changes::new_codes))
        .route(&ev("/hide"), post(changes::hide))
        .route(&ev("/online"), post(changes::online))
        .route(&ev("/penalties"), post(changes::add_penalty))
        .route(
            &ev("/penalties/{pid}/remove"),
            post(changes::remove_penalty),
        )
        .route(&ev("/checkin"), post(day::check_in))
        .route(&ev("/withdraw"), post(day::withdraw))
        .route(
            &ev("/withdraw/{player}/cancel"),
            post(day::cancel_withdrawal),
        )
        .route(&ev("/clock"), post(day::set_clock))
        .route(&ev("/release"), post(deals::release))
        .route(&ev("/print/{what}"), get(print::print))
        .route(&ev("/results.{fmt}"), get(records::export_results))
        .route(&ev("/audit"), get(records::audit))
}

/// Longest player or team name accepted (as in an entrant list).
pub const MAX_NAME: usize = 80;

/// Back to the event's page.
pub fn back(id: EventId) -> Response {
    Redirect::to(&format!("/director/events/{id}")).into_response()
}

/// The sittings from round `from` on where one of `players` sits and a result is entered,
/// as `deal at table t, hand h`.
pub fn sittings_with_results(
    e: &store::Event,
    results: &[store::StoredResult],
    players: &[u32],
    from: u32,
) -> Vec<String> {
    let mut out = Vec::new();
    for r in e.movement.rounds.iter().filter(|r| r.round >= from) {
        for h in &r.hands {
            for t in &h.tables {
                let sits = t.seats.iter().any(|x| players.contains(&x.player));
                let entered = results
                    .iter()
                    .any(|x| x.deal == t.deal && x.table == t.table && x.hand == h.hand);
                if sits && entered {
                    out.push(format!("{} at table {}, hand {}", t.deal, t.table, h.hand));
                }
            }
        }
    }
    out
}

/// A page that says what a change would move and asks again, re-posting the same fields
/// with `confirm=1`.
pub fn confirm_page(s: &Session, action: &str, f: &Fields, what: &str) -> Page {
    let mut fields: Vec<(&String, &String)> = f
        .iter()
        .filter(|(k, _)| *k != "csrf" && *k != "confirm")
        .collect();
    fields.sort();
    render(
        "confirm.html",
        context! {
            title => "Please confirm",
            what => what,
            action => action,
            csrf => s.csrf,
            fields => fields,
        },
    )
}
