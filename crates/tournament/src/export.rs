//! Standings as CSV and JSON, the same for the command line and the web app.

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::standings::{Line, Standings, TeamStandings};

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Individual standings, one player a row.
pub fn standings_csv(st: &Standings) -> String {
    let mut s = String::from("rank,player,name,hands,ms,imp,penalty_imp\n");
    for l in &st.lines {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{}",
            l.rank,
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
    json!({"rank": l.rank, "player": l.player, "name": l.name, "hands": l.hands, "ms": l.ms, "imp": l.imp, "penalty_imp": l.penalty_imp})
}

/// One team's line.
pub fn team_line_json(l: &Line) -> Value {
    json!({"rank": l.rank, "team": l.name, "deals": l.hands, "ms": l.ms, "imp": l.imp})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_needed() {
        assert_eq!(csv_field("Ada"), "Ada");
        assert_eq!(csv_field("Lee, Ann"), "\"Lee, Ann\"");
        assert_eq!(csv_field("the \"Cat\""), "\"the \"\"Cat\"\"\"");
    }
}
