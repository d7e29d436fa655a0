//! The template environment every page and printable renders through: the templates
//! compiled into the binary, HTML escaping of what they are given, and the text functions
//! (`t`, `said`, `th`) that put a text in the request's language.

use std::sync::OnceLock;

use minijinja::{Environment, Value};

/// The templates, compiled into the binary: `templates!("a.html", …)`.
macro_rules! templates {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../templates/", $name)))),*]
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
    "venue/form.html",
    "director/signups.html",
    "director/signup.html",
    "director/seasons.html",
    "director/season.html",
    "public/season.html",
    "public/season_table.html",
    "print/season.html",
    "players/signups.html",
    "players/signup.html",
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
    "players/quick.html",
    "players/drills.html",
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
    "players/make_account.html",
    "players/place.html",
    "print/style.css",
    "print/layout.html",
    "print/labels.html",
    "print/guides.html",
    "print/tables.html",
    "print/sheets.html",
    "print/slips.html",
    "print/standings.html",
    "print/movement.html",
    "print/results.html",
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
                let escaped = args.iter().map(|a| html_escape(&a.to_string()));
                minijinja::Value::from_safe_string(crate::i18n::fill(
                    &crate::i18n::tr_str(&en),
                    escaped,
                ))
            },
        );
        env
    })
}

/// A text escaped for HTML, as the formatter below escapes it.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// HTML escaping of a text put into a page: `& < > " '` (a slash is left as it is, so
/// that dates and fractions read plainly in the page source too).
fn escape(
    out: &mut minijinja::Output,
    state: &minijinja::State,
    value: &Value,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if state.auto_escape() == minijinja::AutoEscape::Html && !value.is_safe() => out
            .write_str(&html_escape(text))
            .map_err(|e| minijinja::Error::new(minijinja::ErrorKind::WriteFailure, e.to_string())),
        _ => minijinja::escape_formatter(out, state, value),
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
