//! Events in SQLite.

use rusqlite::{params, Connection, OptionalExtension, Transaction};

use super::{audit, backend, exists, json, movement_of, parse, SqliteStore, NOW};
use crate::{
    Entrant, Event, EventId, EventStore, NewEvent, Result, StandIn, StoreError, Withdrawal,
};

/// Refuses a player number the event does not have.
fn check_player(tx: &Transaction, id: EventId, player: u32) -> Result<()> {
    exists(tx, id)?;
    let n: i64 = tx
        .query_row(
            "SELECT count(*) FROM players WHERE event = ?1 AND slot = ?2",
            params![id, player],
            |r| r.get(0),
        )
        .map_err(backend)?;
    if n == 0 {
        return Err(StoreError::NotFound(format!(
            "player {player} of event {id}"
        )));
    }
    Ok(())
}

fn attendance(c: &Connection, id: EventId) -> Result<std::collections::BTreeSet<u32>> {
    let mut st = c
        .prepare("SELECT player FROM checkins WHERE event = ?1")
        .map_err(backend)?;
    let rows = st.query_map([id], |r| r.get(0)).map_err(backend)?;
    rows.collect::<rusqlite::Result<_>>().map_err(backend)
}

fn withdrawals(c: &Connection, id: EventId) -> Result<Vec<Withdrawal>> {
    let mut st = c
        .prepare(
            "SELECT player, from_round, stand_in FROM withdrawals WHERE event = ?1 ORDER BY player",
        )
        .map_err(backend)?;
    let rows = st
        .query_map([id], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .map_err(backend)?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(backend)?;
    rows.into_iter()
        .map(|(player, from_round, s)| {
            Ok(Withdrawal {
                player,
                from_round,
                stand_in: parse(&s, "stand-in")?,
            })
        })
        .collect()
}

impl EventStore for SqliteStore {
    fn create_event(&self, e: &NewEvent, who: &str) -> Result<EventId> {
        if e.name.trim().is_empty() {
            return Err(StoreError::Invalid("the event needs a name".into()));
        }
        if e.players.len() != e.movement.players as usize {
            return Err(StoreError::Invalid(format!(
                "{} players entered for a movement of {}",
                e.players.len(),
                e.movement.players
            )));
        }
        self.change(|tx| {
            tx.execute(
                &format!("INSERT INTO events (name, team, deal_seed, deal_key, movement, created) VALUES (?1, ?2, ?3, ?4, ?5, {NOW})"),
                params![e.name, e.team, e.deal_seed as i64, e.deal_key, json(&e.movement)],
            )
            .map_err(backend)?;
            let id = tx.last_insert_rowid();
            for (i, p) in e.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO players (event, slot, name, team) VALUES (?1, ?2, ?3, ?4)",
                    params![id, i as i64 + 1, p.name, p.team],
                )
                .map_err(backend)?;
            }
            for (i, c) in e.table_codes.iter().enumerate() {
                tx.execute(
                    "INSERT INTO table_codes (event, table_no, code) VALUES (?1, ?2, ?3)",
                    params![id, i as i64 + 1, c],
                )
                .map_err(backend)?;
            }
            audit(tx, Some(id), who, "event created", None, Some(&json(&e.players)))?;
            Ok(id)
        })
    }

    fn events(&self) -> Result<Vec<(EventId, String)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, name FROM events ORDER BY id DESC")
            .map_err(backend)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn event(&self, id: EventId) -> Result<Event> {
        let c = self.lock();
        let row = c
            .query_row(
                "SELECT name, team, deal_seed, movement, hide_standings, deal_key, deals_released FROM events WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, bool>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, bool>(4)?,
                        r.get::<_, Option<String>>(5)?,
                        r.get::<_, bool>(6)?,
                    ))
                },
            )
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("event {id}")))?;
        let mut st = c
            .prepare("SELECT name, team FROM players WHERE event = ?1 ORDER BY slot")
            .map_err(backend)?;
        let players = st
            .query_map([id], |r| {
                Ok(Entrant {
                    name: r.get(0)?,
                    team: r.get(1)?,
                })
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        let mut st = c
            .prepare("SELECT code FROM table_codes WHERE event = ?1 ORDER BY table_no")
            .map_err(backend)?;
        let table_codes = st
            .query_map([id], |r| r.get(0))
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<String>>>()
            .map_err(backend)?;
        Ok(Event {
            id,
            name: row.0,
            team: row.1,
            deal_seed: row.2 as u64,
            deal_key: row.5,
            deals_released: row.6,
            movement: parse(&row.3, "movement")?,
            table_codes,
            players,
            hide_standings: row.4,
            checked_in: attendance(&c, id)?,
            withdrawals: withdrawals(&c, id)?,
            clock: c
                .query_row(
                    "SELECT round, ends_at FROM clocks WHERE event = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(backend)?,
        })
    }

    fn set_player(&self, id: EventId, player: u32, now: &Entrant, who: &str) -> Result<()> {
        if now.name.trim().is_empty() {
            return Err(StoreError::Invalid(format!(
                "player {player}: the name is empty"
            )));
        }
        self.change(|tx| {
            let before: Option<(String, Option<String>)> = tx
                .query_row(
                    "SELECT name, team FROM players WHERE event = ?1 AND slot = ?2",
                    params![id, player],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(backend)?;
            let Some(before) = before else {
                return Err(StoreError::NotFound(format!(
                    "player {player} of event {id}"
                )));
            };
            tx.execute(
                "UPDATE players SET name = ?3, team = ?4 WHERE event = ?1 AND slot = ?2",
                params![id, player, now.name, now.team],
            )
            .map_err(backend)?;
            let before = Entrant {
                name: before.0,
                team: before.1,
            };
            audit(
                tx,
                Some(id),
                who,
                &format!("player {player} replaced"),
                Some(&json(&before)),
                Some(&json(now)),
            )
        })
    }

    fn swap_players(&self, id: EventId, a: u32, b: u32, from_round: u32, who: &str) -> Result<()> {
        self.change(|tx| {
            let mut m = movement_of(tx, id)?;
            for p in [a, b] {
                if p == 0 || p > m.players {
                    return Err(StoreError::Invalid(format!(
                        "player {p}: the event has players 1 to {}",
                        m.players
                    )));
                }
            }
            if a == b {
                return Err(StoreError::Invalid(format!(
                    "player {a} cannot swap with themself"
                )));
            }
            let before = json(&m);
            let mut changed = 0;
            for r in m.rounds.iter_mut().filter(|r| r.round >= from_round) {
                for s in r
                    .hands
                    .iter_mut()
                    .flat_map(|h| &mut h.tables)
                    .flat_map(|t| &mut t.seats)
                {
                    if s.player == a {
                        s.player = b;
                        changed += 1;
                    } else if s.player == b {
                        s.player = a;
                        changed += 1;
                    }
                }
            }
            if changed == 0 {
                return Err(StoreError::Invalid(format!(
                    "round {from_round}: the movement has no such round"
                )));
            }
            let after = json(&m);
            tx.execute(
                "UPDATE events SET movement = ?2 WHERE id = ?1",
                params![id, after],
            )
            .map_err(backend)?;
            audit(
                tx,
                Some(id),
                who,
                &format!("players {a} and {b} swapped from round {from_round}"),
                Some(&before),
                Some(&after),
            )
        })
    }

    fn set_hide_standings(&self, id: EventId, hide: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            tx.execute(
                "UPDATE events SET hide_standings = ?2 WHERE id = ?1",
                params![id, hide],
            )
            .map_err(backend)?;
            let what = if hide {
                "standings hidden"
            } else {
                "standings shown"
            };
            audit(tx, Some(id), who, what, None, None)
        })
    }

    fn round_states(&self, id: EventId) -> Result<Vec<(u32, bool)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT round, open FROM round_states WHERE event = ?1 ORDER BY round")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn set_round(&self, id: EventId, round: u32, open: bool, who: &str) -> Result<()> {
        let rounds = self.event(id)?.movement.rounds.len() as u32;
        if round == 0 || round > rounds {
            return Err(StoreError::Invalid(format!(
                "round: 1 to {rounds}, not {round}"
            )));
        }
        self.change(|tx| {
            tx.execute(
                "INSERT INTO round_states (event, round, open) VALUES (?1, ?2, ?3) \
                 ON CONFLICT(event, round) DO UPDATE SET open = ?3",
                params![id, round, open],
            )
            .map_err(backend)?;
            if !open {
                tx.execute(
                    "DELETE FROM sessions WHERE role = 'table' AND event = ?1",
                    [id],
                )
                .map_err(backend)?;
            }
            let what = format!("round {round} {}", if open { "opened" } else { "closed" });
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn set_table_codes(&self, id: EventId, codes: &[String], who: &str) -> Result<()> {
        let tables = self.event(id)?.table_codes.len();
        if codes.len() != tables {
            return Err(StoreError::Invalid(format!(
                "{} codes for {tables} tables",
                codes.len()
            )));
        }
        self.change(|tx| {
            for (i, c) in codes.iter().enumerate() {
                tx.execute(
                    "UPDATE table_codes SET code = ?3 WHERE event = ?1 AND table_no = ?2",
                    params![id, i as u32 + 1, c],
                )
                .map_err(backend)?;
            }
            tx.execute(
                "DELETE FROM sessions WHERE role = 'table' AND event = ?1",
                [id],
            )
            .map_err(backend)?;
            audit(tx, Some(id), who, "new table codes", None, None)
        })
    }

    fn set_checked_in(&self, id: EventId, player: u32, present: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            check_player(tx, id, player)?;
            if present {
                tx.execute(
                    &format!(
                        "INSERT OR IGNORE INTO checkins (event, player, at) VALUES (?1, ?2, {NOW})"
                    ),
                    params![id, player],
                )
            } else {
                tx.execute(
                    "DELETE FROM checkins WHERE event = ?1 AND player = ?2",
                    params![id, player],
                )
            }
            .map_err(backend)?;
            let what = format!(
                "player {player} {}",
                if present {
                    "checked in"
                } else {
                    "check-in taken back"
                }
            );
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn withdraw(&self, id: EventId, w: &Withdrawal, who: &str) -> Result<()> {
        if let StandIn::Substitute(n) = &w.stand_in {
            if n.trim().is_empty() {
                return Err(StoreError::Invalid(format!(
                    "player {}: the substitute's name is empty",
                    w.player
                )));
            }
        }
        self.change(|tx| {
            check_player(tx, id, w.player)?;
            let rounds = movement_of(tx, id)?.rounds.len() as u32;
            if w.from_round == 0 || w.from_round > rounds {
                return Err(StoreError::Invalid(format!(
                    "from round: 1 to {rounds}, not {}",
                    w.from_round
                )));
            }
            let stand_in = json(&w.stand_in);
            let n = tx
                .execute(
                    "INSERT OR IGNORE INTO withdrawals (event, player, from_round, stand_in) VALUES (?1, ?2, ?3, ?4)",
                    params![id, w.player, w.from_round, stand_in],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::Invalid(format!(
                    "player {} has already withdrawn",
                    w.player
                )));
            }
            let what = format!("player {} withdrew from round {}", w.player, w.from_round);
            audit(tx, Some(id), who, &what, None, Some(&stand_in))
        })
    }

    fn cancel_withdrawal(&self, id: EventId, player: u32, who: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "DELETE FROM withdrawals WHERE event = ?1 AND player = ?2",
                    params![id, player],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!(
                    "a withdrawal of player {player} in event {id}"
                )));
            }
            let what = format!("withdrawal of player {player} taken back");
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn set_clock(&self, id: EventId, clock: Option<(u32, i64)>, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            let what = match clock {
                Some((round, ends_at)) => {
                    let rounds = movement_of(tx, id)?.rounds.len() as u32;
                    if round == 0 || round > rounds {
                        return Err(StoreError::Invalid(format!(
                            "round: 1 to {rounds}, not {round}"
                        )));
                    }
                    tx.execute(
                        "INSERT INTO clocks (event, round, ends_at) VALUES (?1, ?2, ?3) \
                         ON CONFLICT(event) DO UPDATE SET round = ?2, ends_at = ?3",
                        params![id, round, ends_at],
                    )
                    .map_err(backend)?;
                    format!("round {round} clock set to end at {ends_at}")
                }
                None => {
                    tx.execute("DELETE FROM clocks WHERE event = ?1", [id])
                        .map_err(backend)?;
                    "round clock stopped".to_string()
                }
            };
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn release_deals(&self, id: EventId, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            let n = tx
                .execute(
                    "UPDATE events SET deals_released = 1 WHERE id = ?1 AND deals_released = 0",
                    [id],
                )
                .map_err(backend)?;
            if n == 1 {
                audit(tx, Some(id), who, "deals released for practice", None, None)?;
            }
            Ok(())
        })
    }
}
