//! Every domain written once over a small SQL interface, and run on either database.
//!
//! A backend ([`Backend`]) gives transactions over a connection that speaks [`Sql`]:
//! statements with numbered parameters (`?1`, `?2`, … as SQLite writes them; the
//! PostgreSQL backend turns them into `$1`, `$2`, …) over integers and text. The domain
//! modules here hold each store method's statements and checks once, so that both
//! databases run the same transactions and write the same audit lines. Times are taken
//! here ([`now`]), not by either database's clock functions, for the same reason.

mod bots;
mod challenges;
mod drills;
mod events;
mod history;
mod leases;
mod online;
mod queue;
mod ratings;
mod results;
mod reviews;
mod seasons;
mod sessions;
mod tables;

use tournament::movement::Movement;

use crate::{name_key, EventId, Result, StoreError};

pub(crate) use tables::new_play_table;

/// One value going into or coming out of a statement.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// An integer (flags are 0 and 1).
    Int(i64),
    /// Text.
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}
impl From<u64> for Value {
    fn from(v: u64) -> Value {
        // Deal seeds use all 64 bits; they are kept as the same bits in a signed column.
        Value::Int(v as i64)
    }
}
impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(v.into())
    }
}
impl From<u8> for Value {
    fn from(v: u8) -> Value {
        Value::Int(v.into())
    }
}
impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(v as i64)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(v.into())
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// A statement's arguments: `args![a, b]` is `&[Value::from(a), Value::from(b)]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => { &[$($crate::sql::Value::from($v)),*] };
}
pub(crate) use args;

/// A value read back as a Rust type.
pub trait FromValue: Sized {
    /// The value as `Self`, or why not.
    fn from_value(v: &Value) -> std::result::Result<Self, String>;
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> std::result::Result<i64, String> {
        match v {
            Value::Int(i) => Ok(*i),
            other => Err(format!("an integer was expected, not {other:?}")),
        }
    }
}
macro_rules! narrow {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: &Value) -> std::result::Result<$t, String> {
                let i = i64::from_value(v)?;
                <$t>::try_from(i).map_err(|_| format!("{i} is out of range"))
            }
        }
    )*};
}
narrow!(u32, u8, usize);
impl FromValue for u64 {
    fn from_value(v: &Value) -> std::result::Result<u64, String> {
        Ok(i64::from_value(v)? as u64)
    }
}
impl FromValue for bool {
    fn from_value(v: &Value) -> std::result::Result<bool, String> {
        Ok(i64::from_value(v)? != 0)
    }
}
impl FromValue for String {
    fn from_value(v: &Value) -> std::result::Result<String, String> {
        match v {
            Value::Text(s) => Ok(s.clone()),
            other => Err(format!("text was expected, not {other:?}")),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> std::result::Result<Option<T>, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// One row of a result.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` (0-based) as `T`; a column of the wrong type is a backend error naming it.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T> {
        let v = self
            .0
            .get(i)
            .ok_or_else(|| StoreError::Backend(format!("column {i} is missing")))?;
        T::from_value(v).map_err(|e| StoreError::Backend(format!("column {i}: {e}")))
    }
}

/// A connection (or a transaction on one) that runs statements.
pub trait Sql {
    /// Runs a statement; the number of rows it changed.
    fn exec(&mut self, sql: &str, args: &[Value]) -> Result<usize>;
    /// Runs a query; its rows.
    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>>;
}

/// Shorthands over [`Sql`].
pub trait SqlExt: Sql {
    /// The first row, if any.
    fn opt(&mut self, sql: &str, args: &[Value]) -> Result<Option<Row>> {
        Ok(self.query(sql, args)?.into_iter().next())
    }
    /// The one row a query always returns (a count, a maximum).
    fn one(&mut self, sql: &str, args: &[Value]) -> Result<Row> {
        self.opt(sql, args)?
            .ok_or_else(|| StoreError::Backend(format!("no row from: {sql}")))
    }
    /// Runs an `INSERT … RETURNING id`; the id.
    fn insert(&mut self, sql: &str, args: &[Value]) -> Result<i64> {
        self.one(sql, args)?.get(0)
    }
    /// Column 0 of every row.
    fn column<T: FromValue>(&mut self, sql: &str, args: &[Value]) -> Result<Vec<T>> {
        self.query(sql, args)?.iter().map(|r| r.get(0)).collect()
    }
}

impl<S: Sql + ?Sized> SqlExt for S {}

/// A database the domains run on: transactions and reads.
pub trait Backend: Send + Sync {
    /// Runs `f` in one transaction, committed only when it succeeds. A database that
    /// refuses a transaction because a concurrent one conflicts with it (PostgreSQL's
    /// serialisable isolation) may run `f` again from the start.
    fn change<T: Send>(&self, f: &mut (dyn FnMut(&mut dyn Sql) -> Result<T> + Send)) -> Result<T>;
    /// Runs the reads of `f` on one consistent picture of the data.
    fn read<T: Send>(&self, f: &mut (dyn FnMut(&mut dyn Sql) -> Result<T> + Send)) -> Result<T>;
    /// How many writers gain from committing at once (one where writes take turns).
    fn writers(&self) -> usize {
        1
    }
}

/// The store on a database: every domain's trait is implemented here, once.
pub struct Db<B> {
    pub(crate) backend: B,
}

impl<B: Backend> Db<B> {
    pub(crate) fn change<T: Send>(
        &self,
        mut f: impl FnMut(&mut dyn Sql) -> Result<T> + Send,
    ) -> Result<T> {
        self.backend.change(&mut f)
    }
    pub(crate) fn read<T: Send>(
        &self,
        mut f: impl FnMut(&mut dyn Sql) -> Result<T> + Send,
    ) -> Result<T> {
        self.backend.read(&mut f)
    }
}

/// Now in UTC as the store writes times: `2026-11-25T09:30:00.123Z` (text compares in
/// time order).
pub fn now() -> String {
    at(std::time::SystemTime::now())
}

/// `hours` from now, written as [`now`] writes times.
pub fn hours_from_now(hours: u64) -> String {
    at(std::time::SystemTime::now() + std::time::Duration::from_secs(hours * 3600))
}

fn at(t: std::time::SystemTime) -> String {
    let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let (year, month, day) = civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        d.subsec_millis()
    )
}

/// The date `days` days after 1970-01-01 in the proleptic Gregorian calendar: (year, month,
/// day), counting in 400-year eras from 0000-03-01.
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

pub(crate) fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("plain data serialises")
}

pub(crate) fn parse<T: serde::de::DeserializeOwned>(s: &str, what: &str) -> Result<T> {
    serde_json::from_str(s).map_err(|e| StoreError::Backend(format!("stored {what}: {e}")))
}

pub(crate) fn audit(
    tx: &mut dyn Sql,
    event: Option<EventId>,
    who: &str,
    what: &str,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<()> {
    tx.exec(
        "INSERT INTO audit (event, at, who, what, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        args![event, now(), who, what, before, after],
    )?;
    Ok(())
}

pub(crate) fn exists(tx: &mut dyn Sql, id: EventId) -> Result<()> {
    let n: i64 = tx
        .one("SELECT count(*) FROM events WHERE id = ?1", args![id])?
        .get(0)?;
    if n == 0 {
        return Err(StoreError::NotFound(format!("event {id}")));
    }
    Ok(())
}

pub(crate) fn movement_of(tx: &mut dyn Sql, id: EventId) -> Result<Movement> {
    let text: String = tx
        .opt("SELECT movement FROM events WHERE id = ?1", args![id])?
        .ok_or_else(|| StoreError::NotFound(format!("event {id}")))?
        .get(0)?;
    parse(&text, "movement")
}

/// People made before names had keys get theirs (the key is computed here, not in SQL).
pub(crate) fn fill_name_keys(tx: &mut dyn Sql) -> Result<()> {
    let missing = tx.query("SELECT id, name FROM people WHERE name_key IS NULL", &[])?;
    for r in missing {
        let (id, name): (i64, String) = (r.get(0)?, r.get(1)?);
        tx.exec(
            "UPDATE people SET name_key = ?2 WHERE id = ?1",
            args![id, name_key(&name)],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_iso_8601_in_utc() {
        let t = |s: u64| at(std::time::UNIX_EPOCH + std::time::Duration::from_millis(s));
        assert_eq!(t(0), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 12:34:56.789 UTC (a leap day of a century leap year).
        assert_eq!(t(951_827_696_789), "2000-02-29T12:34:56.789Z");
        // 2026-11-25 00:00:00 UTC.
        assert_eq!(t(1_795_564_800_000), "2026-11-25T00:00:00.000Z");
        assert_eq!(t(4_107_542_399_000), "2100-02-28T23:59:59.000Z");
    }
}
