//! Pages of challenges: the list with standings across challenges (and the director's form
//! to publish one), a challenge with the player's deals and its standings, the results at a
//! deal-seat with the reviewer's comments, and the reveal once it has closed.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use minijinja::context;
use serde::Deserialize;
use serde_json::{json, Value};
use store::{Role, Session};
use tournament::challenge::{compare, standings, Rotation};

use super::{num, player, posting_player, render};
use crate::auth::{check_csrf, session_of};
use crate::service::{AppError, AppResult};
use crate::web::{App, Fields, Page};
use play::challenge::{self as ch, Loaded, NewChallenge, Stage, Who};
use play::secrecy::Sight;

fn director_session(app: &App, headers: &HeaderMap) -> AppResult<Option<Session>> {
    Ok(session_of(app.store.as_ref(), headers)?.filter(|s| s.role == Role::Director))
}

fn name_of(who: Who, names: &HashMap<i64, String>, par: &str) -> String {
    match who {
        Who::Person(p) => names
            .get(&p)
            .cloned()
            .unwrap_or_else(|| format!("player {p}")),
        Who::Par => par.to_string(),
    }
}

/// Standings lines as the template shows them.
fn standing_lines(
    deal_seats: &[Vec<(Who, i32)>],
    names: &HashMap<i64, String>,
    me: Option<i64>,
    par: &str,
) -> Vec<Value> {
    standings(deal_seats)
        .into_iter()
        .map(|l| {
            json!({
                "rank": l.rank,
                "name": name_of(l.who, names, par),
                "par": l.who == Who::Par,
                "me": me.is_some_and(|m| l.who == Who::Person(m)),
                "hands": l.hands,
                "imp": l.imp,
                "per_hand": format!("{:.2}", l.imp as f64 / l.hands.max(1) as f64),
                "ms": l.ms,
            })
        })
        .collect()
}

fn facts(c: &Loaded, now: i64) -> Value {
    json!({
        "id": c.id,
        "name": c.spec.name,
        "deals": c.spec.deals,
        "copies": c.spec.copies,
        "level": c.spec.level,
        "limit_s": c.spec.limit_s,
        "bank_s": c.spec.bank_s,
        "opens": ch::utc(c.spec.opens),
        "closes": ch::utc(c.spec.closes),
        "stage": c.stage(now).as_str(),
        "commitment": c.spec.commitment,
        "keyed": c.spec.key.is_some(),
        "par": c.spec.par,
        "par_pending": c.spec.par_table == 0,
        "players": c.plays.iter().map(|p| p.person).collect::<std::collections::HashSet<_>>().len(),
    })
}

/// `/play/c`: every challenge, standings across them, and the director's form.
pub async fn list(State(app): State<App>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let director = director_session(&app, &headers)?;
    let now = ch::now_s();
    let mut rows = Vec::new();
    let mut all = Vec::new();
    let mut names = HashMap::new();
    for c in app.store.challenges(200)? {
        let c = ch::load(&app.hall, c.id)?;
        rows.push(facts(&c, now));
        all.extend(ch::deal_seats(&app.hall, &c, &mut names)?);
    }
    let csrf = director
        .as_ref()
        .map(|s| s.csrf.clone())
        .or(me.as_ref().map(|(s, _)| s.csrf.clone()));
    render(
        "players/challenges.html",
        context! {
            title => "Challenges",
            me => me.as_ref().map(|(_, p)| json!({"name": p.name})),
            director => director.is_some(),
            csrf => csrf,
            challenges => rows,
            standings => standing_lines(&all, &names, me.as_ref().map(|(_, p)| p.id), "par"),
            levels => ch::CHALLENGE_LEVELS,
            max_copies => ch::MAX_COPIES,
            par_levels => ch::PAR_LEVELS,
        },
    )
}

/// `POST /play/c`: the director publishes a challenge.
pub async fn publish(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let s = director_session(&app, &headers)?
        .ok_or_else(|| AppError::Forbidden("only the director publishes challenges".into()))?;
    check_csrf(&s, f.get("csrf"))?;
    let r = f.get("rotation").map(|s| s.as_str()).unwrap_or("same");
    let rotation = Rotation::parse(r)
        .ok_or_else(|| AppError::Invalid(format!("seats: '{r}' is neither same nor staggered")))?;
    let c = NewChallenge {
        name: f.get("name").cloned().unwrap_or_default(),
        deals: num(&f, "deals", 8usize, 4, ch::MAX_DEALS)?,
        copies: num(&f, "copies", 1usize, 1, ch::MAX_COPIES)?,
        opens_in_h: num(&f, "opens_in", 0u32, 0, ch::MAX_HOURS)?,
        hours: num(&f, "hours", 24u32, 1, ch::MAX_HOURS)?,
        level: f.get("level").cloned().unwrap_or_else(|| "strong".into()),
        par: f.get("par").cloned().unwrap_or_else(|| ch::PAR_BOT.into()),
        rotation,
        limit_s: num(&f, "limit", 15, 1, play::spec::MAX_LIMIT_S)?,
        bank_s: num(&f, "bank", 30, 0, play::spec::MAX_BANK_S)?,
        scheduled: false,
        bots: f.get("bots").is_some_and(|v| v == "yes"),
    };
    c.check()?;
    // A searching par takes minutes: the page opens at once, the par is played behind it.
    let searches = agents::registry::builtin(&c.par, 0).is_some_and(|b| b.thinks());
    let hall = app.hall.clone();
    let id = tokio::task::spawn_blocking(move || {
        if searches {
            ch::publish_in_background(&hall, &c)
        } else {
            ch::publish(&hall, &c)
        }
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Redirect::to(&format!("/play/c/{id}")).into_response())
}

/// `/play/c/{id}`: the challenge, the player's deals and the standings.
pub async fn page(State(app): State<App>, Path(id): Path<i64>, headers: HeaderMap) -> Page {
    let me = player(&app, &headers)?;
    let director = director_session(&app, &headers)?;
    let c = ch::load(&app.hall, id)?;
    let now = ch::now_s();
    let stage = c.stage(now);
    let mut names = HashMap::new();
    let seats = ch::deal_seats(&app.hall, &c, &mut names)?;
    let mine: Vec<Value> = match &me {
        None => Vec::new(),
        Some((_, p)) => (0..c.spec.deals)
            .map(|i| {
                let seat = c.seat_for(p.id, i);
                let mut row = json!({"no": i + 1, "seat": play::room::wind_name(seat)});
                if let Some(play) = c.play_of(p.id, i) {
                    let copy = c.copy_of(play);
                    row["label"] = json!(c.spec.label(c.spec.set_index(i, copy)));
                    row["copy"] = json!(tournament::challenge::copy_letter(copy).to_string());
                }
                match c.play_of(p.id, i) {
                    Some(play) if c.over.contains(&play.play_table) => {
                        row["state"] = json!("played");
                        let at = c.spec.set_index(i, c.copy_of(play));
                        let r =
                            ch::results_at(&app.hall, id, at, seat, &mut names).unwrap_or_default();
                        let list: Vec<(Who, i32)> = r.iter().map(|s| (s.who, s.ms)).collect();
                        if let Some(s) = compare(&list)
                            .into_iter()
                            .find(|s| s.who == Who::Person(p.id))
                        {
                            row["ms"] = json!(s.ms);
                            row["imp"] = json!(s.imp);
                        }
                    }
                    Some(play) => {
                        row["state"] = json!(if stage == Stage::Open {
                            "playing"
                        } else {
                            "closing"
                        });
                        row["table"] = json!(play.play_table);
                    }
                    None if stage == Stage::Open => row["state"] = json!("play"),
                    None => row["state"] = json!("missed"),
                }
                row
            })
            .collect(),
    };
    let reveal = if stage == Stage::Revealed {
        Some(c.spec.reveal()?)
    } else {
        None
    };
    let csrf = director
        .as_ref()
        .map(|s| s.csrf.clone())
        .or(me.as_ref().map(|(s, _)| s.csrf.clone()));
    let par_name = format!("par ({} bot)", c.spec.par);
    let me_id = me.as_ref().map(|(_, p)| p.id);
    // With several copies, each copy's own standings beside the whole challenge's.
    let mut copies = Vec::new();
    if c.spec.copies > 1 {
        for copy in 0..c.spec.copies {
            let lists = ch::deal_seats_of(&app.hall, &c, Some(copy), &mut names)?;
            copies.push(json!({
                "letter": tournament::challenge::copy_letter(copy).to_string(),
                "standings": standing_lines(&lists, &names, me_id, &par_name),
            }));
        }
    }
    let letters: Vec<String> = (0..c.spec.copies)
        .map(|k| tournament::challenge::copy_letter(k).to_string())
        .collect();
    render(
        "players/challenge.html",
        context! {
            title => c.spec.name.clone(),
            c => facts(&c, now),
            stage => stage.as_str(),
            me => me.as_ref().map(|(_, p)| json!({"name": p.name})),
            director => director.is_some(),
            csrf => csrf,
            mine => mine,
            reveal => reveal.map(|r| json!({"seed": r["seed"], "salt": r["salt"], "key": r["key"]})),
            standings => standing_lines(&seats, &names, me_id, &par_name),
            copies => copies,
            letters => letters,
        },
    )
}

/// `POST /play/c/{id}/play`: take up a deal; the table opens at once.
pub async fn play(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let (_, me) = posting_player(&app, &headers, &f)?;
    super::by_hand(&me)?;
    let deal: usize = num(&f, "deal", 1, 1, ch::MAX_DEALS)?;
    let hall = app.hall.clone();
    let table = tokio::task::spawn_blocking(move || {
        ch::take_up(&hall, id, me.id, &play::names::shown(&me), deal - 1)
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Redirect::to(&format!("/play/t/{table}")).into_response())
}

/// The first deal of challenge `id` bot account `bot` has not played, taken up: its
/// table. Refused where the challenge does not let bot accounts play.
pub(super) async fn take_next(app: &App, id: i64, bot: &store::Person) -> AppResult<i64> {
    let c = ch::load(&app.hall, id)?;
    if !c.spec.bots {
        return Err(AppError::Forbidden(format!(
            "challenge {id} is for people: its director did not let bot accounts play it"
        )));
    }
    let next = (0..c.spec.deals)
        .find(|&i| c.play_of(bot.id, i).is_none())
        .ok_or_else(|| {
            AppError::Invalid(format!(
                "challenge {id}: every deal of it is played already"
            ))
        })?;
    let (hall, who, name) = (app.hall.clone(), bot.id, play::names::shown(bot));
    Ok(
        tokio::task::spawn_blocking(move || ch::take_up(&hall, id, who, &name, next))
            .await
            .map_err(|e| AppError::Internal(e.to_string()))??,
    )
}

/// `POST /play/c/{id}/close`: the director ends the window now.
pub async fn close(
    State(app): State<App>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = director_session(&app, &headers)?
        .ok_or_else(|| AppError::Forbidden("only the director closes challenges".into()))?;
    check_csrf(&s, f.get("csrf"))?;
    let hall = app.hall.clone();
    tokio::task::spawn_blocking(move || ch::close_now(&hall, id))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))??;
    Ok(Redirect::to(&format!("/play/c/{id}")).into_response())
}

/// `?seat=E&copy=b` on a deal's results: the seat to look from, and the copy of the deal.
#[derive(Deserialize)]
pub struct SeatQuery {
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    copy: Option<String>,
}

/// `/play/c/{id}/deal/{n}`: every result at the player's seat of deal n, in the copy they
/// were given (any seat and copy once the challenge is revealed), each linked to its
/// replay with the review and the field, and the player's own review in figures.
pub async fn deal(
    State(app): State<App>,
    Path((id, no)): Path<(i64, usize)>,
    Query(q): Query<SeatQuery>,
    headers: HeaderMap,
) -> Page {
    let me = player(&app, &headers)?.map(|(_, p)| p.id);
    let viewer = super::viewer_of(&app, &headers)?;
    let c = ch::load(&app.hall, id)?;
    if no == 0 || no > c.spec.deals {
        return Err(AppError::NotFound(format!(
            "challenge {id} has deals 1 to {}, not {no}",
            c.spec.deals
        )));
    }
    let index = no - 1;
    let revealed = c.stage(ch::now_s()) == Stage::Revealed;
    let copy = match (&q.copy, me.and_then(|m| c.play_of(m, index))) {
        (Some(k), _) => tournament::challenge::parse_copy(k, c.spec.copies).ok_or_else(|| {
            AppError::Invalid(format!(
                "copy: '{k}' is not one of the {} copies of this challenge's deals (a to {})",
                c.spec.copies,
                tournament::challenge::copy_letter(c.spec.copies - 1)
            ))
        })?,
        (None, Some(play)) => c.copy_of(play),
        (None, None) => 0,
    };
    let at = c.spec.set_index(index, copy);
    let label = c.spec.label(at);
    // Results name how each hand ended: the deal must be open to whoever asks.
    if let Sight::Hidden(why) = play::secrecy::challenge_deal(&c, at, viewer) {
        return Err(AppError::Forbidden(format!(
            "deal {label} of challenge {id}: {why}"
        )));
    }
    let seat = match (&q.seat, me) {
        (Some(s), _) => mcr::Wind::parse(s)
            .ok_or_else(|| AppError::Invalid(format!("seat: '{s}' is not E, S, W or N")))?,
        (None, Some(m)) if c.finished_deal(m, at) => c.seat_for(m, index),
        (None, _) => mcr::Wind::East,
    };
    let mut names = HashMap::new();
    let results = ch::results_at(&app.hall, id, at, seat, &mut names)?;
    let list: Vec<(Who, i32)> = results.iter().map(|s| (s.who, s.ms)).collect();
    let scored = compare(&list);
    let sum: i64 = list.iter().map(|(_, m)| *m as i64).sum();
    let average = tournament::imp::Dif {
        num: sum,
        den: list.len().max(1) as i64,
    };
    let mut rows: Vec<(i32, Value)> = results
        .iter()
        .zip(&scored)
        .map(|(r, s)| {
            (
                r.ms,
                json!({
                    "name": r.name,
                    "kind": if r.who == Who::Par { "par" } else { "person" },
                    "me": me.is_some_and(|m| r.who == Who::Person(m)),
                    "ms": r.ms,
                    "dif": s.dif.to_string(),
                    "imp": s.imp,
                    "ending": r.log().as_ref().map(ch::ending).unwrap_or_default(),
                    "table": r.hand.play_table,
                    "hand": r.hand.hand_no,
                }),
            )
        })
        .collect();
    rows.sort_by_key(|(ms, _)| std::cmp::Reverse(*ms));
    // The player's own review, as the reviewers stored it (never worked out here).
    let review = me
        .and_then(|m| results.iter().find(|r| r.who == Who::Person(m)))
        .and_then(|r| match app.store.review_of(r.hand.id) {
            Ok(Some(store::ReviewState::Done(text))) => {
                let v: Value = serde_json::from_str(&text).ok()?;
                let s = play::reviewer::seat_report(&v, seat)?;
                Some(json!({
                    "state": "done",
                    "agreement": (s["agreement"].as_f64()? * 100.0).round() as i64,
                    "cost": format!("{:.1}", s["review"]["expected_loss"].as_f64()?),
                    "decisions": s["review"]["decisions_weighed"].as_array()?.len(),
                    "table": r.hand.play_table,
                    "hand": r.hand.hand_no,
                }))
            }
            Ok(Some(store::ReviewState::Queued)) => Some(json!({"state": "queued"})),
            _ => None,
        });
    render(
        "players/challenge_deal.html",
        context! {
            title => format!("{}, deal {label}", c.spec.name),
            c => json!({"id": id, "name": c.spec.name}),
            no => no,
            label => label,
            copy => tournament::challenge::copy_letter(copy).to_string(),
            letters => (0..c.spec.copies)
                .map(|k| tournament::challenge::copy_letter(k).to_string())
                .collect::<Vec<_>>(),
            seat_name => play::room::wind_name(seat),
            seats => vec!["E", "S", "W", "N"],
            revealed => revealed,
            average => average.to_string(),
            rows => rows.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
            review => review,
        },
    )
}

/// `/play/c/{id}/reveal.json`: the key (or seed and salt), commitment and deals, once the
/// challenge is over.
pub async fn reveal(State(app): State<App>, Path(id): Path<i64>) -> Page {
    let c = ch::load(&app.hall, id)?;
    if !play::secrecy::set_public(&app.hall, play::secrecy::SetOf::Challenge(id))? {
        return Err(AppError::Forbidden(format!(
            "challenge {id} is not over yet: its deals are revealed when it closes and its last hand ends"
        )));
    }
    let r = c.spec.reveal()?;
    let body = serde_json::to_string_pretty(&r).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}
