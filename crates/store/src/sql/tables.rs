//! Tables of online play, journals and finished hands.

use super::leases::check_fences;
use super::{args, now, Backend, Db, Row, Sql, SqlExt};
use crate::{
    now_ms, NewHand, PlayStore, PlayWrite, Result, StoreError, StoredHand, StoredPlayTable,
};

/// A new play table with the first lines of its journal; its id.
pub(crate) fn new_play_table(
    tx: &mut dyn Sql,
    spec: &str,
    listed: bool,
    journal: &[String],
) -> Result<i64> {
    let table = tx.insert(
        "INSERT INTO play_tables (spec, listed, created) VALUES (?1, ?2, ?3) RETURNING id",
        args![spec, listed, now()],
    )?;
    for (seq, line) in journal.iter().enumerate() {
        tx.exec(
            "INSERT INTO play_journal (play_table, seq, entry) VALUES (?1, ?2, ?3)",
            args![table, seq, line],
        )?;
    }
    Ok(table)
}

pub(super) const HAND_COLUMNS: &str =
    "SELECT id, play_table, hand_no, deal_key, summary, log, at FROM play_hands";

pub(super) fn stored_hand(r: &Row) -> Result<StoredHand> {
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

fn hands(rows: Vec<Row>) -> Result<Vec<StoredHand>> {
    rows.iter().map(stored_hand).collect()
}

/// The people at a hand's seats, from its summary's `persons` (null for a bot's seat).
fn persons_of(summary: &str) -> Vec<(usize, i64)> {
    let v: serde_json::Value = serde_json::from_str(summary).unwrap_or_default();
    v.get("persons")
        .and_then(|p| p.as_array())
        .map(|seats| {
            seats
                .iter()
                .take(4)
                .enumerate()
                .filter_map(|(seat, p)| Some((seat, p.as_i64()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// Keeps a finished hand once per table and hand number, with who held each seat; its id.
fn keep_hand(tx: &mut dyn Sql, h: &NewHand) -> Result<i64> {
    tx.exec(
        "INSERT INTO play_hands (play_table, hand_no, deal_key, summary, log, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (play_table, hand_no) DO NOTHING",
        args![h.table, h.hand_no, h.deal_key.as_deref(), &h.summary, &h.log, now()],
    )?;
    let id: i64 = tx
        .one(
            "SELECT id FROM play_hands WHERE play_table = ?1 AND hand_no = ?2",
            args![h.table, h.hand_no],
        )?
        .get(0)?;
    // Who held each seat, for their histories (a person's seats only), and the review of
    // those seats queued.
    let people = persons_of(&h.summary);
    let seats: Vec<usize> = people.iter().map(|&(seat, _)| seat).collect();
    super::reviews::queue_review(tx, id, &seats)?;
    for (seat, person) in people {
        tx.exec(
            "INSERT INTO play_hand_people (hand, person, seat) VALUES (?1, ?2, ?3) \
             ON CONFLICT (hand, seat) DO NOTHING",
            args![id, person, seat],
        )?;
    }
    Ok(id)
}

fn lobby_line(tx: &mut dyn Sql, table: i64, line: &str) -> Result<()> {
    tx.exec(
        "INSERT INTO play_lobby (play_table, line, updated) VALUES (?1, ?2, ?3) \
         ON CONFLICT (play_table) DO UPDATE SET line = ?2, updated = ?3",
        args![table, line, now_ms()],
    )?;
    Ok(())
}

impl<B: Backend> PlayStore for Db<B> {
    fn create_play_table(&self, spec: &str, listed: bool) -> Result<i64> {
        self.change(|tx| new_play_table(tx, spec, listed, &[]))
    }

    fn finished_tables(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<StoredPlayTable>, usize)> {
        self.read(|c| {
            let total: usize = c
                .one(
                    "SELECT count(*) FROM play_tables WHERE listed = 1 AND finished = 1",
                    &[],
                )?
                .get(0)?;
            let rows = c.query(
                "SELECT id, spec FROM play_tables WHERE listed = 1 AND finished = 1 ORDER BY id DESC LIMIT ?1 OFFSET ?2",
                args![limit, offset],
            )?;
            let tables = rows
                .iter()
                .map(|r| {
                    Ok(StoredPlayTable {
                        id: r.get(0)?,
                        spec: r.get(1)?,
                        finished: true,
                    })
                })
                .collect::<Result<_>>()?;
            Ok((tables, total))
        })
    }

    fn update_play_table(&self, id: i64, spec: &str, finished: bool) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE play_tables SET spec = ?2, finished = ?3 WHERE id = ?1",
                args![id, spec, finished],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("table {id}")));
            }
            Ok(())
        })
    }

    fn play_table(&self, id: i64) -> Result<StoredPlayTable> {
        let r = self
            .read(|c| {
                c.opt(
                    "SELECT spec, finished FROM play_tables WHERE id = ?1",
                    args![id],
                )
            })?
            .ok_or_else(|| StoreError::NotFound(format!("table {id}")))?;
        Ok(StoredPlayTable {
            id,
            spec: r.get(0)?,
            finished: r.get(1)?,
        })
    }

    fn play_tables(&self, unfinished: bool, limit: usize) -> Result<Vec<StoredPlayTable>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT id, spec, finished FROM play_tables WHERE finished = 0 OR ?1 = 0 ORDER BY id DESC LIMIT ?2",
                args![unfinished, limit],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(StoredPlayTable {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    finished: r.get(2)?,
                })
            })
            .collect()
    }

    fn append_journal(&self, entries: &[(i64, u64, String)]) -> Result<()> {
        self.change(|tx| {
            for (t, seq, e) in entries {
                tx.exec(
                    "INSERT INTO play_journal (play_table, seq, entry) VALUES (?1, ?2, ?3)",
                    args![*t, *seq, e],
                )?;
            }
            Ok(())
        })
    }

    fn journal(&self, table: i64) -> Result<Vec<String>> {
        self.read(|c| {
            c.column(
                "SELECT entry FROM play_journal WHERE play_table = ?1 ORDER BY seq",
                args![table],
            )
        })
    }

    fn save_hand(
        &self,
        table: i64,
        hand_no: u32,
        deal_key: Option<&str>,
        summary: &str,
        log: &str,
    ) -> Result<i64> {
        let h = NewHand {
            table,
            hand_no,
            deal_key: deal_key.map(str::to_string),
            summary: summary.to_string(),
            log: log.to_string(),
        };
        self.change(|tx| keep_hand(tx, &h))
    }

    fn write_play(&self, w: &PlayWrite) -> Result<()> {
        self.change(|tx| {
            check_fences(tx, &w.fences)?;
            for (t, seq, e) in &w.entries {
                // Each line says which owner of the table wrote it.
                let fence = w.fences.iter().find(|(f, _)| f == t).map(|&(_, f)| f);
                tx.exec(
                    "INSERT INTO play_journal (play_table, seq, entry, fence) VALUES (?1, ?2, ?3, ?4)",
                    args![*t, *seq, e, fence],
                )?;
            }
            for h in &w.hands {
                keep_hand(tx, h)?;
            }
            for (id, spec) in &w.finished {
                tx.exec(
                    "UPDATE play_tables SET spec = ?2, finished = 1 WHERE id = ?1",
                    args![*id, spec],
                )?;
            }
            for (id, line) in &w.lobby {
                lobby_line(tx, *id, line)?;
            }
            Ok(())
        })
    }

    fn writers(&self) -> usize {
        self.backend.writers()
    }

    fn lobby_lines(&self, ended_since: i64) -> Result<Vec<(i64, String)>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT l.play_table, l.line FROM play_lobby l JOIN play_tables t ON t.id = l.play_table \
                 WHERE t.finished = 0 OR l.updated > ?1 ORDER BY l.play_table DESC",
                args![ended_since],
            )
        })?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }

    fn set_lobby_line(&self, table: i64, line: &str) -> Result<()> {
        self.change(|tx| lobby_line(tx, table, line))
    }

    fn drop_lobby_line(&self, table: i64) -> Result<()> {
        self.change(|tx| {
            tx.exec("DELETE FROM play_lobby WHERE play_table = ?1", args![table])?;
            Ok(())
        })
    }

    fn hand(&self, id: i64) -> Result<StoredHand> {
        let r = self
            .read(|c| c.opt(&format!("{HAND_COLUMNS} WHERE id = ?1"), args![id]))?
            .ok_or_else(|| StoreError::NotFound(format!("hand {id}")))?;
        stored_hand(&r)
    }

    fn hands_of_table(&self, table: i64) -> Result<Vec<StoredHand>> {
        hands(self.read(|c| {
            c.query(
                &format!("{HAND_COLUMNS} WHERE play_table = ?1 ORDER BY hand_no"),
                args![table],
            )
        })?)
    }

    fn deal_summaries(&self, key: &str, prefix: bool) -> Result<Vec<StoredHand>> {
        const COLUMNS: &str =
            "SELECT id, play_table, hand_no, deal_key, summary, '', at FROM play_hands";
        hands(self.read(|c| {
            if prefix {
                let pattern = format!(
                    "{}%",
                    key.replace('\\', "\\\\")
                        .replace('%', "\\%")
                        .replace('_', "\\_")
                );
                c.query(
                    &format!("{COLUMNS} WHERE deal_key LIKE ?1 ESCAPE '\\' ORDER BY id"),
                    args![pattern],
                )
            } else {
                c.query(
                    &format!("{COLUMNS} WHERE deal_key = ?1 ORDER BY id"),
                    args![key],
                )
            }
        })?)
    }

    fn deal_field(&self, key: &str, upto: i64, limit: usize) -> Result<Vec<StoredHand>> {
        let mut out = hands(self.read(|c| {
            c.query(
                "SELECT id, play_table, hand_no, deal_key, summary, '', at FROM play_hands \
                 WHERE deal_key = ?1 AND id <= ?2 ORDER BY id DESC LIMIT ?3",
                args![key, upto, limit],
            )
        })?)?;
        out.reverse();
        Ok(out)
    }

    fn hands_of_deal(&self, deal_key: &str, limit: usize) -> Result<Vec<StoredHand>> {
        hands(self.read(|c| {
            c.query(
                &format!("{HAND_COLUMNS} WHERE deal_key = ?1 ORDER BY id LIMIT ?2"),
                args![deal_key, limit],
            )
        })?)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_hands_people_are_read_from_its_summary() {
        assert_eq!(
            super::persons_of(r#"{"persons":[3,null,7,null],"names":[]}"#),
            vec![(0, 3), (2, 7)]
        );
        assert!(super::persons_of("{}").is_empty());
    }
}
