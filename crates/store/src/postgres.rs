//! The PostgreSQL backend: a shared database for several `dupmj serve` nodes.
//!
//! The driver is `postgres` (the blocking face of `tokio-postgres`, by the same authors):
//! the store's traits are synchronous, as on SQLite, so a blocking client keeps one code
//! path for both. It runs its own small runtime per connection, which may not be entered
//! from a thread that is driving the server's runtime; a call made from such a thread is
//! run on a short-lived scoped thread of its own (the caller waits for it either way).
//!
//! Every change is a SERIALIZABLE transaction, so that the checks a change makes before it
//! writes (a result's version, a seat already taken) hold as they do on SQLite, where one
//! writer runs at a time; a transaction the database refuses for a concurrent conflict is
//! run again from the start, up to [`RETRIES`] times. Reads run in one REPEATABLE READ,
//! read-only transaction, so that a page built from several reads sees one picture.

use std::collections::HashMap;
use std::error::Error;
use std::str::FromStr;
use std::sync::{Condvar, Mutex};

use bytes::BytesMut;
use postgres::error::SqlState;
use postgres::types::{IsNull, ToSql, Type};
use postgres::{Client, IsolationLevel, NoTls, Statement};

use crate::schema::POSTGRES;
use crate::sql::{fill_name_keys, Backend, Db, Row, Sql, Value};
use crate::{Result, StoreError};

/// The store on PostgreSQL.
pub type PgStore = Db<Postgres>;

/// How many times a change refused for a concurrent conflict is run again.
pub const RETRIES: usize = 20;

/// Connections one node keeps open at most.
const POOL: usize = 16;

/// The advisory lock a node holds while it migrates, so that nodes starting together
/// migrate one after the other.
const MIGRATION_LOCK: i64 = 0x6475_706d_6a00;

/// PostgreSQL under [`PgStore`]: a pool of connections.
pub struct Postgres {
    config: postgres::Config,
    url: String,
    pool: Mutex<Pool>,
    freed: Condvar,
}

struct Pool {
    idle: Vec<Conn>,
    open: usize,
}

impl Drop for Pool {
    /// The idle connections closed where the blocking client may block: a client's drop
    /// runs a runtime of its own to close its connection, which panics on a thread that
    /// drives one (an async task dropping the last handle on the store, as the tasks of a
    /// server shutting down do; seen once in the cluster tests as an abort).
    fn drop(&mut self) {
        let idle = std::mem::take(&mut self.idle);
        if !idle.is_empty() {
            off_runtime(move || drop(idle));
        }
    }
}

/// A connection with the statements it has prepared.
struct Conn {
    client: Client,
    prepared: HashMap<String, Statement>,
}

/// The URL with its password replaced by `***`, for messages and logs.
pub fn without_password(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let mut out = match authority.rfind('@') {
        Some(at) => {
            let user = &authority[..at];
            let user = user.split(':').next().unwrap_or_default();
            let hidden = if authority[..at].contains(':') {
                ":***"
            } else {
                ""
            };
            format!(
                "{}{user}{hidden}{}",
                &url[..scheme_end + 3],
                &rest[at..authority_end]
            )
        }
        None => format!("{}{authority}", &url[..scheme_end + 3]),
    };
    let tail = &rest[authority_end..];
    // A password given as a parameter goes too.
    let tail = tail
        .split('&')
        .map(|kv| match kv.find("password=") {
            Some(i) => format!("{}password=***", &kv[..i]),
            None => kv.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&");
    out.push_str(&tail);
    out
}

fn pg_error(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => {
            let mut s = format!("{} ({})", db.message(), db.code().code());
            if let Some(d) = db.detail() {
                s.push_str(": ");
                s.push_str(d);
            }
            s
        }
        None => e.to_string(),
    }
}

fn backend(e: postgres::Error) -> StoreError {
    StoreError::Backend(pg_error(&e))
}

/// Whether the database refused a transaction only because a concurrent one conflicted.
fn conflicted(e: &postgres::Error) -> bool {
    matches!(
        e.code(),
        Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
    )
}

/// Runs `f` where the blocking client may run: on this thread, or on a scoped thread of its
/// own when this one drives an async runtime.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|s| match s.spawn(f).join() {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

impl Db<Postgres> {
    /// Connects to the database at `url` (`postgres://user:password@host:port/dbname`) and
    /// brings its schema up to date.
    pub fn connect(url: &str) -> Result<PgStore> {
        let named = |what: String| {
            StoreError::Invalid(format!(
                "{}: cannot be used as dupmj's database: {what}",
                without_password(url)
            ))
        };
        let config = postgres::Config::from_str(url).map_err(|e| named(e.to_string()))?;
        let db = Db {
            backend: Postgres {
                config,
                url: url.to_string(),
                pool: Mutex::new(Pool {
                    idle: Vec::new(),
                    open: 0,
                }),
                freed: Condvar::new(),
            },
        };
        db.backend.with_conn(migrate).map_err(|e| match e {
            StoreError::Backend(s) | StoreError::Invalid(s) | StoreError::NotFound(s) => named(s),
        })?;
        Ok(db)
    }

    /// The schema version in use.
    pub fn schema_version(&self) -> Result<usize> {
        self.backend.with_conn(|c| {
            let v: i64 = c
                .client
                .query_one("SELECT version FROM dupmj_schema", &[])
                .map_err(backend)?
                .get(0);
            Ok(v as usize)
        })
    }

    /// The URL this store was opened with.
    pub fn url(&self) -> &str {
        &self.backend.url
    }
}

/// Brings the schema up to date, one migration per transaction, under an advisory lock.
fn migrate(c: &mut Conn) -> Result<()> {
    c.client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .map_err(backend)?;
    let done = migrate_locked(c);
    let unlocked = c
        .client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
        .map_err(backend);
    done.and(unlocked.map(|_| ()))
}

fn migrate_locked(c: &mut Conn) -> Result<()> {
    c.client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS dupmj_schema (version BIGINT NOT NULL);
             INSERT INTO dupmj_schema (version)
                 SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM dupmj_schema);",
        )
        .map_err(backend)?;
    let done: i64 = c
        .client
        .query_one("SELECT version FROM dupmj_schema", &[])
        .map_err(backend)?
        .get(0);
    let done = done as usize;
    if done > POSTGRES.len() {
        return Err(StoreError::Invalid(format!(
            "the database has schema version {done}, newer than this program's {}",
            POSTGRES.len()
        )));
    }
    for (i, m) in POSTGRES.iter().enumerate().skip(done) {
        let mut tx = c.client.transaction().map_err(backend)?;
        tx.batch_execute(m)
            .map_err(|e| StoreError::Backend(format!("migration {}: {}", i + 1, pg_error(&e))))?;
        tx.execute("UPDATE dupmj_schema SET version = $1", &[&(i as i64 + 1)])
            .map_err(backend)?;
        tx.commit().map_err(backend)?;
    }
    let Conn { client, prepared } = c;
    let mut tx = client.transaction().map_err(backend)?;
    fill_name_keys(&mut Pg {
        tx: &mut tx,
        prepared,
        conflict: false,
    })?;
    tx.commit().map_err(backend)
}

impl Postgres {
    /// Runs `f` with a connection of the pool (opening one when none is idle and fewer
    /// than [`POOL`] are open, else waiting for one).
    fn with_conn<T: Send>(&self, f: impl FnOnce(&mut Conn) -> Result<T> + Send) -> Result<T> {
        let taken = {
            let mut p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(c) = p.idle.pop() {
                    break Some(c);
                }
                if p.open < POOL {
                    p.open += 1;
                    break None;
                }
                p = self.freed.wait(p).unwrap_or_else(|e| e.into_inner());
            }
        };
        let config = &self.config;
        let (conn, out) = off_runtime(move || {
            let mut conn = match taken {
                Some(c) => c,
                None => match config.connect(NoTls) {
                    Ok(client) => Conn {
                        client,
                        prepared: HashMap::new(),
                    },
                    Err(e) => return (None, Err(backend(e))),
                },
            };
            let out = f(&mut conn);
            (Some(conn), out)
        });
        let mut p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        let gone = match conn {
            Some(c) if !c.client.is_closed() => {
                p.idle.push(c);
                None
            }
            // A connection the server closed (or never opened) is not kept.
            other => {
                p.open -= 1;
                other
            }
        };
        drop(p);
        // A client's drop blocks (see `Pool`'s drop).
        if gone.is_some() {
            off_runtime(move || drop(gone));
        }
        self.freed.notify_one();
        out
    }
}

impl Backend for Postgres {
    /// Commits are round trips to the server: several in flight hide each other's wait.
    fn writers(&self) -> usize {
        4
    }

    fn change<T: Send>(&self, f: &mut (dyn FnMut(&mut dyn Sql) -> Result<T> + Send)) -> Result<T> {
        for _ in 0..RETRIES {
            let attempt = self.with_conn(|c| {
                let Conn { client, prepared } = c;
                let mut tx = client
                    .build_transaction()
                    .isolation_level(IsolationLevel::Serializable)
                    .start()
                    .map_err(backend)?;
                let mut pg = Pg {
                    tx: &mut tx,
                    prepared,
                    conflict: false,
                };
                let out = f(&mut pg);
                let conflict = pg.conflict;
                match out {
                    Ok(v) => match tx.commit() {
                        Ok(()) => Ok(Some(v)),
                        Err(e) if conflicted(&e) => Ok(None),
                        Err(e) => Err(backend(e)),
                    },
                    // Dropping the transaction rolls it back.
                    Err(_) if conflict => Ok(None),
                    Err(e) => Err(e),
                }
            })?;
            if let Some(v) = attempt {
                return Ok(v);
            }
        }
        Err(StoreError::Backend(format!(
            "the change conflicted with others {RETRIES} times in a row; try again"
        )))
    }

    fn read<T: Send>(&self, f: &mut (dyn FnMut(&mut dyn Sql) -> Result<T> + Send)) -> Result<T> {
        self.with_conn(|c| {
            let Conn { client, prepared } = c;
            let mut tx = client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(backend)?;
            let out = f(&mut Pg {
                tx: &mut tx,
                prepared,
                conflict: false,
            })?;
            tx.commit().map_err(backend)?;
            Ok(out)
        })
    }
}

/// Statements in a PostgreSQL transaction, prepared once per connection.
struct Pg<'a, 'c> {
    tx: &'a mut postgres::Transaction<'c>,
    prepared: &'a mut HashMap<String, Statement>,
    /// Set when a statement failed because a concurrent transaction conflicted.
    conflict: bool,
}

/// `?1`, `?2`, … (as the domain modules write them) to `$1`, `$2`, …, outside quotes.
fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '\'' {
            quoted = !quoted;
        }
        if ch == '?' && !quoted && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(ch);
        }
    }
    out
}

impl Pg<'_, '_> {
    fn statement(&mut self, sql: &str) -> Result<Statement> {
        if let Some(s) = self.prepared.get(sql) {
            return Ok(s.clone());
        }
        let st = self
            .tx
            .prepare(&dollar_params(sql))
            .map_err(|e| self.failed(e))?;
        self.prepared.insert(sql.to_string(), st.clone());
        Ok(st)
    }

    fn failed(&mut self, e: postgres::Error) -> StoreError {
        if conflicted(&e) {
            self.conflict = true;
        }
        backend(e)
    }
}

/// A [`Value`] bound to a parameter of whatever integer or text type the statement has.
#[derive(Debug)]
struct Arg<'a>(&'a Value);

impl ToSql for Arg<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self.0 {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => Err(format!("an integer cannot go into a parameter of type {ty}").into()),
            },
            Value::Text(s) => s.as_str().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn value(r: &postgres::Row, i: usize) -> Result<Value> {
    let col = &r.columns()[i];
    let bad = |e: postgres::Error| StoreError::Backend(format!("column {}: {e}", col.name()));
    let ty = col.type_();
    Ok(match *ty {
        Type::INT8 => r.try_get::<_, Option<i64>>(i).map_err(bad)?.map(Value::Int),
        Type::INT4 => r
            .try_get::<_, Option<i32>>(i)
            .map_err(bad)?
            .map(|v| Value::Int(v.into())),
        Type::INT2 => r
            .try_get::<_, Option<i16>>(i)
            .map_err(bad)?
            .map(|v| Value::Int(v.into())),
        Type::BOOL => r
            .try_get::<_, Option<bool>>(i)
            .map_err(bad)?
            .map(|v| Value::Int(v.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => r
            .try_get::<_, Option<String>>(i)
            .map_err(bad)?
            .map(Value::Text),
        _ => {
            return Err(StoreError::Backend(format!(
                "column {}: type {ty} is not one the store reads",
                col.name()
            )))
        }
    }
    .unwrap_or(Value::Null))
}

impl Sql for Pg<'_, '_> {
    fn exec(&mut self, sql: &str, args: &[Value]) -> Result<usize> {
        let st = self.statement(sql)?;
        let args: Vec<Arg> = args.iter().map(Arg).collect();
        let refs: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as _).collect();
        match self.tx.execute(&st, &refs) {
            Ok(n) => Ok(n as usize),
            Err(e) => Err(self.failed(e)),
        }
    }

    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
        let st = self.statement(sql)?;
        let args: Vec<Arg> = args.iter().map(Arg).collect();
        let refs: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as _).collect();
        let rows = match self.tx.query(&st, &refs) {
            Ok(rows) => rows,
            Err(e) => return Err(self.failed(e)),
        };
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| value(r, i))
                    .collect::<Result<_>>()
                    .map(Row)
            })
            .collect()
    }
}

/// A new, empty database on the server at `admin_url` (a database the user may create
/// databases from); its URL. For tests: each gets a database of its own.
#[doc(hidden)]
pub fn scratch_database(admin_url: &str, name: &str) -> Result<String> {
    let mut name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.len() > 48 {
        // PostgreSQL cuts names at 63 bytes: a long one keeps its start and a hash of all.
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(name.as_bytes());
        name = format!(
            "{}_{:02x}{:02x}{:02x}{:02x}",
            &name[..39],
            h[0],
            h[1],
            h[2],
            h[3]
        );
    }
    let config = postgres::Config::from_str(admin_url)
        .map_err(|e| StoreError::Invalid(format!("{admin_url}: {e}")))?;
    off_runtime(|| {
        let mut c = config.connect(NoTls).map_err(backend)?;
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .map_err(backend)?;
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .map_err(backend)?;
        Ok(())
    })?;
    // The same server and user, the new database.
    let (head, query) = admin_url.split_at(admin_url.find('?').unwrap_or(admin_url.len()));
    let authority = head.find("://").map_or(0, |i| i + 3);
    let base = match head[authority..].find('/') {
        Some(i) => &head[..authority + i],
        None => head,
    };
    Ok(format!("{base}/{name}{query}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_as_postgresql_writes_them_outside_quotes() {
        assert_eq!(
            dollar_params("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND d = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND d = $12"
        );
    }

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://dupmj:s3cret@db.example:5432/dupmj"),
            "postgres://dupmj:***@db.example:5432/dupmj"
        );
        assert_eq!(
            without_password("postgres://dupmj@db/dupmj?sslmode=disable&password=x"),
            "postgres://dupmj@db/dupmj?sslmode=disable&password=***"
        );
        assert_eq!(
            without_password("postgresql://localhost/dupmj"),
            "postgresql://localhost/dupmj"
        );
    }

    #[test]
    fn both_databases_have_every_migration() {
        assert_eq!(POSTGRES.len(), crate::MIGRATIONS.len());
    }

    #[test]
    fn a_scratch_database_url_keeps_server_user_and_parameters() {
        // No server is reached when the URL cannot be parsed; the URL arithmetic alone:
        let url = "postgres://u@127.0.0.1:5433/postgres?connect_timeout=5";
        let (head, query) = url.split_at(url.find('?').unwrap());
        assert_eq!(
            (head, query),
            ("postgres://u@127.0.0.1:5433/postgres", "?connect_timeout=5")
        );
    }
}
