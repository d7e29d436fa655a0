//! The director's password, sessions and people in SQLite.

use rusqlite::{params, OptionalExtension};

use super::{audit, backend, SqliteStore, NOW};
use crate::{
    name_key, session_hours, EventId, Person, Result, Role, Session, SessionInfo, SessionStore,
    StoreError,
};

/// Sessions are looked up by the SHA-256 of their token, so a copy of the database holds
/// no token anyone could sign in with.
fn token_hash(token: &str) -> String {
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

fn role_of(
    role: &str,
    event: Option<i64>,
    table: Option<u32>,
    person: Option<i64>,
) -> Option<Role> {
    Some(match (role, event, table, person) {
        ("director", ..) => Role::Director,
        ("table", Some(event), Some(table), _) => Role::Table { event, table },
        ("player", _, _, Some(person)) => Role::Player { person },
        _ => return None,
    })
}

impl SessionStore for SqliteStore {
    fn director_hash(&self) -> Result<Option<String>> {
        self.lock()
            .query_row("SELECT value FROM meta WHERE key = 'director'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(backend)
    }

    fn set_director_hash(&self, hash: &str, who: &str) -> Result<()> {
        self.change(|tx| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('director', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1",
                [hash],
            )
            .map_err(backend)?;
            // A new password ends every director session: whoever knew the old one is out.
            tx.execute("DELETE FROM sessions WHERE role = 'director'", [])
                .map_err(backend)?;
            audit(tx, None, who, "director password set", None, None)
        })
    }

    fn set_first_director_hash(&self, hash: &str, who: &str) -> Result<bool> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "INSERT INTO meta (key, value) VALUES ('director', ?1) ON CONFLICT(key) DO NOTHING",
                    [hash],
                )
                .map_err(backend)?;
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
            tx.execute(&format!("DELETE FROM sessions WHERE expires <= {NOW}"), [])
                .map_err(backend)?;
            tx.execute(
                &format!(
                    "INSERT INTO sessions (token, role, event, table_no, csrf, created, person, expires) \
                     VALUES (?1, ?2, ?3, ?4, ?5, {NOW}, ?6, strftime('%Y-%m-%dT%H:%M:%fZ','now','+{hours} hours'))"
                ),
                params![token_hash(&s.token), role, event, table, s.csrf, person],
            )
            .map_err(backend)?;
            Ok(())
        })
    }

    fn session(&self, token: &str) -> Result<Option<Session>> {
        type Row = (String, Option<i64>, Option<u32>, String, Option<i64>);
        let row: Option<Row> = self
            .lock()
            .query_row(
                &format!("SELECT role, event, table_no, csrf, person FROM sessions WHERE token = ?1 AND expires > {NOW}"),
                [token_hash(token)],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()
            .map_err(backend)?;
        Ok(row.and_then(|(role, event, table, csrf, person)| {
            Some(Session {
                token: token.to_string(),
                role: role_of(&role, event, table, person)?,
                csrf,
            })
        }))
    }

    fn end_session(&self, token: &str) -> Result<()> {
        self.change(|tx| {
            tx.execute("DELETE FROM sessions WHERE token = ?1", [token_hash(token)])
                .map_err(backend)?;
            Ok(())
        })
    }

    fn sessions(&self) -> Result<Vec<SessionInfo>> {
        type Row = (
            i64,
            String,
            Option<i64>,
            Option<u32>,
            Option<i64>,
            String,
            String,
        );
        let c = self.lock();
        let mut st = c
            .prepare(&format!(
                "SELECT rowid, role, event, table_no, person, created, expires FROM sessions \
                 WHERE expires > {NOW} ORDER BY rowid DESC"
            ))
            .map_err(backend)?;
        let rows: Vec<Row> = st
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<_>>()
            .map_err(backend)?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, role, event, table, person, created, expires)| {
                Some(SessionInfo {
                    id,
                    role: role_of(&role, event, table, person)?,
                    created,
                    expires,
                })
            })
            .collect())
    }

    fn end_session_id(&self, id: i64, who: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute("DELETE FROM sessions WHERE rowid = ?1", [id])
                .map_err(backend)?;
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
            tx.execute(
                &format!(
                    "INSERT INTO people (name, name_key, hash, created) VALUES (?1, ?2, ?3, {NOW})"
                ),
                params![name, key, hash],
            )
            .map_err(backend)?;
            Ok(Person {
                id: tx.last_insert_rowid(),
                name: name.to_string(),
                account: hash.is_some(),
            })
        })
    }

    fn person(&self, id: i64) -> Result<Person> {
        self.lock()
            .query_row(
                "SELECT name, hash IS NOT NULL FROM people WHERE id = ?1",
                [id],
                |r| {
                    Ok(Person {
                        id,
                        name: r.get(0)?,
                        account: r.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("player {id}")))
    }

    fn prefs(&self, person: i64) -> Result<Option<String>> {
        self.lock()
            .query_row("SELECT prefs FROM people WHERE id = ?1", [person], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("player {person}")))
    }

    fn set_prefs(&self, person: i64, prefs: &str) -> Result<()> {
        let n = self
            .lock()
            .execute(
                "UPDATE people SET prefs = ?2 WHERE id = ?1",
                rusqlite::params![person, prefs],
            )
            .map_err(backend)?;
        if n == 0 {
            return Err(StoreError::NotFound(format!("player {person}")));
        }
        Ok(())
    }

    fn account(&self, name: &str) -> Result<Option<(Person, String)>> {
        self.lock()
            .query_row(
                "SELECT id, name, hash FROM people WHERE name_key = ?1 AND hash IS NOT NULL",
                [name_key(name)],
                |r| {
                    Ok((
                        Person {
                            id: r.get(0)?,
                            name: r.get(1)?,
                            account: true,
                        },
                        r.get(2)?,
                    ))
                },
            )
            .optional()
            .map_err(backend)
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
pub(super) fn refuse_taken(tx: &rusqlite::Transaction, name: &str, key: &str) -> Result<()> {
    let taken: Option<String> = tx
        .query_row(
            "SELECT name FROM people WHERE name_key = ?1 AND hash IS NOT NULL",
            [key],
            |r| r.get(0),
        )
        .optional()
        .map_err(backend)?;
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
