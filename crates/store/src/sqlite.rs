//! The SQLite backend: one file, WAL, one transaction per change.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use tournament::entry::ScoreEntry;
use tournament::movement::Movement;
use tournament::standings::Penalty;

use crate::schema::MIGRATIONS;
use crate::{
    name_key, points_of, session_hours, AuditLine, ChallengePlay, Conflict, Entrant, Event,
    EventId, NewEvent, OnlineSitting, Person, Result, Role, Saved, Session, SessionInfo, StandIn,
    Store, StoreError, StoredChallenge, StoredHand, StoredPlayTable, StoredResult, Withdrawal,
};

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

/// A new play table with the first lines of its journal; its id.
fn new_play_table(tx: &Transaction, spec: &str, listed: bool, journal: &[String]) -> Result<i64> {
    tx.execute(
        &format!("INSERT INTO play_tables (spec, listed, created) VALUES (?1, ?2, {NOW})"),
        params![spec, listed],
    )
    .map_err(backend)?;
    let table = tx.last_insert_rowid();
    for (seq, line) in journal.iter().enumerate() {
        tx.execute(
            "INSERT INTO play_journal (play_table, seq, entry) VALUES (?1, ?2, ?3)",
            params![table, seq as i64, line],
        )
        .map_err(backend)?;
    }
    Ok(table)
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

/// Refuses a player number the event does not have.
fn check_player(tx: &Transaction, id: EventId, player: u32) -> Result<()> {
    exists(tx, id)?;
    let n: i64 = tx
        .query_row(
            "SELECT count(*) FROM players WHERE event = ?1 AND slot = ?2",
            params![id, player],
            |r| r.get(0),
        )
        .map_err(backend)?;
    if n == 0 {
        return Err(StoreError::NotFound(format!(
            "player {player} of event {id}"
        )));
    }
    Ok(())
}

fn attendance(c: &Connection, id: EventId) -> Result<std::collections::BTreeSet<u32>> {
    let mut st = c
        .prepare("SELECT player FROM checkins WHERE event = ?1")
        .map_err(backend)?;
    let rows = st.query_map([id], |r| r.get(0)).map_err(backend)?;
    rows.collect::<rusqlite::Result<_>>().map_err(backend)
}

fn withdrawals(c: &Connection, id: EventId) -> Result<Vec<Withdrawal>> {
    let mut st = c
        .prepare(
            "SELECT player, from_round, stand_in FROM withdrawals WHERE event = ?1 ORDER BY player",
        )
        .map_err(backend)?;
    let rows = st
        .query_map([id], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .map_err(backend)?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(backend)?;
    rows.into_iter()
        .map(|(player, from_round, s)| {
            Ok(Withdrawal {
                player,
                from_round,
                stand_in: parse(&s, "stand-in")?,
            })
        })
        .collect()
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

impl Store for SqliteStore {
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

    fn create_event(&self, e: &NewEvent, who: &str) -> Result<EventId> {
        if e.name.trim().is_empty() {
            return Err(StoreError::Invalid("the event needs a name".into()));
        }
        if e.players.len() != e.movement.players as usize {
            return Err(StoreError::Invalid(format!(
                "{} players entered for a movement of {}",
                e.players.len(),
                e.movement.players
            )));
        }
        self.change(|tx| {
            tx.execute(
                &format!("INSERT INTO events (name, team, deal_seed, deal_key, movement, created) VALUES (?1, ?2, ?3, ?4, ?5, {NOW})"),
                params![e.name, e.team, e.deal_seed as i64, e.deal_key, json(&e.movement)],
            )
            .map_err(backend)?;
            let id = tx.last_insert_rowid();
            for (i, p) in e.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO players (event, slot, name, team) VALUES (?1, ?2, ?3, ?4)",
                    params![id, i as i64 + 1, p.name, p.team],
                )
                .map_err(backend)?;
            }
            for (i, c) in e.table_codes.iter().enumerate() {
                tx.execute(
                    "INSERT INTO table_codes (event, table_no, code) VALUES (?1, ?2, ?3)",
                    params![id, i as i64 + 1, c],
                )
                .map_err(backend)?;
            }
            audit(tx, Some(id), who, "event created", None, Some(&json(&e.players)))?;
            Ok(id)
        })
    }

    fn events(&self) -> Result<Vec<(EventId, String)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, name FROM events ORDER BY id DESC")
            .map_err(backend)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn event(&self, id: EventId) -> Result<Event> {
        let c = self.lock();
        let row = c
            .query_row(
                "SELECT name, team, deal_seed, movement, hide_standings, deal_key, deals_released FROM events WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, bool>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, bool>(4)?,
                        r.get::<_, Option<String>>(5)?,
                        r.get::<_, bool>(6)?,
                    ))
                },
            )
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("event {id}")))?;
        let mut st = c
            .prepare("SELECT name, team FROM players WHERE event = ?1 ORDER BY slot")
            .map_err(backend)?;
        let players = st
            .query_map([id], |r| {
                Ok(Entrant {
                    name: r.get(0)?,
                    team: r.get(1)?,
                })
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        let mut st = c
            .prepare("SELECT code FROM table_codes WHERE event = ?1 ORDER BY table_no")
            .map_err(backend)?;
        let table_codes = st
            .query_map([id], |r| r.get(0))
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<String>>>()
            .map_err(backend)?;
        Ok(Event {
            id,
            name: row.0,
            team: row.1,
            deal_seed: row.2 as u64,
            deal_key: row.5,
            deals_released: row.6,
            movement: parse(&row.3, "movement")?,
            table_codes,
            players,
            hide_standings: row.4,
            checked_in: attendance(&c, id)?,
            withdrawals: withdrawals(&c, id)?,
            clock: c
                .query_row(
                    "SELECT round, ends_at FROM clocks WHERE event = ?1",
                    [id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(backend)?,
        })
    }

    fn set_player(&self, id: EventId, player: u32, now: &Entrant, who: &str) -> Result<()> {
        if now.name.trim().is_empty() {
            return Err(StoreError::Invalid(format!(
                "player {player}: the name is empty"
            )));
        }
        self.change(|tx| {
            let before: Option<(String, Option<String>)> = tx
                .query_row(
                    "SELECT name, team FROM players WHERE event = ?1 AND slot = ?2",
                    params![id, player],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(backend)?;
            let Some(before) = before else {
                return Err(StoreError::NotFound(format!(
                    "player {player} of event {id}"
                )));
            };
            tx.execute(
                "UPDATE players SET name = ?3, team = ?4 WHERE event = ?1 AND slot = ?2",
                params![id, player, now.name, now.team],
            )
            .map_err(backend)?;
            let before = Entrant {
                name: before.0,
                team: before.1,
            };
            audit(
                tx,
                Some(id),
                who,
                &format!("player {player} replaced"),
                Some(&json(&before)),
                Some(&json(now)),
            )
        })
    }

    fn swap_players(&self, id: EventId, a: u32, b: u32, from_round: u32, who: &str) -> Result<()> {
        self.change(|tx| {
            let mut m = movement_of(tx, id)?;
            for p in [a, b] {
                if p == 0 || p > m.players {
                    return Err(StoreError::Invalid(format!(
                        "player {p}: the event has players 1 to {}",
                        m.players
                    )));
                }
            }
            if a == b {
                return Err(StoreError::Invalid(format!(
                    "player {a} cannot swap with themself"
                )));
            }
            let before = json(&m);
            let mut changed = 0;
            for r in m.rounds.iter_mut().filter(|r| r.round >= from_round) {
                for s in r
                    .hands
                    .iter_mut()
                    .flat_map(|h| &mut h.tables)
                    .flat_map(|t| &mut t.seats)
                {
                    if s.player == a {
                        s.player = b;
                        changed += 1;
                    } else if s.player == b {
                        s.player = a;
                        changed += 1;
                    }
                }
            }
            if changed == 0 {
                return Err(StoreError::Invalid(format!(
                    "round {from_round}: the movement has no such round"
                )));
            }
            let after = json(&m);
            tx.execute(
                "UPDATE events SET movement = ?2 WHERE id = ?1",
                params![id, after],
            )
            .map_err(backend)?;
            audit(
                tx,
                Some(id),
                who,
                &format!("players {a} and {b} swapped from round {from_round}"),
                Some(&before),
                Some(&after),
            )
        })
    }

    fn round_states(&self, id: EventId) -> Result<Vec<(u32, bool)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT round, open FROM round_states WHERE event = ?1 ORDER BY round")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn set_round(&self, id: EventId, round: u32, open: bool, who: &str) -> Result<()> {
        let rounds = self.event(id)?.movement.rounds.len() as u32;
        if round == 0 || round > rounds {
            return Err(StoreError::Invalid(format!(
                "round: 1 to {rounds}, not {round}"
            )));
        }
        self.change(|tx| {
            tx.execute(
                "INSERT INTO round_states (event, round, open) VALUES (?1, ?2, ?3) \
                 ON CONFLICT(event, round) DO UPDATE SET open = ?3",
                params![id, round, open],
            )
            .map_err(backend)?;
            if !open {
                tx.execute(
                    "DELETE FROM sessions WHERE role = 'table' AND event = ?1",
                    [id],
                )
                .map_err(backend)?;
            }
            let what = format!("round {round} {}", if open { "opened" } else { "closed" });
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn set_table_codes(&self, id: EventId, codes: &[String], who: &str) -> Result<()> {
        let tables = self.event(id)?.table_codes.len();
        if codes.len() != tables {
            return Err(StoreError::Invalid(format!(
                "{} codes for {tables} tables",
                codes.len()
            )));
        }
        self.change(|tx| {
            for (i, c) in codes.iter().enumerate() {
                tx.execute(
                    "UPDATE table_codes SET code = ?3 WHERE event = ?1 AND table_no = ?2",
                    params![id, i as u32 + 1, c],
                )
                .map_err(backend)?;
            }
            tx.execute(
                "DELETE FROM sessions WHERE role = 'table' AND event = ?1",
                [id],
            )
            .map_err(backend)?;
            audit(tx, Some(id), who, "new table codes", None, None)
        })
    }

    fn set_hide_standings(&self, id: EventId, hide: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            tx.execute(
                "UPDATE events SET hide_standings = ?2 WHERE id = ?1",
                params![id, hide],
            )
            .map_err(backend)?;
            let what = if hide {
                "standings hidden"
            } else {
                "standings shown"
            };
            audit(tx, Some(id), who, what, None, None)
        })
    }

    fn set_checked_in(&self, id: EventId, player: u32, present: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            check_player(tx, id, player)?;
            if present {
                tx.execute(
                    &format!(
                        "INSERT OR IGNORE INTO checkins (event, player, at) VALUES (?1, ?2, {NOW})"
                    ),
                    params![id, player],
                )
            } else {
                tx.execute(
                    "DELETE FROM checkins WHERE event = ?1 AND player = ?2",
                    params![id, player],
                )
            }
            .map_err(backend)?;
            let what = format!(
                "player {player} {}",
                if present {
                    "checked in"
                } else {
                    "check-in taken back"
                }
            );
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn withdraw(&self, id: EventId, w: &Withdrawal, who: &str) -> Result<()> {
        if let StandIn::Substitute(n) = &w.stand_in {
            if n.trim().is_empty() {
                return Err(StoreError::Invalid(format!(
                    "player {}: the substitute's name is empty",
                    w.player
                )));
            }
        }
        self.change(|tx| {
            check_player(tx, id, w.player)?;
            let rounds = movement_of(tx, id)?.rounds.len() as u32;
            if w.from_round == 0 || w.from_round > rounds {
                return Err(StoreError::Invalid(format!(
                    "from round: 1 to {rounds}, not {}",
                    w.from_round
                )));
            }
            let stand_in = json(&w.stand_in);
            let n = tx
                .execute(
                    "INSERT OR IGNORE INTO withdrawals (event, player, from_round, stand_in) VALUES (?1, ?2, ?3, ?4)",
                    params![id, w.player, w.from_round, stand_in],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::Invalid(format!(
                    "player {} has already withdrawn",
                    w.player
                )));
            }
            let what = format!("player {} withdrew from round {}", w.player, w.from_round);
            audit(tx, Some(id), who, &what, None, Some(&stand_in))
        })
    }

    fn cancel_withdrawal(&self, id: EventId, player: u32, who: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "DELETE FROM withdrawals WHERE event = ?1 AND player = ?2",
                    params![id, player],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!(
                    "a withdrawal of player {player} in event {id}"
                )));
            }
            let what = format!("withdrawal of player {player} taken back");
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn set_clock(&self, id: EventId, clock: Option<(u32, i64)>, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            let what = match clock {
                Some((round, ends_at)) => {
                    let rounds = movement_of(tx, id)?.rounds.len() as u32;
                    if round == 0 || round > rounds {
                        return Err(StoreError::Invalid(format!(
                            "round: 1 to {rounds}, not {round}"
                        )));
                    }
                    tx.execute(
                        "INSERT INTO clocks (event, round, ends_at) VALUES (?1, ?2, ?3) \
                         ON CONFLICT(event) DO UPDATE SET round = ?2, ends_at = ?3",
                        params![id, round, ends_at],
                    )
                    .map_err(backend)?;
                    format!("round {round} clock set to end at {ends_at}")
                }
                None => {
                    tx.execute("DELETE FROM clocks WHERE event = ?1", [id])
                        .map_err(backend)?;
                    "round clock stopped".to_string()
                }
            };
            audit(tx, Some(id), who, &what, None, None)
        })
    }

    fn release_deals(&self, id: EventId, who: &str) -> Result<()> {
        self.change(|tx| {
            exists(tx, id)?;
            let n = tx
                .execute(
                    "UPDATE events SET deals_released = 1 WHERE id = ?1 AND deals_released = 0",
                    [id],
                )
                .map_err(backend)?;
            if n == 1 {
                audit(tx, Some(id), who, "deals released for practice", None, None)?;
            }
            Ok(())
        })
    }

    fn results(&self, id: EventId) -> Result<Vec<StoredResult>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT deal, table_no, hand, entry, points, version, entered_by, at FROM results WHERE event = ?1 ORDER BY deal, table_no, hand")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok((
                    (
                        r.get::<_, String>(0)?,
                        r.get::<_, u32>(1)?,
                        r.get::<_, u32>(2)?,
                    ),
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, u32>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, String>(7)?,
                ))
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|((deal, table, hand), entry, points, version, by, at)| {
                Ok(StoredResult {
                    deal,
                    table,
                    hand,
                    entry: parse(&entry, "entry")?,
                    points: parse(&points, "points")?,
                    version,
                    by,
                    at,
                })
            })
            .collect()
    }

    fn save_result(
        &self,
        id: EventId,
        deal: &str,
        table: u32,
        hand: u32,
        entry: &ScoreEntry,
        expected: u32,
        who: &str,
    ) -> Result<Saved> {
        let points = points_of(entry)?;
        let text = json(entry);
        self.change(|tx| {
            exists(tx, id)?;
            let current: Option<(u32, String)> = tx
                .query_row(
                    "SELECT version, entry FROM results WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4",
                    params![id, deal, table, hand],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(backend)?;
            let what = format!("result of deal {deal} at table {table}, hand {hand}");
            match current {
                Some((v, old)) if old == text => Ok(Saved::Unchanged { version: v }),
                Some((v, old)) if v == expected => {
                    tx.execute(
                        &format!("UPDATE results SET entry = ?4, points = ?5, version = ?6, entered_by = ?7, at = {NOW} WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?8"),
                        params![id, deal, table, text, json(&points), v + 1, who, hand],
                    )
                    .map_err(backend)?;
                    audit(tx, Some(id), who, &what, Some(&old), Some(&text))?;
                    Ok(Saved::Saved { version: v + 1 })
                }
                None if expected == 0 => {
                    tx.execute(
                        &format!("INSERT INTO results (event, deal, table_no, hand, entry, points, version, entered_by, at) VALUES (?1, ?2, ?3, ?7, ?4, ?5, 1, ?6, {NOW})"),
                        params![id, deal, table, text, json(&points), who, hand],
                    )
                    .map_err(backend)?;
                    audit(tx, Some(id), who, &what, None, Some(&text))?;
                    Ok(Saved::Saved { version: 1 })
                }
                _ => {
                    // One open conflict per sitting and device: a phone that saves again
                    // replaces its own conflicting entry instead of adding another.
                    let open: Option<(i64, String)> = tx
                        .query_row(
                            "SELECT id, entry FROM conflicts WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4 AND entered_by = ?5 AND resolved = 0",
                            params![id, deal, table, hand, who],
                            |r| Ok((r.get(0)?, r.get(1)?)),
                        )
                        .optional()
                        .map_err(backend)?;
                    if let Some((cid, old)) = open {
                        if old != text {
                            tx.execute(
                                &format!("UPDATE conflicts SET entry = ?2, at = {NOW} WHERE id = ?1"),
                                params![cid, text],
                            )
                            .map_err(backend)?;
                            audit(tx, Some(id), who, &format!("conflict {cid} replaced by a later entry"), Some(&old), Some(&text))?;
                        }
                        return Ok(Saved::Conflict { id: cid });
                    }
                    tx.execute(
                        &format!("INSERT INTO conflicts (event, deal, table_no, hand, entry, entered_by, at) VALUES (?1, ?2, ?3, ?6, ?4, ?5, {NOW})"),
                        params![id, deal, table, text, who, hand],
                    )
                    .map_err(backend)?;
                    let cid = tx.last_insert_rowid();
                    audit(tx, Some(id), who, &format!("conflicting {what} kept aside (conflict {cid})"), None, Some(&text))?;
                    Ok(Saved::Conflict { id: cid })
                }
            }
        })
    }

    fn conflicts(&self, id: EventId) -> Result<Vec<Conflict>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, deal, table_no, hand, entry, entered_by, at FROM conflicts WHERE event = ?1 AND resolved = 0 ORDER BY id")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok((
                    (r.get::<_, i64>(0)?, r.get::<_, String>(1)?),
                    (r.get::<_, u32>(2)?, r.get::<_, u32>(3)?),
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                ))
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|((cid, deal), (table, hand), entry, by, at)| {
                Ok(Conflict {
                    id: cid,
                    deal,
                    table,
                    hand,
                    entry: parse(&entry, "entry")?,
                    by,
                    at,
                })
            })
            .collect()
    }

    fn resolve_conflict(&self, id: EventId, conflict: i64, accept: bool, who: &str) -> Result<()> {
        self.change(|tx| {
            let row: Option<(String, u32, u32, String)> = tx
                .query_row(
                    "SELECT deal, table_no, hand, entry FROM conflicts WHERE id = ?1 AND event = ?2 AND resolved = 0",
                    params![conflict, id],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()
                .map_err(backend)?;
            let Some((deal, table, hand, text)) = row else {
                return Err(StoreError::NotFound(format!("open conflict {conflict} of event {id}")));
            };
            tx.execute("UPDATE conflicts SET resolved = 1 WHERE id = ?1", [conflict])
                .map_err(backend)?;
            if !accept {
                return audit(tx, Some(id), who, &format!("conflict {conflict} dismissed"), None, Some(&text));
            }
            let entry: ScoreEntry = parse(&text, "entry")?;
            let points = points_of(&entry)?;
            let old: Option<String> = tx
                .query_row(
                    "SELECT entry FROM results WHERE event = ?1 AND deal = ?2 AND table_no = ?3 AND hand = ?4",
                    params![id, deal, table, hand],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            tx.execute(
                &format!("INSERT INTO results (event, deal, table_no, hand, entry, points, version, entered_by, at) VALUES (?1, ?2, ?3, ?7, ?4, ?5, 1, ?6, {NOW}) \
                 ON CONFLICT(event, deal, table_no, hand) DO UPDATE SET entry = ?4, points = ?5, version = version + 1, entered_by = ?6, at = {NOW}"),
                params![id, deal, table, text, json(&points), who, hand],
            )
            .map_err(backend)?;
            audit(
                tx,
                Some(id),
                who,
                &format!("conflict {conflict} accepted: result of deal {deal} at table {table}, hand {hand}"),
                old.as_deref(),
                Some(&text),
            )
        })
    }

    fn add_penalty(&self, id: EventId, p: &Penalty, who: &str) -> Result<i64> {
        self.change(|tx| {
            let m = movement_of(tx, id)?;
            if p.player == 0 || p.player > m.players {
                return Err(StoreError::Invalid(format!(
                    "penalty: player {} is not in the event (1 to {})",
                    p.player, m.players
                )));
            }
            let body = json(p);
            tx.execute(
                "INSERT INTO penalties (event, body) VALUES (?1, ?2)",
                params![id, body],
            )
            .map_err(backend)?;
            let pid = tx.last_insert_rowid();
            audit(
                tx,
                Some(id),
                who,
                &format!("penalty {pid} added"),
                None,
                Some(&body),
            )?;
            Ok(pid)
        })
    }

    fn penalties(&self, id: EventId) -> Result<Vec<(i64, Penalty)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, body FROM penalties WHERE event = ?1 AND removed = 0 ORDER BY id")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|(pid, body)| Ok((pid, parse(&body, "penalty")?)))
            .collect()
    }

    fn remove_penalty(&self, id: EventId, penalty: i64, who: &str) -> Result<()> {
        self.change(|tx| {
            let body: Option<String> = tx
                .query_row(
                    "SELECT body FROM penalties WHERE id = ?1 AND event = ?2 AND removed = 0",
                    params![penalty, id],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            let Some(body) = body else {
                return Err(StoreError::NotFound(format!(
                    "penalty {penalty} of event {id}"
                )));
            };
            tx.execute("UPDATE penalties SET removed = 1 WHERE id = ?1", [penalty])
                .map_err(backend)?;
            audit(
                tx,
                Some(id),
                who,
                &format!("penalty {penalty} removed"),
                Some(&body),
                None,
            )
        })
    }

    fn audit(&self, id: EventId) -> Result<Vec<AuditLine>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT at, who, what, before, after FROM audit WHERE event = ?1 ORDER BY id")
            .map_err(backend)?;
        let rows = st
            .query_map([id], |r| {
                Ok(AuditLine {
                    at: r.get(0)?,
                    who: r.get(1)?,
                    what: r.get(2)?,
                    before: r.get(3)?,
                    after: r.get(4)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
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
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(StoreError::Invalid(
                "name: 1 to 40 characters, please".into(),
            ));
        }
        let key = name_key(name);
        self.change(|tx| {
            // An account's name is its own: no other account, and no guest, may look like it.
            let taken: Option<String> = tx
                .query_row(
                    "SELECT name FROM people WHERE name_key = ?1 AND hash IS NOT NULL",
                    [&key],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            if let Some(other) = taken {
                return Err(StoreError::Invalid(if other == name {
                    format!("name: an account called '{name}' already exists")
                } else {
                    format!(
                        "name: an account called '{other}' already exists, and '{name}' looks like it"
                    )
                }));
            }
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

    fn create_play_table(&self, spec: &str, listed: bool) -> Result<i64> {
        self.change(|tx| new_play_table(tx, spec, listed, &[]))
    }

    fn finished_tables(
        &self,
        offset: usize,
        limit: usize,
    ) -> Result<(Vec<StoredPlayTable>, usize)> {
        let c = self.lock();
        let total: i64 = c
            .query_row(
                "SELECT count(*) FROM play_tables WHERE listed = 1 AND finished = 1",
                [],
                |r| r.get(0),
            )
            .map_err(backend)?;
        let mut st = c
            .prepare(
                "SELECT id, spec FROM play_tables WHERE listed = 1 AND finished = 1 ORDER BY id DESC LIMIT ?1 OFFSET ?2",
            )
            .map_err(backend)?;
        let rows = st
            .query_map(params![limit as i64, offset as i64], |r| {
                Ok(StoredPlayTable {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    finished: true,
                })
            })
            .map_err(backend)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(backend)?;
        Ok((rows, total as usize))
    }

    fn update_play_table(&self, id: i64, spec: &str, finished: bool) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "UPDATE play_tables SET spec = ?2, finished = ?3 WHERE id = ?1",
                    params![id, spec, finished],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("table {id}")));
            }
            Ok(())
        })
    }

    fn play_table(&self, id: i64) -> Result<StoredPlayTable> {
        self.lock()
            .query_row(
                "SELECT spec, finished FROM play_tables WHERE id = ?1",
                [id],
                |r| {
                    Ok(StoredPlayTable {
                        id,
                        spec: r.get(0)?,
                        finished: r.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("table {id}")))
    }

    fn play_tables(&self, unfinished: bool, limit: usize) -> Result<Vec<StoredPlayTable>> {
        let c = self.lock();
        let mut st = c
            .prepare(
                "SELECT id, spec, finished FROM play_tables WHERE finished = 0 OR ?1 = 0 ORDER BY id DESC LIMIT ?2",
            )
            .map_err(backend)?;
        let rows = st
            .query_map(params![unfinished, limit as i64], |r| {
                Ok(StoredPlayTable {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                    finished: r.get(2)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn append_journal(&self, entries: &[(i64, u64, String)]) -> Result<()> {
        self.change(|tx| {
            let mut st = tx
                .prepare_cached(
                    "INSERT INTO play_journal (play_table, seq, entry) VALUES (?1, ?2, ?3)",
                )
                .map_err(backend)?;
            for (t, seq, e) in entries {
                st.execute(params![t, *seq as i64, e]).map_err(backend)?;
            }
            Ok(())
        })
    }

    fn journal(&self, table: i64) -> Result<Vec<String>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT entry FROM play_journal WHERE play_table = ?1 ORDER BY seq")
            .map_err(backend)?;
        let rows = st.query_map([table], |r| r.get(0)).map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn save_hand(
        &self,
        table: i64,
        hand_no: u32,
        deal_key: Option<&str>,
        summary: &str,
        log: &str,
    ) -> Result<i64> {
        self.change(|tx| {
            tx.execute(
                &format!("INSERT INTO play_hands (play_table, hand_no, deal_key, summary, log, at) VALUES (?1, ?2, ?3, ?4, ?5, {NOW}) ON CONFLICT (play_table, hand_no) DO NOTHING"),
                params![table, hand_no, deal_key, summary, log],
            )
            .map_err(backend)?;
            tx.query_row(
                "SELECT id FROM play_hands WHERE play_table = ?1 AND hand_no = ?2",
                params![table, hand_no],
                |r| r.get(0),
            )
            .map_err(backend)
        })
    }

    fn hand(&self, id: i64) -> Result<StoredHand> {
        let c = self.lock();
        let mut st = c
            .prepare(&format!("{HAND_COLUMNS} WHERE id = ?1"))
            .map_err(backend)?;
        st.query_row([id], stored_hand)
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("hand {id}")))
    }

    fn hands_of_table(&self, table: i64) -> Result<Vec<StoredHand>> {
        let c = self.lock();
        let mut st = c
            .prepare(&format!(
                "{HAND_COLUMNS} WHERE play_table = ?1 ORDER BY hand_no"
            ))
            .map_err(backend)?;
        let rows = st.query_map([table], stored_hand).map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn hands_of_deal(&self, deal_key: &str, limit: usize) -> Result<Vec<StoredHand>> {
        let c = self.lock();
        let mut st = c
            .prepare(&format!(
                "{HAND_COLUMNS} WHERE deal_key = ?1 ORDER BY id LIMIT ?2"
            ))
            .map_err(backend)?;
        let rows = st
            .query_map(params![deal_key, limit as i64], stored_hand)
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn create_challenge(&self, spec: &str) -> Result<i64> {
        self.change(|tx| {
            tx.execute(
                &format!("INSERT INTO challenges (spec, created) VALUES (?1, {NOW})"),
                [spec],
            )
            .map_err(backend)?;
            Ok(tx.last_insert_rowid())
        })
    }

    fn update_challenge(&self, id: i64, spec: &str) -> Result<()> {
        self.change(|tx| {
            let n = tx
                .execute(
                    "UPDATE challenges SET spec = ?2 WHERE id = ?1",
                    params![id, spec],
                )
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotFound(format!("challenge {id}")));
            }
            Ok(())
        })
    }

    fn challenge(&self, id: i64) -> Result<StoredChallenge> {
        self.lock()
            .query_row("SELECT spec FROM challenges WHERE id = ?1", [id], |r| {
                Ok(StoredChallenge {
                    id,
                    spec: r.get(0)?,
                })
            })
            .optional()
            .map_err(backend)?
            .ok_or_else(|| StoreError::NotFound(format!("challenge {id}")))
    }

    fn challenges(&self, limit: usize) -> Result<Vec<StoredChallenge>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT id, spec FROM challenges ORDER BY id DESC LIMIT ?1")
            .map_err(backend)?;
        let rows = st
            .query_map([limit as i64], |r| {
                Ok(StoredChallenge {
                    id: r.get(0)?,
                    spec: r.get(1)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
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
            let taken: Option<i64> = tx
                .query_row(
                    "SELECT play_table FROM challenge_plays WHERE challenge = ?1 AND person = ?2 AND deal_index = ?3",
                    params![challenge, person, deal_index],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            if taken.is_some() {
                return Err(StoreError::Invalid(format!(
                    "deal {} of challenge {challenge}: you have already played it",
                    deal_index + 1
                )));
            }
            let table = new_play_table(tx, table_spec, false, journal)?;
            tx.execute(
                "INSERT INTO challenge_plays (challenge, person, deal_index, seat, play_table) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![challenge, person, deal_index, seat, table],
            )
            .map_err(backend)?;
            Ok(table)
        })
    }

    fn challenge_plays(&self, challenge: i64) -> Result<Vec<ChallengePlay>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT person, deal_index, seat, play_table FROM challenge_plays WHERE challenge = ?1 ORDER BY rowid")
            .map_err(backend)?;
        let rows = st
            .query_map([challenge], |r| {
                Ok(ChallengePlay {
                    person: r.get(0)?,
                    deal_index: r.get(1)?,
                    seat: r.get(2)?,
                    play_table: r.get(3)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn set_online(&self, event: EventId, settings: &str, who: &str) -> Result<()> {
        self.change(|tx| {
            let before: Option<String> = tx
                .query_row(
                    "SELECT settings FROM online_events WHERE event = ?1",
                    [event],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            tx.execute(
                "INSERT INTO online_events (event, settings) VALUES (?1, ?2) ON CONFLICT (event) DO UPDATE SET settings = ?2",
                params![event, settings],
            )
            .map_err(backend)?;
            audit(
                tx,
                Some(event),
                who,
                "online play settings",
                before.as_deref(),
                Some(settings),
            )
        })
    }

    fn online(&self, event: EventId) -> Result<Option<String>> {
        self.lock()
            .query_row(
                "SELECT settings FROM online_events WHERE event = ?1",
                [event],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)
    }

    fn online_events(&self) -> Result<Vec<(EventId, String)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT event, settings FROM online_events ORDER BY event")
            .map_err(backend)?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn bind_person(&self, event: EventId, slot: u32, person: i64) -> Result<()> {
        self.change(|tx| {
            tx.execute(
                "INSERT INTO event_people (event, slot, person) VALUES (?1, ?2, ?3) ON CONFLICT (event, slot) DO UPDATE SET person = ?3",
                params![event, slot, person],
            )
            .map_err(backend)?;
            Ok(())
        })
    }

    fn event_people(&self, event: EventId) -> Result<Vec<(u32, i64)>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT slot, person FROM event_people WHERE event = ?1 ORDER BY slot")
            .map_err(backend)?;
        let rows = st
            .query_map([event], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }

    fn open_sitting_table(
        &self,
        event: EventId,
        round: u32,
        hand: u32,
        table: u32,
        table_spec: &str,
        journal: &[String],
    ) -> Result<i64> {
        self.change(|tx| {
            let had: Option<i64> = tx
                .query_row(
                    "SELECT play_table FROM online_sittings WHERE event = ?1 AND round = ?2 AND hand = ?3 AND table_no = ?4",
                    params![event, round, hand, table],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            if let Some(t) = had {
                return Ok(t);
            }
            let id = new_play_table(tx, table_spec, false, journal)?;
            tx.execute(
                "INSERT INTO online_sittings (event, round, hand, table_no, play_table) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![event, round, hand, table, id],
            )
            .map_err(backend)?;
            Ok(id)
        })
    }

    fn online_sittings(&self, event: EventId) -> Result<Vec<OnlineSitting>> {
        let c = self.lock();
        let mut st = c
            .prepare("SELECT round, hand, table_no, play_table FROM online_sittings WHERE event = ?1 ORDER BY round, hand, table_no")
            .map_err(backend)?;
        let rows = st
            .query_map([event], |r| {
                Ok(OnlineSitting {
                    round: r.get(0)?,
                    hand: r.get(1)?,
                    table: r.get(2)?,
                    play_table: r.get(3)?,
                })
            })
            .map_err(backend)?;
        rows.collect::<rusqlite::Result<_>>().map_err(backend)
    }
}

const HAND_COLUMNS: &str =
    "SELECT id, play_table, hand_no, deal_key, summary, log, at FROM play_hands";

fn stored_hand(r: &rusqlite::Row) -> rusqlite::Result<StoredHand> {
    Ok(StoredHand {
        id: r.get(0)?,
        play_table: r.get(1)?,
        hand_no: r.get(2)?,
        deal_key: r.get(3)?,
        summary: r.get(4)?,
        log: r.get(5)?,
        at: r.get(6)?,
    })
}
