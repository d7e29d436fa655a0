//! Signing in and out: a guest's name, an account's registration and password login,
//! and the way back to the page that asked.

use super::{
    check_csrf, clear_cookie, hash_password, header, json, lobby, player, sitting, start_session,
    verify_password, App, AppError, AppResult, Client, Deserialize, Fields, Form, HeaderMap,
    IntoResponse, Page, Query, Redirect, Response, Role, State, StatusCode,
};

pub(super) fn with_cookie(cookie: String, to: &str) -> Response {
    ([(header::SET_COOKIE, cookie)], Redirect::to(to)).into_response()
}

/// `?next=/play/…`: where to go after signing in.
#[derive(Deserialize)]
pub struct Back {
    #[serde(default)]
    next: Option<String>,
}

/// Only paths of this site are followed after signing in.
pub(super) fn next_path(b: &Back) -> String {
    match &b.next {
        Some(n) if n.starts_with("/play") && !n.starts_with("//") => n.clone(),
        _ => "/play".into(),
    }
}

/// The answer to a sign-in form: signed in (the session's cookie), on to where the form
/// came from; or the form shown again where it was, with its message and the name typed
/// (a password never), under the error's status. A server fault is still an error page.
fn signin_answer(
    app: &App,
    headers: &HeaderMap,
    back: &Back,
    form: &'static str,
    f: &Fields,
    made: AppResult<String>,
) -> Page {
    let e = match made {
        Ok(cookie) => return Ok(with_cookie(cookie, &next_path(back))),
        Err(e) => e,
    };
    if matches!(e, AppError::Internal(_)) {
        return Err(e);
    }
    let signin = json!({
        "form": form,
        "message": e.shown(),
        "name": f.get("name").map(|n| n.chars().take(80).collect::<String>()),
    });
    let status = e.status().0;
    let next = next_path(back);
    if let Some(id) = next
        .strip_prefix("/play/t/")
        .and_then(|r| r.parse::<i64>().ok())
    {
        if app.store.play_table(id).is_ok() {
            return sitting::table_page_with(app, id, headers, Some(signin), status);
        }
    }
    lobby::lobby_page(app, headers, 1, Some(signin), status)
}

/// `POST /play/guest`: signs in as a guest under the name given.
pub async fn guest(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let made = (|| {
        let name = play::names::check(f.get("name").map(String::as_str).unwrap_or(""))?;
        app.guards.newcomer(&client)?;
        let person = app.store.create_person(&name, None)?;
        let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
        Ok::<_, AppError>(cookie)
    })();
    signin_answer(&app, &headers, &b, "guest", &f, made)
}

/// `POST /play/register`: creates an account (name and password) and signs in.
pub async fn register(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let made = async {
        let name = play::names::check(f.get("name").map(String::as_str).unwrap_or(""))?;
        app.guards.newcomer(&client)?;
        let password = f.get("password").cloned().unwrap_or_default();
        let hash = app
            .guards
            .hash_job(move || hash_password(&password))
            .await??;
        // A guest who makes an account keeps their number, and with it their games.
        let person = match player(&app, &headers)? {
            Some((s, guest)) if !guest.account => {
                check_csrf(&s, f.get("csrf"))?;
                app.store.make_account(guest.id, &name, &hash)?
            }
            _ => app.store.create_person(&name, Some(&hash))?,
        };
        let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
        Ok::<_, AppError>(cookie)
    }
    .await;
    signin_answer(&app, &headers, &b, "register", &f, made)
}

/// `POST /play/login`: signs in to an account. Wrong passwords count against the client's
/// address as the director's do.
pub async fn login(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let made = sign_in(&app, &client, &f).await;
    signin_answer(&app, &headers, &b, "login", &f, made)
}

/// Checks an account's name and password; the session's cookie when they match.
async fn sign_in(app: &App, client: &Client, f: &Fields) -> AppResult<String> {
    let key = format!("password:{}", client.0);
    if let Err(wait) = app.guards.password.check(&key) {
        tracing::warn!(client = %client.0, "player login refused: too many wrong passwords");
        return Err(AppError::Limited(format!(
            "too many wrong passwords from this address: try again in {wait} s"
        )));
    }
    let name = f.get("name").map(|s| s.trim()).unwrap_or("");
    let password = f.get("password").cloned().unwrap_or_default();
    let found = app.store.account(name)?;
    let person = match found {
        Some((p, hash)) => {
            let ok = app
                .guards
                .hash_job(move || verify_password(&password, &hash))
                .await?;
            ok.then_some(p)
        }
        None => None,
    };
    let Some(person) = person else {
        app.guards.password.fail(&key);
        tracing::warn!(client = %client.0, "player login failed");
        return Err(AppError::Forbidden(
            "no account with that name and password".into(),
        ));
    };
    let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
    Ok(cookie)
}

/// `POST /play/logout`: signs out.
pub async fn logout(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    if let Some((s, _)) = player(&app, &headers)? {
        check_csrf(&s, f.get("csrf"))?;
        app.store.end_session(&s.token)?;
    }
    Ok(with_cookie(clear_cookie(), "/play"))
}

/// Options a player keeps at the table, as the browser sends them: known names only, each
/// of its kind.
const PREFS: &[(&str, &[&str])] = &[
    ("autoHu", &[]),
    ("noCalls", &[]),
    ("autoDiscard", &[]),
    ("mute", &[]),
    ("hints", &[]),
    ("sort", &["msp", "mps", "hmsp"]),
];

/// Checks options sent by the browser and writes them back in a fixed form.
pub(crate) fn checked_prefs(text: &str) -> AppResult<String> {
    if text.len() > 1024 {
        return Err(AppError::Invalid(format!(
            "prefs: {} bytes; at most 1024",
            text.len()
        )));
    }
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| AppError::Invalid(format!("prefs: not JSON ({e})")))?;
    let obj = v
        .as_object()
        .ok_or_else(|| AppError::Invalid("prefs: not a JSON object".into()))?;
    let mut out = serde_json::Map::new();
    for (k, val) in obj {
        let Some((_, choices)) = PREFS.iter().find(|(n, _)| n == k) else {
            return Err(AppError::Invalid(format!("prefs: unknown option '{k}'")));
        };
        let ok = if choices.is_empty() {
            val.is_boolean()
        } else {
            val.as_str().is_some_and(|s| choices.contains(&s))
        };
        if !ok {
            return Err(AppError::Invalid(format!(
                "prefs: '{k}' must be {}",
                if choices.is_empty() {
                    "true or false".to_string()
                } else {
                    format!("one of {}", choices.join(", "))
                }
            )));
        }
        out.insert(k.clone(), val.clone());
    }
    Ok(serde_json::Value::Object(out).to_string())
}

/// `POST /play/prefs`: keeps the signed-in player's options at the table.
pub async fn set_prefs(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    let (s, me) = player(&app, &headers)?
        .ok_or_else(|| AppError::Forbidden("sign in to keep your options".into()))?;
    check_csrf(&s, f.get("csrf"))?;
    let prefs = checked_prefs(f.get("prefs").map(String::as_str).unwrap_or("{}"))?;
    app.store.set_prefs(me.id, &prefs)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
