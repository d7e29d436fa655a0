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
