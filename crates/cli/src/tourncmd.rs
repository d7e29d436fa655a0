//! `dupmj movement` and `dupmj standings`.

use std::fmt::Write as _;

use crate::output::emit;
use clap::{Args, ValueEnum};
use tournament::check::{check, Quality};
use tournament::export::{line_json, standings_csv, team_csv, team_line_json};
use tournament::movement::{individual, teams, Movement};
use tournament::standings::Results;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Html,
    Csv,
}

#[derive(Args)]
pub struct MovementArgs {
    /// Number of players (a multiple of 4, at least 8).
    #[arg(long)]
    players: Option<u32>,
    /// A team movement for this many teams of four (a multiple of 4) instead.
    #[arg(long)]
    teams: Option<u32>,
    /// Rounds of four hands (default 5).
    #[arg(long)]
    rounds: Option<u32>,
    /// Seed of the local search (sizes that are not a multiple of 16).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output form: text, json (with the quality report), csv (a row per seat of every
    /// hand) or html (a page that prints on A4).
    #[arg(long, value_enum, default_value = "text", value_name = "FORM")]
    format: Format,
    /// One printable guide card per player (HTML): where to sit for every hand.
    #[arg(long)]
    cards: bool,
}

#[derive(Args)]
pub struct StandingsArgs {
    /// A results file (JSON; the format is in the docs of `tournament::standings`).
    file: std::path::PathBuf,
    /// Team standings instead of individual ones.
    #[arg(long)]
    team: bool,
    /// Output form: text, json, csv (the ranking) or html (the ranking and the per-deal
    /// tables, for printing).
    #[arg(long, value_enum, default_value = "text", value_name = "FORM")]
    format: Format,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// A published deal set (`dupmj-set/1`: a challenge's `reveal.json`, a table's or an
    /// event's `set.json`) or an older challenge reveal (`dupmj-reveal/1`).
    file: std::path::PathBuf,
    /// The commitment published when the set started (hex); without it, only the file's
    /// own commitment is checked.
    #[arg(long)]
    commitment: Option<String>,
}

/// Checks a published set: the key (or the salt and deals) hash to the commitment, and
/// every deal is the one its seed gives.
pub fn verify(a: VerifyArgs) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let at = |e: String| format!("{}: {e}", a.file.display());
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        at(format!(
            "not a deal set or a challenge reveal: not JSON ({e})"
        ))
    })?;
    let format = v.get("format").and_then(|f| f.as_str()).unwrap_or("");
    let (n, name, commitment) = if format.starts_with("dupmj-set/") {
        let r: table::set::SetReveal = crate::jsonin::object(v, "a deal set").map_err(at)?;
        let n = table::set::verify(&r, a.commitment.as_deref()).map_err(|e| at(e.to_string()))?;
        (n, r.name, r.commitment)
    } else {
        let r: tournament::challenge::Reveal =
            crate::jsonin::object(v, "a challenge reveal").map_err(at)?;
        let n = tournament::challenge::verify(&r, a.commitment.as_deref())
            .map_err(|e| at(e.to_string()))?;
        (n, r.name, r.commitment)
    };
    println!(
        "ok: {n} deals of '{name}' match commitment {commitment}{}",
        if a.commitment.is_some() {
            " (the one published)"
        } else {
            " (the file's own: pass --commitment to compare with the one published)"
        }
    );
    Ok(())
}

fn quality_text(q: &Quality) -> String {
    let hist = |h: &std::collections::BTreeMap<u32, u32>| {
        h.iter()
            .map(|(k, v)| format!("{k}×: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = String::new();
    let _ = writeln!(s, "quality (checked independently of the generator):");
    let _ = writeln!(
        s,
        "  pairs by rounds at one table:       {}",
        hist(&q.table_meetings)
    );
    let _ = writeln!(
        s,
        "  pairs by deal-seats played alike:   {}",
        hist(&q.seat_meetings)
    );
    let _ = writeln!(
        s,
        "  players per deal-seat:              {}–{}",
        q.players_per_deal_seat.0, q.players_per_deal_seat.1
    );
    let _ = writeln!(
        s,
        "  sit-outs {}, players seated twice {}",
        q.sit_outs, q.repeats
    );
    for p in &q.problems {
        let _ = writeln!(s, "  PROBLEM: {p}");
    }
    s
}

pub fn movement(a: MovementArgs) -> Result<(), String> {
    let m: Movement = match (a.players, a.teams) {
        (Some(_), Some(_)) => return Err("give --players or --teams, not both".into()),
        (Some(n), None) => individual(n, a.rounds, a.seed).map_err(|e| e.0)?,
        (None, Some(_)) if a.rounds.is_some() => {
            return Err(
                "--rounds does not apply to --teams: the team movement has one round".into(),
            )
        }
        (None, Some(t)) => teams(t).map_err(|e| e.0)?,
        (None, None) => return Err("give --players N (or --teams N)".into()),
    };
    if a.cards && matches!(a.format, Format::Json | Format::Csv) {
        return Err("--cards prints HTML guide cards: leave out --format".into());
    }
    let q = check(&m);
    let out = match (a.format, a.cards) {
        (_, true) => server::print::guide_cards(&format!("{} players", m.players), &m, &[])
            .map_err(|e| format!("guide cards: {e}"))?,
        (Format::Json, _) => {
            let mut v = serde_json::to_value(&m).map_err(|e| e.to_string())?;
            v["quality"] = serde_json::to_value(&q).map_err(|e| e.to_string())?;
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())? + "\n"
        }
        (Format::Csv, _) => {
            let mut s = String::from("round,hand,table,deal,direction,player,wind\n");
            for r in &m.rounds {
                for h in &r.hands {
                    for t in &h.tables {
                        for x in &t.seats {
                            let _ = writeln!(
                                s,
                                "{},{},{},{},{},{},{}",
                                r.round, h.hand, t.table, t.deal, x.direction, x.player, x.wind
                            );
                        }
                    }
                }
            }
            s
        }
        (Format::Html, _) => server::print::movement(&m, &quality_text(&q))
            .map_err(|e| format!("movement page: {e}"))?,
        (Format::Text, _) => {
            let mut s = format!(
                "movement for {} players: {}, {} rounds of 4 hands\n",
                m.players,
                m.method,
                m.rounds.len()
            );
            for r in &m.rounds {
                let _ = writeln!(s, "\nround {}", r.round);
                for h in &r.hands {
                    let _ = writeln!(s, "  hand {}", h.hand);
                    for t in &h.tables {
                        let seats: Vec<String> = t
                            .seats
                            .iter()
                            .map(|x| format!("{}:{:>3}({})", x.direction, x.player, x.wind))
                            .collect();
                        let _ = writeln!(
                            s,
                            "    table {:>2}  deal {:<5} {}",
                            t.table,
                            t.deal,
                            seats.join("  ")
                        );
                    }
                }
            }
            s.push('\n');
            s + &quality_text(&q)
        }
    };
    emit(&out)
}

pub fn standings(a: StandingsArgs) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let results: Results = crate::jsonin::parse(&text, "a results file")
        .map_err(|e| format!("{}: {e}", a.file.display()))?;
    let err = |e: tournament::standings::ResultsError| format!("{}: {e}", a.file.display());
    if a.team {
        let t = results.team().map_err(err)?;
        let out = match a.format {
            Format::Json => {
                let lines: Vec<_> = t.lines.iter().map(team_line_json).collect();
                serde_json::to_string_pretty(&lines).map_err(|e| e.to_string())? + "\n"
            }
            Format::Csv => team_csv(&t),
            Format::Html => {
                let rows: Vec<Vec<String>> = t
                    .lines
                    .iter()
                    .map(|l| {
                        vec![
                            l.rank.to_string(),
                            l.name.clone(),
                            l.hands.to_string(),
                            l.ms.to_string(),
                            l.imp.to_string(),
                        ]
                    })
                    .collect();
                server::print::results(
                    "Team standings",
                    &["rank", "team", "deals", "ms", "IMP"],
                    &rows,
                    None,
                    &[],
                )
                .map_err(|e| format!("standings page: {e}"))?
            }
            Format::Text => {
                let mut s = "rank  team                 deals      ms    IMP\n".to_string();
                for l in &t.lines {
                    let _ = writeln!(
                        s,
                        "{:>4}  {:<20} {:>5} {:>7} {:>6}",
                        l.rank, l.name, l.hands, l.ms, l.imp
                    );
                }
                for (deal, rows) in &t.deals {
                    let _ = writeln!(s, "\ndeal {deal}: team sum, DIF, IMP");
                    for (team, sum, dif, imp) in rows {
                        let _ = writeln!(
                            s,
                            "  {:<20} {:>6} {:>8} {:>4}",
                            results.teams[*team].name,
                            sum,
                            dif.to_string(),
                            imp
                        );
                    }
                }
                s
            }
        };
        return emit(&out);
    }
    let st = results.individual().map_err(err)?;
    let out = match a.format {
        Format::Json => {
            let lines: Vec<_> = st.lines.iter().map(line_json).collect();
            let seats: Vec<_> = st
                .deal_seats
                .iter()
                .map(|d| serde_json::json!({"deal": d.deal, "wind": d.wind, "average": d.sum as f64 / d.n as f64,
                    "entries": d.entries.iter().map(|e| serde_json::json!({"player": e.player, "table": e.table, "ms": e.ms, "dif": e.dif.to_f64(), "imp": e.imp})).collect::<Vec<_>>()}))
                .collect();
            serde_json::to_string_pretty(
                &serde_json::json!({"standings": lines, "deal_seats": seats}),
            )
            .map_err(|e| e.to_string())?
                + "\n"
        }
        Format::Csv => standings_csv(&st),
        Format::Html => {
            let rows: Vec<Vec<String>> = st
                .lines
                .iter()
                .map(|l| {
                    vec![
                        l.rank.to_string(),
                        l.player.to_string(),
                        l.name.clone(),
                        l.hands.to_string(),
                        l.ms.to_string(),
                        l.imp.to_string(),
                        penalty_text(l.penalty_imp),
                    ]
                })
                .collect();
            let notes: Vec<String> = st.notes.iter().map(note_text).collect();
            server::print::results(
                "Standings",
                &["rank", "player", "name", "hands", "ms", "IMP", "penalty"],
                &rows,
                Some(comparison_tables(&st).trim_start()),
                &notes,
            )
            .map_err(|e| format!("standings page: {e}"))?
        }
        Format::Text => {
            let mut s =
                "rank  player  name                 hands      ms    IMP  (penalty)\n".to_string();
            for l in &st.lines {
                let pen = match penalty_text(l.penalty_imp) {
                    p if p.is_empty() => p,
                    p => format!("  ({p})"),
                };
                let _ = writeln!(
                    s,
                    "{:>4}  {:>6}  {:<20} {:>5} {:>7} {:>6}{pen}",
                    l.rank, l.player, l.name, l.hands, l.ms, l.imp
                );
            }
            s.push_str(&comparison_tables(&st));
            for n in &st.notes {
                let _ = writeln!(s, "\n{}", note_text(n));
            }
            s
        }
    };
    emit(&out)
}

/// IMP deducted by penalties, as the standings print it ("−5"; empty when none).
fn penalty_text(imp: i64) -> String {
    if imp == 0 {
        String::new()
    } else {
        format!("−{imp}")
    }
}

/// A recorded dead hand or Hu ban, in a sentence.
fn note_text(n: &tournament::standings::Penalty) -> String {
    format!(
        "note: player {}: {} on deal {}: {}",
        n.player,
        n.kind,
        n.deal.as_deref().unwrap_or("-"),
        n.reason
    )
}

/// The per-deal tables in the layout of S3 Appendix 3: players compared with each
/// other (the same seat of the same deals) side by side, a row per deal with ms, DIF and
/// IMP for each and the average, and a row of sums.
fn comparison_tables(st: &tournament::standings::Standings) -> String {
    use std::collections::BTreeMap;
    let mut groups: BTreeMap<Vec<u32>, Vec<&tournament::standings::DealSeat>> = BTreeMap::new();
    for d in &st.deal_seats {
        let mut players: Vec<u32> = d.entries.iter().map(|e| e.player).collect();
        players.sort();
        groups.entry(players).or_default().push(d);
    }
    let mut s = String::new();
    for (players, seats) in groups {
        let _ = write!(s, "\n{:<12}", "deal (seat)");
        for p in &players {
            let _ = write!(s, " | player {:<14}", p);
        }
        let _ = writeln!(s, " | average");
        let _ = write!(s, "{:<12}", "");
        for _ in &players {
            let _ = write!(s, " | {:>5} {:>8} {:>4}  ", "ms", "DIF", "IMP");
        }
        let _ = writeln!(s, " |");
        let mut sums = vec![(0i64, 0i64); players.len()];
        for d in &seats {
            let _ = write!(s, "{:<12}", format!("{} ({})", d.deal, d.wind));
            for (i, p) in players.iter().enumerate() {
                let e = d
                    .entries
                    .iter()
                    .find(|e| e.player == *p)
                    .expect("player of the group");
                sums[i].0 += e.ms as i64;
                sums[i].1 += e.imp as i64;
                let _ = write!(s, " | {:>5} {:>8} {:>4}  ", e.ms, e.dif.to_string(), e.imp);
            }
            let _ = writeln!(
                s,
                " | {}",
                tournament::imp::Dif {
                    num: d.sum,
                    den: d.n
                }
            );
        }
        let _ = write!(s, "{:<12}", "sum");
        for (ms, imp) in &sums {
            let _ = write!(s, " | {:>5} {:>8} {:>4}  ", ms, "", imp);
        }
        let _ = writeln!(s, " |");
    }
    s
}
