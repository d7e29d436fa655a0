//! Players' histories: their hands, accounts made from guests, deleted accounts.

use super::sessions::{checked_name, refuse_taken};
use super::tables::stored_hand;
use super::{args, Backend, Db, SqlExt};
use crate::history::DELETED;
use crate::{HistoryStore, Person, Result, StoreError, StoredHand};

impl<B: Backend> HistoryStore for Db<B> {
    fn hands_of_person(
        &self,
        person: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<(StoredHand, usize)>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT h.id, h.play_table, h.hand_no, h.deal_key, h.summary, h.log, h.at, p.seat \
                 FROM play_hand_people p JOIN play_hands h ON h.id = p.hand \
                 WHERE p.person = ?1 ORDER BY h.id DESC LIMIT ?2 OFFSET ?3",
                args![person, limit, offset],
            )
        })?;
        rows.iter()
            .map(|r| Ok((stored_hand(r)?, r.get(7)?)))
            .collect()
    }

    fn hand_count_of_person(&self, person: i64) -> Result<usize> {
        self.read(|c| {
            c.one(
                "SELECT count(*) FROM play_hand_people WHERE person = ?1",
                args![person],
            )
        })?
        .get(0)
    }

    fn compared_hands(&self) -> Result<Vec<StoredHand>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT id, play_table, hand_no, deal_key, summary, '', at FROM play_hands \
                 WHERE deal_key IS NOT NULL ORDER BY id",
                &[],
            )
        })?;
        rows.iter().map(stored_hand).collect()
    }

    fn last_hand_id(&self) -> Result<i64> {
        self.read(|c| c.one("SELECT COALESCE(MAX(id), 0) FROM play_hands", &[]))?
            .get(0)
    }

    fn make_account(&self, person: i64, name: &str, hash: &str) -> Result<Person> {
        let (name, key) = checked_name(name)?;
        self.change(|tx| {
            let was = tx.opt(
                "SELECT hash FROM people WHERE id = ?1 AND deleted = 0",
                args![person],
            )?;
            match was.map(|r| r.get::<Option<String>>(0)).transpose()? {
                None => return Err(StoreError::NotFound(format!("player {person}"))),
                Some(Some(_)) => {
                    return Err(StoreError::Invalid(
                        "name: you already have an account".into(),
                    ))
                }
                Some(None) => {}
            }
            refuse_taken(tx, name, &key)?;
            tx.exec(
                "UPDATE people SET name = ?2, name_key = ?3, hash = ?4 WHERE id = ?1",
                args![person, name, key.as_str(), hash],
            )?;
            Ok(Person {
                id: person,
                name: name.to_string(),
                account: true,
                bot: false,
            })
        })
    }

    fn set_password(&self, person: i64, hash: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE people SET hash = ?2 WHERE id = ?1 AND hash IS NOT NULL",
                args![person, hash],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("account {person}")));
            }
            Ok(())
        })
    }

    fn delete_person(&self, person: i64) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE people SET name = ?2, name_key = NULL, hash = NULL, prefs = NULL, \
                 deleted = 1 WHERE id = ?1 AND deleted = 0",
                args![person, DELETED],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("player {person}")));
            }
            tx.exec("DELETE FROM sessions WHERE person = ?1", args![person])?;
            // Their training is theirs alone: it goes (the problem of the day's counts too).
            for table in ["drills", "drill_answers", "drill_sources"] {
                tx.exec(
                    &format!("DELETE FROM {table} WHERE person = ?1"),
                    args![person],
                )?;
            }
            // Their name on sign-up lists goes; their place stays as it was.
            let acts = tx.query(
                "SELECT id, body FROM signup_acts WHERE body LIKE ?1",
                args![format!("%\"who\":{person}%")],
            )?;
            for r in acts {
                let (id, body): (i64, String) = (r.get(0)?, r.get(1)?);
                let mut act: tournament::signup::Act = super::parse(&body, "sign-up act")?;
                if let tournament::signup::Act::Join { who, name }
                | tournament::signup::Act::Substitute { who, name } = &mut act
                {
                    if *who == person {
                        *name = DELETED.to_string();
                        tx.exec(
                            "UPDATE signup_acts SET body = ?2 WHERE id = ?1",
                            args![id, super::json(&act)],
                        )?;
                    }
                }
            }
            // The name each hand showed goes too; points and seats stay as they were.
            let held = tx.query(
                "SELECT h.id, h.summary, p.seat FROM play_hand_people p \
                 JOIN play_hands h ON h.id = p.hand WHERE p.person = ?1",
                args![person],
            )?;
            for r in held {
                let (hand, summary, seat): (i64, String, usize) = (r.get(0)?, r.get(1)?, r.get(2)?);
                let mut v: serde_json::Value = super::parse(&summary, "hand summary")?;
                if let Some(name) = v
                    .get_mut("names")
                    .and_then(|n| n.as_array_mut())
                    .and_then(|n| n.get_mut(seat))
                {
                    *name = serde_json::Value::from(DELETED);
                    tx.exec(
                        "UPDATE play_hands SET summary = ?2 WHERE id = ?1",
                        args![hand, super::json(&v)],
                    )?;
                }
            }
            Ok(())
        })
    }
}
