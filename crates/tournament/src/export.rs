//! Standings as CSV and JSON, the same for the command line and the web app.

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::standings::{Line, Standings, TeamStandings};

/// A CSV text field, quoted when it holds a comma, a quote or a line break. A text that a
/// spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) is opened with `'`, so a player called `=HYPERLINK(…)` stays a name.
pub fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// Individual standings, one player a row.
pub fn standings_csv(st: &Standings) -> String {
    let mut s = String::from("rank,player,name,hands,ms,imp,penalty_imp\n");
    for l in &st.lines {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{}",
            // A stand-in has no rank.
            if l.stands_in_for.is_some() {
                String::new()
            } else {
                l.rank.to_string()
            },
            l.player,
            csv_field(&l.name),
            l.hands,
            l.ms,
            l.imp,
            l.penalty_imp
        );
    }
    s
}

/// The final ranking for a rating body, one ranked player a row, in the format of
/// `docs/ranking-export.md`: place, the entrant's number, name and team, IMP and match
/// points, hands played, the base rank `1000 × (N − place) / (N − 1)` over the N ranked
/// entrants (rounded; players who share a place share it), and a status (`finished` or
/// `withdrew from round R`, as `withdrew_in` gives). Stand-ins are not ranked and not listed.
pub fn ranking_csv(
    event: &str,
    st: &Standings,
    team_of: impl Fn(u32) -> Option<String>,
    withdrew_in: impl Fn(u32) -> Option<u32>,
) -> String {
    let ranked: Vec<&Line> = st
        .lines
        .iter()
        .filter(|l| l.stands_in_for.is_none())
        .collect();
    let n = ranked.len() as i64;
    let mut s = String::from("event,place,player,name,team,imp,ms,hands,base_rank,status\n");
    for l in ranked {
        let base = if n > 1 {
            // Rounded half up, in integers.
            (2000 * (n - l.rank as i64) + (n - 1)) / (2 * (n - 1))
        } else {
            1000
        };
        let status = match withdrew_in(l.player) {
            Some(r) => format!("withdrew from round {r}"),
            None => "finished".to_string(),
        };
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{base},{status}",
            csv_field(event),
            l.rank,
            l.player,
            csv_field(&l.name),
            csv_field(&team_of(l.player).unwrap_or_default()),
            l.imp,
            l.ms,
            l.hands,
        );
    }
    s
}

/// Team standings, one team a row.
pub fn team_csv(t: &TeamStandings) -> String {
    let mut s = String::from("rank,team,deals,ms,imp\n");
    for l in &t.lines {
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            l.rank,
            csv_field(&l.name),
            l.hands,
            l.ms,
            l.imp
        );
    }
    s
}

/// One player's line.
pub fn line_json(l: &Line) -> Value {
    json!({"rank": l.rank, "player": l.player, "name": l.name, "hands": l.hands, "ms": l.ms, "imp": l.imp, "penalty_imp": l.penalty_imp, "stands_in_for": l.stands_in_for})
}

/// One team's line.
pub fn team_line_json(l: &Line) -> Value {
    json!({"rank": l.rank, "team": l.name, "deals": l.hands, "ms": l.ms, "imp": l.imp})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(player: u32, rank: u32, imp: i64, stands_in_for: Option<u32>) -> Line {
        Line {
            player,
            name: format!("P{player}"),
            hands: 20,
            ms: imp * 3,
            imp,
            penalty_imp: 0,
            rank,
            stands_in_for,
        }
    }

    #[test]
    fn the_ranking_gives_the_base_rank_of_each_place() {
        // 4 ranked players, two sharing place 2: 1000·(4−p)/3 = 1000, 667 (666.7), 0.
        let st = Standings {
            lines: vec![
                line(3, 1, 30, None),
                line(1, 2, 5, None),
                line(4, 2, 5, None),
                line(2, 4, -40, None),
                line(5, 0, 7, Some(2)),
            ],
            deal_seats: vec![],
            notes: vec![],
        };
        let csv = ranking_csv(
            "Spring, open",
            &st,
            |p| (p == 1).then(|| "Red".to_string()),
            |p| (p == 2).then_some(4),
        );
        assert_eq!(
            csv,
            "event,place,player,name,team,imp,ms,hands,base_rank,status\n\
             \"Spring, open\",1,3,P3,,30,90,20,1000,finished\n\
             \"Spring, open\",2,1,P1,Red,5,15,20,667,finished\n\
             \"Spring, open\",2,4,P4,,5,15,20,667,finished\n\
             \"Spring, open\",4,2,P2,,-40,-120,20,0,withdrew from round 4\n"
        );
    }

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("Ada"), "Ada");
        assert_eq!(csv_field("Lee, Ann"), "\"Lee, Ann\"");
        assert_eq!(csv_field("the \"Cat\""), "\"the \"\"Cat\"\"\"");
        // Formulas are not run by a spreadsheet that opens the export.
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("-2"), "'-2");
        assert_eq!(
            csv_field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
    }
}
