//! The big screen at the venue: the round and its clock, and the standings in pages that
//! fit a 1920 × 1080 screen, turning by themselves (64 players make 2 pages, 128 make 4).

use std::fmt::Write as _;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::IntoResponse;
use serde::Deserialize;
use store::EventId;

use super::day::unix_now;
use super::public::{compute, hidden_page, minutes_seconds, visible, Computed};
use super::{esc, App, Page};
use crate::i18n::{tr, trf};

/// Most lines in one column; two columns make a page.
const ROWS: usize = 20;
/// Seconds a page stays before the next one (and fresh figures) loads.
const TURN: u32 = 15;

/// `?page=` of the big screen (1-based).
#[derive(Deserialize)]
pub struct BigQuery {
    page: Option<String>,
}

/// One line of the big screen: rank, name, IMP, match points.
type BigLine = (String, String, i64, i64);

fn lines(c: &Computed) -> Vec<BigLine> {
    match &c.team {
        Some(t) => t
            .lines
            .iter()
            .map(|l| (l.rank.to_string(), l.name.clone(), l.imp, l.ms))
            .collect(),
        // Stand-ins are not ranked: the big screen leaves them out.
        None => c
            .individual
            .lines
            .iter()
            .filter(|l| l.stands_in_for.is_none())
            .map(|l| (l.rank.to_string(), l.name.clone(), l.imp, l.ms))
            .collect(),
    }
}

/// How many pages `n` lines take, and how many lines go on each (spread evenly).
pub fn paging(n: usize) -> (usize, usize) {
    let pages = n.div_ceil(2 * ROWS).max(1);
    (pages, n.div_ceil(pages).max(1))
}

/// The round the room is playing: the clock's, else the last open one, else the last
/// with results.
fn current_round(app: &App, c: &Computed) -> Option<u32> {
    if let Some((r, _)) = c.event.clock {
        return Some(r);
    }
    let open = app
        .store
        .round_states(c.event.id)
        .ok()?
        .into_iter()
        .filter(|s| s.1)
        .map(|s| s.0)
        .max();
    open.or_else(|| {
        let done = app.store.results(c.event.id).ok()?;
        done.iter()
            .filter_map(|r| crate::service::sitting(&c.event.movement, &r.deal, r.table, r.hand))
            .map(|(round, _)| round)
            .max()
    })
}

const STYLE: &str = "html,body{margin:0;background:#0b2a1c;color:#fff;font-family:system-ui,sans-serif}\
body{padding:1.5vh 2vw;box-sizing:border-box;height:100vh;overflow:hidden}\
header{display:flex;justify-content:space-between;align-items:baseline;font-size:4vh;margin-bottom:1vh}\
header h1{font-size:4.4vh;margin:0}#clock{font-variant-numeric:tabular-nums;font-weight:bold}\
#clock.up{color:#f66}.cols{display:flex;gap:3vw}table{border-collapse:collapse;flex:1;font-size:3vh}\
td,th{padding:.3vh .8vw;text-align:right;border-bottom:1px solid #2f5a45}th{color:#9c9}\
td.name,th.name{text-align:left;width:60%;max-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\
footer{position:fixed;bottom:1vh;right:2vw;font-size:2.2vh;color:#9c9}";

/// `GET /events/{id}/big`: one page of the big screen.
pub async fn big_screen(
    State(app): State<App>,
    Path(id): Path<EventId>,
    Query(q): Query<BigQuery>,
    headers: HeaderMap,
) -> Page {
    let c = compute(&app, id)?;
    if !visible(&app, &headers, &c.event)? {
        return Ok(hidden_page(&c.event));
    }
    let all = lines(&c);
    let (pages, per_page) = paging(all.len());
    let page = super::query_number(q.page.as_deref(), "page")?
        .unwrap_or(1)
        .clamp(1, pages);
    let shown = &all[((page - 1) * per_page).min(all.len())..(page * per_page).min(all.len())];
    let rounds = c.event.movement.rounds.len();
    let round = current_round(&app, &c)
        .map(|r| trf("Round {} of {}", &[&r, &rounds]))
        .unwrap_or_default();
    let clock = match c.event.clock {
        Some((_, ends)) => {
            let left = ends - unix_now();
            let up = tr("time");
            format!(
                "<span id=\"clock\" data-left=\"{left}\" data-up=\"{up}\"{}>{}</span>",
                if left <= 0 { " class=\"up\"" } else { "" },
                if left > 0 {
                    minutes_seconds(left)
                } else {
                    up.to_string()
                },
            )
        }
        None => String::new(),
    };
    let mut cols = String::new();
    for col in shown.chunks(per_page.div_ceil(2)) {
        let _ = write!(
            cols,
            "<table><tr><th>#</th><th class=\"name\">{}</th><th>IMP</th><th>{}</th></tr>",
            tr("name"),
            tr("ms")
        );
        for (rank, name, imp, ms) in col {
            let _ = write!(
                cols,
                "<tr><td>{rank}</td><td class=\"name\">{}</td><td>{imp}</td><td>{ms}</td></tr>",
                esc(name)
            );
        }
        cols.push_str("</table>");
    }
    let next = page % pages + 1;
    let body = format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"refresh\" content=\"{TURN};url=/events/{id}/big?page={next}\">\
         <title>{name} — big screen</title><style>{STYLE}</style></head><body>\
         <header><h1>{name}</h1><span id=\"round\">{round}</span>{clock}</header>\
         <div class=\"cols\">{cols}</div><footer id=\"pager\">{pager}</footer>\
         <script>{TICK}</script></body></html>\n",
        name = esc(&c.event.name),
        lang = crate::i18n::lang().code(),
        pager = if c.team.is_some() {
            trf("page {} of {} · {} teams", &[&page, &pages, &all.len()])
        } else {
            trf("page {} of {} · {} players", &[&page, &pages, &all.len()])
        },
    );
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response())
}

/// Counts the clock down each second between page loads (the server sent the seconds
/// left, so the screen's own clock does not matter).
const TICK: &str = "(()=>{const c=document.getElementById('clock');if(!c)return;\
let left=+c.dataset.left;const t0=Date.now();\
const f=s=>{const h=Math.floor(s/3600),m=Math.floor(s%3600/60),x=s%60;\
return (h?h+':'+String(m).padStart(2,'0'):m)+':'+String(x).padStart(2,'0');};\
setInterval(()=>{const s=Math.max(0,left-Math.floor((Date.now()-t0)/1000));\
c.textContent=s>0?f(s):c.dataset.up;c.className=s>0?'':'up';},1000);})();";

#[cfg(test)]
mod tests {
    use super::paging;

    #[test]
    fn pages_hold_at_most_two_columns_and_spread_evenly() {
        assert_eq!(paging(0), (1, 1));
        assert_eq!(paging(16), (1, 16));
        assert_eq!(paging(40), (1, 40));
        assert_eq!(paging(41), (2, 21));
        assert_eq!(paging(64), (2, 32));
        assert_eq!(paging(128), (4, 32));
    }
}
