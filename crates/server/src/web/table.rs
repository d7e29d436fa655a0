//! Score entry from a phone: a table logs in with its code, picks a deal, enters how the
//! hand ended, sees every seat's match points, then saves.

use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect};
use axum::Form;
use mcr::Wind;
use store::{Event, EventId, Role, Saved, Session};
use tournament::entry::{Outcome, ScoreEntry};

use super::{csrf_field, esc, field, html, number, App, Fields, Page};
use crate::auth::{check_csrf, check_login_form, login_form_token, session_of, start_session};
use crate::guard::Client;
use crate::i18n::{describe, seat_name, tr, trf};
use crate::service::{enter_result, seat_holder, sitting, AppError, AppResult};

/// `?table=` on the login page: the table card's QR code fills the table in.
#[derive(serde::Deserialize)]
pub struct LoginQuery {
    table: Option<String>,
}

pub async fn login_page(
    State(app): State<App>,
    Path(id): Path<EventId>,
    Query(q): Query<LoginQuery>,
) -> Page {
    let e = app.store.event(id)?;
    let table = super::query_number::<u32>(q.table.as_deref(), "table")?
        .filter(|t| (1..=e.table_codes.len() as u32).contains(t))
        .map(|t| format!(" value=\"{t}\""))
        .unwrap_or_default();
    let (token, cookie) = login_form_token();
    let page = html(
        StatusCode::OK,
        &format!("{} — {}", e.name, tr("score entry")),
        &format!(
            "<form class=\"entry\" method=\"post\" action=\"/events/{id}/table\"><input type=\"hidden\" name=\"form\" value=\"{token}\">\
             <p><label>{} <input name=\"table\" type=\"number\" min=\"1\" max=\"{}\"{table} required></label></p>\
             <p><label>{} <input name=\"code\" autocomplete=\"off\" autocapitalize=\"characters\" required></label></p><button>{}</button></form>",
            tr("Table"),
            e.table_codes.len(),
            tr("Code"),
            tr("Start")
        ),
    );
    Ok(([(header::SET_COOKIE, cookie)], page).into_response())
}

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
fn phone_tag(token: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    token.hash(&mut h);
    format!("{:06x}", h.finish() & 0xff_ffff)
}

/// The session of this table (or the director's, who may enter for any table).
fn table_session(app: &App, headers: &HeaderMap, id: EventId, table: u32) -> AppResult<Session> {
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
fn names_at(e: &Event, players: [u32; 4], round: u32) -> [String; 4] {
    players.map(|p| format!("{p} {}", seat_holder(e, p, round).1))
}

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
    let mut b = format!(
        "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        tr("round"),
        tr("hand"),
        tr("deal"),
        tr("result")
    );
    for r in &e.movement.rounds {
        // Only the open rounds are listed to a table (every round before round control).
        let shown = all || states.contains(&(r.round, true));
        if !shown {
            continue;
        }
        for h in &r.hands {
            for tp in h.tables.iter().filter(|x| x.table == t) {
                let done = results
                    .iter()
                    .find(|x| x.deal == tp.deal && x.table == t && x.hand == h.hand)
                    .map(|x| esc(&describe(&x.entry)))
                    .unwrap_or_else(|| "—".into());
                let _ = write!(
                    b,
                    "<tr><td>{}</td><td>{hand}</td><td><a href=\"/events/{id}/table/{t}/deal/{d}/{hand}\">{d}</a></td><td>{done}</td></tr>",
                    r.round,
                    hand = h.hand,
                    d = esc(&tp.deal)
                );
            }
        }
    }
    b.push_str("</table>");
    if !all && !states.iter().any(|&(_, open)| open) {
        b = format!(
            "<p class=\"warn\">{}</p>",
            tr("No round is open for entry: the director opens the next one.")
        );
    }
    Ok(html(
        StatusCode::OK,
        &format!("{} — {}", e.name, trf("table {}", &[&t])),
        &b,
    ))
}

/// The four seats as choices, each with the player's name; `selected` chosen.
fn seat_options(names: &[String; 4], selected: Option<Wind>) -> String {
    Wind::ALL
        .iter()
        .map(|w| {
            let sel = if selected == Some(*w) {
                " selected"
            } else {
                ""
            };
            format!(
                "<option value=\"{l}\"{sel}>{} — {}</option>",
                seat_name(*w),
                esc(&names[w.index()]),
                l = w.letter()
            )
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
fn round_open(app: &App, s: &Session, id: EventId, round: u32) -> AppResult<()> {
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
fn seating<'a>(
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
    let version = current.as_ref().map_or(0, |r| r.version);
    let mut b = format!(
        "<p>{} ",
        trf(
            "Round {}, hand {}, deal <b>{}</b>. Seats:",
            &[&round, &hand, &esc(&deal)]
        )
    );
    for w in Wind::ALL {
        let _ = write!(b, "{} = {}; ", seat_name(w), esc(&names[w.index()]));
    }
    b.push_str("</p>");
    if let Some(r) = &current {
        let _ = write!(
            b,
            "<p class=\"ok\">{}</p>",
            trf(
                "Saved: {} (version {})",
                &[&esc(&describe(&r.entry)), &r.version]
            )
        );
    }
    // Editing shows the saved result in the form.
    let saved = current.as_ref().map(|r| &r.entry);
    let outcome = saved.map(|x| &x.outcome);
    let checked = |on: bool| if on { " checked" } else { "" };
    let (self_winner, self_value) = match outcome {
        Some(Outcome::SelfDrawn { winner, value }) => (Some(*winner), value.to_string()),
        _ => (None, String::new()),
    };
    let (discarder, winners) = match outcome {
        Some(Outcome::Discard { discarder, winners }) => (Some(*discarder), winners.clone()),
        _ => (None, Vec::new()),
    };
    let _ = write!(
        b,
        "<form class=\"entry\" method=\"post\" action=\"/events/{id}/table/{t}/deal/{d}/{hand}\">{csrf}<input type=\"hidden\" name=\"version\" value=\"{version}\"><input type=\"hidden\" name=\"step\" value=\"preview\">\
         <fieldset><legend><label><input type=\"radio\" name=\"kind\" value=\"draw\" required{c_draw}> {draw}</label></legend></fieldset>\
         <fieldset><legend><label><input type=\"radio\" name=\"kind\" value=\"self\"{c_self}> {selfwin}</label></legend>\
         <label>{winner} <select name=\"winner\">{opts_w}</select></label> <label>{value} <input name=\"value\" type=\"number\" min=\"8\" size=\"4\" value=\"{self_value}\"></label>\
         <label>{orhand} <input name=\"hand\" placeholder=\"[123m3]456p789sEEE55s\" size=\"28\"></label></fieldset>\
         <fieldset><legend><label><input type=\"radio\" name=\"kind\" value=\"discard\"{c_discard}> {discardwin}</label></legend>\
         <label>{discarder_l} <select name=\"discarder\">{opts_d}</select></label><br>",
        draw = tr("Draw"),
        selfwin = tr("Self-drawn win"),
        winner = tr("Winner"),
        value = tr("Value"),
        orhand = tr("or the hand"),
        discardwin = tr("Win on a discard"),
        discarder_l = tr("Discarder"),
        d = esc(&deal),
        csrf = csrf_field(&s),
        c_draw = checked(matches!(outcome, Some(Outcome::Draw))),
        c_self = checked(self_winner.is_some()),
        c_discard = checked(discarder.is_some()),
        opts_w = seat_options(&names, self_winner),
        opts_d = seat_options(&names, discarder)
    );
    for w in Wind::ALL {
        let l = w.letter();
        let won = winners.iter().find(|(x, _)| *x == w);
        let _ = write!(
            b,
            "<label><input type=\"checkbox\" name=\"win_{l}\" value=\"1\"{}> {}</label> <label>{} <input name=\"value_{l}\" type=\"number\" min=\"8\" size=\"4\" value=\"{}\"></label> <label>{} <input name=\"hand_{l}\" size=\"24\"></label><br>",
            checked(won.is_some()),
            trf("{} wins", &[&esc(&names[w.index()])]),
            tr("value"),
            won.map(|(_, v)| v.to_string()).unwrap_or_default(),
            tr("or hand")
        );
    }
    let _ = write!(
        b,
        "</fieldset><fieldset><legend>{}</legend>",
        tr("False Hu")
    );
    for w in Wind::ALL {
        let l = w.letter();
        let _ = write!(
            b,
            "<label><input type=\"checkbox\" name=\"fhu_{l}\" value=\"1\"{}> {}</label>",
            checked(saved.is_some_and(|x| x.false_hu.contains(&w))),
            esc(&names[w.index()])
        );
    }
    let _ = write!(b, "</fieldset><button>{}</button></form>", tr("Check"));
    Ok(html(
        StatusCode::OK,
        &trf("Table {} — deal {}", &[&t, &deal]),
        &b,
    ))
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

/// The hidden fields that carry an entry from the preview to the save.
fn entry_fields(e: &ScoreEntry) -> String {
    let mut s = String::new();
    let mut put = |k: &str, v: String| {
        let _ = write!(
            s,
            "<input type=\"hidden\" name=\"{k}\" value=\"{}\">",
            esc(&v)
        );
    };
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
    s
}

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
        let msg = match saved {
            Saved::Saved { version } | Saved::Unchanged { version } => {
                format!(
                    "<p class=\"ok\" id=\"saved\">{}</p>",
                    trf("Saved: {} (version {}).", &[&esc(&describe(&entry)), &version])
                )
            }
            Saved::Conflict { .. } => format!(
                "<p class=\"err\" id=\"conflict\">{}</p>",
                tr("Conflict: another phone saved a different result for this deal first. Your entry was kept aside for the director, who decides which one stands.")
            ),
        };
        let status = if matches!(saved, Saved::Conflict { .. }) {
            tracing::warn!(event = id, table = t, deal = %deal, hand, by = %who, "conflicting result kept aside for the director");
            StatusCode::CONFLICT
        } else {
            StatusCode::OK
        };
        let next = next_sitting(&e, &app.store.round_states(id)?, t, &deal, hand)
            .map(|(d, h)| {
                format!(
                    "<p><a class=\"button\" id=\"next\" href=\"/events/{id}/table/{t}/deal/{}/{h}\">{}</a></p>",
                    esc(&d),
                    trf("Next sitting: deal {}, hand {}", &[&esc(&d), &h])
                )
            })
            .unwrap_or_default();
        return Ok(html(
            status,
            &trf("Table {} — deal {}", &[&t, &deal]),
            &format!(
                "{msg}{next}<p><a href=\"/events/{id}/table/{t}\">{}</a></p>",
                trf("Back to the deals of table {}", &[&t])
            ),
        ));
    }
    let mut b = format!(
        "<p>{}</p><table id=\"preview\"><tr><th>{}</th><th>{}</th><th>{}</th></tr>",
        esc(&describe(&entry)),
        tr("seat"),
        tr("player"),
        tr("match points")
    );
    for w in Wind::ALL {
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            seat_name(w),
            esc(&names[w.index()]),
            points[w.index()]
        );
    }
    let _ = write!(
        b,
        "</table><form method=\"post\" action=\"/events/{id}/table/{t}/deal/{d}/{hand}\">{csrf}<input type=\"hidden\" name=\"version\" value=\"{version}\"><input type=\"hidden\" name=\"step\" value=\"save\">{fields}<button>{save}</button></form>\
         <p><a href=\"/events/{id}/table/{t}/deal/{d}/{hand}\">{change}</a></p>",
        save = tr("Save"),
        change = tr("Change"),
        d = esc(&deal),
        csrf = csrf_field(&s),
        fields = entry_fields(&entry)
    );
    Ok(html(
        StatusCode::OK,
        &trf("Table {} — deal {}: check", &[&t, &deal]),
        &b,
    ))
}
