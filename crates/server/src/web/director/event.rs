//! One event's page for the director: links, printables, the round clock, the board of
//! rounds, conflicts, the standings switch, online play, the deal set, table codes,
//! players (check-in, withdrawals), seating changes and penalties.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use minijinja::context;
use serde_json::{json, Value};
use store::{Conflict, Event, EventId, StoredResult};
use tournament::movement::Movement;

use super::{day, deals, MAX_NAME};
use crate::service::AppResult;
use crate::web::pages::render;
use crate::web::{director_or_login, to_login, App, Page};

/// `GET /director/events/{id}`: the event's page.
pub async fn event(State(app): State<App>, Path(id): Path<EventId>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let e = app.store.event(id)?;
    let results = app.store.results(id)?;
    let conflicts = app.store.conflicts(id)?;
    let states = app.store.round_states(id)?;
    let conflict_rows: Vec<Value> = conflicts
        .iter()
        .map(|c| {
            let stored = results
                .iter()
                .find(|r| r.deal == c.deal && r.table == c.table && r.hand == c.hand)
                .map(|r| r.entry.describe())
                .unwrap_or_default();
            json!({"id": c.id, "deal": c.deal, "table": c.table, "hand": c.hand, "stored": stored, "entry": c.entry.describe(), "by": c.by})
        })
        .collect();
    let penalties: Vec<Value> = app
        .store
        .penalties(id)?
        .into_iter()
        .map(|(pid, p)| json!({"id": pid, "player": p.player, "kind": format!("{:?}", p.kind), "deal": p.deal.unwrap_or_default(), "imp": p.imp, "reason": p.reason}))
        .collect();
    let day = day::values(&e);
    render(
        "director/event.html",
        context! {
            title => e.name,
            id => id,
            csrf => s.csrf,
            method => e.movement.method,
            entered => results.len(),
            clock => day["clock"],
            rounds => e.movement.rounds.len(),
            max_clock => day::MAX_CLOCK_MINUTES,
            board => round_board(&e.movement, &results, &conflicts, &states),
            conflicts => conflict_rows,
            hidden => e.hide_standings,
            online => online_values(&app, &e)?,
            deals => deals::values(&app, &e)?,
            codes => e.table_codes,
            checked_in => day["checked_in"],
            absent => day["absent"],
            players => day["players"],
            max_name => MAX_NAME,
            penalties => penalties,
        },
    )
}

/// Per round: sittings entered, and those missing or in conflict, by table and hand, and
/// the button that opens or closes it for the tables.
fn round_board(
    m: &Movement,
    results: &[StoredResult],
    conflicts: &[Conflict],
    states: &[(u32, bool)],
) -> Vec<Value> {
    let mut out = Vec::new();
    for r in &m.rounds {
        let (mut done, mut all) = (0, 0);
        let mut missing = Vec::new();
        let mut disputed = Vec::new();
        for h in &r.hands {
            for t in &h.tables {
                all += 1;
                let at = |deal: &str, table: u32, hand: u32| {
                    deal == t.deal && table == t.table && hand == h.hand
                };
                if results.iter().any(|x| at(&x.deal, x.table, x.hand)) {
                    done += 1;
                } else {
                    missing.push(format!("t{} h{}", t.table, h.hand));
                }
                if conflicts.iter().any(|x| at(&x.deal, x.table, x.hand)) {
                    disputed.push(format!("t{} h{}", t.table, h.hand));
                }
            }
        }
        // A round nobody has started is one word, and a long list is cut.
        let missing = if done == 0 {
            "not started".to_string()
        } else if missing.len() > 24 {
            format!(
                "{} … and {} more",
                missing[..24].join(", "),
                missing.len() - 24
            )
        } else {
            missing.join(", ")
        };
        let state = states.iter().find(|(n, _)| *n == r.round).map(|x| x.1);
        let (label, button) = match (states.is_empty(), state) {
            (true, _) => ("every round (no round control)", None),
            (_, Some(true)) => ("open", Some(("0", "close"))),
            (_, Some(false)) => ("closed", Some(("1", "reopen"))),
            (_, None) => ("not opened", Some(("1", "open"))),
        };
        out.push(json!({
            "round": r.round,
            "label": label,
            "button": button.map(|(value, word)| json!({"value": value, "word": word})),
            "done": done,
            "all": all,
            "missing": missing,
            "disputed": disputed.join(", "),
        }));
    }
    out
}

/// The event page's part on online play: none before it is enabled, else its settings
/// and each player's personal link.
fn online_values(app: &App, e: &Event) -> AppResult<Option<Value>> {
    let Some(st) = play::online::load(&app.hall, e.id)? else {
        return Ok(None);
    };
    let mut players = Vec::new();
    for (i, (p, token)) in e.players.iter().zip(&st.settings.tokens).enumerate() {
        let person = match st.person_of(i as u32 + 1) {
            Some(person) => Some(app.store.person(person)?.name),
            None => None,
        };
        players.push(json!({"name": p.name, "token": token, "person": person}));
    }
    Ok(Some(json!({
        "start": play::challenge::utc(st.settings.start),
        "limit": st.settings.limit_s,
        "bank": st.settings.bank_s,
        "bot": st.settings.bot,
        "players": players,
    })))
}
