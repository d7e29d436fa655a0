//! The schema and its migrations, one list for both databases, applied in order on open.
//! SQLite keeps how many have been applied in `PRAGMA user_version`, PostgreSQL in the
//! table `dupmj_schema`.
//!
//! Each migration is written for SQLite in [`MIGRATIONS`] and for PostgreSQL at the same
//! place of [`POSTGRES`]: the same tables and columns, integers as `BIGINT` (flags 0/1, as
//! in SQLite), ids from identity columns, and a `rowid` column where SQLite's implicit
//! one is read (sessions, challenge plays).
//!
//! Longer than most files: the two lists must stay side by side, migration by migration,
//! and a shipped migration is never edited, so the file only grows.

/// Migration n (1-based) for SQLite is `MIGRATIONS[n - 1]`. Never edit one that has
/// shipped: add one, to both lists.
pub const MIGRATIONS: &[&str] = &[
    r#"
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
"#,
    r#"
CREATE TABLE people (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT,
    created TEXT NOT NULL
);
CREATE UNIQUE INDEX people_account ON people(lower(name)) WHERE hash IS NOT NULL;
ALTER TABLE sessions ADD COLUMN person INTEGER REFERENCES people(id);
CREATE TABLE play_tables (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE play_journal (
    play_table INTEGER NOT NULL REFERENCES play_tables(id),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (play_table, seq)
);
CREATE TABLE play_hands (
    id INTEGER PRIMARY KEY,
    play_table INTEGER NOT NULL REFERENCES play_tables(id),
    hand_no INTEGER NOT NULL,
    deal_key TEXT,
    summary TEXT NOT NULL,
    log TEXT NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (play_table, hand_no)
);
CREATE INDEX play_hands_deal ON play_hands(deal_key);
"#,
    r#"
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE challenge_plays (
    challenge INTEGER NOT NULL REFERENCES challenges(id),
    person INTEGER NOT NULL REFERENCES people(id),
    deal_index INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    play_table INTEGER NOT NULL REFERENCES play_tables(id),
    PRIMARY KEY (challenge, person, deal_index)
);
CREATE TABLE online_events (
    event INTEGER PRIMARY KEY REFERENCES events(id),
    settings TEXT NOT NULL
);
CREATE TABLE event_people (
    event INTEGER NOT NULL REFERENCES events(id),
    slot INTEGER NOT NULL,
    person INTEGER NOT NULL REFERENCES people(id),
    PRIMARY KEY (event, slot)
);
CREATE TABLE online_sittings (
    event INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    play_table INTEGER NOT NULL REFERENCES play_tables(id),
    PRIMARY KEY (event, round, hand, table_no)
);
"#,
    // Sessions keep only a hash of their token, and expire. Tokens kept in plain text
    // before this are dropped: everyone signs in once more.
    r#"
DELETE FROM sessions;
ALTER TABLE sessions ADD COLUMN expires TEXT NOT NULL DEFAULT '';
"#,
    // Round control: which rounds of an event the tables may enter (absent: not opened).
    r#"
CREATE TABLE round_states (
    event INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL,
    open INTEGER NOT NULL,
    PRIMARY KEY (event, round)
);
"#,
    // The organiser's day: check-in, late withdrawals with their stand-ins, the round clock.
    r#"
CREATE TABLE checkins (
    event INTEGER NOT NULL REFERENCES events(id),
    player INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, player)
);
CREATE TABLE withdrawals (
    event INTEGER NOT NULL REFERENCES events(id),
    player INTEGER NOT NULL,
    from_round INTEGER NOT NULL,
    stand_in TEXT NOT NULL,
    PRIMARY KEY (event, player)
);
CREATE TABLE clocks (
    event INTEGER PRIMARY KEY REFERENCES events(id),
    round INTEGER NOT NULL,
    ends_at INTEGER NOT NULL
);
"#,
    // Deal secrecy: an event's deals come from a secret key (events made before keep their
    // seed) and the director may release them for practice; people are compared by a key
    // of their name (filled in by the program, see `SqliteStore::init`); tables of the
    // lobby are marked so that the lobby can read its finished tables a page at a time.
    r#"
ALTER TABLE events ADD COLUMN deal_key TEXT;
ALTER TABLE events ADD COLUMN deals_released INTEGER NOT NULL DEFAULT 0;
ALTER TABLE people ADD COLUMN name_key TEXT;
CREATE INDEX people_name_key ON people(name_key);
ALTER TABLE play_tables ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
UPDATE play_tables SET listed = 1
    WHERE json_extract(spec, '$.challenge') IS NULL AND json_extract(spec, '$.sitting') IS NULL;
CREATE INDEX play_tables_listed ON play_tables(listed, finished, id);
"#,
    // A player's options at the table (JSON the browser reads: auto-Hu, no calls, tile
    // order, sound, …), kept with the person so that they follow them between devices.
    r#"
ALTER TABLE people ADD COLUMN prefs TEXT;
"#,
    // Players' histories: who held which seat of every finished hand (filled from the hands'
    // summaries, then kept with each hand saved), and accounts deleted (their name gone,
    // their results kept for the others' comparisons).
    r#"
CREATE TABLE play_hand_people (
    hand INTEGER NOT NULL REFERENCES play_hands(id),
    person INTEGER NOT NULL REFERENCES people(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (hand, seat)
);
CREATE INDEX play_hand_people_person ON play_hand_people(person, hand);
INSERT INTO play_hand_people (hand, person, seat)
    SELECT h.id, json_extract(h.summary, '$.persons[' || s.n || ']'), s.n
    FROM play_hands h, (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) s
    WHERE json_extract(h.summary, '$.persons[' || s.n || ']') IS NOT NULL;
ALTER TABLE people ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
"#,
    // Several nodes on one database: which node plays each table in play, until when,
    // and the fencing number its journal writes are checked against (and written with); the nodes and where
    // they are reached; jobs one node does for all (duties); the lobby as every node sees
    // it; failed attempts (passwords, codes) counted wherever they were made. Times are
    // milliseconds since 1970.
    r#"
ALTER TABLE play_journal ADD COLUMN fence INTEGER;
CREATE TABLE table_leases (
    play_table INTEGER PRIMARY KEY REFERENCES play_tables(id),
    node TEXT NOT NULL,
    fence INTEGER NOT NULL,
    expires INTEGER NOT NULL
);
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    seen INTEGER NOT NULL
);
CREATE TABLE node_duties (
    duty TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    expires INTEGER NOT NULL
);
CREATE TABLE play_lobby (
    play_table INTEGER PRIMARY KEY REFERENCES play_tables(id),
    line TEXT NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE attempts (
    key TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX attempts_key ON attempts(key, at);
CREATE INDEX attempts_at ON attempts(at);
"#,
    // Ratings kept, not recomputed: each person's belief (JSON: mean, variance, hands,
    // history) with the leaderboard's order (its conservative value × 1000); the sessions
    // rated, in the order they were, each with the newest hand it saw (a rebuild replays
    // them so); the par of an open table's deal (four `strong` bots), played once.
    r#"
CREATE TABLE ratings (
    person INTEGER PRIMARY KEY REFERENCES people(id),
    state TEXT NOT NULL,
    hands INTEGER NOT NULL,
    placed INTEGER NOT NULL
);
CREATE INDEX ratings_placed ON ratings(placed);
CREATE TABLE rated_sessions (
    seq INTEGER PRIMARY KEY,
    session TEXT NOT NULL UNIQUE,
    upto INTEGER NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE pars (
    seed INTEGER NOT NULL,
    rules TEXT NOT NULL,
    points TEXT NOT NULL,
    PRIMARY KEY (seed, rules)
);
"#,
    // Each rated hand-seat's IMP as its session's rating saw it (a profile adds them up
    // instead of comparing every hand with its whole field again); a deal's hands by
    // deal and number, for the rating's bounded field (the newest holders before a hand).
    r#"
CREATE TABLE rated_hands (
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    person INTEGER NOT NULL,
    deal_key TEXT NOT NULL,
    imp INTEGER NOT NULL,
    PRIMARY KEY (hand, seat)
);
CREATE INDEX rated_hands_person ON rated_hands(person, hand);
CREATE INDEX play_hands_deal_id ON play_hands(deal_key, id);
"#,
    r#"
CREATE TABLE review_jobs (
    hand INTEGER PRIMARY KEY REFERENCES play_hands(id),
    seats TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    node TEXT,
    expires INTEGER NOT NULL DEFAULT 0,
    queued INTEGER NOT NULL,
    done INTEGER,
    review TEXT
);
CREATE INDEX review_jobs_state ON review_jobs(state, hand);
"#,
    r#"
CREATE TABLE match_queue (
    person INTEGER PRIMARY KEY REFERENCES people(id),
    name TEXT NOT NULL,
    rating INTEGER NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    bots_ok INTEGER NOT NULL DEFAULT 0,
    joined INTEGER NOT NULL,
    seen INTEGER NOT NULL,
    table_id INTEGER
);
ALTER TABLE people ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    person INTEGER NOT NULL REFERENCES people(id),
    hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    revoked TEXT
);
"#,
    r#"
CREATE TABLE drills (
    person INTEGER NOT NULL REFERENCES people(id),
    drill TEXT NOT NULL,
    added INTEGER NOT NULL,
    due INTEGER NOT NULL,
    streak INTEGER NOT NULL DEFAULT 0,
    interval_days INTEGER NOT NULL DEFAULT 0,
    ease INTEGER NOT NULL DEFAULT 2500,
    answered INTEGER NOT NULL DEFAULT 0,
    right_answers INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (person, drill)
);
CREATE INDEX drills_due ON drills(person, due);
CREATE TABLE drill_answers (
    id INTEGER PRIMARY KEY,
    person INTEGER NOT NULL REFERENCES people(id),
    drill TEXT NOT NULL,
    day INTEGER NOT NULL,
    answer TEXT NOT NULL,
    grade INTEGER NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX drill_answers_drill ON drill_answers(drill, person);
CREATE INDEX drill_answers_person ON drill_answers(person);
CREATE TABLE drill_sources (
    person INTEGER NOT NULL REFERENCES people(id),
    hand INTEGER NOT NULL,
    PRIMARY KEY (person, hand)
);
"#,
    r#"
CREATE TABLE entry_keys (
    event INTEGER NOT NULL REFERENCES events(id),
    entry_key TEXT NOT NULL,
    deal TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    number INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, entry_key)
);
CREATE TABLE signups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    rules TEXT NOT NULL,
    deadline INTEGER NOT NULL,
    note TEXT NOT NULL,
    event INTEGER REFERENCES events(id),
    acts INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE signup_acts (
    id INTEGER PRIMARY KEY,
    signup INTEGER NOT NULL REFERENCES signups(id),
    body TEXT NOT NULL,
    by_whom TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX signup_acts_signup ON signup_acts(signup, id);
CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    final_k INTEGER NOT NULL,
    final_event INTEGER REFERENCES events(id),
    created TEXT NOT NULL
);
CREATE TABLE season_parts (
    season INTEGER NOT NULL REFERENCES seasons(id),
    part INTEGER NOT NULL,
    kind TEXT NOT NULL,
    ref_id INTEGER NOT NULL,
    PRIMARY KEY (season, part)
);
"#,
];

/// Migration n (1-based) for PostgreSQL is `POSTGRES[n - 1]`: the same change as
/// `MIGRATIONS[n - 1]`.
pub const POSTGRES: &[&str] = &[
    r#"
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    team BIGINT NOT NULL,
    deal_seed BIGINT NOT NULL,
    movement TEXT NOT NULL,
    hide_standings BIGINT NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE players (
    event BIGINT NOT NULL REFERENCES events(id),
    slot BIGINT NOT NULL,
    name TEXT NOT NULL,
    team TEXT,
    PRIMARY KEY (event, slot)
);
CREATE TABLE table_codes (
    event BIGINT NOT NULL REFERENCES events(id),
    table_no BIGINT NOT NULL,
    code TEXT NOT NULL,
    PRIMARY KEY (event, table_no)
);
CREATE TABLE results (
    event BIGINT NOT NULL REFERENCES events(id),
    deal TEXT NOT NULL,
    table_no BIGINT NOT NULL,
    hand BIGINT NOT NULL,
    entry TEXT NOT NULL,
    points TEXT NOT NULL,
    version BIGINT NOT NULL,
    entered_by TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, deal, table_no, hand)
);
CREATE TABLE conflicts (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    event BIGINT NOT NULL REFERENCES events(id),
    deal TEXT NOT NULL,
    table_no BIGINT NOT NULL,
    hand BIGINT NOT NULL,
    entry TEXT NOT NULL,
    entered_by TEXT NOT NULL,
    at TEXT NOT NULL,
    resolved BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE penalties (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    event BIGINT NOT NULL REFERENCES events(id),
    body TEXT NOT NULL,
    removed BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE audit (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    event BIGINT,
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
    event BIGINT,
    table_no BIGINT,
    csrf TEXT NOT NULL,
    created TEXT NOT NULL,
    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE
);
"#,
    r#"
CREATE TABLE people (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT,
    created TEXT NOT NULL
);
CREATE UNIQUE INDEX people_account ON people(lower(name)) WHERE hash IS NOT NULL;
ALTER TABLE sessions ADD COLUMN person BIGINT REFERENCES people(id);
CREATE TABLE play_tables (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    spec TEXT NOT NULL,
    finished BIGINT NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE play_journal (
    play_table BIGINT NOT NULL REFERENCES play_tables(id),
    seq BIGINT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (play_table, seq)
);
CREATE TABLE play_hands (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    play_table BIGINT NOT NULL REFERENCES play_tables(id),
    hand_no BIGINT NOT NULL,
    deal_key TEXT,
    summary TEXT NOT NULL,
    log TEXT NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (play_table, hand_no)
);
CREATE INDEX play_hands_deal ON play_hands(deal_key);
"#,
    r#"
CREATE TABLE challenges (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    spec TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE challenge_plays (
    challenge BIGINT NOT NULL REFERENCES challenges(id),
    person BIGINT NOT NULL REFERENCES people(id),
    deal_index BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    play_table BIGINT NOT NULL REFERENCES play_tables(id),
    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE,
    PRIMARY KEY (challenge, person, deal_index)
);
CREATE TABLE online_events (
    event BIGINT PRIMARY KEY REFERENCES events(id),
    settings TEXT NOT NULL
);
CREATE TABLE event_people (
    event BIGINT NOT NULL REFERENCES events(id),
    slot BIGINT NOT NULL,
    person BIGINT NOT NULL REFERENCES people(id),
    PRIMARY KEY (event, slot)
);
CREATE TABLE online_sittings (
    event BIGINT NOT NULL REFERENCES events(id),
    round BIGINT NOT NULL,
    hand BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    play_table BIGINT NOT NULL REFERENCES play_tables(id),
    PRIMARY KEY (event, round, hand, table_no)
);
"#,
    r#"
DELETE FROM sessions;
ALTER TABLE sessions ADD COLUMN expires TEXT NOT NULL DEFAULT '';
"#,
    r#"
CREATE TABLE round_states (
    event BIGINT NOT NULL REFERENCES events(id),
    round BIGINT NOT NULL,
    open BIGINT NOT NULL,
    PRIMARY KEY (event, round)
);
"#,
    r#"
CREATE TABLE checkins (
    event BIGINT NOT NULL REFERENCES events(id),
    player BIGINT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, player)
);
CREATE TABLE withdrawals (
    event BIGINT NOT NULL REFERENCES events(id),
    player BIGINT NOT NULL,
    from_round BIGINT NOT NULL,
    stand_in TEXT NOT NULL,
    PRIMARY KEY (event, player)
);
CREATE TABLE clocks (
    event BIGINT PRIMARY KEY REFERENCES events(id),
    round BIGINT NOT NULL,
    ends_at BIGINT NOT NULL
);
"#,
    r#"
ALTER TABLE events ADD COLUMN deal_key TEXT;
ALTER TABLE events ADD COLUMN deals_released BIGINT NOT NULL DEFAULT 0;
ALTER TABLE people ADD COLUMN name_key TEXT;
CREATE INDEX people_name_key ON people(name_key);
ALTER TABLE play_tables ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;
UPDATE play_tables SET listed = 1
    WHERE (spec::jsonb ->> 'challenge') IS NULL AND (spec::jsonb ->> 'sitting') IS NULL;
CREATE INDEX play_tables_listed ON play_tables(listed, finished, id);
"#,
    r#"
ALTER TABLE people ADD COLUMN prefs TEXT;
"#,
    r#"
CREATE TABLE play_hand_people (
    hand BIGINT NOT NULL REFERENCES play_hands(id),
    person BIGINT NOT NULL REFERENCES people(id),
    seat BIGINT NOT NULL,
    PRIMARY KEY (hand, seat)
);
CREATE INDEX play_hand_people_person ON play_hand_people(person, hand);
INSERT INTO play_hand_people (hand, person, seat)
    SELECT h.id, (h.summary::jsonb -> 'persons' ->> s.n)::bigint, s.n
    FROM play_hands h, generate_series(0, 3) AS s(n)
    WHERE (h.summary::jsonb -> 'persons' ->> s.n) IS NOT NULL;
ALTER TABLE people ADD COLUMN deleted BIGINT NOT NULL DEFAULT 0;
"#,
    r#"
ALTER TABLE play_journal ADD COLUMN fence BIGINT;
CREATE TABLE table_leases (
    play_table BIGINT PRIMARY KEY REFERENCES play_tables(id),
    node TEXT NOT NULL,
    fence BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    seen BIGINT NOT NULL
);
CREATE TABLE node_duties (
    duty TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE TABLE play_lobby (
    play_table BIGINT PRIMARY KEY REFERENCES play_tables(id),
    line TEXT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE TABLE attempts (
    key TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX attempts_key ON attempts(key, at);
CREATE INDEX attempts_at ON attempts(at);
"#,
    r#"
CREATE TABLE ratings (
    person BIGINT PRIMARY KEY REFERENCES people(id),
    state TEXT NOT NULL,
    hands BIGINT NOT NULL,
    placed BIGINT NOT NULL
);
CREATE INDEX ratings_placed ON ratings(placed);
CREATE TABLE rated_sessions (
    seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    session TEXT NOT NULL UNIQUE,
    upto BIGINT NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE pars (
    seed BIGINT NOT NULL,
    rules TEXT NOT NULL,
    points TEXT NOT NULL,
    PRIMARY KEY (seed, rules)
);
"#,
    r#"
CREATE TABLE rated_hands (
    hand BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    person BIGINT NOT NULL,
    deal_key TEXT NOT NULL,
    imp BIGINT NOT NULL,
    PRIMARY KEY (hand, seat)
);
CREATE INDEX rated_hands_person ON rated_hands(person, hand);
CREATE INDEX play_hands_deal_id ON play_hands(deal_key, id);
"#,
    r#"
CREATE TABLE review_jobs (
    hand BIGINT PRIMARY KEY REFERENCES play_hands(id),
    seats TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    node TEXT,
    expires BIGINT NOT NULL DEFAULT 0,
    queued BIGINT NOT NULL,
    done BIGINT,
    review TEXT
);
CREATE INDEX review_jobs_state ON review_jobs(state, hand);
"#,
    r#"
CREATE TABLE match_queue (
    person BIGINT PRIMARY KEY REFERENCES people(id),
    name TEXT NOT NULL,
    rating BIGINT NOT NULL,
    bot BIGINT NOT NULL DEFAULT 0,
    bots_ok BIGINT NOT NULL DEFAULT 0,
    joined BIGINT NOT NULL,
    seen BIGINT NOT NULL,
    table_id BIGINT
);
ALTER TABLE people ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
CREATE TABLE api_tokens (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    person BIGINT NOT NULL REFERENCES people(id),
    hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    revoked TEXT
);
"#,
    r#"
CREATE TABLE drills (
    person BIGINT NOT NULL REFERENCES people(id),
    drill TEXT NOT NULL,
    added BIGINT NOT NULL,
    due BIGINT NOT NULL,
    streak BIGINT NOT NULL DEFAULT 0,
    interval_days BIGINT NOT NULL DEFAULT 0,
    ease BIGINT NOT NULL DEFAULT 2500,
    answered BIGINT NOT NULL DEFAULT 0,
    right_answers BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (person, drill)
);
CREATE INDEX drills_due ON drills(person, due);
CREATE TABLE drill_answers (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    person BIGINT NOT NULL REFERENCES people(id),
    drill TEXT NOT NULL,
    day BIGINT NOT NULL,
    answer TEXT NOT NULL,
    grade BIGINT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX drill_answers_drill ON drill_answers(drill, person);
CREATE INDEX drill_answers_person ON drill_answers(person);
CREATE TABLE drill_sources (
    person BIGINT NOT NULL REFERENCES people(id),
    hand BIGINT NOT NULL,
    PRIMARY KEY (person, hand)
);
"#,
    r#"
CREATE TABLE entry_keys (
    event BIGINT NOT NULL REFERENCES events(id),
    entry_key TEXT NOT NULL,
    deal TEXT NOT NULL,
    table_no BIGINT NOT NULL,
    hand BIGINT NOT NULL,
    outcome TEXT NOT NULL,
    number BIGINT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, entry_key)
);
CREATE TABLE signups (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    rules TEXT NOT NULL,
    deadline BIGINT NOT NULL,
    note TEXT NOT NULL,
    event BIGINT REFERENCES events(id),
    acts BIGINT NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE signup_acts (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    signup BIGINT NOT NULL REFERENCES signups(id),
    body TEXT NOT NULL,
    by_whom TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX signup_acts_signup ON signup_acts(signup, id);
CREATE TABLE seasons (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    final_k BIGINT NOT NULL,
    final_event BIGINT REFERENCES events(id),
    created TEXT NOT NULL
);
CREATE TABLE season_parts (
    season BIGINT NOT NULL REFERENCES seasons(id),
    part BIGINT NOT NULL,
    kind TEXT NOT NULL,
    ref_id BIGINT NOT NULL,
    PRIMARY KEY (season, part)
);
"#,
];
