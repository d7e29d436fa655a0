//! Online events in SQLite.

use rusqlite::{params, OptionalExtension};

use super::play::new_play_table;
use super::{audit, backend, SqliteStore};
use crate::{EventId, OnlineSitting, OnlineStore, Result};

impl OnlineStore for SqliteStore {
    fn set_online(&self, event: EventId, settings: &str, who: &str) -> Result<()> {
        self.change(|tx| {
            let before: Option<String> = tx
                .query_row(
                    "SELECT settings FROM online_events WHERE event = ?1",
                    [event],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            tx.execute(
                "INSERT INTO online_events (event, settings) VALUES (?1, ?2) ON CONFLICT (event) DO UPDATE SET settings = ?2",
                params![event, settings],
            )
            .map_err(backend)?;
            audit(
                tx,
                Some(event),
                who,
                "online play settings",
                before.as_deref(),
                Some(settings),
            )
        })
    }

    fn online(&self, event: EventId) -> Result<Option<String>> {
        self.lock()
            .query_row(
                "SELECT settings FROM online_events WHERE event = ?1",
                [event],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)
    }

    fn online_events(&self) -> Result<Vec<(EventId, String)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT event, settings FROM online_events ORDER BY event")
            .map_err(backend)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn bind_person(&self, event: EventId, slot: u32, person: i64) -> Result<()> {
        self.change(|tx| {
            tx.execute(
                "INSERT INTO event_people (event, slot, person) VALUES (?1, ?2, ?3) ON CONFLICT (event, slot) DO UPDATE SET person = ?3",
                params![event, slot, person],
            )
            .map_err(backend)?;
            Ok(())
        })
    }

    fn event_people(&self, event: EventId) -> Result<Vec<(u32, i64)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT slot, person FROM event_people WHERE event = ?1 ORDER BY slot")
            .map_err(backend)?;
        let rows = st
            .query_map([event], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn open_sitting_table(
        &self,
        event: EventId,
        round: u32,
        hand: u32,
        table: u32,
        table_spec: &str,
        journal: &[String],
    ) -> Result<i64> {
        self.change(|tx| {
            let had: Option<i64> = tx
                .query_row(
                    "SELECT play_table FROM online_sittings WHERE event = ?1 AND round = ?2 AND hand = ?3 AND table_no = ?4",
                    params![event, round, hand, table],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            if let Some(t) = had {
                return Ok(t);
            }
            let id = new_play_table(tx, table_spec, false, journal)?;
            tx.execute(
                "INSERT INTO online_sittings (event, round, hand, table_no, play_table) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![event, round, hand, table, id],
            )
            .map_err(backend)?;
            Ok(id)
        })
    }

    fn online_sittings(&self, event: EventId) -> Result<Vec<OnlineSitting>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT round, hand, table_no, play_table FROM online_sittings WHERE event = ?1 ORDER BY round, hand, table_no")
            .map_err(backend)?;
        let rows = st
            .query_map([event], |r| {
                Ok(OnlineSitting {
                    round: r.get(0)?,
                    hand: r.get(1)?,
                    table: r.get(2)?,
                    play_table: r.get(3)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }
}
