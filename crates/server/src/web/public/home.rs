//! The front page and the rules: what dupmj is, one click to play, the challenge open now,
//! the events running and past, and MCR with its 81 fans in short.

use axum::extract::State;
use axum::http::HeaderMap;
use minijinja::context;
use serde_json::{json, Value};

use crate::web::pages::render;
use crate::web::players::player;
use crate::web::{App, Page};
use play::challenge as ch;

/// Events the front page lists, newest first.
const HOME_EVENTS: usize = 8;

/// `GET /`: what dupmj is, "play now", the challenge open now, running and recent events.
pub async fn home(State(app): State<App>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let mut events: Vec<Value> = Vec::new();
    for (id, name) in app.store.events()?.into_iter().rev().take(HOME_EVENTS) {
        // How far it has got: results entered of those its movement has.
        let state = match super::compute(&app, id) {
            Ok(c) if c.expected > 0 && c.entered >= c.expected => "finished",
            Ok(c) if c.entered > 0 => "in play",
            Ok(_) => "not started",
            Err(_) => "",
        };
        events.push(json!({"id": id, "name": name, "state": state}));
    }
    let now = ch::now_s();
    let mut challenge = None;
    for c in app.store.challenges(20)? {
        let c = ch::load(&app.hall, c.id)?;
        if c.stage(now) == ch::Stage::Open {
            challenge = Some(json!({
                "id": c.id,
                "name": c.spec.name,
                "deals": c.spec.deals,
                "closes": ch::utc(c.spec.closes),
            }));
            break;
        }
    }
    render(
        "public/home.html",
        context! {
            title => "Duplicate MCR",
            me => me.as_ref().map(|(_, p)| json!({"name": p.name})),
            csrf => me.as_ref().map(|(s, _)| s.csrf.clone()),
            events => events,
            challenge => challenge,
        },
    )
}

/// `GET /rules`: the game in short, and the 81 fans with their points (the `seeds`
/// profile, rules §7).
pub async fn rules() -> Page {
    let profile = mcr::Rules::seeds();
    let fans: Vec<Value> = mcr::fan::ALL_FANS
        .iter()
        .take(81)
        .map(|f| {
            json!({
                "no": f.number(),
                "name": f.name(),
                "zh": f.chinese(),
                "points": profile.points(*f),
            })
        })
        .collect();
    render(
        "public/rules.html",
        context! { title => "Rules", fans => fans },
    )
}
