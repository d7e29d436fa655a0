//! [`HistoryStore`] on SQLite.

use rusqlite::{params, OptionalExtension};

use super::play::stored_hand;
use super::{backend, SqliteStore};
use crate::history::DELETED;
use crate::{HistoryStore, Person, Result, StoreError, StoredHand};

impl HistoryStore for SqliteStore {
    fn hands_of_person(
        &self,
        person: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<(StoredHand, usize)>> {
        let c = self.lock();
        let mut st = c
            .prepare(
                "SELECT h.id, h.play_table, h.hand_no, h.deal_key, h.summary, h.log, h.at, p.seat \
                 FROM play_hand_people p JOIN play_hands h ON h.id = p.hand \
                 WHERE p.person = ?1 ORDER BY h.id DESC LIMIT ?2 OFFSET ?3",
            )
            .map_err(backend)?;
        let rows = st
            .query_map(params![person, limit as i64, offset as i64], |r| {
                Ok((stored_hand(r)?, r.get::<_, i64>(7)? as usize))
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn hand_count_of_person(&self, person: i64) -> Result<usize> {
        self.lock()
            .query_row(
                "SELECT COUNT(*) FROM play_hand_people WHERE person = ?1",
                [person],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as usize)
            .map_err(backend)
    }

    fn compared_hands(&self) -> Result<Vec<StoredHand>> {
        let c = self.lock();
        let mut st = c
            .prepare(
                "SELECT id, play_table, hand_no, deal_key, summary, '', at FROM play_hands \
                 WHERE deal_key IS NOT NULL ORDER BY id",
            )
            .map_err(backend)?;
        let rows = st.query_map([], stored_hand).map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn last_hand_id(&self) -> Result<i64> {
        self.lock()
            .query_row("SELECT COALESCE(MAX(id), 0) FROM play_hands", [], |r| {
                r.get(0)
            })
            .map_err(backend)
    }

    fn make_account(&self, person: i64, name: &str, hash: &str) -> Result<Person> {
        let (name, key) = super::sessions::checked_name(name)?;
        self.change(|tx| {
            let was: Option<Option<String>> = tx
                .query_row(
                    "SELECT hash FROM people WHERE id = ?1 AND deleted = 0",
                    [person],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            match was {
                None => return Err(StoreError::NotFound(format!("player {person}"))),
                Some(Some(_)) => {
                    return Err(StoreError::Invalid(
                        "name: you already have an account".into(),
                    ))
                }
                Some(None) => {}
            }
            super::sessions::refuse_taken(tx, name, &key)?;
            tx.execute(
                "UPDATE people SET name = ?2, name_key = ?3, hash = ?4 WHERE id = ?1",
                params![person, name, key, hash],
            )
            .map_err(backend)?;
            Ok(Person {
                id: person,
                name: name.to_string(),
                account: true,
            })
        })
    }

    fn set_password(&self, person: i64, hash: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "UPDATE people SET hash = ?2 WHERE id = ?1 AND hash IS NOT NULL",
                    params![person, hash],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("account {person}")));
            }
            Ok(())
        })
    }

    fn delete_person(&self, person: i64) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "UPDATE people SET name = ?2, name_key = NULL, hash = NULL, prefs = NULL, \
                     deleted = 1 WHERE id = ?1 AND deleted = 0",
                    params![person, DELETED],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("player {person}")));
            }
            tx.execute("DELETE FROM sessions WHERE person = ?1", [person])
                .map_err(backend)?;
            // The name each hand showed goes too; points and seats stay as they were.
            tx.execute(
                "UPDATE play_hands SET summary = json_set(summary, \
                 '$.names[' || (SELECT seat FROM play_hand_people p \
                   WHERE p.hand = play_hands.id AND p.person = ?1 LIMIT 1) || ']', ?2) \
                 WHERE id IN (SELECT hand FROM play_hand_people WHERE person = ?1)",
                params![person, DELETED],
            )
            .map_err(backend)?;
            Ok(())
        })
    }
}
