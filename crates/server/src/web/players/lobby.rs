//! The lobby: tables waiting for people, tables in play, finished tables with their
//! results a page at a time (newest first), the form for a new table, and the released
//! deal sets one may practise on.

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use minijinja::context;
use serde::Deserialize;
use serde_json::{json, Value};
use table::game::table_points;

use super::player;
use crate::service::{AppError, AppResult};
use crate::web::pages::render_status;
use crate::web::{query_number, App, Page};
use play::challenge;
use play::room::HandSummary;
use play::secrecy::{set_public, SetOf};
use play::spec::{TableSpec, BOT_LEVELS};

/// Finished tables on one page of the lobby.
pub const FINISHED_PAGE: usize = 20;
/// Closed challenges looked at for practice sets (the newest).
const PRACTICE_CHALLENGES: usize = 10;

/// `?page=2`: the page of finished tables.
#[derive(Deserialize)]
pub struct LobbyQuery {
    #[serde(default)]
    page: Option<String>,
}

/// A finished table as the lobby lists it: who played, what each scored, and whether it
/// was left before its last hand.
fn finished_line(app: &App, t: &store::StoredPlayTable) -> AppResult<Option<Value>> {
    let Ok(spec) = serde_json::from_str::<TableSpec>(&t.spec) else {
        return Ok(None);
    };
    let hands: Vec<HandSummary> = app
        .store
        .hands_of_table(t.id)?
        .iter()
        .filter_map(|h| serde_json::from_str(&h.summary).ok())
        .collect();
    let mut names: [String; 4] = Default::default();
    let mut totals = [0i64; 4];
    for h in &hands {
        for seat in 0..4 {
            let place = h.places[seat];
            totals[place] += h.points[seat] as i64;
            names[place] = h.names[seat].clone();
        }
    }
    let regular = !spec.is_duplicate();
    let planned = spec.hand_count();
    Ok(Some(json!({
        "id": t.id,
        "what": crate::i18n::describe_table(&spec),
        "names": names,
        "scores": totals,
        "table_points": (regular && hands.len() == planned).then(|| table_points(totals)),
        "played": hands.len(),
        "planned": planned,
        "left": hands.len() < planned,
    })))
}

/// Deal sets anyone may practise on: released events' and revealed challenges'.
fn practice_sets(app: &App) -> AppResult<Vec<Value>> {
    let mut out = Vec::new();
    for (id, name) in app.store.events()? {
        if set_public(&app.hall, SetOf::Event(id))? {
            out.push(json!({"value": format!("event:{id}"), "name": name}));
        }
    }
    let now = challenge::now_s();
    let closed = app.store.challenges(200)?.into_iter().filter(|c| {
        serde_json::from_str::<challenge::ChallengeSpec>(&c.spec).is_ok_and(|s| s.closes <= now)
    });
    for c in closed.take(PRACTICE_CHALLENGES) {
        if set_public(&app.hall, SetOf::Challenge(c.id))? {
            let name = serde_json::from_str::<challenge::ChallengeSpec>(&c.spec)
                .map(|s| s.name)
                .unwrap_or_default();
            out.push(json!({"value": format!("challenge:{}", c.id), "name": name}));
        }
    }
    Ok(out)
}

/// `GET /play`: the lobby.
pub async fn lobby(
    State(app): State<App>,
    Query(q): Query<LobbyQuery>,
    headers: HeaderMap,
) -> Page {
    let page: usize = query_number(q.page.as_deref(), "page")?.unwrap_or(1);
    if page == 0 {
        return Err(AppError::Invalid("page: 1 or more, not 0".into()));
    }
    lobby_page(&app, &headers, page, None, StatusCode::OK)
}

/// The lobby's page `page`; `signin`: a sign-in form that failed, shown again on that form
/// with its message (`{form, message, name}`), under `status`.
pub fn lobby_page(
    app: &App,
    headers: &HeaderMap,
    page: usize,
    signin: Option<Value>,
    status: StatusCode,
) -> Page {
    let me = player(app, headers)?;
    let lines = app.hall.lobby();
    let line = |l: &play::LobbyLine| {
        let (text, args, practice) = &l.what_parts;
        let mut what = crate::i18n::fill(&crate::i18n::tr_str(text), args);
        if *practice {
            what = crate::i18n::fill(&crate::i18n::tr_str(play::text::PRACTICE), [what]);
        }
        json!({"id": l.id, "what": what, "names": l.names, "open": l.open, "hand": l.hand})
    };
    let open: Vec<Value> = lines.iter().filter(|l| l.open > 0).map(line).collect();
    let running: Vec<Value> = lines
        .iter()
        .filter(|l| l.open == 0 && l.stage != "over")
        .map(line)
        .collect();
    let (tables, total) = app
        .store
        .finished_tables((page - 1).saturating_mul(FINISHED_PAGE), FINISHED_PAGE)?;
    let mut finished = Vec::new();
    for t in &tables {
        finished.extend(finished_line(app, t)?);
    }
    let pages = total.div_ceil(FINISHED_PAGE).max(1);
    let signups = match &me {
        Some((_, p)) if p.account => super::signups::mine(app, p.id)?,
        _ => Vec::new(),
    };
    render_status(
        status,
        "players/lobby.html",
        context! {
            signin => signin,
            title => "Play",
            me => me.as_ref().map(|(_, p)| json!({"name": p.name, "account": p.account})),
            csrf => me.as_ref().map(|(s, _)| s.csrf.clone()),
            open => open,
            running => running,
            finished => finished,
            page => page,
            pages => pages,
            levels => BOT_LEVELS,
            practice => practice_sets(app)?,
            crowd => play::quick::crowd(&app.hall),
            quick_wait => app.hall.config.quick_wait.as_secs(),
            signups => signups,
        },
    )
}
