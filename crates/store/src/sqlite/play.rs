//! Tables of online play, journals and finished hands in SQLite.

use rusqlite::{params, OptionalExtension, Transaction};

use super::{backend, SqliteStore, NOW};
use crate::{PlayStore, Result, StoreError, StoredHand, StoredPlayTable};

/// A new play table with the first lines of its journal; its id.
pub(super) fn new_play_table(
    tx: &Transaction,
    spec: &str,
    listed: bool,
    journal: &[String],
) -> Result<i64> {
    tx.execute(
        &format!("INSERT INTO play_tables (spec, listed, created) VALUES (?1, ?2, {NOW})"),
        params![spec, listed],
    )
    .map_err(backend)?;
    let table = tx.last_insert_rowid();
    for (seq, line) in journal.iter().enumerate() {
        tx.execute(
            "INSERT INTO play_journal (play_table, seq, entry) VALUES (?1, ?2, ?3)",
            params![table, seq as i64, line],
        )
        .map_err(backend)?;
    }
    Ok(table)
}

pub(super) const HAND_COLUMNS: &str =
    "SELECT id, play_table, hand_no, deal_key, summary, log, at FROM play_hands";

pub(super) fn stored_hand(r: &rusqlite::Row) -> rusqlite::Result<StoredHand> {
    Ok(StoredHand {
        id: r.get(0)?,
        play_table: r.get(1)?,
        hand_no: r.get(2)?,
        deal_key: r.get(3)?,
        summary: r.get(4)?,
        log: r.get(5)?,
        at: r.get(6)?,
    })
}

impl PlayStore for SqliteStore {
    fn create_play_table(&self, spec: &str, listed: bool) -> Result<i64> {
        self.change(|tx| new_play_table(tx, spec, listed, &[]))
    }

    fn finished_tables(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<StoredPlayTable>, usize)> {
        let c = self.lock();
        let total: i64 = c
            .query_row(
                "SELECT count(*) FROM play_tables WHERE listed = 1 AND finished = 1",
                [],
                |r| r.get(0),
            )
            .map_err(backend)?;
        let mut st = c
            .prepare(
                "SELECT id, spec FROM play_tables WHERE listed = 1 AND finished = 1 ORDER BY id DESC LIMIT ?1 OFFSET ?2",
            )
            .map_err(backend)?;
        let rows = st
            .query_map(params![limit as i64, offset as i64], |r| {
                Ok(StoredPlayTable {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    finished: true,
                })
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        Ok((rows, total as usize))
    }

    fn update_play_table(&self, id: i64, spec: &str, finished: bool) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "UPDATE play_tables SET spec = ?2, finished = ?3 WHERE id = ?1",
                    params![id, spec, finished],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("table {id}")));
            }
            Ok(())
        })
    }

    fn play_table(&self, id: i64) -> Result<StoredPlayTable> {
        self.lock()
            .query_row(
                "SELECT spec, finished FROM play_tables WHERE id = ?1",
                [id],
                |r| {
                    Ok(StoredPlayTable {
                        id,
                        spec: r.get(0)?,
                        finished: r.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("table {id}")))
    }

    fn play_tables(&self, unfinished: bool, limit: usize) -> Result<Vec<StoredPlayTable>> {
        let c = self.lock();
        let mut st = c
            .prepare(
                "SELECT id, spec, finished FROM play_tables WHERE finished = 0 OR ?1 = 0 ORDER BY id DESC LIMIT ?2",
            )
            .map_err(backend)?;
        let rows = st
            .query_map(params![unfinished, limit as i64], |r| {
                Ok(StoredPlayTable {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    finished: r.get(2)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn append_journal(&self, entries: &[(i64, u64, String)]) -> Result<()> {
        self.change(|tx| {
            let mut st = tx
                .prepare_cached(
                    "INSERT INTO play_journal (play_table, seq, entry) VALUES (?1, ?2, ?3)",
                )
                .map_err(backend)?;
            for (t, seq, e) in entries {
                st.execute(params![t, *seq as i64, e]).map_err(backend)?;
            }
            Ok(())
        })
    }

    fn journal(&self, table: i64) -> Result<Vec<String>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT entry FROM play_journal WHERE play_table = ?1 ORDER BY seq")
            .map_err(backend)?;
        let rows = st.query_map([table], |r| r.get(0)).map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn save_hand(
        &self,
        table: i64,
        hand_no: u32,
        deal_key: Option<&str>,
        summary: &str,
        log: &str,
    ) -> Result<i64> {
        self.change(|tx| {
            tx.execute(
                &format!("INSERT INTO play_hands (play_table, hand_no, deal_key, summary, log, at) VALUES (?1, ?2, ?3, ?4, ?5, {NOW}) ON CONFLICT (play_table, hand_no) DO NOTHING"),
                params![table, hand_no, deal_key, summary, log],
            )
            .map_err(backend)?;
            let id: i64 = tx
                .query_row(
                    "SELECT id FROM play_hands WHERE play_table = ?1 AND hand_no = ?2",
                    params![table, hand_no],
                    |r| r.get(0),
                )
                .map_err(backend)?;
            // Who held each seat, for their histories (a person's seats only).
            tx.execute(
                "INSERT OR IGNORE INTO play_hand_people (hand, person, seat) \
                 SELECT ?1, json_extract(?2, '$.persons[' || n || ']'), n \
                 FROM (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) \
                 WHERE json_extract(?2, '$.persons[' || n || ']') IS NOT NULL",
                params![id, summary],
            )
            .map_err(backend)?;
            Ok(id)
        })
    }

    fn hand(&self, id: i64) -> Result<StoredHand> {
        let c = self.lock();
        let mut st = c
            .prepare(&format!("{HAND_COLUMNS} WHERE id = ?1"))
            .map_err(backend)?;
        st.query_row([id], stored_hand)
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("hand {id}")))
    }

    fn hands_of_table(&self, table: i64) -> Result<Vec<StoredHand>> {
        let c = self.lock();
        let mut st = c
            .prepare(&format!(
                "{HAND_COLUMNS} WHERE play_table = ?1 ORDER BY hand_no"
            ))
            .map_err(backend)?;
        let rows = st.query_map([table], stored_hand).map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn hands_of_deal(&self, deal_key: &str, limit: usize) -> Result<Vec<StoredHand>> {
        let c = self.lock();
        let mut st = c
            .prepare(&format!(
                "{HAND_COLUMNS} WHERE deal_key = ?1 ORDER BY id LIMIT ?2"
            ))
            .map_err(backend)?;
        let rows = st
            .query_map(params![deal_key, limit as i64], stored_hand)
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }
}
