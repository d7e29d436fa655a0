//! Printables for the day, as HTML pages that print cleanly on A4: guide cards (where
//! each player sits for every hand), table cards and blank score sheets.

use std::fmt::Write as _;

use crate::movement::Movement;

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A whole printable page with the shared print stylesheet.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{t}</title><style>\n\
         body {{ font-family: sans-serif; margin: 1.5em; }} table {{ border-collapse: collapse; margin: .4em 0 1em; }}\n\
         td, th {{ border: 1px solid #555; padding: .2em .5em; text-align: center; }} th {{ background: #eee; }}\n\
         .card {{ border: 2px solid #000; padding: .4em; margin: .3em; width: 15em; display: inline-block; vertical-align: top; font-size: 9pt; break-inside: avoid; }}\n\
         .card td, .card th {{ padding: 0 .3em; }} .card h3 {{ margin: .1em 0; }}\n\
         .sheet td {{ height: 1.6em; min-width: 3.5em; }} .big {{ font-size: 48pt; margin: .2em 0; }}\n\
         @media (max-width: 600px) {{ body {{ margin: .5em; }} td, th {{ padding: .1em .2em; }} pre {{ overflow-x: auto; }} }}\n\
         @page {{ size: A4; margin: 12mm; }} @media print {{ body {{ margin: 0; }} .page {{ page-break-after: always; }} }}\n\
         </style></head><body>\n<h1>{t}</h1>\n{body}</body></html>\n",
        t = esc(title)
    )
}

/// The display name of a player: their name, or "Player n".
fn name_of(names: &[String], p: u32) -> String {
    names
        .get(p as usize - 1)
        .filter(|n| !n.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("Player {p}"))
}

/// One guide card per player: table, direction and wind for every hand.
pub fn guide_cards(m: &Movement, names: &[String]) -> String {
    let mut body = String::new();
    for p in 1..=m.players {
        let _ = write!(body, "<div class=\"card\"><h3>{} ({p})</h3><table><tr><th>round</th><th>hand</th><th>table</th><th>sit</th><th>wind</th></tr>", esc(&name_of(names, p)));
        for r in &m.rounds {
            for h in &r.hands {
                for t in &h.tables {
                    if let Some(s) = t.seats.iter().find(|s| s.player == p) {
                        let _ = write!(
                            body,
                            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                            r.round, h.hand, t.table, s.direction, s.wind
                        );
                    }
                }
            }
        }
        body.push_str("</table></div>\n");
    }
    page(&format!("Guide cards — {} players", m.players), &body)
}

/// Number of tables in a movement.
pub fn table_count(m: &Movement) -> u32 {
    m.rounds
        .iter()
        .flat_map(|r| &r.hands)
        .flat_map(|h| &h.tables)
        .map(|t| t.table)
        .max()
        .unwrap_or(0)
}

/// One card per table: its number and, when given, its score-entry code.
pub fn table_cards(m: &Movement, codes: &[String]) -> String {
    let mut body = String::new();
    for t in 1..=table_count(m) {
        let code = codes
            .get(t as usize - 1)
            .map(|c| format!("<p>Score entry code: <b>{}</b></p>", esc(c)))
            .unwrap_or_default();
        let _ = writeln!(
            body,
            "<section class=\"page\"><p class=\"big\">Table {t}</p>{code}</section>"
        );
    }
    page("Table cards", &body)
}

/// A blank score sheet per table and round: for each hand the deal, who sits where, and
/// boxes for the result.
pub fn score_sheets(m: &Movement, names: &[String]) -> String {
    let mut body = String::new();
    for t in 1..=table_count(m) {
        for r in &m.rounds {
            let _ = write!(body, "<section class=\"page\"><h2>Table {t} — round {}</h2><table class=\"sheet\"><tr><th>hand</th><th>deal</th><th>E</th><th>S</th><th>W</th><th>N</th><th>winner(s)</th><th>discarder</th><th>value</th><th>false Hu</th><th>initials</th></tr>", r.round);
            for h in &r.hands {
                let Some(tp) = h.tables.iter().find(|x| x.table == t) else {
                    continue;
                };
                let mut by_wind = vec![String::new(); 4];
                for s in &tp.seats {
                    by_wind[s.wind.index()] = esc(&name_of(names, s.player));
                }
                let _ = write!(
                    body,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td></td><td></td><td></td><td></td><td></td></tr>",
                    h.hand, tp.deal, by_wind[0], by_wind[1], by_wind[2], by_wind[3]
                );
            }
            body.push_str("</table></section>\n");
        }
    }
    page("Score sheets", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printables_cover_every_player_and_table() {
        let m = crate::movement::individual(16, None, 1).unwrap();
        let names: Vec<String> = (1..=16).map(|i| format!("P<{i}>")).collect();
        let cards = guide_cards(&m, &names);
        assert_eq!(cards.matches("class=\"card\"").count(), 16);
        assert!(cards.contains("P&lt;16&gt;") && !cards.contains("P<16>"));
        // Each card lists 20 hands.
        assert_eq!(cards.matches("<tr><td>").count(), 16 * 20);
        assert_eq!(table_count(&m), 4);
        let codes: Vec<String> = (1..=4).map(|i| format!("code{i}")).collect();
        let t = table_cards(&m, &codes);
        assert!(t.contains("Table 4") && t.contains("code4"));
        let s = score_sheets(&m, &names);
        // 4 tables × 5 rounds, 4 hands each.
        assert_eq!(s.matches("class=\"sheet\"").count(), 20);
        assert!(s.contains("@page") && s.contains("size: A4"));
    }
}
