//! The quick-match queue over SQL.

use super::{args, Backend, Db, Row, SqlExt};
use crate::{QueueStore, Queued, Result};

const COLUMNS: &str = "person, name, rating, bot, bots_ok, joined, seen, table_id";

fn queued(r: &Row) -> Result<Queued> {
    Ok(Queued {
        person: r.get(0)?,
        name: r.get(1)?,
        rating_milli: r.get(2)?,
        bot: r.get(3)?,
        bots_ok: r.get(4)?,
        joined_ms: r.get(5)?,
        seen_ms: r.get(6)?,
        table: r.get(7)?,
    })
}

impl<B: Backend> QueueStore for Db<B> {
    fn join_queue(&self, q: &Queued) -> Result<()> {
        self.change(|tx| {
            // Given a table before: a new wait. Still waiting: the same place.
            tx.exec(
                "DELETE FROM match_queue WHERE person = ?1 AND table_id IS NOT NULL",
                args![q.person],
            )?;
            tx.exec(
                "INSERT INTO match_queue (person, name, rating, bot, bots_ok, joined, seen) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (person) DO UPDATE \
                 SET name = ?2, rating = ?3, bot = ?4, bots_ok = ?5, seen = ?6",
                args![
                    q.person,
                    q.name.as_str(),
                    q.rating_milli,
                    q.bot,
                    q.bots_ok,
                    q.seen_ms
                ],
            )?;
            Ok(())
        })
    }

    fn queue_seen(&self, person: i64, now_ms: i64) -> Result<Option<Queued>> {
        self.change(|tx| {
            tx.exec(
                "UPDATE match_queue SET seen = ?2 WHERE person = ?1",
                args![person, now_ms],
            )?;
            let sql = format!("SELECT {COLUMNS} FROM match_queue WHERE person = ?1");
            tx.opt(&sql, args![person])?
                .as_ref()
                .map(queued)
                .transpose()
        })
    }

    fn leave_queue(&self, person: i64) -> Result<bool> {
        self.change(|tx| {
            Ok(tx.exec("DELETE FROM match_queue WHERE person = ?1", args![person])? == 1)
        })
    }

    fn queue(&self) -> Result<Vec<Queued>> {
        let sql = format!("SELECT {COLUMNS} FROM match_queue ORDER BY joined, person");
        self.read(|c| c.query(&sql, &[]))?
            .iter()
            .map(queued)
            .collect()
    }

    fn queue_waiting(&self) -> Result<(usize, Option<i64>)> {
        let r = self.read(|c| {
            c.one(
                "SELECT count(*), min(joined) FROM match_queue WHERE bot = 0 AND table_id IS NULL",
                &[],
            )
        })?;
        let n: i64 = r.get(0)?;
        Ok((n as usize, r.get(1)?))
    }

    fn seat_queued(&self, persons: &[i64], table: i64) -> Result<usize> {
        self.change(|tx| {
            let mut n = 0;
            for &p in persons {
                n += tx.exec(
                    "UPDATE match_queue SET table_id = ?2 WHERE person = ?1 AND table_id IS NULL",
                    args![p, table],
                )?;
            }
            Ok(n)
        })
    }

    fn prune_queue(&self, before_ms: i64) -> Result<Vec<i64>> {
        self.change(|tx| {
            let gone: Vec<i64> = tx.column(
                "SELECT person FROM match_queue WHERE seen < ?1 ORDER BY person",
                args![before_ms],
            )?;
            tx.exec("DELETE FROM match_queue WHERE seen < ?1", args![before_ms])?;
            Ok(gone)
        })
    }
}
