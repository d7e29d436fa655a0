//! Events: players, movement, table codes, rounds and the day at the venue.

use super::{args, audit, exists, json, movement_of, now, parse, Backend, Db, Sql, SqlExt};
use crate::{
    Entrant, Event, EventId, EventStore, NewEvent, Result, StandIn, StoreError, Withdrawal,
};

/// Refuses a player number the event does not have.
fn check_player(tx: &mut dyn Sql, id: EventId, player: u32) -> Result<()> {
    exists(tx, id)?;
    let n: i64 = tx
        .one(
            "SELECT count(*) FROM players WHERE event = ?1 AND slot = ?2",
            args![id, player],
        )?
        .get(0)?;
    if n == 0 {
        return Err(StoreError::NotFound(format!(
            "player {player} of event {id}"
        )));
    }
    Ok(())
}

fn withdrawals(c: &mut dyn Sql, id: EventId) -> Result<Vec<Withdrawal>> {
    let rows = c.query(
        "SELECT player, from_round, stand_in FROM withdrawals WHERE event = ?1 ORDER BY player",
        args![id],
    )?;
    rows.iter()
        .map(|r| {
            Ok(Withdrawal {
                player: r.get(0)?,
                from_round: r.get(1)?,
                stand_in: parse(&r.get::<String>(2)?, "stand-in")?,
            })
        })
        .collect()
}

fn event(c: &mut dyn Sql, id: EventId) -> Result<Event> {
    let row = c
        .opt(
            "SELECT name, team, deal_seed, movement, hide_standings, deal_key, deals_released FROM events WHERE id = ?1",
            args![id],
        )?
        .ok_or_else(|| StoreError::NotFound(format!("event {id}")))?;
    let players = c
        .query(
            "SELECT name, team FROM players WHERE event = ?1 ORDER BY slot",
            args![id],
        )?
        .iter()
        .map(|r| {
            Ok(Entrant {
                name: r.get(0)?,
                team: r.get(1)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let table_codes = c.column(
        "SELECT code FROM table_codes WHERE event = ?1 ORDER BY table_no",
        args![id],
    )?;
    let clock = match c.opt(
        "SELECT round, ends_at FROM clocks WHERE event = ?1",
        args![id],
    )? {
        Some(r) => Some((r.get(0)?, r.get(1)?)),
        None => None,
    };
    Ok(Event {
        id,
        name: row.get(0)?,
        team: row.get(1)?,
        deal_seed: row.get(2)?,
        deal_key: row.get(5)?,
        deals_released: row.get(6)?,
        movement: parse(&row.get::<String>(3)?, "movement")?,
        table_codes,
        players,
        hide_standings: row.get(4)?,
        checked_in: c
            .column::<u32>("SELECT player FROM checkins WHERE event = ?1", args![id])?
            .into_iter()
            .collect(),
        withdrawals: withdrawals(c, id)?,
        clock,
    })
}

impl<B: Backend> EventStore for Db<B> {
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
            let id = tx.insert(
                "INSERT INTO events (name, team, deal_seed, deal_key, movement, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                args![e.name.as_str(), e.team, e.deal_seed, e.deal_key.as_deref(), json(&e.movement), now()],
            )?;
            for (i, p) in e.players.iter().enumerate() {
                tx.exec(
                    "INSERT INTO players (event, slot, name, team) VALUES (?1, ?2, ?3, ?4)",
                    args![id, i + 1, p.name.as_str(), p.team.as_deref()],
                )?;
            }
            for (i, c) in e.table_codes.iter().enumerate() {
                tx.exec(
                    "INSERT INTO table_codes (event, table_no, code) VALUES (?1, ?2, ?3)",
                    args![id, i + 1, c],
                )?;
            }
            audit(tx, Some(id), who, "event created", None, Some(&json(&e.players)))?;
            Ok(id)
        })
    }

    fn events(&self) -> Result<Vec<(EventId, String)>> {
        let rows = self.read(|c| c.query("SELECT id, name FROM events ORDER BY id DESC", &[]))?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }

    fn event(&self, id: EventId) -> Result<Event> {
        self.read(|c| event(c, id))
    }

    fn set_player(&self, id: EventId, player: u32, now: &Entrant, who: &str) -> Result<()> {
        if now.name.trim().is_empty() {
            return Err(StoreError::Invalid(format!(
                "player {player}: the name is empty"
            )));
        }
        self.change(|tx| {
            let Some(before) = tx.opt(
                "SELECT name, team FROM players WHERE event = ?1 AND slot = ?2",
                args![id, player],
            )?
            else {
                return Err(StoreError::NotFound(format!(
                    "player {player} of event {id}"
                )));
            };
            tx.exec(
                "UPDATE players SET name = ?3, team = ?4 WHERE event = ?1 AND slot = ?2",
                args![id, player, now.name.as_str(), now.team.as_deref()],
            )?;
            let before = Entrant {
                name: before.get(0)?,
                team: before.get(1)?,
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
            tx.exec(
                "UPDATE events SET movement = ?2 WHERE id = ?1",
                args![id, after.as_str()],
            )?;
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
            tx.exec(
                "UPDATE events SET hide_standings = ?2 WHERE id = ?1",
                args![id, hide],
            )?;
            let what = if hide {
                "standings hidden"
            } else {
                "standings shown"
            };
            audit(tx, Some(id), who, what, None, None)
        })
    }

    fn round_states(&self, id: EventId) -> Result<Vec<(u32, bool)>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT round, open FROM round_states WHERE event = ?1 ORDER BY round",
                args![id],
            )
        })?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }

    fn set_round(&self, id: EventId, round: u32, open: bool, who: &str) -> Result<()> {
        let rounds = self.event(id)?.movement.rounds.len() as u32;
        if round == 0 || round > rounds {
            return Err(StoreError::Invalid(format!(
                "round: 1 to {rounds}, not {round}"
            )));
        }
        self.change(|tx| {
            tx.exec(
                "INSERT INTO round_states (event, round, open) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (event, round) DO UPDATE SET open = ?3",
                args![id, round, open],
            )?;
            if !open {
                tx.exec(
                    "DELETE FROM sessions WHERE role = 'table' AND event = ?1",
                    args![id],
                )?;
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
                tx.exec(
                    "UPDATE table_codes SET code = ?3 WHERE event = ?1 AND table_no = ?2",
                    args![id, i + 1, c],
                )?;
            }
            tx.exec(
                "DELETE FROM sessions WHERE role = 'table' AND event = ?1",
                args![id],
            )?;
            audit(tx, Some(id), who, "new table codes", None, None)
        })
    }

    fn set_checked_in(&self, id: EventId, player: u32, present: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            check_player(tx, id, player)?;
            if present {
                tx.exec(
                    "INSERT INTO checkins (event, player, at) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (event, player) DO NOTHING",
                    args![id, player, now()],
                )?;
            } else {
                tx.exec(
                    "DELETE FROM checkins WHERE event = ?1 AND player = ?2",
                    args![id, player],
                )?;
            }
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
            let n = tx.exec(
                "INSERT INTO withdrawals (event, player, from_round, stand_in) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (event, player) DO NOTHING",
                args![id, w.player, w.from_round, stand_in.as_str()],
            )?;
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
            let n = tx.exec(
                "DELETE FROM withdrawals WHERE event = ?1 AND player = ?2",
                args![id, player],
            )?;
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
                    tx.exec(
                        "INSERT INTO clocks (event, round, ends_at) VALUES (?1, ?2, ?3) \
                         ON CONFLICT (event) DO UPDATE SET round = ?2, ends_at = ?3",
                        args![id, round, ends_at],
                    )?;
                    format!("round {round} clock set to end at {ends_at}")
                }
                None => {
                    tx.exec("DELETE FROM clocks WHERE event = ?1", args![id])?;
                    "round clock stopped".to_string()
                }
            };
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn release_deals(&self, id: EventId, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            let n = tx.exec(
                "UPDATE events SET deals_released = 1 WHERE id = ?1 AND deals_released = 0",
                args![id],
            )?;
            if n == 1 {
                audit(tx, Some(id), who, "deals released for practice", None, None)?;
            }
            Ok(())
        })
    }
}
