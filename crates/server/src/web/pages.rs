//! Every page comes from a template here, with automatic HTML escaping: the templates,
//! what each page is given besides its own values (its language, the language switch, the
//! scripts' texts), the audience a page is for, and each audience's error page.
//!
//! The audiences are the director, the tables at the venue, the public and the players
//! online; each group of routes sets its own (a middleware), so an error page has the
//! layout of the pages around it.

use std::fmt::Write as _;
use std::sync::OnceLock;

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use minijinja::{context, Environment, Value};

use crate::service::AppError;

/// Who a page is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The tournament director.
    Director,
    /// A table at the venue entering its results.
    Venue,
    /// Anyone: standings, the big screen, deal tables.
    Public,
    /// People playing online.
    Players,
}

impl Audience {
    /// The layout its pages and error page extend.
    fn layout(self) -> &'static str {
        match self {
            Audience::Players => "players/layout.html",
            _ => "base.html",
        }
    }
}

tokio::task_local! {
    static AUDIENCE: Audience;
}

/// The audience of the request being answered (the public outside one).
pub fn audience() -> Audience {
    AUDIENCE.try_with(|a| *a).unwrap_or(Audience::Public)
}

async fn scoped(a: Audience, req: Request, next: Next) -> Response {
    AUDIENCE.scope(a, next.run(req)).await
}

/// Middleware of the director's routes.
pub async fn for_director(req: Request, next: Next) -> Response {
    scoped(Audience::Director, req, next).await
}

/// Middleware of the venue's routes.
pub async fn for_venue(req: Request, next: Next) -> Response {
    scoped(Audience::Venue, req, next).await
}

/// Middleware of the public routes.
pub async fn for_public(req: Request, next: Next) -> Response {
    scoped(Audience::Public, req, next).await
}

/// Middleware of the players' routes.
pub async fn for_players(req: Request, next: Next) -> Response {
    scoped(Audience::Players, req, next).await
}

/// The templates, compiled into the binary: `templates!("a.html", …)`.
macro_rules! templates {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../templates/", $name)))),*]
    };
}

const TEMPLATES: &[(&str, &str)] = templates!(
    "base.html",
    "error.html",
    "confirm.html",
    "public/home.html",
    "public/rules.html",
    "public/standings.html",
    "public/standings_tables.html",
    "public/hidden.html",
    "public/deal_tables.html",
    "public/big.html",
    "venue/login.html",
    "venue/saved.html",
    "venue/preview.html",
    "venue/entry.html",
    "venue/deals.html",
    "director/setup.html",
    "director/login.html",
    "director/events.html",
    "director/event.html",
    "director/audit.html",
    "director/sections/board.html",
    "director/sections/clock.html",
    "director/sections/conflicts.html",
    "director/sections/deals.html",
    "director/sections/online.html",
    "director/sections/penalties.html",
    "director/sections/players.html",
    "players/layout.html",
    "players/lobby.html",
    "players/table.html",
    "players/replay.html",
    "players/standings.html",
    "players/challenges.html",
    "players/challenge.html",
    "players/challenge_deal.html",
    "players/event.html",
    "players/profile.html",
    "players/leaderboard.html",
    "players/me.html",
    "players/regular.html",
);

/// The environment with every template and the text function `t`.
pub fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_formatter(escape);
        for (name, src) in TEMPLATES {
            env.add_template(name, src).expect("templates parse");
        }
        // t("English {} text", args…): the request's language, `{}` filled in order.
        env.add_function(
            "t",
            |en: String, args: minijinja::value::Rest<minijinja::Value>| {
                crate::i18n::fill(&crate::i18n::tr_str(&en), args.iter())
            },
        );
        // said(text): a text kept in English in the store (a hand's label, a bot's name)
        // in the request's language.
        env.add_function("said", |text: String| crate::i18n::said(&text));
        // th("… <b>{}</b> …", args…): a text of ours that holds markup; its arguments are
        // escaped, the text is not.
        env.add_function(
            "th",
            |en: String, args: minijinja::value::Rest<minijinja::Value>| {
                let escaped = args.iter().map(|a| tournament::print::esc(&a.to_string()));
                minijinja::Value::from_safe_string(crate::i18n::fill(
                    &crate::i18n::tr_str(&en),
                    escaped,
                ))
            },
        );
        env
    })
}

/// HTML escaping of a text put into a page: `& < > " '` (a slash is left as it is, so
/// that dates and fractions read plainly in the page source too).
fn escape(
    out: &mut minijinja::Output,
    state: &minijinja::State,
    value: &Value,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if state.auto_escape() == minijinja::AutoEscape::Html && !value.is_safe() => {
            for c in text.chars() {
                match c {
                    '&' => out.write_str("&amp;"),
                    '<' => out.write_str("&lt;"),
                    '>' => out.write_str("&gt;"),
                    '"' => out.write_str("&quot;"),
                    '\'' => out.write_str("&#39;"),
                    c => out.write_char(c),
                }
                .map_err(|e| {
                    minijinja::Error::new(minijinja::ErrorKind::WriteFailure, e.to_string())
                })?;
            }
            Ok(())
        }
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// What every page is given: its language, the switch to the other, the scripts' texts
/// and the layout of its audience.
fn common(ctx: Value) -> Value {
    context! {
        lang => crate::i18n::lang().code(),
        switch => crate::i18n::switch_link(),
        texts => crate::i18n::script_texts(),
        layout => audience().layout(),
        ..ctx
    }
}

/// A page with its status.
pub fn render_status(status: StatusCode, name: &str, ctx: Value) -> Result<Response, AppError> {
    let body = env()
        .get_template(name)
        .and_then(|t| t.render(common(ctx)))
        .map_err(|e| AppError::Internal(format!("template {name}: {e}")))?;
    Ok((
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response())
}

/// A page.
pub fn render(name: &str, ctx: Value) -> Result<Response, AppError> {
    render_status(StatusCode::OK, name, ctx)
}

/// Longest message an error page repeats, in characters.
const MAX_ERROR: usize = 300;

impl AppError {
    /// The HTTP status of this error and the title of its page.
    pub fn status(&self) -> (StatusCode, &'static str) {
        use crate::i18n::tr;
        match self {
            AppError::Invalid(_) => (StatusCode::UNPROCESSABLE_ENTITY, tr("Cannot accept this")),
            AppError::NotFound(_) => (StatusCode::NOT_FOUND, tr("Not found")),
            AppError::Forbidden(_) => (StatusCode::FORBIDDEN, tr("Not allowed")),
            AppError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, tr("Server error")),
            AppError::Limited(_) => (StatusCode::TOO_MANY_REQUESTS, tr("Too many attempts")),
        }
    }

    /// The message as a page repeats it: at most a few hundred characters of what was sent.
    pub fn shown(&self) -> String {
        let text = self.to_string();
        if text.chars().count() > MAX_ERROR {
            text.chars().take(MAX_ERROR).collect::<String>() + " …"
        } else {
            text
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, title) = self.status();
        if let AppError::Internal(m) = &self {
            tracing::error!(error = %m, "internal error");
        }
        let ctx = context! { title => title, message => self.shown() };
        render_status(status, "error.html", ctx).unwrap_or_else(|e| {
            // A template that does not render is this program's fault: say so plainly.
            (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        for (name, _) in TEMPLATES {
            assert!(env().get_template(name).is_ok(), "{name}");
        }
    }
}
