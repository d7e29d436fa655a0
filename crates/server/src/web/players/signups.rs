//! Players' sign-up pages: the open sign-ups, and one with its list — who is in, the
//! waitlist, the substitutes — where a player with an account signs up, offers to stand by
//! or withdraws.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use minijinja::context;
use serde_json::{json, Value};
use tournament::signup::{Act, Place};

use super::{player, posting_player};
use crate::i18n::tr;
use crate::season::{lines_json, signup_standing, standing_of, utc_text};
use crate::service::{AppError, AppResult};
use crate::web::pages::render;
use crate::web::{field, App, Fields, Page};

/// `GET /play/signups`: the sign-ups still open, soonest deadline first.
pub async fn list(State(app): State<App>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let now = play::when::now_s();
    let mut open: Vec<_> = app
        .store
        .signups()?
        .into_iter()
        .filter(|s| s.event.is_none() && s.spec.deadline >= now)
        .collect();
    open.sort_by_key(|s| s.spec.deadline);
    let rows: Vec<Value> = open
        .iter()
        .map(|s| json!({"id": s.id, "name": s.spec.name, "online": s.spec.kind == store::EventKind::Online, "cap": s.spec.rules.cap, "deadline": utc_text(s.spec.deadline)}))
        .collect();
    render(
        "players/signups.html",
        context! {
            title => tr("Sign up for an event").to_string(),
            signups => rows,
            me => me.map(|(_, p)| json!({"name": p.name})),
        },
    )
}

/// `GET /play/signups/{sid}`: one sign-up, its list and where you stand.
pub async fn page(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let (s, st) = signup_standing(&app.hall, id)?;
    let lines = st.lines;
    let now = play::when::now_s();
    let mine = me
        .as_ref()
        .and_then(|(_, p)| lines.iter().find(|l| l.who == p.id));
    let place = mine.map(|l| place_json(l.place, st.moved_up.contains(&l.who)));
    let l = lines_json(&lines);
    render(
        "players/signup.html",
        context! {
            title => s.spec.name.clone(),
            id => id,
            online => s.spec.kind == store::EventKind::Online,
            cap => s.spec.rules.cap,
            approval => s.spec.rules.approval,
            deadline => utc_text(s.spec.deadline),
            open => s.event.is_none() && s.spec.deadline >= now,
            event => s.event,
            note => s.spec.note,
            inn => l["in"],
            waiting => l["waiting"],
            pending => l["pending"].as_array().map_or(0, Vec::len),
            substitutes => l["substitutes"],
            me => me.as_ref().map(|(sess, p)| json!({"name": p.name, "account": p.account, "csrf": sess.csrf})),
            csrf => me.as_ref().map(|(sess, _)| sess.csrf.clone()),
            place => place,
        },
    )
}

/// `POST /play/signups/{sid}`: `action` = join, substitute or withdraw, for oneself.
pub async fn act(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let (_, me) = posting_player(&app, &headers, &f)?;
    // A place in an event is a person's: a bot account does not take one.
    super::by_hand(&me)?;
    if !me.account {
        return Err(AppError::Forbidden(
            tr("make an account first: a sign-up is kept with your account").to_string(),
        ));
    }
    let name = play::names::shown(&me);
    let act = match field(&f, "action")? {
        "join" => Act::Join { who: me.id, name },
        "substitute" => Act::Substitute { who: me.id, name },
        "withdraw" => Act::Withdraw { who: me.id },
        other => {
            return Err(AppError::Invalid(format!(
                "action: '{other}' (join, substitute or withdraw)"
            )))
        }
    };
    app.store
        .add_signup_act(id, &act, play::when::now_s(), &format!("person {}", me.id))?;
    Ok(Redirect::to(&format!("/play/signups/{id}")).into_response())
}

/// Where one stands, as the pages' place text reads it.
fn place_json(place: Place, moved_up: bool) -> Value {
    match place {
        Place::In(n) => json!({"kind": "in", "n": n, "moved_up": moved_up}),
        Place::Waiting(n) => json!({"kind": "waiting", "n": n}),
        Place::Pending => json!({"kind": "pending"}),
        Place::Substitute => json!({"kind": "substitute"}),
        Place::Withdrawn => json!({"kind": "withdrawn"}),
        Place::Refused => json!({"kind": "refused"}),
    }
}

/// How long after its deadline a sign-up stays on its players' lobby.
const SHOWN_AFTER_S: i64 = 14 * 86_400;

/// The sign-ups where `person` holds a place (in, waiting, waiting for approval, standing
/// by), until a fortnight after their deadline. The lobby lists them, and it is where
/// someone moved up from the waitlist learns it (nobody is sent word). Older ones are not
/// read at all: every account's lobby asks this, and sign-ups only accumulate.
pub fn mine(app: &App, person: i64) -> AppResult<Vec<Value>> {
    let now = play::when::now_s();
    let mut out = Vec::new();
    for s in app.store.signups()? {
        if s.spec.deadline < now - SHOWN_AFTER_S {
            continue;
        }
        let st = standing_of(&s, &app.store.signup_acts(s.id)?)?;
        let Some(line) = st.lines.iter().find(|l| l.who == person) else {
            continue;
        };
        if matches!(line.place, Place::Withdrawn | Place::Refused) {
            continue;
        }
        let up = st.moved_up.contains(&person);
        out.push(json!({
            "id": s.id,
            "name": s.spec.name,
            "online": s.spec.kind == store::EventKind::Online,
            "event": s.event,
            "place": place_json(line.place, up),
        }));
    }
    Ok(out)
}
