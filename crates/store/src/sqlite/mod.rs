//! The SQLite backend: one file, WAL, one transaction per change; one module per domain.

mod challenges;
mod events;
mod history;
mod online;
mod play;
mod results;
mod sessions;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use tournament::movement::Movement;

use crate::schema::MIGRATIONS;
use crate::{name_key, EventId, Result, StoreError};

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("plain data serialises")
}

fn parse<T: serde::de::DeserializeOwned>(s: &str, what: &str) -> Result<T> {
    serde_json::from_str(s).map_err(|e| StoreError::Backend(format!("stored {what}: {e}")))
}

/// The SQLite store: one database file, WAL, every change in one transaction.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating when missing) the database file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<SqliteStore> {
        // Every failure to open names the file: the user may have given the wrong one.
        let named = |what: String| {
            StoreError::Invalid(format!(
                "{}: cannot be used as dupmj's database: {what}",
                path.display()
            ))
        };
        let conn = Connection::open(path).map_err(|e| named(e.to_string()))?;
        SqliteStore::init(conn).map_err(|e| match e {
            StoreError::Backend(s) | StoreError::Invalid(s) | StoreError::NotFound(s) => named(s),
        })
    }

    /// Copies the whole database to `out` while it is in use, through SQLite's online
    /// backup (copying the file would miss what is still in the write-ahead log). The copy
    /// is written beside `out` and renamed into place, so `out` is never half-written; an
    /// existing `out` is refused.
    pub fn backup_to(&self, out: &Path) -> Result<()> {
        if out.exists() {
            return Err(StoreError::Invalid(format!(
                "{}: already exists; give a new file name",
                out.display()
            )));
        }
        if let Some(dir) = out
            .parent()
            .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
        {
            return Err(StoreError::Invalid(format!(
                "{}: the folder {} does not exist",
                out.display(),
                dir.display()
            )));
        }
        let part = out.with_extension("part");
        let _ = std::fs::remove_file(&part);
        let named = |e: rusqlite::Error| StoreError::Invalid(format!("{}: {e}", out.display()));
        {
            let mut dst = Connection::open(&part).map_err(named)?;
            let src = self.lock();
            let b = rusqlite::backup::Backup::new(&src, &mut dst).map_err(named)?;
            b.run_to_completion(256, std::time::Duration::ZERO, None)
                .map_err(named)?;
        }
        std::fs::rename(&part, out)
            .map_err(|e| StoreError::Invalid(format!("{}: {e}", out.display())))
    }

    /// Opens a database read-only, to show that such a database is refused.
    #[doc(hidden)]
    pub fn open_read_only(path: &Path) -> Result<SqliteStore> {
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(backend)?;
        SqliteStore::init(conn)
    }

    /// A private in-memory database, for tests.
    pub fn in_memory() -> Result<SqliteStore> {
        SqliteStore::init(Connection::open_in_memory().map_err(backend)?)
    }

    fn init(mut conn: Connection) -> Result<SqliteStore> {
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(backend)?;
        // WAL: readers never block the writer; FULL sync: an acknowledged save survives a
        // crash of the process or the machine.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(backend)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(backend)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(backend)?;
        let done: usize = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(backend)?;
        if done > MIGRATIONS.len() {
            return Err(StoreError::Invalid(format!(
                "the database has schema version {done}, newer than this program's {}",
                MIGRATIONS.len()
            )));
        }
        for (i, m) in MIGRATIONS.iter().enumerate().skip(done) {
            let tx = conn.transaction().map_err(backend)?;
            tx.execute_batch(m).map_err(backend)?;
            tx.pragma_update(None, "user_version", i + 1)
                .map_err(backend)?;
            tx.commit().map_err(backend)?;
        }
        fill_name_keys(&mut conn)?;
        check_writable(&conn)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    /// The schema version in use.
    pub fn schema_version(&self) -> Result<usize> {
        self.lock()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(backend)
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half transaction (it rolls back on
        // drop), so the connection is still good.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` in one transaction, committed only when it succeeds.
    fn change<T>(&self, f: impl FnOnce(&Transaction) -> Result<T>) -> Result<T> {
        let mut c = self.lock();
        let tx = c.transaction().map_err(backend)?;
        let v = f(&tx)?;
        tx.commit().map_err(backend)?;
        Ok(v)
    }
}

/// People made before names had keys get theirs (the key is computed here, not in SQL).
fn fill_name_keys(conn: &mut Connection) -> Result<()> {
    let missing: Vec<(i64, String)> = {
        let mut st = conn
            .prepare("SELECT id, name FROM people WHERE name_key IS NULL")
            .map_err(backend)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)?
    };
    if missing.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction().map_err(backend)?;
    for (id, name) in missing {
        tx.execute(
            "UPDATE people SET name_key = ?2 WHERE id = ?1",
            params![id, name_key(&name)],
        )
        .map_err(backend)?;
    }
    tx.commit().map_err(backend)
}

/// Takes the write lock and lets it go: a database that cannot be written is said so at
/// start, not at the first result a table saves.
fn check_writable(conn: &Connection) -> Result<()> {
    // Writing the schema version as it is changes nothing but needs a writable file.
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(backend)?;
    conn.execute_batch(&format!(
        "BEGIN IMMEDIATE; PRAGMA user_version = {version}; ROLLBACK;"
    ))
    .map_err(|e| {
        StoreError::Invalid(format!(
            "cannot be written ({e}): check the file's and its folder's permissions"
        ))
    })
}

fn audit(
    tx: &Transaction,
    event: Option<EventId>,
    who: &str,
    what: &str,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<()> {
    tx.execute(
        &format!("INSERT INTO audit (event, at, who, what, before, after) VALUES (?1, {NOW}, ?2, ?3, ?4, ?5)"),
        params![event, who, what, before, after],
    )
    .map_err(backend)?;
    Ok(())
}

fn exists(tx: &Transaction, id: EventId) -> Result<()> {
    let n: i64 = tx
        .query_row("SELECT count(*) FROM events WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .map_err(backend)?;
    if n == 0 {
        return Err(StoreError::NotFound(format!("event {id}")));
    }
    Ok(())
}

fn movement_of(tx: &Transaction, id: EventId) -> Result<Movement> {
    let text: String = tx
        .query_row("SELECT movement FROM events WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()
        .map_err(backend)?
        .ok_or_else(|| StoreError::NotFound(format!("event {id}")))?;
    parse(&text, "movement")
}
