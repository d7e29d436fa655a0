//! Results, conflicts, penalties and the audit trail in SQLite.

use rusqlite::{params, OptionalExtension};
use tournament::entry::ScoreEntry;
use tournament::standings::Penalty;

use super::{audit, backend, exists, json, movement_of, parse, SqliteStore, NOW};
use crate::{
    points_of, AuditLine, Conflict, EventId, Result, ResultStore, Saved, StoreError, StoredResult,
};

impl ResultStore for SqliteStore {
    fn results(&self, id: EventId) -> Result<Vec<StoredResult>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT deal, table_no, hand, entry, points, version, entered_by, at FROM results WHERE event = ?1 ORDER BY deal, table_no, hand")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok((
                    (
                        r.get::<_, String>(0)?,
                        r.get::<_, u32>(1)?,
                        r.get::<_, u32>(2)?,
                    ),
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, u32>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, String>(7)?,
                ))
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|((deal, table, hand), entry, points, version, by, at)| {
                Ok(StoredResult {
                    deal,
                    table,
                    hand,
                    entry: parse(&entry, "entry")?,
                    points: parse(&points, "points")?,
                    version,
                    by,
                    at,
                })
            })
            .collect()
    }

    fn save_result(
        &self,
        id: EventId,
        deal: &str,
        table: u32,
        hand: u32,
        entry: &ScoreEntry,
        expected: u32,
        who: &str,
    ) -> Result<Saved> {
        let points = points_of(entry)?;
        let text = json(entry);
        self.change(|tx| {
            exists(tx, id)?;
            let current: Option<(u32, String)> = tx
                .query_row(
                    "SELECT version, entry FROM results WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4",
                    params![id, deal, table, hand],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(backend)?;
            let what = format!("result of deal {deal} at table {table}, hand {hand}");
            match current {
                Some((v, old)) if old == text => Ok(Saved::Unchanged { version: v }),
                Some((v, old)) if v == expected => {
                    tx.execute(
                        &format!("UPDATE results SET entry = ?4, points = ?5, version = ?6, entered_by = ?7, at = {NOW} WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?8"),
                        params![id, deal, table, text, json(&points), v + 1, who, hand],
                    )
                    .map_err(backend)?;
                    audit(tx, Some(id), who, &what, Some(&old), Some(&text))?;
                    Ok(Saved::Saved { version: v + 1 })
                }
                None if expected == 0 => {
                    tx.execute(
                        &format!("INSERT INTO results (event, deal, table_no, hand, entry, points, version, entered_by, at) VALUES (?1, ?2, ?3, ?7, ?4, ?5, 1, ?6, {NOW})"),
                        params![id, deal, table, text, json(&points), who, hand],
                    )
                    .map_err(backend)?;
                    audit(tx, Some(id), who, &what, None, Some(&text))?;
                    Ok(Saved::Saved { version: 1 })
                }
                _ => {
                    // One open conflict per sitting and device: a phone that saves again
                    // replaces its own conflicting entry instead of adding another.
                    let open: Option<(i64, String)> = tx
                        .query_row(
                            "SELECT id, entry FROM conflicts WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4 AND entered_by = ?5 AND resolved = 0",
                            params![id, deal, table, hand, who],
                            |r| Ok((r.get(0)?, r.get(1)?)),
                        )
                        .optional()
                        .map_err(backend)?;
                    if let Some((cid, old)) = open {
                        if old != text {
                            tx.execute(
                                &format!("UPDATE conflicts SET entry = ?2, at = {NOW} WHERE id = ?1"),
                                params![cid, text],
                            )
                            .map_err(backend)?;
                            audit(tx, Some(id), who, &format!("conflict {cid} replaced by a later entry"), Some(&old), Some(&text))?;
                        }
                        return Ok(Saved::Conflict { id: cid });
                    }
                    tx.execute(
                        &format!("INSERT INTO conflicts (event, deal, table_no, hand, entry, entered_by, at) VALUES (?1, ?2, ?3, ?6, ?4, ?5, {NOW})"),
                        params![id, deal, table, text, who, hand],
                    )
                    .map_err(backend)?;
                    let cid = tx.last_insert_rowid();
                    audit(tx, Some(id), who, &format!("conflicting {what} kept aside (conflict {cid})"), None, Some(&text))?;
                    Ok(Saved::Conflict { id: cid })
                }
            }
        })
    }

    fn conflicts(&self, id: EventId) -> Result<Vec<Conflict>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, deal, table_no, hand, entry, entered_by, at FROM conflicts WHERE event = ?1 AND resolved = 0 ORDER BY id")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok((
                    (r.get::<_, i64>(0)?, r.get::<_, String>(1)?),
                    (r.get::<_, u32>(2)?, r.get::<_, u32>(3)?),
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                ))
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|((cid, deal), (table, hand), entry, by, at)| {
                Ok(Conflict {
                    id: cid,
                    deal,
                    table,
                    hand,
                    entry: parse(&entry, "entry")?,
                    by,
                    at,
                })
            })
            .collect()
    }

    fn resolve_conflict(&self, id: EventId, conflict: i64, accept: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            let row: Option<(String, u32, u32, String)> = tx
                .query_row(
                    "SELECT deal, table_no, hand, entry FROM conflicts WHERE id = ?1 AND event = ?2 AND resolved = 0",
                    params![conflict, id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()
                .map_err(backend)?;
            let Some((deal, table, hand, text)) = row else {
                return Err(StoreError::NotFound(format!("open conflict {conflict} of event {id}")));
            };
            tx.execute("UPDATE conflicts SET resolved = 1 WHERE id = ?1", [conflict])
                .map_err(backend)?;
            if !accept {
                return audit(tx, Some(id), who, &format!("conflict {conflict} dismissed"), None, Some(&text));
            }
            let entry: ScoreEntry = parse(&text, "entry")?;
            let points = points_of(&entry)?;
            let old: Option<String> = tx
                .query_row(
                    "SELECT entry FROM results WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4",
                    params![id, deal, table, hand],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            tx.execute(
                &format!("INSERT INTO results (event, deal, table_no, hand, entry, points, version, entered_by, at) VALUES (?1, ?2, ?3, ?7, ?4, ?5, 1, ?6, {NOW}) \
                 ON CONFLICT(event, deal, table_no, hand) DO UPDATE SET entry = ?4, points = ?5, version = version + 1, entered_by = ?6, at = {NOW}"),
                params![id, deal, table, text, json(&points), who, hand],
            )
            .map_err(backend)?;
            audit(
                tx,
                Some(id),
                who,
                &format!("conflict {conflict} accepted: result of deal {deal} at table {table}, hand {hand}"),
                old.as_deref(),
                Some(&text),
            )
        })
    }

    fn add_penalty(&self, id: EventId, p: &Penalty, who: &str) -> Result<i64> {
        self.change(|tx| {
            let m = movement_of(tx, id)?;
            if p.player == 0 || p.player > m.players {
                return Err(StoreError::Invalid(format!(
                    "penalty: player {} is not in the event (1 to {})",
                    p.player, m.players
                )));
            }
            let body = json(p);
            tx.execute(
                "INSERT INTO penalties (event, body) VALUES (?1, ?2)",
                params![id, body],
            )
            .map_err(backend)?;
            let pid = tx.last_insert_rowid();
            audit(
                tx,
                Some(id),
                who,
                &format!("penalty {pid} added"),
                None,
                Some(&body),
            )?;
            Ok(pid)
        })
    }

    fn penalties(&self, id: EventId) -> Result<Vec<(i64, Penalty)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, body FROM penalties WHERE event = ?1 AND removed = 0 ORDER BY id")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|(pid, body)| Ok((pid, parse(&body, "penalty")?)))
            .collect()
    }

    fn remove_penalty(&self, id: EventId, penalty: i64, who: &str) -> Result<()> {
        self.change(|tx| {
            let body: Option<String> = tx
                .query_row(
                    "SELECT body FROM penalties WHERE id = ?1 AND event = ?2 AND removed = 0",
                    params![penalty, id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            let Some(body) = body else {
                return Err(StoreError::NotFound(format!(
                    "penalty {penalty} of event {id}"
                )));
            };
            tx.execute("UPDATE penalties SET removed = 1 WHERE id = ?1", [penalty])
                .map_err(backend)?;
            audit(
                tx,
                Some(id),
                who,
                &format!("penalty {penalty} removed"),
                Some(&body),
                None,
            )
        })
    }

    fn audit(&self, id: EventId) -> Result<Vec<AuditLine>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT at, who, what, before, after FROM audit WHERE event = ?1 ORDER BY id")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok(AuditLine {
                    at: r.get(0)?,
                    who: r.get(1)?,
                    what: r.get(2)?,
                    before: r.get(3)?,
                    after: r.get(4)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }
}
