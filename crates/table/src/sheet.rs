//! Deal sheets for staff: per seat, the starting tiles (label 1–4) and the wall by label,
//! laid out as the two rows of the physical wall (10–19 under 20–29 plus A for East).

use mcr::{Tile, Wind};
use serde::Serialize;

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

/// One seat of a deal sheet: the starting tiles and the wall by physical row.
#[derive(Clone, Debug, Serialize)]
pub struct SeatSheet {
    /// "East", "South", …
    pub seat: &'static str,
    /// The label of the starting tiles (1–4).
    pub label: String,
    /// The starting tiles, sorted, by code.
    pub hand: Vec<&'static str>,
    /// The wall's two rows: `(label, tile code)`.
    pub rows: [Vec<(String, &'static str)>; 2],
}

/// A deal's sheet for staff who rebuild it by hand.
#[derive(Clone, Debug, Serialize)]
pub struct DealSheet {
    /// "Deal 1-1 — seed 7 (version 2)".
    pub title: String,
    /// The prevalent wind's letter.
    pub prevalent: String,
    /// East, South, West, North.
    pub seats: Vec<SeatSheet>,
}

/// The sheet of one deal, as data (the server's template `print/labels.html` lays it out).
pub fn sheet(deal: &Deal, name: &str) -> DealSheet {
    DealSheet {
        title: title(deal, name),
        prevalent: deal.prevalent.to_string(),
        seats: Wind::ALL
            .iter()
            .map(|&w| {
                let [r1, r2] = rows(deal, w);
                let codes = |r: Vec<(String, Tile)>| -> Vec<(String, &'static str)> {
                    r.into_iter().map(|(l, t)| (l, t.code())).collect()
                };
                SeatSheet {
                    seat: seat_name(w),
                    label: hand_label(w),
                    hand: sorted_hand(deal, w).iter().map(|t| t.code()).collect(),
                    rows: [codes(r1), codes(r2)],
                }
            })
            .collect(),
    }
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
        let sh = sheet(&d, "1");
        assert_eq!(sh.seats.len(), 4);
        assert_eq!(sh.seats[0].seat, "East");
        assert_eq!(sh.seats[0].hand.len(), 13);
        assert_eq!(sh.seats[0].rows[1].last().unwrap().0, "A");
    }
}
