//! After the event: a result slip per player (every hand against its field) and the
//! final standings, both for A4.

use std::fmt::Write as _;

use super::{esc, page, pages};
use crate::standings::{Standings, TeamStandings};

/// Result slips, four to a page: for each entrant, every deal they played with its seat,
/// match points, difference from the field's average and IMP, then the totals and rank.
/// Stand-ins get no slip.
pub fn result_slips(event: &str, st: &Standings) -> String {
    let mut boxes = Vec::new();
    let mut lines: Vec<_> = st
        .lines
        .iter()
        .filter(|l| l.stands_in_for.is_none())
        .collect();
    lines.sort_by_key(|l| l.player);
    for l in lines {
        let mut b = format!(
            "<div class=\"card slip\"><h3>{} ({})</h3><p>{}</p><table><tr><th>deal</th><th>seat</th><th>ms</th><th>DIF</th><th>IMP</th></tr>",
            esc(&l.name),
            l.player,
            esc(event)
        );
        for ds in &st.deal_seats {
            for e in ds.entries.iter().filter(|e| e.player == l.player) {
                let _ = write!(
                    b,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&ds.deal),
                    ds.wind.letter(),
                    e.ms,
                    e.dif,
                    e.imp
                );
            }
        }
        let penalty = if l.penalty_imp != 0 {
            format!(" (penalties −{})", l.penalty_imp)
        } else {
            String::new()
        };
        let _ = write!(
            b,
            "</table><p class=\"total\">Rank {} · {} hands · {} ms · {} IMP{penalty}</p></div>",
            l.rank, l.hands, l.ms, l.imp
        );
        boxes.push(b);
    }
    page(&format!("Result slips — {event}"), &pages(&boxes, 4))
}

/// The final standings for the notice board: teams first in a team event, then every
/// player; `note(player)` adds a remark to a name (a withdrawal). Stand-ins are listed
/// unranked at the end.
pub fn final_standings(
    event: &str,
    st: &Standings,
    teams: Option<&TeamStandings>,
    note: impl Fn(u32) -> Option<String>,
) -> String {
    let mut b = format!("<h1>{} — final standings</h1>", esc(event));
    if let Some(t) = teams {
        b.push_str("<table class=\"standings\"><thead><tr><th>rank</th><th>team</th><th>deals</th><th>ms</th><th>IMP</th></tr></thead><tbody>");
        for l in &t.lines {
            let _ = write!(
                b,
                "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                l.rank,
                esc(&l.name),
                l.hands,
                l.ms,
                l.imp
            );
        }
        b.push_str("</tbody></table><br>");
    }
    b.push_str("<table class=\"standings\"><thead><tr><th>rank</th><th>#</th><th>name</th><th>hands</th><th>ms</th><th>IMP</th><th>penalty</th></tr></thead><tbody>");
    for l in &st.lines {
        let (rank, no) = match l.stands_in_for {
            Some(p) => ("—".to_string(), format!("for {p}")),
            None => (l.rank.to_string(), l.player.to_string()),
        };
        let remark = note(l.player)
            .map(|n| format!(" <i>({})</i>", esc(&n)))
            .unwrap_or_default();
        let _ = write!(
            b,
            "<tr><td>{rank}</td><td>{no}</td><td class=\"name\">{}{remark}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&l.name),
            l.hands,
            l.ms,
            l.imp,
            l.penalty_imp
        );
    }
    b.push_str("</tbody></table>");
    page(&format!("Final standings — {event}"), &b)
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
        let slips = result_slips("Open", &st);
        assert_eq!(slips.matches("class=\"card slip\"").count(), 8);
        // East at table 1 self-drew 8 (48) against an average of 24: DIF 24, IMP 5 (IMP
        // table: 24–31 is 5). East at table 2 made 0: DIF −24, IMP −5.
        let p1 = slips.split("<h3>P1 (1)").nth(1).unwrap();
        assert!(
            p1.contains("<tr><td>1-1</td><td>E</td><td>48</td><td>24</td><td>5</td></tr>"),
            "{p1}"
        );
        let p5 = slips.split("<h3>P5 (5)").nth(1).unwrap();
        assert!(p5.contains("<td>0</td><td>-24</td><td>-5</td>"), "{p5}");
        assert!(p1.contains("1 hands · 48 ms · 5 IMP"), "{p1}");
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
        let page = final_standings("Open", &st, None, |p| {
            (p == 8).then(|| "withdrew from round 1".to_string())
        });
        assert!(page.contains("<td>—</td><td>for 8</td><td class=\"name\">Sub</td>"));
        assert!(page.contains("P8 <i>(withdrew from round 1)</i>"));
        assert_eq!(page.matches("<tr><td>").count(), 9);
    }
}
