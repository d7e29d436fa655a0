//! Signing in and out: a guest's name, an account's registration and password login,
//! and the way back to the page that asked.

use super::*;

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

/// `POST /play/guest`: signs in as a guest under the name given.
pub async fn guest(
    State(app): State<App>,
    client: Client,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let name = play::names::check(f.get("name").map(String::as_str).unwrap_or(""))
        .map_err(AppError::Invalid)?;
    app.guards.newcomer(&client)?;
    let person = app.store.create_person(&name, None)?;
    let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
    Ok(with_cookie(cookie, &next_path(&b)))
}

/// `POST /play/register`: creates an account (name and password) and signs in.
pub async fn register(
    State(app): State<App>,
    client: Client,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
    let name = play::names::check(f.get("name").map(String::as_str).unwrap_or(""))
        .map_err(AppError::Invalid)?;
    app.guards.newcomer(&client)?;
    let password = f.get("password").cloned().unwrap_or_default();
    let hash = app
        .guards
        .hash_job(move || hash_password(&password))
        .await??;
    let person = app.store.create_person(&name, Some(&hash))?;
    let (_, cookie) = start_session(app.store.as_ref(), Role::Player { person: person.id })?;
    Ok(with_cookie(cookie, &next_path(&b)))
}

/// `POST /play/login`: signs in to an account. Wrong passwords count against the client's
/// address as the director's do.
pub async fn login(
    State(app): State<App>,
    client: Client,
    Query(b): Query<Back>,
    Form(f): Form<Fields>,
) -> Page {
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
    Ok(with_cookie(cookie, &next_path(&b)))
}

/// `POST /play/logout`: signs out.
pub async fn logout(State(app): State<App>, headers: HeaderMap, Form(f): Form<Fields>) -> Page {
    if let Some((s, _)) = player(&app, &headers)? {
        check_csrf(&s, f.get("csrf"))?;
        app.store.end_session(&s.token)?;
    }
    Ok(with_cookie(clear_cookie(), "/play"))
}
