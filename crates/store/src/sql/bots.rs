//! Bot accounts and their API tokens over SQL.

use super::sessions::token_hash;
use super::{args, audit, now, Backend, Db, Row, SqlExt};
use crate::{ApiToken, BotStore, Person, Result, SessionStore, StoreError, MAX_TOKENS};

fn token(r: &Row) -> Result<ApiToken> {
    Ok(ApiToken {
        id: r.get(0)?,
        created: r.get(1)?,
        revoked: r.get(2)?,
    })
}

impl<B: Backend> BotStore for Db<B> {
    fn make_bot(&self, person: i64) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE people SET bot = 1 WHERE id = ?1 AND hash IS NOT NULL",
                args![person],
            )?;
            if n == 0 {
                return Err(StoreError::Invalid(format!(
                    "player {person}: only an account can be a bot account (a guest cannot)"
                )));
            }
            audit(
                tx,
                None,
                &format!("player {person}"),
                "made a bot account",
                None,
                None,
            )
        })
    }

    fn add_api_token(&self, person: i64, token_text: &str) -> Result<ApiToken> {
        self.change(|tx| {
            let bot: Option<bool> = tx
                .opt("SELECT bot FROM people WHERE id = ?1", args![person])?
                .map(|r| r.get(0))
                .transpose()?;
            match bot {
                None => return Err(StoreError::NotFound(format!("player {person}"))),
                Some(false) => {
                    return Err(StoreError::Invalid(
                        "token: only a bot account has API tokens".into(),
                    ))
                }
                Some(true) => {}
            }
            let live: i64 = tx
                .one(
                    "SELECT count(*) FROM api_tokens WHERE person = ?1 AND revoked IS NULL",
                    args![person],
                )?
                .get(0)?;
            if live >= MAX_TOKENS as i64 {
                return Err(StoreError::Invalid(format!(
                    "token: {live} tokens in use already (at most {MAX_TOKENS}); revoke one first"
                )));
            }
            let created = now();
            let id = tx.insert(
                "INSERT INTO api_tokens (person, hash, created) VALUES (?1, ?2, ?3) RETURNING id",
                args![person, token_hash(token_text), created.as_str()],
            )?;
            Ok(ApiToken {
                id,
                created,
                revoked: None,
            })
        })
    }

    fn api_tokens(&self, person: i64) -> Result<Vec<ApiToken>> {
        self.read(|c| {
            c.query(
                "SELECT id, created, revoked FROM api_tokens WHERE person = ?1 ORDER BY id DESC",
                args![person],
            )
        })?
        .iter()
        .map(token)
        .collect()
    }

    fn revoke_api_token(&self, person: i64, id: i64) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE api_tokens SET revoked = ?3 WHERE id = ?1 AND person = ?2 AND revoked IS NULL",
                args![id, person, now()],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!(
                    "token {id}: none of yours that is still in use"
                )));
            }
            Ok(())
        })
    }

    fn person_of_token(&self, token_text: &str) -> Result<Option<Person>> {
        let person: Option<i64> = self
            .read(|c| {
                c.opt(
                    "SELECT t.person FROM api_tokens t JOIN people p ON p.id = t.person \
                     WHERE t.hash = ?1 AND t.revoked IS NULL AND p.bot = 1",
                    args![token_hash(token_text)],
                )
            })?
            .map(|r| r.get(0))
            .transpose()?;
        person.map(|p| self.person(p)).transpose()
    }
}
