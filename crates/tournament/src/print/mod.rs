//! Printables for the day, as HTML pages laid out in millimetres for A4: guide cards
//! (where each player sits for every hand), table cards with a QR code to the score-entry
//! page, score sheets several to a page, result slips and the final standings.
//!
//! Every box has a fixed size and the content is sized to fit it; the browser test
//! measures that nothing overflows and counts the printed pages.

mod qr;
mod slips;

use std::fmt::Write as _;

use crate::movement::Movement;

pub use qr::svg as qr_svg;
pub use slips::{final_standings, result_slips};

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Shared print stylesheet. The sheet is 186 mm wide (A4 less 12 mm margins) on screen
/// too, so what the screen shows is what prints.
const STYLE: &str = "body{font-family:sans-serif;margin:0;padding:4mm}\
main{width:186mm}h1{font-size:14pt;margin:0 0 3mm}\
table{border-collapse:collapse}td,th{border:1px solid #555;padding:0 1mm;text-align:center}th{background:#eee}\
.page{display:flex;flex-wrap:wrap;align-content:flex-start;gap:3mm;break-after:page;height:270mm;overflow:hidden}\
.page:last-child{break-after:auto}\
.card{box-sizing:border-box;border:.5mm solid #000;padding:2mm;width:91mm;height:132mm;overflow:hidden;font-size:8.5pt}\
.card p{margin:0 0 1mm}.card h3{font-size:10pt;margin:0 0 1mm;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\
.card table{width:100%;table-layout:fixed}.card td,.card th{height:4.3mm;line-height:4.1mm}\
.card .total{margin-top:1.5mm;font-weight:bold}\
.sheet{box-sizing:border-box;width:186mm;height:65mm;overflow:hidden;font-size:8pt}\
.sheet h2{font-size:10pt;margin:0 0 1mm}.sheet table{width:185mm;table-layout:fixed}\
.sheet td{height:10mm;overflow:hidden;overflow-wrap:anywhere;line-height:1.15}\
.sheet th{height:5mm;overflow:hidden}\
.tablecard{box-sizing:border-box;width:186mm;height:270mm;overflow:hidden;text-align:center;break-after:page;padding-top:18mm}\
.tablecard:last-child{break-after:auto}.tablecard .no{font-size:96pt;font-weight:bold;margin:0}\
.tablecard .event{font-size:18pt;margin:4mm 0}.tablecard .url{font-size:11pt;overflow-wrap:anywhere;margin:3mm 10mm}\
.tablecard .code{font-size:16pt}.tablecard svg{margin:6mm auto 0;display:block}\
.standings{width:186mm;font-size:9.5pt}.standings td,.standings th{padding:.6mm 1.5mm}\
.standings td.name{text-align:left}.standings thead{display:table-header-group}\
.standings tr{break-inside:avoid}\
@page{size:A4;margin:12mm}@media print{body{padding:0}}";

/// A whole printable page with the shared stylesheet.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{STYLE}</style></head><body><main>\n{body}</main></body></html>\n",
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

/// Groups boxes `per` to an A4 page.
fn pages(boxes: &[String], per: usize) -> String {
    let mut s = String::new();
    for chunk in boxes.chunks(per.max(1)) {
        s.push_str("<section class=\"page\">");
        for b in chunk {
            s.push_str(b);
        }
        s.push_str("</section>\n");
    }
    s
}

/// Most hands one card lists (the box holds 26 rows); longer events get a card a round
/// group, labelled "rounds a–b".
const CARD_HANDS: usize = 26;

/// Guide cards, four to a page: for each player, table, direction and wind of every hand.
pub fn guide_cards(event: &str, m: &Movement, names: &[String]) -> String {
    let mut boxes = Vec::new();
    for p in 1..=m.players {
        let mut rows = Vec::new();
        for r in &m.rounds {
            for h in &r.hands {
                for t in &h.tables {
                    if let Some(s) = t.seats.iter().find(|s| s.player == p) {
                        rows.push((
                            r.round,
                            format!(
                                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                                r.round, h.hand, t.table, s.direction, s.wind
                            ),
                        ));
                    }
                }
            }
        }
        let parts = rows.len().div_ceil(CARD_HANDS).max(1);
        for chunk in rows.chunks(CARD_HANDS) {
            let part = if parts > 1 {
                format!(" · rounds {}–{}", chunk[0].0, chunk[chunk.len() - 1].0)
            } else {
                String::new()
            };
            let mut b = format!(
                "<div class=\"card\"><h3>{} ({p}){part}</h3><table><tr><th>round</th><th>hand</th><th>table</th><th>sit</th><th>wind</th></tr>",
                esc(&name_of(names, p))
            );
            for (_, row) in chunk {
                b.push_str(row);
            }
            let _ = write!(b, "</table><p>{}</p></div>", esc(event));
            boxes.push(b);
        }
    }
    page(&format!("Guide cards — {event}"), &pages(&boxes, 4))
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

/// One A4 card per table: its number, the event, the score-entry address with a QR code
/// for it (`entry_url(t)`), and the table's current code.
pub fn table_cards(
    event: &str,
    m: &Movement,
    codes: &[String],
    entry_url: impl Fn(u32) -> String,
) -> String {
    let mut body = String::new();
    for t in 1..=table_count(m) {
        let url = entry_url(t);
        let qr = qr::svg(&url, 70).unwrap_or_default();
        let code = codes
            .get(t as usize - 1)
            .map(|c| format!("<p class=\"code\">Score entry code: <b>{}</b></p>", esc(c)))
            .unwrap_or_default();
        let _ = writeln!(
            body,
            "<section class=\"tablecard\"><p class=\"no\">Table {t}</p><p class=\"event\">{}</p>{qr}\
             <p class=\"url\">Score entry: {}</p>{code}</section>",
            esc(event),
            esc(&url)
        );
    }
    page(&format!("Table cards — {event}"), &body)
}

/// Score sheets, four to a page: one per table and round, with the deal and who sits at
/// each wind for every hand, and boxes for the result.
pub fn score_sheets(event: &str, m: &Movement, names: &[String]) -> String {
    const COLS: &str = "<colgroup><col style=\"width:9mm\"><col style=\"width:11mm\"><col style=\"width:22mm\"><col style=\"width:22mm\"><col style=\"width:22mm\"><col style=\"width:22mm\">\
        <col style=\"width:19mm\"><col style=\"width:16mm\"><col style=\"width:13mm\"><col style=\"width:13mm\"><col style=\"width:16mm\"></colgroup>";
    let mut boxes = Vec::new();
    for t in 1..=table_count(m) {
        for r in &m.rounds {
            let mut b = format!(
                "<div class=\"sheet\"><h2>{} — table {t}, round {}</h2><table>{COLS}<tr><th>hand</th><th>deal</th><th>E</th><th>S</th><th>W</th><th>N</th><th>winner(s)</th><th>discarder</th><th>value</th><th>false Hu</th><th>initials</th></tr>",
                esc(event),
                r.round
            );
            for h in &r.hands {
                let Some(tp) = h.tables.iter().find(|x| x.table == t) else {
                    continue;
                };
                let mut by_wind = vec![String::new(); 4];
                for s in &tp.seats {
                    by_wind[s.wind.index()] =
                        format!("{} {}", s.player, esc(&name_of(names, s.player)));
                }
                let _ = write!(
                    b,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td></td><td></td><td></td><td></td><td></td></tr>",
                    h.hand, tp.deal, by_wind[0], by_wind[1], by_wind[2], by_wind[3]
                );
            }
            b.push_str("</table></div>");
            boxes.push(b);
        }
    }
    page(&format!("Score sheets — {event}"), &pages(&boxes, 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printables_cover_every_player_and_table() {
        let m = crate::movement::individual(16, None, 1).unwrap();
        let names: Vec<String> = (1..=16).map(|i| format!("P<{i}>")).collect();
        let cards = guide_cards("Open", &m, &names);
        assert_eq!(cards.matches("class=\"card\"").count(), 16);
        // Four cards to a page.
        assert_eq!(cards.matches("class=\"page\"").count(), 4);
        assert!(cards.contains("P&lt;16&gt;") && !cards.contains("P<16>"));
        // Each card lists 20 hands.
        assert_eq!(cards.matches("<tr><td>").count(), 16 * 20);
        assert_eq!(table_count(&m), 4);
        let codes: Vec<String> = (1..=4).map(|i| format!("code{i}")).collect();
        let t = table_cards("Open & co", &m, &codes, |t| {
            format!("http://x/events/1/table?table={t}")
        });
        assert_eq!(t.matches("class=\"tablecard\"").count(), 4);
        assert!(t.contains("Table 4") && t.contains("code4") && t.contains("Open &amp; co"));
        assert!(t.contains("Score entry: http://x/events/1/table?table=4"));
        assert_eq!(t.matches("<svg class=\"qr\"").count(), 4);
        let s = score_sheets("Open", &m, &names);
        // 4 tables × 5 rounds, four sheets a page.
        assert_eq!(s.matches("class=\"sheet\"").count(), 20);
        assert_eq!(s.matches("class=\"page\"").count(), 5);
        assert!(s.contains("@page{size:A4"));
    }

    #[test]
    fn a_long_event_gets_a_card_a_group_of_rounds() {
        // 10 rounds are 40 hands: two cards a player, rounds 1–7 (26 hands: 6½ rounds)
        // and 7–10.
        let m = crate::movement::individual(20, Some(10), 1).unwrap();
        let cards = guide_cards("Long", &m, &[]);
        assert_eq!(cards.matches("class=\"card\"").count(), 40);
        assert!(cards.contains("Player 1 (1) · rounds 1–7"));
        assert!(cards.contains("Player 1 (1) · rounds 7–10"));
    }
}
