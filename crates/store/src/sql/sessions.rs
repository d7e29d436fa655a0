//! The director's password, sessions and people.

use super::{args, audit, hours_from_now, now, Backend, Db, Row, Sql, SqlExt};
use crate::{
    name_key, session_hours, EventId, Person, Result, Role, Session, SessionInfo, SessionStore,
    StoreError,
};

/// Sessions are looked up by the SHA-256 of their token, so a copy of the database holds
/// no token anyone could sign in with.
pub(super) fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn role_columns(role: &Role) -> (&'static str, Option<EventId>, Option<u32>, Option<i64>) {
    match *role {
        Role::Director => ("director", None, None, None),
        Role::Table { event, table } => ("table", Some(event), Some(table), None),
        Role::Player { person } => ("player", None, None, Some(person)),
    }
}

/// The role of a session row whose columns `at..at + 4` are role, event, table, person.
fn role_of(r: &Row, at: usize) -> Result<Option<Role>> {
    let role: String = r.get(at)?;
    let (event, table, person): (Option<i64>, Option<u32>, Option<i64>) =
        (r.get(at + 1)?, r.get(at + 2)?, r.get(at + 3)?);
    Ok(Some(match (role.as_str(), event, table, person) {
        ("director", ..) => Role::Director,
        ("table", Some(event), Some(table), _) => Role::Table { event, table },
        ("player", _, _, Some(person)) => Role::Player { person },
        _ => return Ok(None),
    }))
}

impl<B: Backend> SessionStore for Db<B> {
    fn attempts(&self, key: &str, since: i64) -> Result<Vec<i64>> {
        self.read(|c| {
            c.column(
                "SELECT at FROM attempts WHERE key = ?1 AND at > ?2 ORDER BY at",
                args![key, since],
            )
        })
    }

    fn add_attempt(&self, key: &str, at: i64, forget_before: i64) -> Result<()> {
        self.change(|tx| {
            tx.exec("DELETE FROM attempts WHERE at < ?1", args![forget_before])?;
            tx.exec(
                "INSERT INTO attempts (key, at) VALUES (?1, ?2)",
                args![key, at],
            )?;
            Ok(())
        })
    }

    fn director_hash(&self) -> Result<Option<String>> {
        match self.read(|c| c.opt("SELECT value FROM meta WHERE key = 'director'", &[]))? {
            Some(r) => Ok(Some(r.get(0)?)),
            None => Ok(None),
        }
    }

    fn set_director_hash(&self, hash: &str, who: &str) -> Result<()> {
        self.change(|tx| {
            tx.exec(
                "INSERT INTO meta (key, value) VALUES ('director', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1",
                args![hash],
            )?;
            // A new password ends every director session: whoever knew the old one is out.
            tx.exec("DELETE FROM sessions WHERE role = 'director'", &[])?;
            audit(tx, None, who, "director password set", None, None)
        })
    }

    fn set_first_director_hash(&self, hash: &str, who: &str) -> Result<bool> {
        self.change(|tx| {
            let n = tx.exec(
                "INSERT INTO meta (key, value) VALUES ('director', ?1) ON CONFLICT (key) DO NOTHING",
                args![hash],
            )?;
            if n == 1 {
                audit(tx, None, who, "director password set", None, None)?;
            }
            Ok(n == 1)
        })
    }

    fn create_session(&self, s: &Session) -> Result<()> {
        let (role, event, table, person) = role_columns(&s.role);
        let hours = session_hours(&s.role);
        self.change(|tx| {
            let now = now();
            tx.exec("DELETE FROM sessions WHERE expires <= ?1", args![now.as_str()])?;
            tx.exec(
                "INSERT INTO sessions (token, role, event, table_no, csrf, created, person, expires) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                args![
                    token_hash(&s.token),
                    role,
                    event,
                    table,
                    s.csrf.as_str(),
                    now.as_str(),
                    person,
                    hours_from_now(hours.into())
                ],
            )?;
            Ok(())
        })
    }

    fn session(&self, token: &str) -> Result<Option<Session>> {
        let row = self.read(|c| {
            c.opt(
                "SELECT csrf, role, event, table_no, person FROM sessions WHERE token = ?1 AND expires > ?2",
                args![token_hash(token), now()],
            )
        })?;
        let Some(r) = row else { return Ok(None) };
        let csrf: String = r.get(0)?;
        Ok(role_of(&r, 1)?.map(|role| Session {
            token: token.to_string(),
            role,
            csrf,
        }))
    }

    fn end_session(&self, token: &str) -> Result<()> {
        self.change(|tx| {
            tx.exec(
                "DELETE FROM sessions WHERE token = ?1",
                args![token_hash(token)],
            )?;
            Ok(())
        })
    }

    fn sessions(&self) -> Result<Vec<SessionInfo>> {
        let rows = self.read(|c| {
            c.query(
                "SELECT rowid, role, event, table_no, person, created, expires FROM sessions \
                 WHERE expires > ?1 ORDER BY rowid DESC",
                args![now()],
            )
        })?;
        let mut out = Vec::new();
        for r in &rows {
            if let Some(role) = role_of(r, 1)? {
                out.push(SessionInfo {
                    id: r.get(0)?,
                    role,
                    created: r.get(5)?,
                    expires: r.get(6)?,
                });
            }
        }
        Ok(out)
    }

    fn end_session_id(&self, id: i64, who: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec("DELETE FROM sessions WHERE rowid = ?1", args![id])?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("session {id}")));
            }
            audit(tx, None, who, &format!("session {id} ended"), None, None)
        })
    }

    fn create_person(&self, name: &str, hash: Option<&str>) -> Result<Person> {
        let (name, key) = checked_name(name)?;
        self.change(|tx| {
            refuse_taken(tx, name, &key)?;
            let id = tx.insert(
                "INSERT INTO people (name, name_key, hash, created) VALUES (?1, ?2, ?3, ?4) RETURNING id",
                args![name, key.as_str(), hash, now()],
            )?;
            Ok(Person {
                id,
                name: name.to_string(),
                account: hash.is_some(),
                bot: false,
            })
        })
    }

    fn person(&self, id: i64) -> Result<Person> {
        let r = self
            .read(|c| {
                c.opt(
                    "SELECT name, CASE WHEN hash IS NULL THEN 0 ELSE 1 END, bot FROM people WHERE id = ?1",
                    args![id],
                )
            })?
            .ok_or_else(|| StoreError::NotFound(format!("player {id}")))?;
        Ok(Person {
            id,
            name: r.get(0)?,
            account: r.get(1)?,
            bot: r.get(2)?,
        })
    }

    fn prefs(&self, person: i64) -> Result<Option<String>> {
        self.read(|c| c.opt("SELECT prefs FROM people WHERE id = ?1", args![person]))?
            .ok_or_else(|| StoreError::NotFound(format!("player {person}")))?
            .get(0)
    }

    fn set_prefs(&self, person: i64, prefs: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx.exec(
                "UPDATE people SET prefs = ?2 WHERE id = ?1",
                args![person, prefs],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("player {person}")));
            }
            Ok(())
        })
    }

    fn account(&self, name: &str) -> Result<Option<(Person, String)>> {
        let row = self.read(|c| {
            c.opt(
                "SELECT id, name, hash, bot FROM people WHERE name_key = ?1 AND hash IS NOT NULL",
                args![name_key(name)],
            )
        })?;
        let Some(r) = row else { return Ok(None) };
        Ok(Some((
            Person {
                id: r.get(0)?,
                name: r.get(1)?,
                account: true,
                bot: r.get(3)?,
            },
            r.get(2)?,
        )))
    }
}

/// A person's name trimmed, if it has 1 to 40 characters, and its key.
pub(super) fn checked_name(name: &str) -> Result<(&str, String)> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 40 {
        return Err(StoreError::Invalid(
            "name: 1 to 40 characters, please".into(),
        ));
    }
    Ok((name, name_key(name)))
}

/// Refuses `name` (with its `key`) when an account's name looks like it: an account's name
/// is its own, and no other account, and no guest, may look like it.
pub(super) fn refuse_taken(tx: &mut dyn Sql, name: &str, key: &str) -> Result<()> {
    let taken: Option<String> = match tx.opt(
        "SELECT name FROM people WHERE name_key = ?1 AND hash IS NOT NULL",
        args![key],
    )? {
        Some(r) => Some(r.get(0)?),
        None => None,
    };
    match taken {
        Some(other) if other == name => Err(StoreError::Invalid(format!(
            "name: an account called '{name}' already exists"
        ))),
        Some(other) => Err(StoreError::Invalid(format!(
            "name: an account called '{other}' already exists, and '{name}' looks like it"
        ))),
        None => Ok(()),
    }
}
