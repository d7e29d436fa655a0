//! The SQLite schema and its migrations, applied in order on open; `PRAGMA user_version`
//! holds how many have been applied.

/// Migration n (1-based) is `MIGRATIONS[n - 1]`. Never edit one that has shipped: add one.
pub const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    team INTEGER NOT NULL,
    deal_seed INTEGER NOT NULL,
    movement TEXT NOT NULL,
    hide_standings INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE players (
    event INTEGER NOT NULL REFERENCES events(id),
    slot INTEGER NOT NULL,
    name TEXT NOT NULL,
    team TEXT,
    PRIMARY KEY (event, slot)
);
CREATE TABLE table_codes (
    event INTEGER NOT NULL REFERENCES events(id),
    table_no INTEGER NOT NULL,
    code TEXT NOT NULL,
    PRIMARY KEY (event, table_no)
);
CREATE TABLE results (
    event INTEGER NOT NULL REFERENCES events(id),
    deal TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    entry TEXT NOT NULL,
    points TEXT NOT NULL,
    version INTEGER NOT NULL,
    entered_by TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, deal, table_no, hand)
);
CREATE TABLE conflicts (
    id INTEGER PRIMARY KEY,
    event INTEGER NOT NULL REFERENCES events(id),
    deal TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    entry TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    at TEXT NOT NULL,
    resolved INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE penalties (
    id INTEGER PRIMARY KEY,
    event INTEGER NOT NULL REFERENCES events(id),
    body TEXT NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    event INTEGER,
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    what TEXT NOT NULL,
    before TEXT,
    after TEXT
);
CREATE INDEX audit_event ON audit(event, id);
CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    event INTEGER,
    table_no INTEGER,
    csrf TEXT NOT NULL,
    created TEXT NOT NULL
);
"#];
