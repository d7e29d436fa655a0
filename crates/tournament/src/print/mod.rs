//! What the day's printables hold, as data: guide cards (where each player sits for every
//! hand), table cards with the squares of a QR code to the score-entry page, score sheets,
//! result slips and the final standings. The server's templates (`templates/print/`) lay
//! them out for A4; this crate makes no HTML.

mod qr;
mod slips;

use serde::Serialize;

use crate::movement::Movement;

pub use qr::{picture as qr_picture, QrPicture};
pub use slips::{final_standings, result_slips, FinalStandings, PlayerRow, Slip, SlipRow, TeamRow};

/// The display name of a player: their name, or "Player n".
fn name_of(names: &[String], p: u32) -> String {
    names
        .get(p as usize - 1)
        .filter(|n| !n.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("Player {p}"))
}

/// Most hands one card lists (the box holds 26 rows); longer events get a card a round
/// group, labelled "rounds a–b".
const CARD_HANDS: usize = 26;

/// One guide card: a player and where they sit, hand by hand.
#[derive(Clone, Debug, Serialize)]
pub struct GuideCard {
    /// The player's name.
    pub name: String,
    /// Their number.
    pub player: u32,
    /// The first and last round on this card, when a player needs more than one.
    pub rounds: Option<(u32, u32)>,
    /// A row a hand.
    pub rows: Vec<GuideRow>,
}

/// Where a player sits for one hand.
#[derive(Clone, Debug, Serialize)]
pub struct GuideRow {
    /// The round.
    pub round: u32,
    /// The hand within its round.
    pub hand: u32,
    /// The table.
    pub table: u32,
    /// Where they sit at the table (E, S, W, N).
    pub direction: String,
    /// Their seat wind in the deal.
    pub wind: String,
}

/// Guide cards: for each player, table, direction and wind of every hand.
pub fn guide_cards(m: &Movement, names: &[String]) -> Vec<GuideCard> {
    let mut cards = Vec::new();
    for p in 1..=m.players {
        let mut rows = Vec::new();
        for r in &m.rounds {
            for h in &r.hands {
                for t in &h.tables {
                    if let Some(s) = t.seats.iter().find(|s| s.player == p) {
                        rows.push(GuideRow {
                            round: r.round,
                            hand: h.hand,
                            table: t.table,
                            direction: s.direction.to_string(),
                            wind: s.wind.to_string(),
                        });
                    }
                }
            }
        }
        let parts = rows.len().div_ceil(CARD_HANDS).max(1);
        for chunk in rows.chunks(CARD_HANDS) {
            cards.push(GuideCard {
                name: name_of(names, p),
                player: p,
                rounds: (parts > 1).then(|| (chunk[0].round, chunk[chunk.len() - 1].round)),
                rows: chunk.to_vec(),
            });
        }
    }
    cards
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

/// One table's card: its number, the score-entry address and its QR code, the code.
#[derive(Clone, Debug, Serialize)]
pub struct TableCard {
    /// The table.
    pub table: u32,
    /// The score-entry address.
    pub url: String,
    /// Its QR code (none when the address is too long for one).
    pub qr: Option<QrPicture>,
    /// The table's current score-entry code.
    pub code: Option<String>,
}

/// A card per table, with the score-entry address `entry_url(t)` and its QR code, and
/// the table's current code.
pub fn table_cards(
    m: &Movement,
    codes: &[String],
    entry_url: impl Fn(u32) -> String,
) -> Vec<TableCard> {
    (1..=table_count(m))
        .map(|t| {
            let url = entry_url(t);
            TableCard {
                table: t,
                qr: qr::picture(&url),
                url,
                code: codes.get(t as usize - 1).cloned(),
            }
        })
        .collect()
}

/// One score sheet: a table in a round.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreSheet {
    /// The table.
    pub table: u32,
    /// The round.
    pub round: u32,
    /// A row a hand.
    pub hands: Vec<SheetRow>,
}

/// One hand on a score sheet: the deal and who sits at each seat wind.
#[derive(Clone, Debug, Serialize)]
pub struct SheetRow {
    /// The hand within its round.
    pub hand: u32,
    /// The deal's label.
    pub deal: String,
    /// "number name" of the player at East, South, West and North.
    pub by_wind: [String; 4],
}

/// Score sheets: one per table and round, with the deal and who sits at each wind for
/// every hand (the boxes for the result are the template's).
pub fn score_sheets(m: &Movement, names: &[String]) -> Vec<ScoreSheet> {
    let mut sheets = Vec::new();
    for t in 1..=table_count(m) {
        for r in &m.rounds {
            let hands = r
                .hands
                .iter()
                .filter_map(|h| {
                    let tp = h.tables.iter().find(|x| x.table == t)?;
                    let mut by_wind: [String; 4] = Default::default();
                    for s in &tp.seats {
                        by_wind[s.wind.index()] =
                            format!("{} {}", s.player, name_of(names, s.player));
                    }
                    Some(SheetRow {
                        hand: h.hand,
                        deal: tp.deal.clone(),
                        by_wind,
                    })
                })
                .collect();
            sheets.push(ScoreSheet {
                table: t,
                round: r.round,
                hands,
            });
        }
    }
    sheets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printables_cover_every_player_and_table() {
        let m = crate::movement::individual(16, None, 1).unwrap();
        let names: Vec<String> = (1..=16).map(|i| format!("P{i}")).collect();
        let cards = guide_cards(&m, &names);
        assert_eq!(cards.len(), 16);
        // Each card lists 20 hands (5 rounds of 4), one card a player.
        assert!(cards
            .iter()
            .all(|c| c.rows.len() == 20 && c.rounds.is_none()));
        assert_eq!(cards[15].name, "P16");
        assert_eq!(table_count(&m), 4);
        let codes: Vec<String> = (1..=4).map(|i| format!("code{i}")).collect();
        let t = table_cards(&m, &codes, |t| format!("http://x/events/1/table?table={t}"));
        assert_eq!(t.len(), 4);
        assert_eq!(t[3].url, "http://x/events/1/table?table=4");
        assert_eq!(t[3].code.as_deref(), Some("code4"));
        assert!(t.iter().all(|c| c.qr.is_some()));
        let s = score_sheets(&m, &names);
        // 4 tables × 5 rounds, four hands each; every seat of every hand filled.
        assert_eq!(s.len(), 20);
        assert!(s.iter().all(|x| x.hands.len() == 4));
        assert!(s
            .iter()
            .flat_map(|x| &x.hands)
            .all(|h| h.by_wind.iter().all(|w| w.contains(" P"))));
    }

    #[test]
    fn a_long_event_gets_a_card_a_group_of_rounds() {
        // 10 rounds are 40 hands: two cards a player, rounds 1–7 (26 hands: 6½ rounds)
        // and 7–10.
        let m = crate::movement::individual(20, Some(10), 1).unwrap();
        let cards = guide_cards(&m, &[]);
        assert_eq!(cards.len(), 40);
        assert_eq!(cards[0].name, "Player 1");
        assert_eq!(cards[0].rounds, Some((1, 7)));
        assert_eq!(cards[1].rounds, Some((7, 10)));
        assert_eq!(cards[0].rows.len(), 26);
        assert_eq!(cards[1].rows.len(), 14);
    }
}
