//! Printables for A4 and the command line's HTML pages, from the templates under
//! `templates/print/`: the same engine and escaping as every page. The crates below give
//! the data (`tournament::print`, `table::sheet`); nothing else in the workspace makes HTML.

use minijinja::{context, Value};
use serde::Serialize;
use table::Deal;
use tournament::movement::Movement;
use tournament::print as data;
use tournament::standings::{Standings, TeamStandings};

/// A printable's HTML, or why its template failed (a fault of this program).
pub type Printed = Result<String, minijinja::Error>;

fn render(name: &str, ctx: Value) -> Printed {
    crate::templates::env().get_template(name)?.render(ctx)
}

/// Deal sheets for staff who rebuild the deals by hand, one deal per A4 page.
pub fn labels(deals: &[(String, Deal)]) -> Printed {
    let deals: Vec<_> = deals
        .iter()
        .map(|(name, d)| table::sheet::sheet(d, name))
        .collect();
    render("print/labels.html", context! { deals })
}

/// Guide cards, four to a page: where each player sits for every hand.
pub fn guide_cards(event: &str, m: &Movement, names: &[String]) -> Printed {
    render(
        "print/guides.html",
        context! {
            title => format!("Guide cards — {event}"),
            event,
            cards => data::guide_cards(m, names),
        },
    )
}

/// One A4 card per table with the score-entry address `entry_url(t)`, its QR code and
/// the table's current code.
pub fn table_cards(
    event: &str,
    m: &Movement,
    codes: &[String],
    entry_url: impl Fn(u32) -> String,
) -> Printed {
    render(
        "print/tables.html",
        context! {
            title => format!("Table cards — {event}"),
            event,
            cards => data::table_cards(m, codes, entry_url),
        },
    )
}

/// Score sheets, four to a page: one per table and round.
pub fn score_sheets(event: &str, m: &Movement, names: &[String]) -> Printed {
    render(
        "print/sheets.html",
        context! {
            title => format!("Score sheets — {event}"),
            event,
            sheets => data::score_sheets(m, names),
        },
    )
}

/// Result slips, four to a page: every deal each entrant played against its field.
pub fn result_slips(event: &str, st: &Standings) -> Printed {
    render(
        "print/slips.html",
        context! {
            title => format!("Result slips — {event}"),
            event,
            slips => data::result_slips(st),
        },
    )
}

/// The final standings for the notice board; `note(player)` adds a remark to a name.
pub fn final_standings(
    event: &str,
    st: &Standings,
    teams: Option<&TeamStandings>,
    note: impl Fn(u32) -> Option<String>,
) -> Printed {
    render(
        "print/standings.html",
        context! {
            title => format!("Final standings — {event}"),
            event,
            standings => data::final_standings(st, teams, note),
        },
    )
}

/// One table of a movement's hand: the deal and who sits at E, S, W, N ("player (wind)").
#[derive(Serialize)]
struct MovementTable<'a> {
    table: u32,
    deal: &'a str,
    by_direction: [String; 4],
}

/// A movement as a page: every round and hand, each table's seats, then its quality
/// (`quality`, the text the command prints).
pub fn movement(m: &Movement, quality: &str) -> Printed {
    let rounds: Vec<Value> = m
        .rounds
        .iter()
        .map(|r| {
            let hands: Vec<Value> = r
                .hands
                .iter()
                .map(|h| {
                    let tables: Vec<MovementTable> = h
                        .tables
                        .iter()
                        .map(|t| {
                            let mut by_direction: [String; 4] = Default::default();
                            for s in &t.seats {
                                by_direction[s.direction.index()] =
                                    format!("{} ({})", s.player, s.wind);
                            }
                            MovementTable {
                                table: t.table,
                                deal: &t.deal,
                                by_direction,
                            }
                        })
                        .collect();
                    context! { hand => h.hand, tables }
                })
                .collect();
            context! { round => r.round, hands }
        })
        .collect();
    render(
        "print/movement.html",
        context! {
            title => format!("Movement for {} players ({})", m.players, m.method),
            rounds,
            quality,
        },
    )
}

/// Standings as a page: a table (`head`, then `rows`), the deals compared side by side
/// (`deals`, plain text) and the notes.
pub fn results(
    title: &str,
    head: &[&str],
    rows: &[Vec<String>],
    deals: Option<&str>,
    notes: &[String],
) -> Printed {
    render(
        "print/results.html",
        context! { title, head, rows, deals, notes },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tournament::standings::{Player, Results, TableResult};

    #[test]
    fn printables_lay_out_every_player_and_table_escaped() {
        let m = tournament::movement::individual(16, None, 1).unwrap();
        let names: Vec<String> = (1..=16).map(|i| format!("P<{i}>")).collect();
        let cards = guide_cards("Open", &m, &names).unwrap();
        assert_eq!(cards.matches("class=\"card\"").count(), 16);
        // Four cards to a page, 20 hands a card.
        assert_eq!(cards.matches("class=\"page\"").count(), 4);
        assert!(cards.contains("P&lt;16&gt;") && !cards.contains("P<16>"));
        assert_eq!(cards.matches("<tr><td>").count(), 16 * 20);
        assert!(cards.contains("<title>Guide cards — Open</title>"));
        let codes: Vec<String> = (1..=4).map(|i| format!("code{i}")).collect();
        let t = table_cards("Open & co", &m, &codes, |t| {
            format!("http://x/events/1/table?table={t}")
        })
        .unwrap();
        assert_eq!(t.matches("class=\"tablecard\"").count(), 4);
        assert!(t.contains("Table 4") && t.contains("<b>code4</b>") && t.contains("Open &amp; co"));
        assert!(t.contains("Score entry: http://x/events/1/table?table=4"));
        assert_eq!(t.matches("<svg class=\"qr\"").count(), 4);
        assert!(t.contains("width=\"70mm\""));
        let s = score_sheets("Open", &m, &names).unwrap();
        // 4 tables × 5 rounds, four sheets a page.
        assert_eq!(s.matches("class=\"sheet\"").count(), 20);
        assert_eq!(s.matches("class=\"page\"").count(), 5);
        assert!(s.contains("@page{size:A4"));
    }

    /// One deal at two tables: East at table 1 self-drew 8 (48 points), table 2 drew.
    fn results() -> Results {
        let players: Vec<String> = (1..=8)
            .map(|id| format!(r#"{{"id": {id}, "name": "P{id}"}}"#))
            .collect();
        serde_json::from_str(&format!(
            r#"{{"players": [{}], "deals": [{{"deal": "1-1", "tables": [
                {{"table": 1, "seats": {{"E": {{"player": 1, "ms": 48}}, "S": {{"player": 2, "ms": -16}},
                    "W": {{"player": 3, "ms": -16}}, "N": {{"player": 4, "ms": -16}}}}}},
                {{"table": 2, "seats": {{"E": {{"player": 5, "ms": 0}}, "S": {{"player": 6, "ms": 0}},
                    "W": {{"player": 7, "ms": 0}}, "N": {{"player": 8, "ms": 0}}}}}}]}}]}}"#,
            players.join(", ")
        ))
        .unwrap()
    }

    #[test]
    fn slips_and_final_standings_show_the_field() {
        let st = results().individual().unwrap();
        let slips = result_slips("Open", &st).unwrap();
        assert_eq!(slips.matches("class=\"card slip\"").count(), 8);
        // East at table 1 self-drew 8 (48) against an average of 24: DIF 24, IMP 5.
        let p1 = slips.split("<h3>P1 (1)").nth(1).unwrap();
        assert!(
            p1.contains("<tr><td>1-1</td><td>E</td><td>48</td><td>24</td><td>5</td></tr>"),
            "{p1}"
        );
        assert!(p1.contains("Rank 1 · 1 hands · 48 ms · 5 IMP</p>"), "{p1}");
        let mut r = results();
        r.players.push(Player {
            id: 9,
            name: "Sub".into(),
            stands_in_for: Some(8),
        });
        r.deals[0].tables[1] = TableResult::new(2, [5, 6, 7, 9], [0, 0, 0, 0]);
        let st = r.individual().unwrap();
        let page = final_standings("Open", &st, None, |p| {
            (p == 8).then(|| "withdrew from round 1".to_string())
        })
        .unwrap();
        assert!(page.contains("<td>—</td><td>for 8</td><td class=\"name\">Sub</td>"));
        assert!(page.contains("P8 <i>(withdrew from round 1)</i>"));
        assert_eq!(page.matches("<tr><td>").count(), 9);
        assert!(!page.contains("<th>team</th>"));
    }

    #[test]
    fn deal_sheets_show_both_rows_of_each_wall() {
        let d = Deal::generate(3);
        let h = labels(&[("1".into(), d.clone())]).unwrap();
        assert!(h.starts_with("<!doctype html>"));
        assert!(h.contains("@page") && h.contains("<th>A</th>") && h.contains("<th>D</th>"));
        assert_eq!(h.matches("<table class=\"wall\">").count(), 4);
        // East's starting tiles, sorted, one cell each.
        let mut east = d.hands[0].to_vec();
        east.sort();
        let cells: String = east
            .iter()
            .map(|t| format!("<td>{}</td>", t.code()))
            .collect();
        assert!(h.contains(&format!("<table class=\"hand\"><tr>{cells}</tr></table>")));
    }
}
