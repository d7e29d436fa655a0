//! Moving a SQLite file's data into an empty PostgreSQL database (`dupmj migrate`).
//!
//! Everything is read from the file first, then written in one PostgreSQL transaction, so
//! that a failure leaves the target as empty as it was. Ids are kept (links between rows
//! and to pages stay valid) and each identity column then continues after the largest id.

use crate::sql::{Row, SqlExt};
use crate::{PgStore, Result, SqliteStore, StoreError};

/// Every table, in an order that writes a row only after the rows it refers to, with the
/// id column PostgreSQL numbers by itself (if any).
const TABLES: &[(&str, Option<&str>)] = &[
    ("meta", None),
    ("events", Some("id")),
    ("players", None),
    ("table_codes", None),
    ("results", None),
    ("conflicts", Some("id")),
    ("penalties", Some("id")),
    ("audit", Some("id")),
    ("people", Some("id")),
    ("sessions", Some("rowid")),
    ("play_tables", Some("id")),
    ("play_journal", None),
    ("play_hands", Some("id")),
    ("play_hand_people", None),
    ("challenges", Some("id")),
    ("challenge_plays", Some("rowid")),
    ("online_events", None),
    ("event_people", None),
    ("online_sittings", None),
    ("round_states", None),
    ("checkins", None),
    ("withdrawals", None),
    ("clocks", None),
    ("ratings", None),
    ("rated_sessions", Some("seq")),
    ("pars", None),
    ("rated_hands", None),
    ("review_jobs", None),
    ("api_tokens", Some("id")),
    ("drills", None),
    ("drill_answers", Some("id")),
    ("drill_sources", None),
    ("entry_keys", None),
    ("signups", Some("id")),
    ("signup_acts", Some("id")),
    ("seasons", Some("id")),
    ("season_parts", None),
];

/// Tables of a running site's moment, not moved: which node plays which table, the nodes,
/// their duties, the lobby's lines, failed attempts and the quick-match queue. The nodes on PostgreSQL take back
/// the tables in play from their journals and write their lines again.
const RUNTIME: &[&str] = &[
    "table_leases",
    "nodes",
    "node_duties",
    "play_lobby",
    "attempts",
    "match_queue",
];

/// How many rows a table had in the file and has in PostgreSQL after the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The table.
    pub table: &'static str,
    /// Rows in the SQLite file.
    pub sqlite: usize,
    /// Rows in PostgreSQL afterwards.
    pub postgres: usize,
}

/// Copies every row of `from` into `to`, which must hold no data yet; the counts per table.
pub fn sqlite_to_postgres(from: &SqliteStore, to: &PgStore) -> Result<Vec<Moved>> {
    let known: Vec<&str> = TABLES.iter().map(|t| t.0).collect();
    let in_file: Vec<String> = from.read(|c| {
        c.column(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            &[],
        )
    })?;
    if let Some(t) = in_file
        .iter()
        .find(|t| !known.contains(&t.as_str()) && !RUNTIME.contains(&t.as_str()))
    {
        return Err(StoreError::Invalid(format!(
            "table {t}: this program does not know how to move it"
        )));
    }
    for &(table, _) in TABLES {
        let n: usize = to
            .read(|c| c.one(&format!("SELECT count(*) FROM {table}"), &[]))?
            .get(0)?;
        if n > 0 && table != "meta" {
            return Err(StoreError::Invalid(format!(
                "the PostgreSQL database already holds data (table {table}: {n} rows); \
                 move into an empty one"
            )));
        }
    }
    // Read everything first: the file is not changed, and the target gets all or nothing.
    let mut data: Vec<(&str, Vec<String>, Vec<Row>)> = Vec::new();
    for &(table, id) in TABLES {
        let mut columns: Vec<String> = from.read(|c| {
            c.column(
                &format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
                &[],
            )
        })?;
        if id == Some("rowid") {
            columns.insert(0, "rowid".into());
        }
        let list = columns.join(", ");
        let rows = from.read(|c| c.query(&format!("SELECT {list} FROM {table}"), &[]))?;
        data.push((table, columns, rows));
    }
    to.change(|tx| {
        // The director's password may already be set on the new database by a node that
        // started on it; the file's is the one that counts.
        tx.exec("DELETE FROM meta", &[])?;
        for (table, columns, rows) in &data {
            let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
            let sql = format!(
                "INSERT INTO {table} ({}) VALUES ({})",
                columns.join(", "),
                marks.join(", ")
            );
            for r in rows {
                tx.exec(&sql, &r.0)?;
            }
        }
        for &(table, id) in TABLES {
            if let Some(id) = id {
                tx.query(
                    &format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', '{id}'), \
                         COALESCE((SELECT MAX({id}) FROM {table}), 0) + 1, false)"
                    ),
                    &[],
                )?;
            }
        }
        Ok(())
    })?;
    data.iter()
        .map(|(table, _, rows)| {
            let n: usize = to
                .read(|c| c.one(&format!("SELECT count(*) FROM {table}"), &[]))?
                .get(0)?;
            Ok(Moved {
                table,
                sqlite: rows.len(),
                postgres: n,
            })
        })
        .collect()
}

/// Every row of `table`, sorted, from either store, to compare a file with the database
/// it moved into.
#[doc(hidden)]
pub fn dump(store: &dyn Dump, table: &str) -> Result<Vec<Row>> {
    store.dump(table)
}

/// A store whose tables can be read whole (for the checks of a move).
#[doc(hidden)]
pub trait Dump {
    /// Every row of `table`, its columns in `columns` order, ordered by them.
    fn dump(&self, table: &str) -> Result<Vec<Row>>;
}

fn dump_columns(table: &str) -> Result<&'static str> {
    Ok(match table {
        "events" => {
            "id, name, team, deal_seed, movement, hide_standings, created, deal_key, deals_released"
        }
        "results" => "event, deal, table_no, hand, entry, points, version, entered_by, at",
        "audit" => "id, event, at, who, what, before, after",
        "play_journal" => "play_table, seq, entry",
        "play_hands" => "id, play_table, hand_no, deal_key, summary, log, at",
        "people" => "id, name, hash, created, name_key, prefs, deleted",
        other => {
            return Err(StoreError::Invalid(format!(
                "table {other}: not one the checks compare"
            )))
        }
    })
}

impl<B: crate::sql::Backend> Dump for crate::sql::Db<B> {
    fn dump(&self, table: &str) -> Result<Vec<Row>> {
        let cols = dump_columns(table)?;
        // Sorted here: the two databases may order text differently.
        let mut rows = self.read(|c| c.query(&format!("SELECT {cols} FROM {table}"), &[]))?;
        rows.sort();
        Ok(rows)
    }
}
