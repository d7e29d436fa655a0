//! The director's sign-ups and seasons: open a sign-up, approve, refuse, seat substitutes
//! and make the event from the list; make a season from challenges and events, add to it,
//! and make its final from the top of its standings.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use minijinja::context;
use serde_json::{json, Value};
use store::{EventKind, NewSignUp, PartKind, Season};
use tournament::season::{Measure, Rules as SeasonRules};
use tournament::signup::{Act, Rules as SignUpRules};

use crate::season::{
    lines_json, make_final, make_signup_event, season_view, signup_lines, utc_seconds, utc_text,
};
use crate::service::{AppError, AppResult};
use crate::web::pages::render;
use crate::web::{
    director_or_login, director_post, field, number, short_field, to_login, App, Fields, Page,
};

/// Longest name or note accepted, in characters.
const MAX_NAME: usize = 120;
const MAX_NOTE: usize = 1000;

/// `GET /director/signups`: every sign-up and the form for a new one.
pub async fn signups(State(app): State<App>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let list: Vec<Value> = app
        .store
        .signups()?
        .into_iter()
        .map(|x| json!({"id": x.id, "name": x.spec.name, "kind": x.spec.kind.as_str(), "cap": x.spec.rules.cap, "deadline": utc_text(x.spec.deadline), "event": x.event}))
        .collect();
    render(
        "director/signups.html",
        context! { title => "Sign-ups", csrf => s.csrf, signups => list },
    )
}

/// `POST /director/signups`: opens a sign-up.
pub async fn create_signup(
    State(app): State<App>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let kind = field(&f, "kind")?;
    let kind = EventKind::parse(kind)
        .ok_or_else(|| AppError::Invalid(format!("kind: '{kind}' (live or online)")))?;
    let deadline = field(&f, "deadline")?;
    let deadline = utc_seconds(deadline).ok_or_else(|| {
        AppError::Invalid(format!(
            "deadline: '{deadline}' is not a date and time (YYYY-MM-DD HH:MM, UTC)"
        ))
    })?;
    let cap: u32 = number(&f, "cap")?;
    if !(4..=tournament::movement::MAX_PLAYERS).contains(&cap) {
        return Err(AppError::Invalid(format!(
            "cap: {cap} (4 to {} players)",
            tournament::movement::MAX_PLAYERS
        )));
    }
    let spec = NewSignUp {
        name: short_field(&f, "name", MAX_NAME)?.to_string(),
        kind,
        rules: SignUpRules {
            cap,
            approval: f.get("approval").is_some_and(|v| v == "1"),
        },
        deadline,
        note: f
            .get("note")
            .map(|n| n.trim().chars().take(MAX_NOTE).collect())
            .unwrap_or_default(),
    };
    let id = app.store.create_signup(&spec, "director")?;
    Ok(Redirect::to(&format!("/director/signups/{id}")).into_response())
}

/// `GET /director/signups/{sid}`: the list, with the director's buttons.
pub async fn signup(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let (su, lines) = signup_lines(&app.hall, id)?;
    render(
        "director/signup.html",
        context! {
            title => format!("Sign-up: {}", su.spec.name),
            csrf => s.csrf,
            id => id,
            kind => su.spec.kind.as_str(),
            cap => su.spec.rules.cap,
            approval => su.spec.rules.approval,
            deadline => utc_text(su.spec.deadline),
            note => su.spec.note,
            event => su.event,
            lines => lines_json(&lines),
        },
    )
}

/// `POST /director/signups/{sid}/act`: approve, refuse, seat a substitute, or withdraw
/// someone.
pub async fn signup_act(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let who: i64 = number(&f, "who")?;
    let act = match field(&f, "act")? {
        "approve" => Act::Approve { who },
        "refuse" => Act::Refuse { who },
        "seat" => Act::Seat { who },
        "withdraw" => Act::Withdraw { who },
        other => {
            return Err(AppError::Invalid(format!(
                "act: '{other}' (approve, refuse, seat or withdraw)"
            )))
        }
    };
    app.store
        .add_signup_act(id, &act, play::when::now_s(), "director")?;
    Ok(Redirect::to(&format!("/director/signups/{id}")).into_response())
}

fn rounds_of(f: &Fields) -> AppResult<Option<u32>> {
    match f.get("rounds").map(|r| r.trim()).filter(|r| !r.is_empty()) {
        None => Ok(None),
        Some(r) => r
            .parse()
            .map(Some)
            .map_err(|_| AppError::Invalid(format!("rounds: '{r}' is not a number"))),
    }
}

/// `POST /director/signups/{sid}/make`: the event from the players in.
pub async fn make_from_signup(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let event = make_signup_event(&app.hall, id, rounds_of(&f)?, "director")?;
    Ok(Redirect::to(&format!("/director/events/{event}")).into_response())
}

/// `GET /director/seasons`: every season and the form for a new one.
pub async fn seasons(State(app): State<App>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let list: Vec<Value> = app
        .store
        .seasons()?
        .into_iter()
        .map(|x| json!({"id": x.id, "name": x.name, "parts": x.parts.len(), "best": x.rules.best, "final_event": x.final_event}))
        .collect();
    render(
        "director/seasons.html",
        context! { title => "Seasons", csrf => s.csrf, seasons => list },
    )
}

/// Reads `challenge 3` or `event 1`, one a line.
fn parts_of(text: &str) -> AppResult<Vec<(PartKind, i64)>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            let bad = || {
                AppError::Invalid(format!(
                    "parts, line {}: '{l}' (challenge N or event N)",
                    i + 1
                ))
            };
            let (k, n) = l.split_once(char::is_whitespace).ok_or_else(bad)?;
            let kind = PartKind::parse(k).ok_or_else(bad)?;
            Ok((kind, n.trim().parse().map_err(|_| bad())?))
        })
        .collect()
}

/// Checks that each part exists, naming the first that does not.
fn check_parts(app: &App, parts: &[(PartKind, i64)]) -> AppResult<()> {
    for &(kind, id) in parts {
        match kind {
            PartKind::Challenge => {
                app.store.challenge(id)?;
            }
            PartKind::Event => {
                app.store.event(id)?;
            }
        }
    }
    Ok(())
}

/// `POST /director/seasons`: makes a season.
pub async fn create_season(
    State(app): State<App>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let measure = match field(&f, "measure")? {
        "total" => Measure::Total,
        "per_hand" => Measure::PerHand,
        other => {
            return Err(AppError::Invalid(format!(
                "measure: '{other}' (total or per_hand)"
            )))
        }
    };
    let parts = parts_of(f.get("parts").map(String::as_str).unwrap_or(""))?;
    check_parts(&app, &parts)?;
    let best: u32 = number(&f, "best")?;
    if best == 0 {
        return Err(AppError::Invalid("best: at least 1 result counts".into()));
    }
    let season = Season {
        id: 0,
        name: short_field(&f, "name", MAX_NAME)?.to_string(),
        rules: SeasonRules { best, measure },
        final_k: number(&f, "final_k")?,
        parts,
        final_event: None,
    };
    let id = app.store.create_season(&season, "director")?;
    Ok(Redirect::to(&format!("/director/seasons/{id}")).into_response())
}

/// `GET /director/seasons/{sid}`: the standings, with forms to add a part and make the
/// final.
pub async fn season(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let Some(s) = director_or_login(&app, &headers) else {
        return Ok(to_login());
    };
    let v = season_view(&app.hall, id, true)?;
    render(
        "director/season.html",
        context! {
            title => format!("Season: {}", v.season.name),
            csrf => s.csrf,
            s => v.json(),
            cut_tie => v.cut_tie().map(|(rank, names)| json!({"rank": rank, "names": names})),
        },
    )
}

/// `POST /director/seasons/{sid}/parts`: adds a challenge or an event.
pub async fn add_part(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let parts = parts_of(field(&f, "part")?)?;
    check_parts(&app, &parts)?;
    for (kind, of) in parts {
        app.store.add_season_part(id, kind, of, "director")?;
    }
    Ok(Redirect::to(&format!("/director/seasons/{id}")).into_response())
}

/// `POST /director/seasons/{sid}/final`: the final from the top K.
pub async fn final_event(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    director_post(&app, &headers, &f)?;
    let kind = field(&f, "kind")?;
    let kind = EventKind::parse(kind)
        .ok_or_else(|| AppError::Invalid(format!("kind: '{kind}' (live or online)")))?;
    let event = make_final(&app.hall, id, rounds_of(&f)?, kind, "director")?;
    Ok(Redirect::to(&format!("/director/events/{event}")).into_response())
}
