//! Passwords, sessions and the cross-site request check.
//!
//! A session is a random token in an HttpOnly, SameSite=Strict cookie, stored server-side
//! with its role (director, or one table of one event) and a second random token that
//! every form of the session carries; a POST whose `csrf` field differs is refused.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::http::HeaderMap;
use store::{Role, Session, Store};

use crate::service::{random_code, AppError, AppResult};

/// Name of the session cookie.
pub const COOKIE: &str = "dupmj_session";
/// Shortest director password accepted.
pub const MIN_PASSWORD: usize = 8;

/// An Argon2 hash of the password (PHC string, salt included).
pub fn hash_password(password: &str) -> AppResult<String> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(AppError::Invalid(format!(
            "password: at least {MIN_PASSWORD} characters"
        )));
    }
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| AppError::Internal(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| AppError::Internal(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AppError::Internal(e.to_string()))
}

/// Whether `password` matches an Argon2 `hash` made by [`hash_password`] (false for a malformed hash).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Sets the director password from the command line or the first-run page.
pub fn set_director_password(store: &dyn Store, password: &str, who: &str) -> AppResult<()> {
    let h = hash_password(password)?;
    Ok(store.set_director_hash(&h, who)?)
}

/// Starts a session; returns it and its Set-Cookie value.
pub fn start_session(store: &dyn Store, role: Role) -> AppResult<(Session, String)> {
    let s = Session {
        token: random_code(32),
        role,
        csrf: random_code(24),
    };
    store.create_session(&s)?;
    let cookie = format!("{COOKIE}={}; Path=/; HttpOnly; SameSite=Strict", s.token);
    Ok((s, cookie))
}

/// The Set-Cookie value that ends a session in the browser.
pub fn clear_cookie() -> String {
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
}

/// The session named by the request's cookie, if any.
pub fn session_of(store: &dyn Store, headers: &HeaderMap) -> AppResult<Option<Session>> {
    let Some(token) = cookie_value(headers, COOKIE) else {
        return Ok(None);
    };
    Ok(store.session(&token)?)
}

/// The bot account a request's `Authorization: Bearer TOKEN` signs in; `None` without
/// that header; refused, saying why, for any other form of it and for a token that is
/// wrong or revoked.
pub fn bot_of(store: &dyn Store, headers: &HeaderMap) -> AppResult<Option<store::Person>> {
    let Some(value) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            AppError::Forbidden(
                "Authorization: give 'Bearer' and the bot account's API token".into(),
            )
        })?;
    store.person_of_token(token)?.map(Some).ok_or_else(|| {
        AppError::Forbidden(
            "API token not recognised: it is wrong or was revoked (make a new one on the bot account's page)"
                .into(),
        )
    })
}

/// The value of cookie `name` in a request.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// Cookie of a login form's token (a login form has no session to carry one).
pub const FORM_COOKIE: &str = "dupmj_form";

/// A token for a login form: the value for its hidden `form` field and the Set-Cookie
/// value that holds the same token. A post from another site cannot send the cookie.
pub fn login_form_token() -> (String, String) {
    let t = random_code(24);
    let cookie = format!("{FORM_COOKIE}={t}; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400");
    (t, cookie)
}

/// A login form's `form` field must match its cookie.
pub fn check_login_form(headers: &HeaderMap, sent: Option<&String>) -> AppResult<()> {
    match (cookie_value(headers, FORM_COOKIE), sent) {
        (Some(c), Some(s)) if !c.is_empty() && c == *s => Ok(()),
        _ => Err(AppError::Forbidden(
            "this login form is out of date or came from another site; reload the page and try again"
                .into(),
        )),
    }
}

/// The form's cross-site token must match the session's.
pub fn check_csrf(session: &Session, sent: Option<&String>) -> AppResult<()> {
    match sent {
        Some(t) if *t == session.csrf => Ok(()),
        _ => Err(AppError::Forbidden(
            "this form is out of date or came from another site; reload the page and try again"
                .into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_hash_and_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsE", &h));
        assert!(!verify_password("x", "not a hash"));
        assert!(hash_password("short").is_err());
    }
}
