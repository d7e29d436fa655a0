//! Results, conflicts, penalties and the audit trail.

use tournament::entry::ScoreEntry;
use tournament::standings::Penalty;

use super::{args, audit, exists, json, movement_of, now, parse, Backend, Db, Sql, SqlExt};
use crate::{
    points_of, AuditLine, Conflict, EventId, Result, ResultStore, Saved, StoreError, StoredResult,
};

impl<B: Backend> ResultStore for Db<B> {
    fn results(&self, id: EventId) -> Result<Vec<StoredResult>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT deal, table_no, hand, entry, points, version, entered_by, at FROM results WHERE event = ?1 ORDER BY deal, table_no, hand",
                args![id],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(StoredResult {
                    deal: r.get(0)?,
                    table: r.get(1)?,
                    hand: r.get(2)?,
                    entry: parse(&r.get::<String>(3)?, "entry")?,
                    points: parse(&r.get::<String>(4)?, "points")?,
                    version: r.get(5)?,
                    by: r.get(6)?,
                    at: r.get(7)?,
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
        let points = json(&points_of(entry)?);
        let text = json(entry);
        self.change(|tx| save_in(tx, id, deal, table, hand, &text, &points, expected, who))
    }

    fn save_result_once(
        &self,
        id: EventId,
        key: &str,
        sitting: (&str, u32, u32),
        entry: &ScoreEntry,
        expected: u32,
        who: &str,
    ) -> Result<Saved> {
        let (deal, table, hand) = sitting;
        if key.len() < 8
            || key.len() > 64
            || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return Err(StoreError::Invalid(format!(
                "key: '{key}' is not an entry's key (8 to 64 letters, digits or '-')"
            )));
        }
        let points = json(&points_of(entry)?);
        let text = json(entry);
        self.change(|tx| {
            exists(tx, id)?;
            // A key already seen: the entry was recorded once; say again what it did.
            if let Some(r) = tx.opt(
                "SELECT outcome, number FROM entry_keys WHERE event = ?1 AND entry_key = ?2",
                args![id, key],
            )? {
                let (outcome, number): (String, i64) = (r.get(0)?, r.get(1)?);
                return match outcome.as_str() {
                    "saved" => Ok(Saved::Saved { version: number as u32 }),
                    "unchanged" => Ok(Saved::Unchanged { version: number as u32 }),
                    _ => Ok(Saved::Conflict { id: number }),
                };
            }
            let saved = save_in(tx, id, deal, table, hand, &text, &points, expected, who)?;
            let (outcome, number) = match saved {
                Saved::Saved { version } => ("saved", i64::from(version)),
                Saved::Unchanged { version } => ("unchanged", i64::from(version)),
                Saved::Conflict { id } => ("conflict", id),
            };
            tx.exec(
                "INSERT INTO entry_keys (event, entry_key, deal, table_no, hand, outcome, number, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                args![id, key, deal, table, hand, outcome, number, now()],
            )?;
            Ok(saved)
        })
    }

    fn conflicts(&self, id: EventId) -> Result<Vec<Conflict>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT id, deal, table_no, hand, entry, entered_by, at FROM conflicts WHERE event = ?1 AND resolved = 0 ORDER BY id",
                args![id],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(Conflict {
                    id: r.get(0)?,
                    deal: r.get(1)?,
                    table: r.get(2)?,
                    hand: r.get(3)?,
                    entry: parse(&r.get::<String>(4)?, "entry")?,
                    by: r.get(5)?,
                    at: r.get(6)?,
                })
            })
            .collect()
    }

    fn resolve_conflict(&self, id: EventId, conflict: i64, accept: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            let Some(row) = tx.opt(
                "SELECT deal, table_no, hand, entry FROM conflicts WHERE id = ?1 AND event = ?2 AND resolved = 0",
                args![conflict, id],
            )? else {
                return Err(StoreError::NotFound(format!("open conflict {conflict} of event {id}")));
            };
            let (deal, table, hand, text): (String, u32, u32, String) =
                (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
            tx.exec("UPDATE conflicts SET resolved = 1 WHERE id = ?1", args![conflict])?;
            if !accept {
                return audit(tx, Some(id), who, &format!("conflict {conflict} dismissed"), None, Some(&text));
            }
            let entry: ScoreEntry = parse(&text, "entry")?;
            let points = points_of(&entry)?;
            let old: Option<String> = match tx.opt(
                "SELECT entry FROM results WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4",
                args![id, deal.as_str(), table, hand],
            )? {
                Some(r) => Some(r.get(0)?),
                None => None,
            };
            tx.exec(
                "INSERT INTO results (event, deal, table_no, hand, entry, points, version, entered_by, at) VALUES (?1, ?2, ?3, ?7, ?4, ?5, 1, ?6, ?8) \
                 ON CONFLICT (event, deal, table_no, hand) DO UPDATE SET entry = ?4, points = ?5, version = results.version + 1, entered_by = ?6, at = ?8",
                args![id, deal.as_str(), table, text.as_str(), json(&points), who, hand, now()],
            )?;
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
            let pid = tx.insert(
                "INSERT INTO penalties (event, body) VALUES (?1, ?2) RETURNING id",
                args![id, body.as_str()],
            )?;
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
        let rows = self.read(|c| {
            c.query(
                "SELECT id, body FROM penalties WHERE event = ?1 AND removed = 0 ORDER BY id",
                args![id],
            )
        })?;
        rows.iter()
            .map(|r| Ok((r.get(0)?, parse(&r.get::<String>(1)?, "penalty")?)))
            .collect()
    }

    fn remove_penalty(&self, id: EventId, penalty: i64, who: &str) -> Result<()> {
        self.change(|tx| {
            let Some(r) = tx.opt(
                "SELECT body FROM penalties WHERE id = ?1 AND event = ?2 AND removed = 0",
                args![penalty, id],
            )?
            else {
                return Err(StoreError::NotFound(format!(
                    "penalty {penalty} of event {id}"
                )));
            };
            let body: String = r.get(0)?;
            tx.exec(
                "UPDATE penalties SET removed = 1 WHERE id = ?1",
                args![penalty],
            )?;
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
        let rows = self.read(|c| {
            c.query(
                "SELECT at, who, what, before, after FROM audit WHERE event = ?1 ORDER BY id",
                args![id],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(AuditLine {
                    at: r.get(0)?,
                    who: r.get(1)?,
                    what: r.get(2)?,
                    before: r.get(3)?,
                    after: r.get(4)?,
                })
            })
            .collect()
    }
}

/// Saves an entry (its JSON `text` and match `points`) inside a transaction: see
/// [`ResultStore::save_result`].
#[allow(clippy::too_many_arguments)]
fn save_in(
    tx: &mut dyn Sql,
    id: EventId,
    deal: &str,
    table: u32,
    hand: u32,
    text: &str,
    points: &str,
    expected: u32,
    who: &str,
) -> Result<Saved> {
    exists(tx, id)?;
    let current: Option<(u32, String)> = match tx.opt(
            "SELECT version, entry FROM results WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4",
            args![id, deal, table, hand],
        )? {
            Some(r) => Some((r.get(0)?, r.get(1)?)),
            None => None,
        };
    let what = format!("result of deal {deal} at table {table}, hand {hand}");
    match current {
        Some((v, old)) if old == text => Ok(Saved::Unchanged { version: v }),
        Some((v, old)) if v == expected => {
            tx.exec(
                    "UPDATE results SET entry = ?4, points = ?5, version = ?6, entered_by = ?7, at = ?9 WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?8",
                    args![id, deal, table, text, points, v + 1, who, hand, now()],
                )?;
            audit(tx, Some(id), who, &what, Some(&old), Some(text))?;
            Ok(Saved::Saved { version: v + 1 })
        }
        None if expected == 0 => {
            tx.exec(
                    "INSERT INTO results (event, deal, table_no, hand, entry, points, version, entered_by, at) VALUES (?1, ?2, ?3, ?7, ?4, ?5, 1, ?6, ?8)",
                    args![id, deal, table, text, points, who, hand, now()],
                )?;
            audit(tx, Some(id), who, &what, None, Some(text))?;
            Ok(Saved::Saved { version: 1 })
        }
        _ => {
            // One open conflict per sitting and device: a phone that saves again
            // replaces its own conflicting entry instead of adding another.
            let open = tx.opt(
                    "SELECT id, entry FROM conflicts WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4 AND entered_by = ?5 AND resolved = 0",
                    args![id, deal, table, hand, who],
                )?;
            if let Some(r) = open {
                let (cid, old): (i64, String) = (r.get(0)?, r.get(1)?);
                if old != text {
                    tx.exec(
                        "UPDATE conflicts SET entry = ?2, at = ?3 WHERE id = ?1",
                        args![cid, text, now()],
                    )?;
                    audit(
                        tx,
                        Some(id),
                        who,
                        &format!("conflict {cid} replaced by a later entry"),
                        Some(&old),
                        Some(text),
                    )?;
                }
                return Ok(Saved::Conflict { id: cid });
            }
            let cid = tx.insert(
                    "INSERT INTO conflicts (event, deal, table_no, hand, entry, entered_by, at) VALUES (?1, ?2, ?3, ?6, ?4, ?5, ?7) RETURNING id",
                    args![id, deal, table, text, who, hand, now()],
                )?;
            audit(
                tx,
                Some(id),
                who,
                &format!("conflicting {what} kept aside (conflict {cid})"),
                None,
                Some(text),
            )?;
            Ok(Saved::Conflict { id: cid })
        }
    }
}
