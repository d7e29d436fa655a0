//! Every page comes from a template (the environment is [`crate::templates`]) through
//! here: what each page is given besides its own values (its language, the language
//! switch, the scripts' texts), the audience a page is for, and each audience's error page.
//!
//! The audiences are the director, the tables at the venue, the public and the players
//! online; each group of routes sets its own (a middleware), so an error page has the
//! layout of the pages around it.

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use minijinja::{context, Value};

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
    let body = crate::templates::env()
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
