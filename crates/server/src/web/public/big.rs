//! The big screen at the venue: the round and its clock, and the standings in pages that
//! fit a 1920 × 1080 screen, turning by themselves (64 players make 2 pages, 128 make 4).

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use minijinja::context;
use serde::Deserialize;
use serde_json::{json, Value};
use store::EventId;

use super::{compute, hidden_page, minutes_seconds, visible, Computed};
use crate::web::pages::render;
use crate::web::{App, Page};
use play::when::now_s;

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

/// `GET /events/{id}/big`: one page of the big screen.
pub async fn big_screen(
    State(app): State<App>,
    Path(id): Path<EventId>,
    Query(q): Query<BigQuery>,
    headers: HeaderMap,
) -> Page {
    let c = compute(&app, id)?;
    if !visible(&app, &headers, &c.event)? {
        return hidden_page(&c.event);
    }
    let all = lines(&c);
    let (pages, per_page) = paging(all.len());
    let page = crate::web::query_number(q.page.as_deref(), "page")?
        .unwrap_or(1)
        .clamp(1, pages);
    let shown = &all[((page - 1) * per_page).min(all.len())..(page * per_page).min(all.len())];
    let columns: Vec<Vec<Value>> = shown
        .chunks(per_page.div_ceil(2))
        .map(|col| {
            col.iter()
                .map(|(rank, name, imp, ms)| json!({"rank": rank, "name": name, "imp": imp, "ms": ms}))
                .collect()
        })
        .collect();
    let clock = c.event.clock.map(|(_, ends)| {
        let left = ends - now_s();
        json!({"left": left, "shown": minutes_seconds(left)})
    });
    render(
        "public/big.html",
        context! {
            id => id,
            name => c.event.name,
            turn => TURN,
            next => page % pages + 1,
            round => current_round(&app, &c),
            rounds => c.event.movement.rounds.len(),
            clock => clock,
            columns => columns,
            teams => c.team.is_some(),
            page => page,
            pages => pages,
            count => all.len(),
        },
    )
}

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
