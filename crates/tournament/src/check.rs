//! A movement checker written apart from the generators: it reads only the seating lists.

use std::collections::{BTreeMap, BTreeSet};

use mcr::Wind;
use serde::Serialize;

use crate::movement::Movement;

/// The quality of a movement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Quality {
    /// Players in the movement.
    pub players: u32,
    /// Its rounds.
    pub rounds: u32,
    /// Pairs of players by the number of rounds in which they shared a table.
    pub table_meetings: BTreeMap<u32, u32>,
    /// Pairs of players by the number of deal-seats both played (and so were compared on).
    pub seat_meetings: BTreeMap<u32, u32>,
    /// How many players played each deal-seat: smallest and largest.
    pub players_per_deal_seat: (u32, u32),
    /// Player-hands missed (a player not seated in a hand) and seated twice.
    pub sit_outs: u32,
    /// Player-hands where a player is seated twice.
    pub repeats: u32,
    /// Everything wrong, in words.
    pub problems: Vec<String>,
}

/// Measures a movement from its seatings alone, without trusting the generator.
pub fn check(m: &Movement) -> Quality {
    let n = m.players;
    let mut problems = Vec::new();
    let (mut sit_outs, mut repeats) = (0, 0);
    let mut table_pairs: BTreeMap<(u32, u32), BTreeSet<u32>> = BTreeMap::new();
    let mut seat_players: BTreeMap<(String, Wind), Vec<u32>> = BTreeMap::new();
    for r in &m.rounds {
        for h in &r.hands {
            let mut seen: BTreeMap<u32, u32> = BTreeMap::new();
            let mut tables = BTreeSet::new();
            for t in &h.tables {
                let at = format!("round {} hand {} table {}", r.round, h.hand, t.table);
                if !tables.insert(t.table) {
                    problems.push(format!("{at}: table listed twice"));
                }
                if t.seats.len() != 4 {
                    problems.push(format!("{at}: {} players", t.seats.len()));
                }
                let winds: BTreeSet<Wind> = t.seats.iter().map(|s| s.wind).collect();
                let dirs: BTreeSet<Wind> = t.seats.iter().map(|s| s.direction).collect();
                if winds.len() != t.seats.len() || dirs.len() != t.seats.len() {
                    problems.push(format!("{at}: a wind or direction is taken twice"));
                }
                for s in &t.seats {
                    *seen.entry(s.player).or_default() += 1;
                    seat_players
                        .entry((t.deal.clone(), s.wind))
                        .or_default()
                        .push(s.player);
                    for o in &t.seats {
                        if s.player < o.player {
                            table_pairs
                                .entry((s.player, o.player))
                                .or_default()
                                .insert(r.round);
                        }
                    }
                }
            }
            for p in 1..=n {
                match seen.get(&p).copied().unwrap_or(0) {
                    0 => sit_outs += 1,
                    1 => {}
                    k => {
                        repeats += k - 1;
                        problems.push(format!(
                            "round {} hand {}: player {p} seated {k} times",
                            r.round, h.hand
                        ));
                    }
                }
            }
            if let Some(p) = seen.keys().find(|&&p| p < 1 || p > n) {
                problems.push(format!(
                    "round {} hand {}: player {p} is not in the event",
                    r.round, h.hand
                ));
            }
        }
    }
    if sit_outs > 0 {
        problems.push(format!("{sit_outs} player-hands without a seat"));
    }
    let mut seat_pairs: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for list in seat_players.values() {
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                *seat_pairs.entry((*a.min(b), *a.max(b))).or_default() += 1;
            }
        }
    }
    let counts: Vec<u32> = seat_players.values().map(|v| v.len() as u32).collect();
    let per_seat = (
        counts.iter().copied().min().unwrap_or(0),
        counts.iter().copied().max().unwrap_or(0),
    );
    if per_seat.0 != per_seat.1 {
        problems.push(format!(
            "deal-seats played from {} to {} times",
            per_seat.0, per_seat.1
        ));
    }
    let mut table_meetings = BTreeMap::new();
    let mut seat_meetings = BTreeMap::new();
    for a in 1..=n {
        for b in a + 1..=n {
            *table_meetings
                .entry(table_pairs.get(&(a, b)).map_or(0, |s| s.len() as u32))
                .or_insert(0) += 1;
            *seat_meetings
                .entry(seat_pairs.get(&(a, b)).copied().unwrap_or(0))
                .or_insert(0) += 1;
        }
    }
    Quality {
        players: n,
        rounds: m.rounds.len() as u32,
        table_meetings,
        seat_meetings,
        players_per_deal_seat: per_seat,
        sit_outs,
        repeats,
        problems,
    }
}
