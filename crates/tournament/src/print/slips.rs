//! After the event: a result slip per player (every hand against its field) and the
//! final standings, as data for the printables.

use serde::Serialize;

use crate::standings::{Standings, TeamStandings};

/// One entrant's result slip.
#[derive(Clone, Debug, Serialize)]
pub struct Slip {
    /// The name.
    pub name: String,
    /// The player's number.
    pub player: u32,
    /// Every deal they played.
    pub rows: Vec<SlipRow>,
    /// The rank.
    pub rank: u32,
    /// Hands played.
    pub hands: u32,
    /// Match points.
    pub ms: i64,
    /// IMP.
    pub imp: i64,
    /// IMP deducted by penalties.
    pub penalty_imp: i64,
}

/// One deal on a slip: the seat, match points, difference from the field's average, IMP.
#[derive(Clone, Debug, Serialize)]
pub struct SlipRow {
    /// The deal's label.
    pub deal: String,
    /// The seat wind's letter.
    pub seat: char,
    /// Match points.
    pub ms: i32,
    /// The difference as the standings print it (`-24`, `7.5`).
    pub dif: String,
    /// IMP.
    pub imp: i32,
}

/// Result slips: for each entrant, every deal they played with its seat, match points,
/// difference from the field's average and IMP, then the totals and rank. Stand-ins get
/// no slip.
pub fn result_slips(st: &Standings) -> Vec<Slip> {
    let mut lines: Vec<_> = st
        .lines
        .iter()
        .filter(|l| l.stands_in_for.is_none())
        .collect();
    lines.sort_by_key(|l| l.player);
    lines
        .into_iter()
        .map(|l| Slip {
            name: l.name.clone(),
            player: l.player,
            rows: st
                .deal_seats
                .iter()
                .flat_map(|ds| {
                    ds.entries
                        .iter()
                        .filter(|e| e.player == l.player)
                        .map(|e| SlipRow {
                            deal: ds.deal.clone(),
                            seat: ds.wind.letter(),
                            ms: e.ms,
                            dif: e.dif.to_string(),
                            imp: e.imp,
                        })
                })
                .collect(),
            rank: l.rank,
            hands: l.hands,
            ms: l.ms,
            imp: l.imp,
            penalty_imp: l.penalty_imp,
        })
        .collect()
}

/// The final standings for the notice board.
#[derive(Clone, Debug, Serialize)]
pub struct FinalStandings {
    /// The teams, best first, in a team event.
    pub teams: Option<Vec<TeamRow>>,
    /// Every player, best first; stand-ins unranked at the end.
    pub players: Vec<PlayerRow>,
}

/// A team's line.
#[derive(Clone, Debug, Serialize)]
pub struct TeamRow {
    /// The rank.
    pub rank: u32,
    /// The name.
    pub name: String,
    /// Deals played.
    pub hands: u32,
    /// Match points.
    pub ms: i64,
    /// IMP.
    pub imp: i64,
}

/// A player's line.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerRow {
    /// The rank, or "—" for a stand-in.
    pub rank: String,
    /// The player's number, or "for n" for a stand-in.
    pub no: String,
    /// The name.
    pub name: String,
    /// A remark after the name (a withdrawal).
    pub remark: Option<String>,
    /// Hands played.
    pub hands: u32,
    /// Match points.
    pub ms: i64,
    /// IMP.
    pub imp: i64,
    /// IMP deducted by penalties.
    pub penalty_imp: i64,
}

/// The final standings: teams first in a team event, then every player; `note(player)`
/// adds a remark to a name (a withdrawal). Stand-ins are listed unranked at the end.
pub fn final_standings(
    st: &Standings,
    teams: Option<&TeamStandings>,
    note: impl Fn(u32) -> Option<String>,
) -> FinalStandings {
    FinalStandings {
        teams: teams.map(|t| {
            t.lines
                .iter()
                .map(|l| TeamRow {
                    rank: l.rank,
                    name: l.name.clone(),
                    hands: l.hands,
                    ms: l.ms,
                    imp: l.imp,
                })
                .collect()
        }),
        players: st
            .lines
            .iter()
            .map(|l| {
                let (rank, no) = match l.stands_in_for {
                    Some(p) => ("—".to_string(), format!("for {p}")),
                    None => (l.rank.to_string(), l.player.to_string()),
                };
                PlayerRow {
                    rank,
                    no,
                    name: l.name.clone(),
                    remark: note(l.player),
                    hands: l.hands,
                    ms: l.ms,
                    imp: l.imp,
                    penalty_imp: l.penalty_imp,
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::{DealResult, Player, Results, TableResult};

    fn results() -> Results {
        Results {
            players: (1..=8)
                .map(|id| Player {
                    id,
                    name: format!("P{id}"),
                    stands_in_for: None,
                })
                .collect(),
            teams: vec![],
            false_hu_points: 10,
            deals: vec![DealResult {
                deal: "1-1".into(),
                tables: vec![
                    TableResult::new(1, [1, 2, 3, 4], [48, -16, -16, -16]),
                    TableResult::new(2, [5, 6, 7, 8], [0, 0, 0, 0]),
                ],
            }],
            penalties: vec![],
        }
    }

    #[test]
    fn a_slip_shows_each_deal_against_its_field() {
        let st = results().individual().unwrap();
        let slips = result_slips(&st);
        assert_eq!(slips.len(), 8);
        // East at table 1 self-drew 8 (48) against an average of 24: DIF 24, IMP 5 (IMP
        // table: 24–31 is 5). East at table 2 made 0: DIF −24, IMP −5.
        let p1 = &slips[0];
        assert_eq!((p1.name.as_str(), p1.player), ("P1", 1));
        let r = &p1.rows[0];
        assert_eq!(
            (r.deal.as_str(), r.seat, r.ms, r.dif.as_str(), r.imp),
            ("1-1", 'E', 48, "24", 5)
        );
        let r5 = &slips[4].rows[0];
        assert_eq!((r5.ms, r5.dif.as_str(), r5.imp), (0, "-24", -5));
        assert_eq!((p1.hands, p1.ms, p1.imp), (1, 48, 5));
    }

    #[test]
    fn final_standings_mark_withdrawals_and_stand_ins() {
        let mut r = results();
        r.players.push(Player {
            id: 9,
            name: "Sub".into(),
            stands_in_for: Some(8),
        });
        r.deals[0].tables[1] = TableResult::new(2, [5, 6, 7, 9], [0, 0, 0, 0]);
        let st = r.individual().unwrap();
        let f = final_standings(&st, None, |p| {
            (p == 8).then(|| "withdrew from round 1".to_string())
        });
        assert!(f.teams.is_none());
        assert_eq!(f.players.len(), 9);
        let sub = f.players.iter().find(|l| l.name == "Sub").unwrap();
        assert_eq!((sub.rank.as_str(), sub.no.as_str()), ("—", "for 8"));
        let p8 = f.players.iter().find(|l| l.name == "P8").unwrap();
        assert_eq!(p8.remark.as_deref(), Some("withdrew from round 1"));
        // The stand-in comes last.
        assert_eq!(f.players.last().unwrap().name, "Sub");
    }
}
