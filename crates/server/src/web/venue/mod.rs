//! Score entry from a phone: a table logs in with its code, picks a deal, enters how the
//! hand ended, sees every seat's match points, then saves.

mod queue;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use mcr::Wind;
use minijinja::context;
use serde_json::{json, Value};
use store::{Event, EventId, Role, Saved, Session};
use tournament::entry::{Outcome, ScoreEntry};

use crate::auth::{check_csrf, check_login_form, login_form_token, session_of, start_session};
use crate::guard::Client;
use crate::i18n::{describe, seat_name, tr, trf};
use crate::service::{enter_result, seat_holder, sitting, AppError, AppResult};
use crate::web::pages::{render, render_status};
use crate::web::{field, number, App, Fields, Page};

/// The venue's routes: score entry from the tables' phones.
pub fn routes() -> crate::web::Routes {
    use axum::routing::get;
    crate::web::Routes::new()
        .route("/events/{id}/table", get(login_page).post(login))
        .route("/events/{id}/table/{t}", get(deals))
        .route("/events/{id}/table/{t}/results.json", get(queue::results))
        .route(
            "/events/{id}/table/{t}/deal/{deal}/{hand}",
            get(entry_form).post(entry_post),
        )
        .route(
            "/events/{id}/table/{t}/deal/{deal}/{hand}/check.json",
            axum::routing::post(queue::check),
        )
        .route(
            "/events/{id}/table/{t}/deal/{deal}/{hand}/send.json",
            axum::routing::post(queue::send),
        )
}

/// `?table=` on the login page: the table card's QR code fills the table in.
#[derive(serde::Deserialize)]
pub struct LoginQuery {
    table: Option<String>,
}

/// `GET /events/{id}/table`: a table logs in with its number and code.
pub async fn login_page(
    State(app): State<App>,
    Path(id): Path<EventId>,
    Query(q): Query<LoginQuery>,
) -> Page {
    let e = app.store.event(id)?;
    let table = crate::web::query_number::<u32>(q.table.as_deref(), "table")?
        .filter(|t| (1..=e.table_codes.len() as u32).contains(t));
    let (token, cookie) = login_form_token();
    let page = render(
        "venue/login.html",
        context! {
            title => format!("{} — {}", e.name, tr("score entry")),
            id => id,
            token => token,
            tables => e.table_codes.len(),
            table => table,
        },
    )?;
    Ok(([(header::SET_COOKIE, cookie)], page).into_response())
}

/// `POST /events/{id}/table`: checks a table's code and starts its session. Wrong codes
/// count against the client's address and against the table, from anywhere.
pub async fn login(
    State(app): State<App>,
    Path(id): Path<EventId>,
    client: Client,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    check_login_form(&headers, f.get("form"))?;
    let e = app.store.event(id)?;
    let table: u32 = number(&f, "table")?;
    let by_client = format!("code:{}", client.0);
    let by_table = format!("code:{id}:{table}");
    let limits = app
        .guards
        .code_client
        .check(&by_client)
        .and(app.guards.code_table.check(&by_table));
    if let Err(wait) = limits {
        tracing::warn!(client = %client.0, event = id, table, "table login refused: too many wrong codes");
        return Err(AppError::Limited(trf(
            "too many wrong codes: try again in {} s (or ask the director)",
            &[&wait],
        )));
    }
    let code = field(&f, "code")?.to_uppercase();
    let ok = table >= 1 && e.table_codes.get(table as usize - 1) == Some(&code);
    if !ok {
        app.guards.code_client.fail(&by_client);
        app.guards.code_table.fail(&by_table);
        tracing::warn!(client = %client.0, event = id, table, "table login failed: wrong code");
        return Err(AppError::Forbidden(trf("table {}: wrong code", &[&table])));
    }
    tracing::info!(client = %client.0, event = id, table, "table logged in");
    let (_, cookie) = start_session(app.store.as_ref(), Role::Table { event: id, table })?;
    Ok((
        [(header::SET_COOKIE, cookie)],
        Redirect::to(&format!("/events/{id}/table/{table}")),
    )
        .into_response())
}

/// A short name for the phone behind a session (from its token, which it does not reveal),
/// so that the director can tell two phones of one table apart.
pub(super) fn phone_tag(token: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    token.hash(&mut h);
    format!("{:06x}", h.finish() & 0xff_ffff)
}

/// The session of this table (or the director's, who may enter for any table).
pub(super) fn table_session(
    app: &App,
    headers: &HeaderMap,
    id: EventId,
    table: u32,
) -> AppResult<Session> {
    let first = || {
        AppError::Forbidden(trf(
            "log in as table {} first (/events/{}/table)",
            &[&table, &id],
        ))
    };
    let s = session_of(app.store.as_ref(), headers)?.ok_or_else(first)?;
    match s.role {
        Role::Director => Ok(s),
        Role::Table { event, table: t } if event == id && t == table => Ok(s),
        Role::Table { table: t, .. } => Err(AppError::Forbidden(trf(
            "this phone is logged in for table {}, not table {}",
            &[&t, &table],
        ))),
        Role::Player { .. } => Err(first()),
    }
}

/// "n Name" for each seat, stand-ins named once their player has withdrawn.
pub(super) fn names_at(e: &Event, players: [u32; 4], round: u32) -> [String; 4] {
    players.map(|p| format!("{p} {}", seat_holder(e, p, round).1))
}

/// `GET /events/{id}/table/{t}`: the sittings of a table in the open rounds, each with
/// its saved result.
pub async fn deals(
    State(app): State<App>,
    Path((id, t)): Path<(EventId, u32)>,
    headers: HeaderMap,
) -> Page {
    let s = table_session(&app, &headers, id, t)?;
    let e = app.store.event(id)?;
    let results = app.store.results(id)?;
    let states = app.store.round_states(id)?;
    let all = s.role == Role::Director || states.is_empty();
    let mut rows = Vec::new();
    for r in &e.movement.rounds {
        // Only the open rounds are listed to a table (every round before round control).
        if !(all || states.contains(&(r.round, true))) {
            continue;
        }
        for h in &r.hands {
            for tp in h.tables.iter().filter(|x| x.table == t) {
                let current = results
                    .iter()
                    .find(|x| x.deal == tp.deal && x.table == t && x.hand == h.hand);
                let done = current
                    .map(|x| describe(&x.entry))
                    .unwrap_or_else(|| "—".into());
                let names = names_at(&e, tp.players_by_wind(), r.round);
                rows.push(json!({
                    "round": r.round,
                    "hand": h.hand,
                    "deal": tp.deal,
                    "done": done,
                    "form": form_of(&names, &tp.deal, h.hand, current),
                }));
            }
        }
    }
    render(
        "venue/deals.html",
        context! {
            title => format!("{} — {}", e.name, trf("table {}", &[&t])),
            id => id,
            table => t,
            rows => rows,
            closed => !all && !states.iter().any(|&(_, open)| open),
            csrf => s.csrf,
        },
    )
}

/// The four seats for the entry form: wind, player, and what the saved entry says of each.
fn seats(names: &[String; 4], saved: Option<&ScoreEntry>) -> Vec<Value> {
    let winners = match saved.map(|x| &x.outcome) {
        Some(Outcome::Discard { winners, .. }) => winners.clone(),
        _ => Vec::new(),
    };
    Wind::ALL
        .iter()
        .map(|&w| {
            let won = winners.iter().find(|(x, _)| *x == w);
            json!({
                "letter": w.letter().to_string(),
                "seat": seat_name(w),
                "name": names[w.index()],
                "won": won.is_some(),
                "won_value": won.map(|(_, v)| v.to_string()).unwrap_or_default(),
                "false_hu": saved.is_some_and(|x| x.false_hu.contains(&w)),
            })
        })
        .collect()
}

/// The sitting after `(deal, hand)` at table `t` in play order, within the open rounds.
fn next_sitting(
    e: &Event,
    states: &[(u32, bool)],
    t: u32,
    deal: &str,
    hand: u32,
) -> Option<(String, u32)> {
    let open = |r: u32| states.is_empty() || states.contains(&(r, true));
    let order: Vec<(String, u32)> = e
        .movement
        .rounds
        .iter()
        .filter(|r| open(r.round))
        .flat_map(|r| {
            r.hands.iter().flat_map(move |h| {
                h.tables
                    .iter()
                    .filter(move |x| x.table == t)
                    .map(move |x| (x.deal.clone(), h.hand))
            })
        })
        .collect();
    let at = order.iter().position(|(d, h)| d == deal && *h == hand)?;
    order.get(at + 1).cloned()
}

/// Tables enter only the rounds the director has opened; the director enters any. An event
/// whose rounds were never opened (made before round control) has no such limit.
pub(super) fn round_open(app: &App, s: &Session, id: EventId, round: u32) -> AppResult<()> {
    if s.role == Role::Director {
        return Ok(());
    }
    let states = app.store.round_states(id)?;
    if states.is_empty() || states.contains(&(round, true)) {
        return Ok(());
    }
    let why = if states.iter().any(|&(r, _)| r == round) {
        "round {} is closed: only the director can enter its results now"
    } else {
        "round {} is not open yet: only the director can enter its results now"
    };
    Err(AppError::Forbidden(trf(why, &[&round])))
}

/// The seating of a sitting, or an error naming it.
pub(super) fn seating<'a>(
    e: &'a Event,
    deal: &str,
    t: u32,
    hand: u32,
) -> AppResult<(u32, &'a tournament::movement::TablePlay)> {
    sitting(&e.movement, deal, t, hand).ok_or_else(|| {
        AppError::Invalid(trf(
            "deal {} is not played at table {} in hand {}",
            &[&deal, &t, &hand],
        ))
    })
}

/// `GET …/deal/{deal}/{hand}`: the form for one sitting, showing the saved result when
/// there is one.
pub async fn entry_form(
    State(app): State<App>,
    Path((id, t, deal, hand)): Path<(EventId, u32, String, u32)>,
    headers: HeaderMap,
) -> Page {
    let s = table_session(&app, &headers, id, t)?;
    let e = app.store.event(id)?;
    let (round, tp) = seating(&e, &deal, t, hand)?;
    round_open(&app, &s, id, round)?;
    let names = names_at(&e, tp.players_by_wind(), round);
    let current = app
        .store
        .results(id)?
        .into_iter()
        .find(|r| r.deal == deal && r.table == t && r.hand == hand);
    render(
        "venue/entry.html",
        context! {
            title => trf("Table {} — deal {}", &[&t, &deal]),
            id => id,
            table => t,
            deal => deal,
            hand => hand,
            round => round,
            seats => seats(&names, current.as_ref().map(|r| &r.entry)),
            saved => current.as_ref().map(|r| json!({"text": describe(&r.entry), "version": r.version})),
            csrf => s.csrf,
            form => form_of(&names, &deal, hand, current.as_ref()),
        },
    )
}

/// What the entry form of one sitting shows: its seats, and the saved result (if any)
/// filled in, so that a change starts from it.
pub(super) fn form_of(
    names: &[String; 4],
    deal: &str,
    hand: u32,
    current: Option<&store::StoredResult>,
) -> Value {
    let saved = current.map(|r| &r.entry);
    let (kind, self_winner, self_value, discarder) = match saved.map(|x| &x.outcome) {
        Some(Outcome::Draw) => ("draw", None, String::new(), None),
        Some(Outcome::SelfDrawn { winner, value }) => {
            ("self", Some(winner.letter()), value.to_string(), None)
        }
        Some(Outcome::Discard { discarder, .. }) => {
            ("discard", None, String::new(), Some(discarder.letter()))
        }
        None => ("", None, String::new(), None),
    };
    json!({
        "deal": deal,
        "hand": hand,
        "seats": seats(names, saved),
        "version": current.map_or(0, |r| r.version),
        "kind": kind,
        "self_winner": self_winner.map(|c| c.to_string()),
        "self_value": self_value,
        "discarder": discarder.map(|c| c.to_string()),
    })
}

/// A winner's value: typed, or scored from the hand with the calculator (both must agree).
fn value_of(
    f: &Fields,
    value_key: &str,
    hand_key: &str,
    seat: Wind,
    self_drawn: bool,
    prevalent: Wind,
) -> AppResult<u32> {
    let typed = f.get(value_key).map(|v| v.trim()).filter(|v| !v.is_empty());
    let typed: Option<u32> = typed
        .map(|v| {
            v.parse().map_err(|_| {
                AppError::Invalid(trf(
                    "{} seat: value '{}' is not a number",
                    &[&seat_name(seat), &v],
                ))
            })
        })
        .transpose()?;
    let hand = f.get(hand_key).map(|v| v.trim()).filter(|v| !v.is_empty());
    let Some(hand) = hand else {
        return typed.ok_or_else(|| {
            AppError::Invalid(trf(
                "{} seat: enter the value or the hand",
                &[&seat_name(seat)],
            ))
        });
    };
    let (tiles, extra) = hand.split_once('|').unwrap_or((hand, ""));
    let flags = format!(
        "seat={} wind={}{} {}",
        seat.letter(),
        prevalent.letter(),
        if self_drawn { " self" } else { "" },
        extra.trim()
    );
    let h = mcr::notation::parse_hand_line(&format!("{tiles} | {flags}"))
        .map_err(|e| AppError::Invalid(format!("{} seat, hand '{hand}': {e}", seat.letter())))?;
    let s = mcr::score(&h, &mcr::Rules::seeds())
        .map_err(|e| AppError::Invalid(format!("{} seat, hand '{hand}': {e}", seat.letter())))?;
    if let Some(v) = typed {
        if v != s.total {
            return Err(AppError::Invalid(trf(
                "{} seat: value {} entered but the hand scores {}",
                &[&seat_name(seat), &v, &s.total],
            )));
        }
    }
    Ok(s.total)
}

fn seat_field(f: &Fields, name: &str) -> AppResult<Wind> {
    let v = field(f, name)?;
    Wind::parse(v)
        .ok_or_else(|| AppError::Invalid(format!("{name}: '{v}' is not a seat (E, S, W, N)")))
}

/// Reads the entry from the form.
pub fn entry_from(f: &Fields, prevalent: Wind) -> AppResult<ScoreEntry> {
    let outcome = match field(f, "kind")? {
        "draw" => Outcome::Draw,
        "self" => {
            let winner = seat_field(f, "winner")?;
            Outcome::SelfDrawn {
                winner,
                value: value_of(f, "value", "hand", winner, true, prevalent)?,
            }
        }
        "discard" => {
            let discarder = seat_field(f, "discarder")?;
            let mut winners = Vec::new();
            for w in Wind::ALL {
                let l = w.letter();
                if f.get(&format!("win_{l}")).is_some_and(|v| v == "1") {
                    winners.push((
                        w,
                        value_of(
                            f,
                            &format!("value_{l}"),
                            &format!("hand_{l}"),
                            w,
                            false,
                            prevalent,
                        )?,
                    ));
                }
            }
            Outcome::Discard { discarder, winners }
        }
        other => {
            return Err(AppError::Invalid(format!(
                "kind: '{other}' (draw, self or discard)"
            )))
        }
    };
    let false_hu = Wind::ALL
        .into_iter()
        .filter(|w| {
            f.get(&format!("fhu_{}", w.letter()))
                .is_some_and(|v| v == "1")
        })
        .collect();
    let e = ScoreEntry { outcome, false_hu };
    e.check().map_err(|er| AppError::Invalid(er.to_string()))?;
    Ok(e)
}

/// The fields that carry an entry from the preview to the save, as (name, value).
fn entry_fields(e: &ScoreEntry) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut put = |k: &str, v: String| out.push((k.to_string(), v));
    match &e.outcome {
        Outcome::Draw => put("kind", "draw".into()),
        Outcome::SelfDrawn { winner, value } => {
            put("kind", "self".into());
            put("winner", winner.letter().to_string());
            put("value", value.to_string());
        }
        Outcome::Discard { discarder, winners } => {
            put("kind", "discard".into());
            put("discarder", discarder.letter().to_string());
            for (w, v) in winners {
                put(&format!("win_{}", w.letter()), "1".into());
                put(&format!("value_{}", w.letter()), v.to_string());
            }
        }
    }
    for w in &e.false_hu {
        put(&format!("fhu_{}", w.letter()), "1".into());
    }
    out
}

/// `POST …/deal/{deal}/{hand}`: first the preview of every seat's match points, then
/// (`step=save`) the save; a different entry saved meanwhile becomes a conflict.
pub async fn entry_post(
    State(app): State<App>,
    Path((id, t, deal, hand)): Path<(EventId, u32, String, u32)>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let s = table_session(&app, &headers, id, t)?;
    check_csrf(&s, f.get("csrf"))?;
    let e = app.store.event(id)?;
    let (round, tp) = seating(&e, &deal, t, hand)?;
    round_open(&app, &s, id, round)?;
    let names = names_at(&e, tp.players_by_wind(), round);
    let prevalent = e.deal(&deal).map_or(Wind::East, |d| d.prevalent);
    let entry = entry_from(&f, prevalent)?;
    let version: u32 = number(&f, "version")?;
    let points = entry
        .match_points()
        .map_err(|er| AppError::Invalid(er.to_string()))?;
    // `table_session` admits the director or this table only.
    let who = if s.role == Role::Director {
        "director".to_string()
    } else {
        format!("table {t}, phone {}", phone_tag(&s.token))
    };
    if f.get("step").map(String::as_str) == Some("save") {
        let saved = enter_result(
            app.store.as_ref(),
            id,
            t,
            &deal,
            hand,
            &entry,
            version,
            &who,
        )?;
        let conflict = matches!(saved, Saved::Conflict { .. });
        let version = match saved {
            Saved::Saved { version } | Saved::Unchanged { version } => version,
            Saved::Conflict { .. } => 0,
        };
        let status = if conflict {
            tracing::warn!(event = id, table = t, deal = %deal, hand, by = %who, "conflicting result kept aside for the director");
            StatusCode::CONFLICT
        } else {
            StatusCode::OK
        };
        let next = next_sitting(&e, &app.store.round_states(id)?, t, &deal, hand)
            .map(|(d, h)| json!({"deal": d, "hand": h}));
        return render_status(
            status,
            "venue/saved.html",
            context! {
                title => trf("Table {} — deal {}", &[&t, &deal]),
                id => id,
                table => t,
                conflict => conflict,
                described => describe(&entry),
                version => version,
                next => next,
            },
        );
    }
    let shown: Vec<Value> = Wind::ALL
        .iter()
        .map(|&w| json!({"seat": seat_name(w), "name": names[w.index()], "points": points[w.index()]}))
        .collect();
    render(
        "venue/preview.html",
        context! {
            title => trf("Table {} — deal {}: check", &[&t, &deal]),
            id => id,
            table => t,
            deal => deal,
            hand => hand,
            described => describe(&entry),
            seats => shown,
            csrf => s.csrf,
            version => version,
            fields => entry_fields(&entry),
        },
    )
}
