//! Deal sheets for staff: per seat, the starting tiles (label 1–4) and the wall by label,
//! laid out as the two rows of the physical wall (10–19 under 20–29 plus A for East).

use mcr::{Tile, Wind};

use crate::deal::{hand_label, wall_label, Deal, WALL};

/// The wall of `seat` by physical row: `(label, tile)` for row 1 (10–19), then row 2
/// (20–29) followed by the first tile (A).
fn rows(deal: &Deal, seat: Wind) -> [Vec<(String, Tile)>; 2] {
    let s = seat.index();
    let mut r1 = Vec::new();
    let mut r2 = Vec::new();
    for i in 1..WALL {
        let entry = (wall_label(seat, i), deal.walls[s][i]);
        if (i - 1) % 2 == 0 {
            r1.push(entry);
        } else {
            r2.push(entry);
        }
    }
    r2.push((wall_label(seat, 0), deal.walls[s][0]));
    [r1, r2]
}

fn sorted_hand(deal: &Deal, seat: Wind) -> Vec<Tile> {
    let mut h = deal.hands[seat.index()].to_vec();
    h.sort();
    h
}

fn seat_name(w: Wind) -> &'static str {
    ["East", "South", "West", "North"][w.index()]
}

fn title(deal: &Deal, name: &str) -> String {
    match deal.seed {
        Some(seed) => format!(
            "Deal {name} — seed {seed} (version {})",
            crate::deal::DEAL_VERSION
        ),
        None => format!("Deal {name}"),
    }
}

/// A plain-text sheet.
pub fn text(deal: &Deal, name: &str) -> String {
    let mut out = format!(
        "{}   prevalent wind {}\n",
        title(deal, name),
        deal.prevalent
    );
    for w in Wind::ALL {
        out.push('\n');
        let hand: Vec<&str> = sorted_hand(deal, w).iter().map(|t| t.code()).collect();
        out.push_str(&format!(
            "{:<5}  starting tiles (label {}): {}\n",
            seat_name(w),
            hand_label(w),
            hand.join(" ")
        ));
        let draw: Vec<String> = (0..WALL)
            .map(|i| format!("{}={}", wall_label(w, i), deal.walls[w.index()][i]))
            .collect();
        out.push_str(&format!("       draw order: {}\n", draw.join(" ")));
        for (k, row) in rows(deal, w).iter().enumerate() {
            let labels: Vec<String> = row.iter().map(|(l, _)| format!("{l:>3}")).collect();
            let tiles: Vec<String> = row
                .iter()
                .map(|(_, t)| format!("{:>3}", t.code()))
                .collect();
            out.push_str(&format!("       row {}  {}\n", k + 1, labels.join("")));
            out.push_str(&format!("              {}\n", tiles.join("")));
        }
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One HTML page of sheets, one deal per A4 page when printed.
pub fn html(deals: &[(String, Deal)]) -> String {
    let mut body = String::new();
    for (name, deal) in deals {
        body.push_str(&format!(
            "<section class=\"deal\"><h1>{}</h1><p>Prevalent wind {}</p>\n",
            esc(&title(deal, name)),
            deal.prevalent
        ));
        for w in Wind::ALL {
            let hand: Vec<String> = sorted_hand(deal, w)
                .iter()
                .map(|t| format!("<td>{}</td>", t.code()))
                .collect();
            body.push_str(&format!(
                "<h2>{} — starting tiles, label {}</h2><table class=\"hand\"><tr>{}</tr></table>\n",
                seat_name(w),
                hand_label(w),
                hand.join("")
            ));
            body.push_str("<table class=\"wall\">");
            for row in rows(deal, w) {
                let labels: Vec<String> =
                    row.iter().map(|(l, _)| format!("<th>{l}</th>")).collect();
                let tiles: Vec<String> = row
                    .iter()
                    .map(|(_, t)| format!("<td>{}</td>", t.code()))
                    .collect();
                body.push_str(&format!(
                    "<tr>{}</tr><tr>{}</tr>",
                    labels.join(""),
                    tiles.join("")
                ));
            }
            body.push_str("</table>\n");
        }
        body.push_str("</section>\n");
    }
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>dupmj deal sheets</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 1.5em; }}\n\
         h1 {{ font-size: 16pt; margin: 0 0 .2em; }} h2 {{ font-size: 11pt; margin: .8em 0 .2em; }}\n\
         table {{ border-collapse: collapse; margin-bottom: .3em; }}\n\
         td, th {{ border: 1px solid #444; width: 2.6em; text-align: center; padding: .15em 0; font-size: 11pt; }}\n\
         th {{ background: #eee; font-weight: normal; font-size: 9pt; }}\n\
         .hand td {{ font-weight: bold; }}\n\
         @page {{ size: A4; margin: 12mm; }}\n\
         @media print {{ body {{ margin: 0; }} .deal {{ page-break-after: always; }} }}\n\
         </style></head><body>\n{body}</body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_hold_every_wall_tile_once() {
        let d = Deal::generate(3);
        for w in Wind::ALL {
            let r = rows(&d, w);
            assert_eq!(r[0].len(), 10);
            assert_eq!(r[1].len(), 11);
            assert_eq!(r[0][0].0, wall_label(w, 1));
            assert_eq!(r[1].last().unwrap().0, wall_label(w, 0));
        }
        let t = text(&d, "1");
        assert!(t.contains("A=") && t.contains("29=") && t.contains("89="));
        let h = html(&[("1".into(), d)]);
        assert!(h.contains("@page") && h.contains("<th>A</th>"));
    }
}
