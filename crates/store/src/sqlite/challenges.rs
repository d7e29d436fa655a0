//! Challenges in SQLite.

use rusqlite::{params, OptionalExtension};

use super::play::new_play_table;
use super::{backend, SqliteStore, NOW};
use crate::{ChallengePlay, ChallengeStore, Result, StoreError, StoredChallenge};

impl ChallengeStore for SqliteStore {
    fn create_challenge(&self, spec: &str) -> Result<i64> {
        self.change(|tx| {
            tx.execute(
                &format!("INSERT INTO challenges (spec, created) VALUES (?1, {NOW})"),
                [spec],
            )
            .map_err(backend)?;
            Ok(tx.last_insert_rowid())
        })
    }

    fn update_challenge(&self, id: i64, spec: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "UPDATE challenges SET spec = ?2 WHERE id = ?1",
                    params![id, spec],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("challenge {id}")));
            }
            Ok(())
        })
    }

    fn challenge(&self, id: i64) -> Result<StoredChallenge> {
        self.lock()
            .query_row("SELECT spec FROM challenges WHERE id = ?1", [id], |r| {
                Ok(StoredChallenge {
                    id,
                    spec: r.get(0)?,
                })
            })
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("challenge {id}")))
    }

    fn challenges(&self, limit: usize) -> Result<Vec<StoredChallenge>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, spec FROM challenges ORDER BY id DESC LIMIT ?1")
            .map_err(backend)?;
        let rows = st
            .query_map([limit as i64], |r| {
                Ok(StoredChallenge {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn open_challenge_table(
        &self,
        challenge: i64,
        person: i64,
        deal_index: u32,
        seat: u8,
        table_spec: &str,
        journal: &[String],
    ) -> Result<i64> {
        self.change(|tx| {
            let taken: Option<i64> = tx
                .query_row(
                    "SELECT play_table FROM challenge_plays WHERE challenge = ?1 AND person = ?2 AND deal_index = ?3",
                    params![challenge, person, deal_index],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            if taken.is_some() {
                return Err(StoreError::Invalid(format!(
                    "deal {} of challenge {challenge}: you have already played it",
                    deal_index + 1
                )));
            }
            let table = new_play_table(tx, table_spec, false, journal)?;
            tx.execute(
                "INSERT INTO challenge_plays (challenge, person, deal_index, seat, play_table) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![challenge, person, deal_index, seat, table],
            )
            .map_err(backend)?;
            Ok(table)
        })
    }

    fn challenge_plays(&self, challenge: i64) -> Result<Vec<ChallengePlay>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT person, deal_index, seat, play_table FROM challenge_plays WHERE challenge = ?1 ORDER BY rowid")
            .map_err(backend)?;
        let rows = st
            .query_map([challenge], |r| {
                Ok(ChallengePlay {
                    person: r.get(0)?,
                    deal_index: r.get(1)?,
                    seat: r.get(2)?,
                    play_table: r.get(3)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }
}
