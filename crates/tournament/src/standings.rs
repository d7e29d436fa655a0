//! Individual and team standings from entered results (rules §5).
//!
//! # Results file (JSON)
//!
//! ```json
//! {
//!   "players": [{"id": 1, "name": "Ann"}, ...],
//!   "teams": [{"name": "Reds", "players": [1, 2, 3, 4]}, ...],
//!   "false_hu_points": 10,
//!   "deals": [
//!     {"deal": "1-1", "tables": [
//!       {"table": 1, "seats": {"E": {"player": 1, "ms": -8}, "S": {"player": 2, "ms": 32},
//!                              "W": {"player": 3, "ms": -16}, "N": {"player": 4, "ms": -8}}}
//!     ]}
//!   ],
//!   "penalties": [
//!     {"player": 3, "kind": "imp", "imp": 1, "deal": "1-2", "reason": "short tile noticed late"},
//!     {"player": 5, "kind": "false_hu", "deal": "1-1", "reason": "declared Hu on 7 points"},
//!     {"player": 7, "kind": "dead_hand", "deal": "1-3", "reason": "..."},
//!     {"player": 7, "kind": "barred_from_hu", "deal": "1-3", "reason": "drew from another wall"}
//!   ]
//! }
//! ```
//!
//! Each table's four `ms` are the hand's match points before penalties and must be a
//! possible hand result (rules §4). A false Hu costs the offender `false_hu_points` (default
//! 10) paid to each other player at that table; an `imp` penalty is subtracted from the
//! total; dead hands and Hu bans are recorded and listed (the hand result already shows
//! their effect).

use std::collections::{BTreeMap, BTreeSet};

use mcr::Wind;
use serde::{Deserialize, Serialize};

use crate::imp::Dif;

/// An entrant of the results file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a player: {\"id\": 1, \"name\": \"…\"}")]
pub struct Player {
    /// The player's number.
    pub id: u32,
    /// The player's name (may be empty).
    #[serde(default)]
    pub name: String,
    /// A substitute (or bot) who took over the seat of this player after they withdrew:
    /// their results count for the field and their team, but they are not ranked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stands_in_for: Option<u32>,
}

/// A team of four in a team event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a team: {\"name\": \"…\", \"players\": [player ids]}")]
pub struct Team {
    /// The team's name.
    pub name: String,
    /// Its players' numbers.
    pub players: Vec<u32>,
}

/// One seat's result at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a seat's result: {\"player\": 1, \"ms\": -8}")]
pub struct Seat {
    /// Who sat there.
    pub player: u32,
    /// Their match points, before penalties.
    pub ms: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    expecting = "a table's result: {\"table\": 1, \"seats\": {\"E\": …, \"S\": …, \"W\": …, \"N\": …}}"
)]
/// One table's result on a deal.
pub struct TableResult {
    /// The table.
    pub table: u32,
    /// Each seat's result.
    pub seats: BTreeMap<Wind, Seat>,
}

impl TableResult {
    /// A table's result from its players and match points by seat (E, S, W, N).
    pub fn new(table: u32, players: [u32; 4], ms: [i32; 4]) -> TableResult {
        let seats = Wind::ALL
            .iter()
            .map(|w| {
                (
                    *w,
                    Seat {
                        player: players[w.index()],
                        ms: ms[w.index()],
                    },
                )
            })
            .collect();
        TableResult { table, seats }
    }
}

/// Every table's result on one deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(expecting = "a deal's results: {\"deal\": \"1-1\", \"tables\": […]}")]
pub struct DealResult {
    /// The deal's label.
    pub deal: String,
    /// The tables that played it.
    pub tables: Vec<TableResult>,
}

/// What a penalty does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyKind {
    /// IMP deducted from the total (S3 §20).
    Imp,
    /// A false Hu: the offender pays each other player at the table.
    FalseHu,
    /// The player played on with a dead hand (§20).
    DeadHand,
    /// The player was barred from Hu for drawing from another wall (§21).
    BarredFromHu,
}

impl std::fmt::Display for PenaltyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PenaltyKind::Imp => "IMP penalty",
            PenaltyKind::FalseHu => "false Hu",
            PenaltyKind::DeadHand => "dead hand",
            PenaltyKind::BarredFromHu => "barred from Hu",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    expecting = "a penalty: {\"player\": 1, \"kind\": \"imp\", \"imp\": 2, \"deal\": \"1-1\", \"reason\": \"…\"}"
)]
/// A penalty recorded by a referee.
pub struct Penalty {
    /// Who is penalised.
    pub player: u32,
    /// What the penalty does.
    pub kind: PenaltyKind,
    /// The deal it concerns (needed for a false Hu).
    #[serde(default)]
    pub deal: Option<String>,
    /// IMP deducted (an `imp` penalty), a positive number.
    #[serde(default)]
    pub imp: i32,
    /// Why, in words.
    #[serde(default)]
    pub reason: String,
}

fn default_false_hu() -> i32 {
    10
}

/// Everything entered for an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    expecting = "a results file: an object with \"players\", \"deals\" and optionally \"teams\", \"penalties\", \"false_hu_points\""
)]
pub struct Results {
    /// Every entrant.
    pub players: Vec<Player>,
    /// Teams of four (team events only).
    #[serde(default)]
    pub teams: Vec<Team>,
    /// What a false Hu pays each other player (10 unless set).
    #[serde(default = "default_false_hu")]
    pub false_hu_points: i32,
    /// Every deal's results.
    pub deals: Vec<DealResult>,
    /// Penalties.
    #[serde(default)]
    pub penalties: Vec<Penalty>,
}

/// A results file that cannot be scored: says which deal, table and seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsError(pub String);

impl std::fmt::Display for ResultsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ResultsError {}

/// Can these four match points be one duplicate hand's result (rules §4)?
pub fn possible_result(p: [i32; 4]) -> bool {
    if p == [0; 4] {
        return true;
    }
    // Self-drawn: winner HV + 24, each other −(⌈HV/3⌉ + 8), HV ≥ 8.
    for w in 0..4 {
        let hv = p[w] - 24;
        if hv >= 8
            && (0..4)
                .filter(|&o| o != w)
                .all(|o| p[o] == -((hv + 2) / 3 + 8))
        {
            return true;
        }
    }
    // On a discard: winners W, discarder d.
    for d in 0..4 {
        for mask in 1u8..16 {
            if mask & (1 << d) != 0 {
                continue;
            }
            let k = mask.count_ones() as i32;
            let mut ok = true;
            let mut paid = 0;
            for (o, &po) in p.iter().enumerate() {
                if mask & (1 << o) != 0 {
                    let hv = po - 24 + 8 * (k - 1);
                    ok &= hv >= 8;
                    paid += hv + 8;
                } else if o != d {
                    ok &= po == -8 * k;
                }
            }
            if ok && p[d] == -paid {
                return true;
            }
        }
    }
    false
}

/// One player's result on one deal-seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The player.
    pub player: u32,
    /// The table where they played it.
    pub table: u32,
    /// Match points, false-Hu penalties included.
    pub ms: i32,
    /// Match points minus the average.
    pub dif: Dif,
    /// The IMP of that difference.
    pub imp: i32,
}

/// All results of one seat of one deal, compared with their average.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSeat {
    /// The deal.
    pub deal: String,
    /// The seat.
    pub wind: Wind,
    /// The average as `sum / n`.
    pub sum: i64,
    /// How many results.
    pub n: i64,
    /// Each result.
    pub entries: Vec<Entry>,
}

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The player (or team index in team standings).
    pub player: u32,
    /// The name.
    pub name: String,
    /// Hands (or deals) played.
    pub hands: u32,
    /// Total match points.
    pub ms: i64,
    /// Total IMP, penalties deducted.
    pub imp: i64,
    /// IMP deducted by penalties.
    pub penalty_imp: i64,
    /// Rank, shared by players equal in IMP and match points; 0 for a stand-in, who is
    /// listed after everyone ranked.
    pub rank: u32,
    /// For a stand-in: whose seat they took.
    pub stands_in_for: Option<u32>,
}

/// Individual standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// One line per player, best first.
    pub lines: Vec<Line>,
    /// Every deal-seat with its results, for the per-deal tables.
    pub deal_seats: Vec<DealSeat>,
    /// Dead hands and Hu bans, as recorded.
    pub notes: Vec<Penalty>,
}

impl Results {
    /// Checks the file: known players, each deal-seat once per table, each player once per
    /// deal, possible hand results.
    pub fn check(&self) -> Result<(), ResultsError> {
        let known: BTreeSet<u32> = self.players.iter().map(|p| p.id).collect();
        if known.len() != self.players.len() {
            return Err(ResultsError("players: an id is listed twice".into()));
        }
        if self.false_hu_points <= 0 {
            return Err(ResultsError(format!(
                "false_hu_points: {}: what a false Hu pays each other player must be more than 0",
                self.false_hu_points
            )));
        }
        let mut deals_seen = BTreeSet::new();
        for (i, d) in self.deals.iter().enumerate() {
            if d.deal.trim().is_empty() {
                return Err(ResultsError(format!("deals[{i}]: the deal has no name")));
            }
            if !deals_seen.insert(&d.deal) {
                return Err(ResultsError(format!("deal {}: listed twice", d.deal)));
            }
            let mut tables = BTreeSet::new();
            let mut players = BTreeMap::new();
            for t in &d.tables {
                let at = format!("deal {}, table {}", d.deal, t.table);
                if !tables.insert(t.table) {
                    return Err(ResultsError(format!("{at}: entered twice")));
                }
                if t.seats.len() != 4 {
                    let missing: Vec<String> = Wind::ALL
                        .iter()
                        .filter(|w| !t.seats.contains_key(w))
                        .map(|w| w.to_string())
                        .collect();
                    return Err(ResultsError(format!(
                        "{at}: no result for seat {}",
                        missing.join(", ")
                    )));
                }
                for (w, s) in &t.seats {
                    if !known.contains(&s.player) {
                        return Err(ResultsError(format!(
                            "{at}, seat {w}: unknown player {}",
                            s.player
                        )));
                    }
                    if let Some((t0, w0)) = players.insert(s.player, (t.table, *w)) {
                        return Err(ResultsError(format!(
                            "{at}, seat {w}: player {} already played this deal at table {t0}, seat {w0}",
                            s.player
                        )));
                    }
                }
                let p: [i32; 4] = std::array::from_fn(|i| t.seats[&Wind::from_index(i)].ms);
                if !possible_result(p) {
                    return Err(ResultsError(format!(
                        "{at}: match points E {} S {} W {} N {} are not a possible hand result",
                        p[0], p[1], p[2], p[3]
                    )));
                }
            }
        }
        for (i, pen) in self.penalties.iter().enumerate() {
            if !known.contains(&pen.player) {
                return Err(ResultsError(format!(
                    "penalties[{i}]: unknown player {}",
                    pen.player
                )));
            }
            if let Some(deal) = &pen.deal {
                if !deals_seen.contains(deal) {
                    return Err(ResultsError(format!("penalties[{i}]: unknown deal {deal}")));
                }
            }
            if pen.kind == PenaltyKind::Imp && pen.imp < 0 {
                return Err(ResultsError(format!(
                    "penalties[{i}]: imp {}: write the IMP deducted as a positive number (5 deducts 5)",
                    pen.imp
                )));
            }
            if pen.kind == PenaltyKind::FalseHu && pen.deal.is_none() {
                return Err(ResultsError(format!(
                    "penalties[{i}]: a false Hu needs its deal"
                )));
            }
        }
        for (i, team) in self.teams.iter().enumerate() {
            if team.players.len() != 4 {
                return Err(ResultsError(format!(
                    "teams[{i}] {}: {} players, a team has 4",
                    team.name,
                    team.players.len()
                )));
            }
            if let Some(p) = team.players.iter().find(|p| !known.contains(p)) {
                return Err(ResultsError(format!(
                    "teams[{i}] {}: unknown player {p}",
                    team.name
                )));
            }
        }
        Ok(())
    }

    /// Match points of every seat of every table with false-Hu penalties applied.
    fn adjusted(&self) -> Vec<(String, u32, Wind, u32, i32)> {
        let mut out = Vec::new();
        for d in &self.deals {
            for t in &d.tables {
                for (w, s) in &t.seats {
                    let mut ms = s.ms;
                    for pen in self.penalties.iter().filter(|p| {
                        p.kind == PenaltyKind::FalseHu && p.deal.as_deref() == Some(&d.deal)
                    }) {
                        let at_table = t.seats.values().any(|x| x.player == pen.player);
                        if !at_table {
                            continue;
                        }
                        ms += if pen.player == s.player {
                            -3 * self.false_hu_points
                        } else {
                            self.false_hu_points
                        };
                    }
                    out.push((d.deal.clone(), t.table, *w, s.player, ms));
                }
            }
        }
        out
    }

    /// Individual standings.
    pub fn individual(&self) -> Result<Standings, ResultsError> {
        self.check()?;
        let rows = self.adjusted();
        // (deal index, wind) → (player, table, ms)
        type Group = Vec<(u32, u32, i32)>;
        let mut groups: BTreeMap<(usize, Wind), Group> = BTreeMap::new();
        let order: BTreeMap<&str, usize> = self
            .deals
            .iter()
            .enumerate()
            .map(|(i, d)| (d.deal.as_str(), i))
            .collect();
        for (deal, table, wind, player, ms) in &rows {
            groups
                .entry((order[deal.as_str()], *wind))
                .or_default()
                .push((*player, *table, *ms));
        }
        let mut totals: BTreeMap<u32, (u32, i64, i64)> =
            self.players.iter().map(|p| (p.id, (0, 0, 0))).collect();
        let mut deal_seats = Vec::new();
        for ((di, wind), list) in groups {
            let n = list.len() as i64;
            let sum: i64 = list.iter().map(|e| e.2 as i64).sum();
            let entries: Vec<Entry> = list
                .iter()
                .map(|&(player, table, ms)| {
                    let dif = Dif::from_average(ms as i64, sum, n);
                    Entry {
                        player,
                        table,
                        ms,
                        dif,
                        imp: dif.imp(),
                    }
                })
                .collect();
            for e in &entries {
                let t = totals.get_mut(&e.player).expect("checked player");
                t.0 += 1;
                t.1 += e.ms as i64;
                t.2 += e.imp as i64;
            }
            deal_seats.push(DealSeat {
                deal: self.deals[di].deal.clone(),
                wind,
                sum,
                n,
                entries,
            });
        }
        let mut lines: Vec<Line> = self
            .players
            .iter()
            .map(|p| {
                let (hands, ms, imp) = totals[&p.id];
                let penalty_imp: i64 = self
                    .penalties
                    .iter()
                    .filter(|x| x.player == p.id && x.kind == PenaltyKind::Imp)
                    .map(|x| x.imp as i64)
                    .sum();
                Line {
                    player: p.id,
                    name: p.name.clone(),
                    hands,
                    ms,
                    imp: imp - penalty_imp,
                    penalty_imp,
                    rank: 0,
                    stands_in_for: p.stands_in_for,
                }
            })
            .collect();
        rank(&mut lines);
        let notes = self
            .penalties
            .iter()
            .filter(|p| matches!(p.kind, PenaltyKind::DeadHand | PenaltyKind::BarredFromHu))
            .cloned()
            .collect();
        Ok(Standings {
            lines,
            deal_seats,
            notes,
        })
    }

    /// Team standings: per deal, each team's four results summed and compared with the
    /// average team sum (rules §5).
    pub fn team(&self) -> Result<TeamStandings, ResultsError> {
        self.check()?;
        if self.teams.is_empty() {
            return Err(ResultsError("no teams in the results file".into()));
        }
        let team_of: BTreeMap<u32, usize> = self
            .teams
            .iter()
            .enumerate()
            .flat_map(|(i, t)| t.players.iter().map(move |&p| (p, i)))
            .collect();
        let rows = self.adjusted();
        let mut deals = Vec::new();
        let mut totals = vec![(0i64, 0i64); self.teams.len()];
        for d in &self.deals {
            let mut sums = vec![0i64; self.teams.len()];
            let mut winds: Vec<BTreeSet<Wind>> = vec![BTreeSet::new(); self.teams.len()];
            for (deal, table, wind, player, ms) in rows.iter().filter(|r| r.0 == d.deal) {
                let Some(&t) = team_of.get(player) else {
                    return Err(ResultsError(format!(
                        "deal {deal}, table {table}, seat {wind}: player {player} is in no team"
                    )));
                };
                sums[t] += *ms as i64;
                if !winds[t].insert(*wind) {
                    return Err(ResultsError(format!(
                        "deal {deal}, table {table}, seat {wind}: team {} already has a result for {wind}",
                        self.teams[t].name
                    )));
                }
            }
            let present: Vec<usize> = (0..self.teams.len())
                .filter(|&t| !winds[t].is_empty())
                .collect();
            if let Some(&t) = present.iter().find(|&&t| winds[t].len() != 4) {
                return Err(ResultsError(format!(
                    "deal {}: team {} played {} of the four winds",
                    d.deal,
                    self.teams[t].name,
                    winds[t].len()
                )));
            }
            let n = present.len() as i64;
            let sum: i64 = present.iter().map(|&t| sums[t]).sum();
            let mut rows = Vec::new();
            for &t in &present {
                let dif = Dif::from_average(sums[t], sum, n);
                totals[t].0 += sums[t];
                totals[t].1 += dif.imp() as i64;
                rows.push((t, sums[t], dif, dif.imp()));
            }
            deals.push((d.deal.clone(), rows));
        }
        let mut lines: Vec<Line> = self
            .teams
            .iter()
            .enumerate()
            .map(|(i, t)| Line {
                player: i as u32,
                name: t.name.clone(),
                hands: deals
                    .iter()
                    .filter(|d| d.1.iter().any(|r| r.0 == i))
                    .count() as u32,
                ms: totals[i].0,
                imp: totals[i].1,
                penalty_imp: 0,
                rank: 0,
                stands_in_for: None,
            })
            .collect();
        rank(&mut lines);
        Ok(TeamStandings { lines, deals })
    }
}

/// One team's result on one deal: `(team index, team sum, DIF, IMP)`.
pub type TeamRow = (usize, i64, Dif, i32);

/// Team totals and per-deal rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamStandings {
    /// One line per team, best first.
    pub lines: Vec<Line>,
    /// Each deal with every team's row.
    pub deals: Vec<(String, Vec<TeamRow>)>,
}

/// Sorts by IMP, then match points; equal on both share a rank (S3 §19). Stand-ins come
/// last, unranked (rank 0).
fn rank(lines: &mut [Line]) {
    lines.sort_by(|a, b| {
        a.stands_in_for
            .is_some()
            .cmp(&b.stands_in_for.is_some())
            .then((b.imp, b.ms).cmp(&(a.imp, a.ms)))
            .then(a.player.cmp(&b.player))
    });
    let ranked = lines.iter().filter(|l| l.stands_in_for.is_none()).count();
    let ranks = crate::rank::shared(&lines[..ranked], |l| (l.imp, l.ms));
    for (l, r) in lines.iter_mut().zip(ranks) {
        l.rank = r as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possible_results() {
        assert!(possible_result([0, 0, 0, 0]));
        assert!(possible_result([-11, 33, -11, -11])); // HV 9 self-drawn
        assert!(possible_result([-46, 36, 26, -16])); // S0 Rule 2
        assert!(possible_result([-16, 32, -8, -8]));
        assert!(!possible_result([-16, 32, -8, -7]));
        assert!(!possible_result([-15, 31, -8, -8])); // HV 7: under the minimum
        assert!(!possible_result([1, 0, 0, 0]));
    }
}
