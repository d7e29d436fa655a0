//! Events played online: settings, linked seats and sittings.

use super::{args, audit, new_play_table, Backend, Db, SqlExt};
use crate::{EventId, OnlineSitting, OnlineStore, Result};

impl<B: Backend> OnlineStore for Db<B> {
    fn set_online(&self, event: EventId, settings: &str, who: &str) -> Result<()> {
        self.change(|tx| {
            let before: Option<String> = match tx.opt(
                "SELECT settings FROM online_events WHERE event = ?1",
                args![event],
            )? {
                Some(r) => Some(r.get(0)?),
                None => None,
            };
            tx.exec(
                "INSERT INTO online_events (event, settings) VALUES (?1, ?2) ON CONFLICT (event) DO UPDATE SET settings = ?2",
                args![event, settings],
            )?;
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
        match self.read(|c| {
            c.opt(
                "SELECT settings FROM online_events WHERE event = ?1",
                args![event],
            )
        })? {
            Some(r) => Ok(Some(r.get(0)?)),
            None => Ok(None),
        }
    }

    fn online_events(&self) -> Result<Vec<(EventId, String)>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT event, settings FROM online_events ORDER BY event",
                &[],
            )
        })?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }

    fn bind_person(&self, event: EventId, slot: u32, person: i64) -> Result<()> {
        self.change(|tx| {
            tx.exec(
                "INSERT INTO event_people (event, slot, person) VALUES (?1, ?2, ?3) ON CONFLICT (event, slot) DO UPDATE SET person = ?3",
                args![event, slot, person],
            )?;
            Ok(())
        })
    }

    fn event_people(&self, event: EventId) -> Result<Vec<(u32, i64)>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT slot, person FROM event_people WHERE event = ?1 ORDER BY slot",
                args![event],
            )
        })?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
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
            if let Some(r) = tx.opt(
                "SELECT play_table FROM online_sittings WHERE event = ?1 AND round = ?2 AND hand = ?3 AND table_no = ?4",
                args![event, round, hand, table],
            )? {
                return r.get(0);
            }
            let id = new_play_table(tx, table_spec, false, journal)?;
            tx.exec(
                "INSERT INTO online_sittings (event, round, hand, table_no, play_table) VALUES (?1, ?2, ?3, ?4, ?5)",
                args![event, round, hand, table, id],
            )?;
            Ok(id)
        })
    }

    fn online_sittings(&self, event: EventId) -> Result<Vec<OnlineSitting>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT round, hand, table_no, play_table FROM online_sittings WHERE event = ?1 ORDER BY round, hand, table_no",
                args![event],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(OnlineSitting {
                    round: r.get(0)?,
                    hand: r.get(1)?,
                    table: r.get(2)?,
                    play_table: r.get(3)?,
                })
            })
            .collect()
    }
}
