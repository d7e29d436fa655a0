//! English and Chinese for every page a player or a table sees. The language comes from
//! the `dupmj_lang` cookie (set by the switch in the page header) or else the browser's
//! `Accept-Language`; a middleware keeps it for the request, so page code only calls
//! [`tr`] and [`trf`] with the English text, which is also the key of the catalogue
//! (`i18n/catalogue.rs`). A test finds every such call in the sources, templates and scripts
//! and fails on any without a Chinese entry.

mod catalogue;

use axum::extract::{Path, Query, Request};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use serde::{Deserialize, Serialize};

/// A language of the pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English, the default.
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// The code for `<html lang>` and the cookie.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    fn parse(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s == "en" || s.starts_with("en-") {
            Some(Lang::En)
        } else if s == "zh" || s.starts_with("zh-") {
            Some(Lang::Zh)
        } else {
            None
        }
    }
}

/// The cookie that keeps a chosen language.
pub const LANG_COOKIE: &str = "dupmj_lang";

/// The language a request asks for: the cookie, else the best of `Accept-Language` that
/// we have, else English.
pub fn from_headers(h: &HeaderMap) -> Lang {
    if let Some(l) = crate::auth::cookie_value(h, LANG_COOKIE).and_then(|v| Lang::parse(&v)) {
        return l;
    }
    let accept = h
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mut best: Option<(f32, Lang)> = None;
    for part in accept.split(',') {
        let mut bits = part.split(';');
        let tag = bits.next().unwrap_or("");
        let q = bits
            .find_map(|b| b.trim().strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        if let Some(l) = Lang::parse(tag) {
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, l));
            }
        }
    }
    best.map_or(Lang::En, |b| b.1)
}

#[derive(Clone)]
struct Here {
    lang: Lang,
    path: String,
}

tokio::task_local! {
    static HERE: Here;
}

/// Middleware: keeps the request's language and address for the page code below it.
pub async fn scope(req: Request, next: Next) -> Response {
    let here = Here {
        lang: from_headers(req.headers()),
        path: req
            .uri()
            .path_and_query()
            .map_or("/".into(), |p| p.as_str().to_string()),
    };
    HERE.scope(here, next.run(req)).await
}

/// The language of the request being answered (English outside a request).
pub fn lang() -> Lang {
    HERE.try_with(|h| h.lang).unwrap_or(Lang::En)
}

/// `en` in the request's language.
pub fn tr(en: &'static str) -> &'static str {
    match lang() {
        Lang::En => en,
        Lang::Zh => catalogue::zh(en).unwrap_or(en),
    }
}

/// Like [`tr`] for a text of any lifetime (templates): the Chinese, or the text itself.
pub fn tr_str(en: &str) -> String {
    match lang() {
        Lang::En => en.to_string(),
        Lang::Zh => catalogue::zh(en).unwrap_or(en).to_string(),
    }
}

/// [`tr`] with `{}` in the text filled by `args` in order.
pub fn trf(en: &'static str, args: &[&dyn std::fmt::Display]) -> String {
    fill(tr(en), args)
}

pub use play::text::fill;

/// Texts kept in English in what is stored (hands' labels, players' names) that a page
/// shows again: their patterns, matched back to say them in the request's language.
const STORED: &[&str] = &[
    "deal {} ({} of {})",
    "hand {} of {}, {} round",
    "bot ({})",
    "{} (guest)",
];

/// A text kept in English (a hand's label such as "deal 3 (3 of 4)", a name such as
/// "bot (easy)") in the request's language: matched against the patterns it was made
/// from, its parts said too (winds, levels); anything else as it is.
pub fn said(stored: &str) -> String {
    if lang() == Lang::En {
        return stored.to_string();
    }
    if let Some(z) = catalogue::zh(stored) {
        return z.to_string();
    }
    for pattern in STORED {
        if let Some(args) = unfill(pattern, stored) {
            let args: Vec<String> = args.into_iter().map(tr_str).collect();
            return fill(&tr_str(pattern), args);
        }
    }
    stored.to_string()
}

/// The parts of `text` that fill the `{}` of `pattern`, if it was made from it (each part
/// the shortest that lets the rest match, none empty).
fn unfill<'a>(pattern: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let pieces: Vec<&str> = pattern.split("{}").collect();
    let mut rest = text.strip_prefix(pieces[0])?;
    let mut args = Vec::new();
    for (i, piece) in pieces.iter().enumerate().skip(1) {
        let last = i == pieces.len() - 1;
        let at = if last {
            rest.len()
                .checked_sub(piece.len())
                .filter(|&a| rest[a..] == **piece)?
        } else if piece.is_empty() {
            return None;
        } else {
            rest.find(piece)?
        };
        if at == 0 {
            return None;
        }
        args.push(&rest[..at]);
        rest = &rest[at + piece.len()..];
    }
    Some(args)
}

/// What a table plays, in the request's language.
pub fn describe_table(spec: &play::spec::TableSpec) -> String {
    let (text, args) = spec.describe_parts();
    let what = fill(&tr_str(text), args);
    match spec.practice {
        Some(_) => fill(&tr_str(play::text::PRACTICE), [what]),
        None => what,
    }
}

/// The texts the browser scripts use, for the request's language (empty in English):
/// the scripts look their English up here.
pub fn script_texts() -> std::collections::BTreeMap<&'static str, &'static str> {
    match lang() {
        Lang::En => Default::default(),
        Lang::Zh => catalogue::SCRIPTS.iter().copied().collect(),
    }
}

/// The header link that switches to the other language and comes back here: where it
/// goes, the other language's code and its name in that language (the page escapes them).
#[derive(Debug, Clone, Serialize)]
pub struct SwitchLink {
    /// `/lang/{code}?back=` this page.
    pub href: String,
    /// The other language's code, for `hreflang`.
    pub lang: &'static str,
    /// The other language's name, written in it.
    pub label: &'static str,
}

/// The switch for the page being answered.
pub fn switch_link() -> SwitchLink {
    let (path, other, label) = HERE
        .try_with(|h| {
            (
                h.path.clone(),
                if h.lang == Lang::Zh { "en" } else { "zh" },
                if h.lang == Lang::Zh {
                    "English"
                } else {
                    "中文"
                },
            )
        })
        .unwrap_or(("/".into(), "zh", "中文"));
    SwitchLink {
        href: format!("/lang/{other}?back={}", encode(&path)),
        lang: other,
        label,
    }
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `?back=` of the switch.
#[derive(Deserialize)]
pub struct Back {
    back: Option<String>,
}

/// `GET /lang/{code}`: keeps the language in a cookie for a year and goes back to the
/// page (only a path on this site: never another site).
pub async fn switch(Path(code): Path<String>, Query(q): Query<Back>) -> Response {
    let lang = Lang::parse(&code).unwrap_or(Lang::En);
    let back = q
        .back
        .filter(|b| b.starts_with('/') && !b.starts_with("//") && !b.contains('\\'))
        .unwrap_or_else(|| "/".into());
    let cookie = format!(
        "{LANG_COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax",
        lang.code()
    );
    ([(header::SET_COOKIE, cookie)], Redirect::to(&back)).into_response()
}

/// A seat's wind as the pages show it: E, S, W, N or 东, 南, 西, 北.
pub fn seat_name(w: mcr::Wind) -> &'static str {
    match lang() {
        Lang::En => ["E", "S", "W", "N"][w.index()],
        Lang::Zh => ["东", "南", "西", "北"][w.index()],
    }
}

/// A match result in words, as [`tournament::entry::ScoreEntry::describe`] says it in
/// English.
pub fn describe(e: &tournament::entry::ScoreEntry) -> String {
    use tournament::entry::Outcome;
    if lang() == Lang::En {
        return e.describe();
    }
    let seat = seat_name;
    let mut s = match &e.outcome {
        Outcome::Draw => "流局".to_string(),
        Outcome::SelfDrawn { winner, value } => format!("{}自摸 {value} 番", seat(*winner)),
        Outcome::Discard { discarder, winners } => {
            let ws: Vec<String> = winners
                .iter()
                .map(|(w, v)| format!("{}和 {v} 番", seat(*w)))
                .collect();
            format!("{}点和：{}", seat(*discarder), ws.join("，"))
        }
    };
    for w in &e.false_hu {
        s.push_str(&format!("；{}错和", seat(*w)));
    }
    s
}

#[cfg(test)]
mod tests;
