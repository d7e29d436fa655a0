//! Pages of online events for players: the event (where you play now), and the personal
//! link that ties a person to a player of the event. The director's side is on the event's
//! director page.

use crate::i18n::{tr, trf};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect};
use minijinja::context;
use serde_json::json;

use super::{player, render};
use crate::service::AppError;
use crate::web::{App, Page};
use play::challenge::{now_s, utc};
use play::online::{self, Progress};

/// `/play/e/{id}`: an online event as a player sees it.
pub async fn page(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let st = online::load(&app.hall, id)?
        .ok_or_else(|| AppError::NotFound(format!("event {id} is not played online")))?;
    let progress = st.progress(now_s());
    let bots = online::bot_hands(&app.hall, id)?;
    let mut players = Vec::new();
    for (i, e) in st.event.players.iter().enumerate() {
        let no = i as u32 + 1;
        let person = match st.person_of(no) {
            Some(p) => Some(play::names::shown(&app.store.person(p)?)),
            None => None,
        };
        players.push(json!({"no": no, "name": e.name, "person": person, "bot": bots.get(&no).copied().unwrap_or(0)}));
    }
    let slot = me
        .as_ref()
        .and_then(|(_, p)| st.people.iter().find(|(_, x)| *x == p.id).map(|(s, _)| *s));
    render(
        "players/event.html",
        context! {
            title => st.event.name.clone(),
            id => id,
            name => st.event.name.clone(),
            progress => match progress {
                Progress::NotStarted => trf("Starts {}.", &[&utc(st.settings.start)]),
                Progress::Playing { round, hand } => trf(
                    "Round {}, hand {} is being played ({} s per decision).",
                    &[&round, &hand, &st.settings.limit_s]
                ),
                Progress::Over => tr("Every hand has been played.").to_string(),
            },
            playing => matches!(progress, Progress::Playing { .. }),
            me => me.as_ref().map(|(_, p)| json!({"name": p.name})),
            slot => slot,
            entrant => slot.and_then(|s| st.event.players.get(s as usize - 1)).map(|e| e.name.clone()),
            table => me.as_ref().and_then(|(_, p)| st.table_of(p.id)),
            players => players,
        },
    )
}

/// `/play/e/{id}/join/{token}`: a player's personal link; signing in comes first.
pub async fn join(
    State(app): State<App>,
    Path((id, token)): Path<(i64, String)>,
    headers: HeaderMap,
) -> Page {
    let Some((_, me)) = player(&app, &headers)? else {
        return Ok(Redirect::to(&format!("/play?next=/play/e/{id}/join/{token}")).into_response());
    };
    // A bot sits in an event only where its director seats it.
    if me.bot {
        return Err(AppError::Forbidden(
            "a bot account does not join an event by its link: the event's director seats a bot"
                .into(),
        ));
    }
    online::join(&app.hall, id, &token, me.id)?;
    Ok(Redirect::to(&format!("/play/e/{id}")).into_response())
}
