//! The SQLite backend: one file, WAL, one transaction per change.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::Connection;

use crate::schema::MIGRATIONS;
use crate::sql::{fill_name_keys, Backend, Db, Row, Sql, Value};
use crate::{Result, StoreError};

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// The SQLite store: one database file, WAL, every change in one transaction.
pub type SqliteStore = Db<Sqlite>;

/// SQLite under [`SqliteStore`]: one connection, taken in turn.
pub struct Sqlite {
    conn: Mutex<Connection>,
}

impl Db<Sqlite> {
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
        conn.set_prepared_statement_cache_capacity(128);
        {
            let tx = conn.transaction().map_err(backend)?;
            fill_name_keys(&mut Lite(&tx))?;
            tx.commit().map_err(backend)?;
        }
        check_writable(&conn)?;
        Ok(Db {
            backend: Sqlite {
                conn: Mutex::new(conn),
            },
        })
    }

    /// The schema version in use.
    pub fn schema_version(&self) -> Result<usize> {
        self.lock()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(backend)
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.backend.lock()
    }
}

impl Sqlite {
    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves no half transaction (it rolls back on
        // drop), so the connection is still good.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Backend for Sqlite {
    fn change<T: Send>(&self, f: &mut (dyn FnMut(&mut dyn Sql) -> Result<T> + Send)) -> Result<T> {
        let mut c = self.lock();
        // The write lock from the start: a change that reads before it writes would
        // otherwise find, when it comes to write, that another process (a second store on
        // the same file) wrote first, and fail at once instead of waiting its turn.
        let tx = c
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(backend)?;
        let v = f(&mut Lite(&tx))?;
        tx.commit().map_err(backend)?;
        Ok(v)
    }

    fn read<T: Send>(&self, f: &mut (dyn FnMut(&mut dyn Sql) -> Result<T> + Send)) -> Result<T> {
        // One connection taken in turn: nothing writes between the reads of `f`.
        f(&mut Lite(&self.lock()))
    }
}

/// Statements on a SQLite connection (or a transaction, which derefs to one).
struct Lite<'a>(&'a Connection);

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::from(rusqlite::types::Null),
            Value::Int(i) => ToSqlOutput::from(*i),
            Value::Text(s) => ToSqlOutput::from(s.as_str()),
        })
    }
}

impl Sql for Lite<'_> {
    fn exec(&mut self, sql: &str, args: &[Value]) -> Result<usize> {
        let mut st = self.0.prepare_cached(sql).map_err(backend)?;
        st.execute(rusqlite::params_from_iter(args))
            .map_err(backend)
    }

    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
        let mut st = self.0.prepare_cached(sql).map_err(backend)?;
        let n = st.column_count();
        let mut rows = st
            .query(rusqlite::params_from_iter(args))
            .map_err(backend)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(backend)? {
            let mut row = Vec::with_capacity(n);
            for i in 0..n {
                row.push(match r.get_ref(i).map_err(backend)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    other => {
                        return Err(StoreError::Backend(format!(
                            "column {i}: unexpected {:?}",
                            other.data_type()
                        )))
                    }
                });
            }
            out.push(Row(row));
        }
        Ok(out)
    }
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
