//! A player's pages: the profile (`/play/p/<name>`, every account's), "my games" and the
//! account (`/play/me`: change the password, delete the account, export my data), and the
//! leaderboard (`/play/leaderboard`). The figures come from `play::history`.

use super::replay::table_spec;
use super::{
    check_csrf, clear_cookie, context, hand_sight, hash_password, header, json, player, render,
    verify_password, viewer_of, App, AppError, AppResult, Deserialize, Fields, Form, HandSummary,
    HeaderMap, IntoResponse, Page, Path, Person, Query, Redirect, Response, Session, Sight, State,
    TableSpec, Viewer,
};
use play::history::{self, Line};
use serde_json::Value;
use tournament::rating::PROVISIONAL_HANDS;

/// Hands a page of "my games" lists.
const MY_PAGE: usize = 30;
/// Rated hands before a player is on the leaderboard.
pub const LEADERBOARD_HANDS: usize = 10;

/// The rating's history as an SVG path over a `w` × `h` box: the rating line and the band
/// of two standard deviations around it.
fn chart(history: &[(String, f64, f64)], w: f64, h: f64) -> Option<Value> {
    if history.len() < 2 {
        return None;
    }
    let lo = history
        .iter()
        .map(|(_, r, u)| r - 2.0 * u)
        .fold(f64::INFINITY, f64::min);
    let hi = history
        .iter()
        .map(|(_, r, u)| r + 2.0 * u)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(1.0);
    let n = (history.len() - 1) as f64;
    let x = |i: usize| 4.0 + (w - 8.0) * i as f64 / n;
    let y = |v: f64| 4.0 + (h - 8.0) * (hi - v) / span;
    let line: Vec<String> = history
        .iter()
        .enumerate()
        .map(|(i, (_, r, _))| format!("{:.1},{:.1}", x(i), y(*r)))
        .collect();
    let upper = history
        .iter()
        .enumerate()
        .map(|(i, (_, r, u))| format!("{:.1},{:.1}", x(i), y(r + 2.0 * u)));
    let lower = history
        .iter()
        .enumerate()
        .rev()
        .map(|(i, (_, r, u))| format!("{:.1},{:.1}", x(i), y(r - 2.0 * u)));
    let band: Vec<String> = upper.chain(lower).collect();
    Some(json!({
        "w": w, "h": h,
        "line": line.join(" "),
        "band": band.join(" "),
        "hi": format!("{hi:.1}"), "lo": format!("{lo:.1}"),
        "from": history[0].0.get(..10).unwrap_or(""),
        "to": history[history.len() - 1].0.get(..10).unwrap_or(""),
    }))
}

fn rated_json(r: &tournament::rating::Rated) -> Value {
    json!({
        "rating": format!("{:.1}", r.rating),
        "uncertainty": format!("{:.1}", r.uncertainty),
        "conservative": format!("{:.1}", r.conservative()),
        "hands": r.hands,
        "provisional": r.provisional(),
    })
}

fn percent(n: usize, of: usize) -> String {
    if of == 0 {
        "–".into()
    } else {
        format!("{:.1} %", 100.0 * n as f64 / of as f64)
    }
}

/// A player's regular games: the record over those played to the end (games, table points
/// in all and per game, how often each place) and the newest `last` games.
fn regular_json(p: &history::Profile, last: usize) -> Value {
    let done: Vec<&history::RegularGame> = p.regular_complete().collect();
    let points: f64 = done.iter().filter_map(|g| g.table_points).sum();
    let mut places = [0usize; 4];
    for g in &done {
        places[g.place.clamp(1, 4) - 1] += 1;
    }
    json!({
        "games": done.len(),
        "table_points": format!("{points}"),
        "per_game": (!done.is_empty()).then(|| format!("{:.2}", points / done.len() as f64)),
        "places": places,
        "list": p.regular.iter().take(last).map(|g| json!({
            "table": g.table, "at": g.at.get(..10).unwrap_or(&g.at),
            "played": g.played, "of": g.of, "score": g.score, "place": g.place,
            "table_points": g.table_points.map(|x| format!("{x}")),
        })).collect::<Vec<_>>(),
    })
}

/// `GET /play/p/{name}`: an account's profile.
pub async fn profile_page(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Page {
    let Some((person, _)) = app.store.account(&name)? else {
        return Err(AppError::NotFound(format!("no player called '{name}'")));
    };
    let viewer = viewer_of(&app, &headers)?;
    let me = player(&app, &headers)?;
    let p = history::profile(&app.hall, person.id, viewer, 20)?;
    let review = review_trends(&app, person.id, viewer)?;
    let bots: Vec<Value> = tournament::rating::ANCHORS
        .iter()
        .map(|(l, r)| json!({"level": l, "rating": format!("{r:.1}")}))
        .collect();
    render(
        "players/profile.html",
        context! {
            title => p.person.name.clone(),
            name => p.person.name.clone(),
            bot_account => person.bot,
            mine => me.as_ref().is_some_and(|(_, m)| m.id == person.id),
            rated => p.rated.as_ref().map(rated_json),
            chart => p.rated.as_ref().and_then(|r| chart(&r.history, 600.0, 160.0)),
            regular => (!p.regular.is_empty()).then(|| regular_json(&p, 10)),
            provisional_hands => PROVISIONAL_HANDS,
            bots => bots,
            hands => p.hands,
            tables => p.tables,
            compared => p.compared,
            imp_per_hand => (p.compared > 0).then(|| format!("{:+.2}", p.imp as f64 / p.compared as f64)),
            played => p.played,
            win_rate => percent(p.wins, p.played),
            deal_in_rate => percent(p.dealt_in, p.played),
            draws => p.draws,
            average_win => (p.wins > 0).then(|| format!("{:.1}", p.win_points as f64 / p.wins as f64)),
            fans => p.fans.iter().map(|(n, z, c)| json!({"name": n, "zh": z, "wins": c})).collect::<Vec<_>>(),
            challenges => p.challenges.iter().map(|(id, n, r, of, imp)| json!({"id": id, "name": n, "place": r, "of": of, "imp": imp})).collect::<Vec<_>>(),
            events => p.events.iter().map(|(id, n, r, of, imp)| json!({"id": id, "name": n, "place": r, "of": of, "imp": imp})).collect::<Vec<_>>(),
            last => p.last,
            review => review,
        },
    )
}

/// The player's reviews over time for the profile: figures for anyone, a link to a hand
/// only where the viewer may open its replay.
fn review_trends(app: &App, person: i64, viewer: Viewer) -> AppResult<Option<Value>> {
    let t = history::trends(&app.hall, person, 10)?;
    if t.hands == 0 {
        return Ok(None);
    }
    let mut opens = std::collections::HashMap::new();
    let mut may_open = |table: i64, hand: u32| -> bool {
        *opens.entry((table, hand)).or_insert_with(|| {
            table_spec(app, table)
                .ok()
                .and_then(|spec| hand_sight(&app.hall, table, &spec, hand as usize, viewer).ok())
                .is_some_and(|s| matches!(s, Sight::Open | Sight::Seat(_)))
        })
    };
    let kinds: Vec<Value> = t
        .kinds
        .iter()
        .map(|k| {
            let worst: Vec<Value> = k
                .worst
                .iter()
                .filter(|w| may_open(w.0, w.1))
                .map(|w| json!({"table": w.0, "hand": w.1, "move": w.2, "cost": format!("{:.1}", w.3)}))
                .collect();
            json!({
                "words": k.kind.words(),
                "decisions": k.decisions,
                "differed": k.differed,
                "cost": format!("{:.1}", k.cost),
                "per_decision": format!("{:.2}", k.cost / k.decisions.max(1) as f64),
                "worst": worst,
            })
        })
        .collect();
    let recent: Vec<Value> = t
        .recent
        .iter()
        .map(|h| {
            json!({
                "at": h.at.chars().take(10).collect::<String>(),
                "agreement": (h.agreement * 100.0).round() as i64,
                "cost": format!("{:.1}", h.cost),
                "link": may_open(h.table, h.hand_no).then(|| format!("/play/t/{}/hands/{}", h.table, h.hand_no)),
            })
        })
        .collect();
    let periods: Vec<Value> = t
        .periods
        .iter()
        .map(|p| {
            json!({
                "month": p.month,
                "hands": p.hands,
                "agreement": (p.agreement * 100.0).round() as i64,
                "cost": format!("{:.2}", p.cost),
            })
        })
        .collect();
    Ok(Some(json!({
        "hands": t.hands,
        "periods": periods,
        "kinds": kinds,
        "recent": recent,
    })))
}

#[derive(Deserialize)]
pub struct BoardQuery {
    period: Option<String>,
    who: Option<String>,
}

/// `GET /play/leaderboard?period=all|30d&who=people|bots|all`: accounts with enough rated
/// hands, by rating, the bots' levels in their places; people's accounts, bot accounts, or
/// both.
pub async fn leaderboard_page(State(app): State<App>, Query(q): Query<BoardQuery>) -> Page {
    let period = q.period.as_deref().unwrap_or("all");
    let since = match period {
        "all" => None,
        // From the day 30 days ago (dates compare whatever the time's format).
        "30d" => {
            Some(play::challenge::utc(play::challenge::now_s() - 30 * 86_400)[..10].to_string())
        }
        other => {
            return Err(AppError::Invalid(format!(
                "period: '{}' is not one of all, 30d",
                other.chars().take(20).collect::<String>()
            )))
        }
    };
    // People, bot accounts or both: one scale, so a filter only hides lines.
    let who = q.who.as_deref().unwrap_or("people");
    let shows = |bot: bool| match who {
        "people" => Ok(!bot),
        "bots" => Ok(bot),
        "all" => Ok(true),
        other => Err(AppError::Invalid(format!(
            "who: '{}' is not one of people, bots, all",
            other.chars().take(20).collect::<String>()
        ))),
    };
    shows(false)?;
    let lines = history::leaderboard(&app.hall, LEADERBOARD_HANDS, since.as_deref())?;
    let mut rank = 0;
    let mut rows: Vec<Value> = Vec::new();
    for l in &lines {
        match l {
            Line::Player {
                name, rated, bot, ..
            } => {
                if !shows(*bot)? {
                    continue;
                }
                rank += 1;
                rows.push(json!({"rank": rank, "name": name, "bot_account": bot, "rated": rated_json(rated)}));
            }
            Line::Bot { level, rating } => {
                rows.push(json!({"bot": level, "rating": format!("{rating:.1}")}))
            }
        }
    }
    render(
        "players/leaderboard.html",
        context! {
            title => "Leaderboard",
            period => period,
            who => who,
            rows => rows,
            min_hands => LEADERBOARD_HANDS,
        },
    )
}

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<usize>,
}

/// `GET /play/me`: my games, a page at a time, and my account.
pub async fn me_page(
    State(app): State<App>,
    headers: HeaderMap,
    Query(q): Query<PageQuery>,
) -> Page {
    // Someone signed out (a bookmark, a deleted account) is sent where they can sign in.
    let Some((s, me)) = super::player(&app, &headers)? else {
        return Ok(Redirect::to("/play").into_response());
    };
    me_page_with(&app, &s, &me, q.page.unwrap_or(1).max(1), None)
}

pub(super) fn me_page_with(
    app: &App,
    s: &Session,
    me: &Person,
    page: usize,
    message: Option<Value>,
) -> Page {
    let total = app.store.hand_count_of_person(me.id)?;
    let hands = app
        .store
        .hands_of_person(me.id, (page - 1).saturating_mul(MY_PAGE), MY_PAGE)?;
    // "Compared" means what the profile counts: a deal-seat of the rating that holds them.
    let p = history::profile(&app.hall, me.id, Viewer::Person(me.id), 0)?;
    let compared = &p.compared_keys;
    let rows: Vec<Value> = hands
        .iter()
        .filter_map(|(h, seat)| {
            let sum: HandSummary = serde_json::from_str(&h.summary).ok()?;
            let letter = mcr::Wind::from_index(*seat).letter();
            Some(json!({
                "table": h.play_table, "hand_no": h.hand_no, "label": sum.label,
                "at": h.at.get(..16).unwrap_or(&h.at).replace('T', " "),
                "seat": letter.to_string(),
                "points": sum.points[*seat],
                "compared": h.deal_key.as_ref().is_some_and(|k| compared.contains(&format!("{k}/{letter}"))),
                "held": sum.held(*seat).words(),
            }))
        })
        .collect();
    let rated = p.rated.clone();
    render(
        "players/me.html",
        context! {
            title => "My games",
            me => json!({"name": me.name, "account": me.account, "bot": me.bot}),
            csrf => s.csrf.clone(),
            tokens => tokens_json(app, me)?,
            rows => rows,
            total => total,
            page => page,
            pages => total.div_ceil(MY_PAGE).max(1),
            rated => rated.as_ref().map(rated_json),
            regular => (!p.regular.is_empty()).then(|| regular_json(&p, usize::MAX)),
            message => message,
        },
    )
}

/// A bot account's tokens as its page lists them.
fn tokens_json(app: &App, me: &Person) -> AppResult<Value> {
    if !me.bot {
        return Ok(Value::Null);
    }
    let list: Vec<Value> = app
        .store
        .api_tokens(me.id)?
        .iter()
        .map(|t| json!({"id": t.id, "created": t.created.get(..16).unwrap_or(&t.created).replace('T', " "), "revoked": t.revoked}))
        .collect();
    Ok(json!(list))
}

/// `GET /play/p/{name}/export.json`: everything kept of you, for you only.
pub async fn export(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> AppResult<Response> {
    let (_, me) = player(&app, &headers)?
        .ok_or_else(|| AppError::Forbidden("sign in to export your data".into()))?;
    let own = app
        .store
        .account(&name)?
        .is_some_and(|(p, _)| p.id == me.id)
        || (name == "me");
    if !own {
        return Err(AppError::Forbidden(
            "you may export your own data only".into(),
        ));
    }
    let hands = app.store.hands_of_person(me.id, 0, usize::MAX >> 1)?;
    let compared = history::compared_keys(&app.hall, me.id)?;
    let rated = history::kept(&app.hall, me.id)?;
    // Each hand as the secrecy rule lets you have it: a deal others have still to play
    // keeps its log, its seed and its key back (only your own seat's replay is yours).
    let mut specs: std::collections::HashMap<i64, TableSpec> = Default::default();
    let mut rows = Vec::with_capacity(hands.len());
    for (h, seat) in &hands {
        let spec = match specs.get(&h.play_table) {
            Some(s) => s.clone(),
            None => {
                let s = table_spec(&app, h.play_table)?;
                specs.insert(h.play_table, s.clone());
                s
            }
        };
        let sight = hand_sight(
            &app.hall,
            h.play_table,
            &spec,
            h.hand_no as usize,
            Viewer::Person(me.id),
        )?;
        let summary: Option<HandSummary> = serde_json::from_str(&h.summary).ok();
        let letter = mcr::Wind::from_index(*seat).letter();
        let mut row = json!({
            "table": h.play_table, "hand_no": h.hand_no, "seat": seat, "at": h.at,
            "practice": !spec.counts(),
            "compared": h.deal_key.as_ref().is_some_and(|k| compared.contains(&format!("{k}/{letter}"))),
            "held": summary.as_ref().map(|s| s.held(*seat)),
            "summary": serde_json::from_str::<Value>(&h.summary).unwrap_or(Value::Null),
        });
        match sight {
            Sight::Open => {
                row["deal_key"] = json!(h.deal_key);
                row["log"] = serde_json::from_str::<Value>(&h.log).unwrap_or(Value::Null);
            }
            Sight::Seat(_) => {
                row["withheld"] = json!(format!(
                    "the log of this hand holds every seat's tiles and the deal's seed: it is exported once the deal is open to you; until then your seat's replay is at /play/t/{}/hands/{}",
                    h.play_table, h.hand_no
                ));
            }
            Sight::Watch | Sight::Hidden(_) => {
                row["withheld"] = json!("this hand's deal is not open to you yet");
            }
        }
        rows.push(row);
    }
    let body = json!({
        "format": "dupmj-export/2",
        "person": {"id": me.id, "name": me.name, "account": me.account},
        "prefs": app.store.prefs(me.id)?.and_then(|p| serde_json::from_str::<Value>(&p).ok()),
        "rating": rated.map(|r| json!({
            "rating": r.rating, "uncertainty": r.uncertainty, "hands": r.hands,
            "history": r.history.iter().map(|(at, r, u)| json!([at, r, u])).collect::<Vec<_>>(),
        })),
        "hands": rows,
        "drills": drills_export(&app, me.id)?,
        "signups": signups_export(&app, me.id)?,
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"dupmj-my-data.json\"",
            ),
        ],
        body.to_string(),
    )
        .into_response())
}

/// A person's drills in their export: each with its schedule (days since 1970), and their
/// progress. A drill names a hand by its table and number only.
fn drills_export(app: &App, person: i64) -> AppResult<Value> {
    let day = play::drills::daily::today();
    let cards: Vec<Value> = app
        .store
        .drills_due(person, i64::MAX, usize::MAX >> 1)?
        .into_iter()
        .map(|c| {
            json!({"drill": c.drill, "added_day": c.added_day, "due_day": c.due_day,
                   "interval_days": c.interval_days, "ease": c.ease_milli as f64 / 1000.0,
                   "answered": c.answered, "right": c.right})
        })
        .collect();
    let p = app.store.drill_progress(person, day)?;
    Ok(json!({"answered": p.answered, "right": p.right, "due_today": p.due, "cards": cards}))
}

/// The sign-ups a person is on, with where they stand (`place`: in, waiting, pending,
/// substitute, withdrawn or refused; `n` their number in or on the waitlist).
fn signups_export(app: &App, person: i64) -> AppResult<Value> {
    let mut out = Vec::new();
    for s in app.store.signups()? {
        let (_, lines) = crate::season::signup_lines(&app.hall, s.id)?;
        if let Some(l) = lines.iter().find(|l| l.who == person) {
            let mut row = json!({"signup": s.id, "event_name": s.spec.name, "event": s.event});
            if let Value::Object(place) = json!(l.place) {
                row.as_object_mut().expect("an object").extend(place);
            }
            out.push(row);
        }
    }
    Ok(Value::Array(out))
}

/// The signed-in account and its password checked against `f["password"]`.
pub(super) fn checked_account(
    app: &App,
    headers: &HeaderMap,
    f: &Fields,
) -> AppResult<(Session, Person)> {
    let (s, me) =
        player(app, headers)?.ok_or_else(|| AppError::Forbidden("sign in first".into()))?;
    check_csrf(&s, f.get("csrf"))?;
    let Some((_, hash)) = app.store.account(&me.name)? else {
        return Err(AppError::Forbidden("a guest has no account".into()));
    };
    let password = f.get("password").cloned().unwrap_or_default();
    if !verify_password(&password, &hash) {
        return Err(AppError::Forbidden(
            "password: that is not your password".into(),
        ));
    }
    Ok((s, me))
}

/// `POST /play/me/password`: a new password, given the old one.
pub async fn change_password(
    State(app): State<App>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> Page {
    let (s, me) = checked_account(&app, &headers, &f)?;
    let new = f.get("new").cloned().unwrap_or_default();
    if new.chars().count() < 8 {
        return Err(AppError::Invalid(
            "new: 8 characters or more, please".into(),
        ));
    }
    app.store.set_password(me.id, &hash_password(&new)?)?;
    me_page_with(
        &app,
        &s,
        &me,
        1,
        Some(json!({"text": "Your password is changed."})),
    )
}

/// `POST /play/me/delete`: deletes the account (its results stay in the fields, under
/// "deleted player").
pub async fn delete_account(
    State(app): State<App>,
    headers: HeaderMap,
    Form(f): Form<Fields>,
) -> AppResult<Response> {
    let (_, me) = checked_account(&app, &headers, &f)?;
    if f.get("confirm").map(String::as_str) != Some("yes") {
        return Err(AppError::Invalid(
            "confirm: tick the box to delete your account".into(),
        ));
    }
    app.store.delete_person(me.id)?;
    Ok((
        [(header::SET_COOKIE, clear_cookie())],
        Redirect::to("/play"),
    )
        .into_response())
}
