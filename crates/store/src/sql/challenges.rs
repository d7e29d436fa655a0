//! Challenges and the deals people took up.

use super::{args, new_play_table, now, Backend, Db, SqlExt};
use crate::{ChallengePlay, ChallengeStore, Result, StoreError, StoredChallenge};

impl<B: Backend> ChallengeStore for Db<B> {
    fn create_challenge(&self, spec: &str) -> Result<i64> {
        self.change(|tx| {
            tx.insert(
                "INSERT INTO challenges (spec, created) VALUES (?1, ?2) RETURNING id",
                args![spec, now()],
            )
        })
    }

    fn update_challenge(&self, id: i64, spec: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE challenges SET spec = ?2 WHERE id = ?1",
                args![id, spec],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("challenge {id}")));
            }
            Ok(())
        })
    }

    fn challenge(&self, id: i64) -> Result<StoredChallenge> {
        let r = self
            .read(|c| c.opt("SELECT spec FROM challenges WHERE id = ?1", args![id]))?
            .ok_or_else(|| StoreError::NotFound(format!("challenge {id}")))?;
        Ok(StoredChallenge {
            id,
            spec: r.get(0)?,
        })
    }

    fn challenges(&self, limit: usize) -> Result<Vec<StoredChallenge>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT id, spec FROM challenges ORDER BY id DESC LIMIT ?1",
                args![limit],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(StoredChallenge {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                })
            })
            .collect()
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
            let taken = tx.opt(
                "SELECT play_table FROM challenge_plays WHERE challenge = ?1 AND person = ?2 AND deal_index = ?3",
                args![challenge, person, deal_index],
            )?;
            if taken.is_some() {
                return Err(StoreError::Invalid(format!(
                    "deal {} of challenge {challenge}: you have already played it",
                    deal_index + 1
                )));
            }
            let table = new_play_table(tx, table_spec, false, journal)?;
            tx.exec(
                "INSERT INTO challenge_plays (challenge, person, deal_index, seat, play_table) VALUES (?1, ?2, ?3, ?4, ?5)",
                args![challenge, person, deal_index, seat, table],
            )?;
            Ok(table)
        })
    }

    fn challenge_plays(&self, challenge: i64) -> Result<Vec<ChallengePlay>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT person, deal_index, seat, play_table FROM challenge_plays WHERE challenge = ?1 ORDER BY rowid",
                args![challenge],
            )
        })?;
        rows.iter()
            .map(|r| {
                Ok(ChallengePlay {
                    person: r.get(0)?,
                    deal_index: r.get(1)?,
                    seat: r.get(2)?,
                    play_table: r.get(3)?,
                })
            })
            .collect()
    }
}
