use mcr::Wind::*;
use store::prelude::*;
use store::{
    Entrant, NewEvent, NewHand, PgStore, PlayWrite, Saved, SqliteStore, StandIn, StoreError,
    Withdrawal,
};
use tournament::entry::{Outcome, ScoreEntry};
use tournament::movement::individual;
use tournament::standings::{Penalty, PenaltyKind};

/// A database of its own on the test server (`DUPMJ_TEST_PG`, set by
/// `tools/with-postgres.sh`); `None` (the PostgreSQL half skipped, said on stderr) when it
/// is not set, unless `DUPMJ_REQUIRE_PG` asks for it, as the README's test command does.
fn pg(name: &str) -> Option<PgStore> {
    let Ok(admin) = std::env::var("DUPMJ_TEST_PG") else {
        assert!(
            std::env::var_os("DUPMJ_REQUIRE_PG").is_none(),
            "DUPMJ_REQUIRE_PG is set but DUPMJ_TEST_PG is not: run under tools/with-postgres.sh"
        );
        eprintln!("{name}: PostgreSQL half skipped (DUPMJ_TEST_PG is not set)");
        return None;
    };
    let url = store::scratch_database(&admin, &format!("store_{name}")).unwrap();
    Some(PgStore::connect(&url).unwrap())
}

/// Each named test body runs twice: on a SQLite database in memory and on PostgreSQL.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                super::$name(&store::SqliteStore::in_memory().unwrap())
            }
            #[test]
            fn postgres() {
                if let Some(s) = super::pg(stringify!($name)) {
                    super::$name(&s)
                }
            }
        }
    )*};
}

on_both!(
    leases_fence_out_a_node_that_lost_its_table,
    nodes_say_where_they_are_and_one_holds_a_duty_at_a_time,
    failed_attempts_are_counted_in_a_window_and_forgotten,
    the_lobby_shows_tables_in_play_and_those_that_ended_lately,
    a_second_different_entry_becomes_a_conflict_for_the_director,
    swaps_and_replacements_keep_every_result,
    a_challenge_table_is_created_with_its_journal_once_per_person_and_deal,
    one_phone_keeps_at_most_one_open_conflict_per_sitting,
    check_ins_withdrawals_and_the_clock_are_kept_and_audited,
    names_are_compared_by_how_they_look,
    the_lobby_reads_its_finished_tables_a_page_at_a_time,
    releasing_an_events_deals_is_audited_once,
);

fn new_event() -> NewEvent {
    NewEvent {
        name: "Club night".into(),
        team: false,
        players: (1..=16)
            .map(|i| Entrant {
                name: format!("P{i}"),
                team: None,
            })
            .collect(),
        deal_seed: 7,
        deal_key: Some("ab".repeat(32)),
        movement: individual(16, None, 1).unwrap(),
        table_codes: (1..=4).map(|i| format!("code{i}")).collect(),
    }
}

fn self_drawn(value: u32) -> ScoreEntry {
    ScoreEntry {
        outcome: Outcome::SelfDrawn {
            winner: South,
            value,
        },
        false_hu: vec![],
    }
}

#[test]
fn events_round_trip_and_schema_is_versioned() {
    let dir = std::env::temp_dir().join(format!("dupmj-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.sqlite");
    std::fs::remove_file(&path).ok();
    let id = {
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), 10);
        s.create_event(&new_event(), "director").unwrap()
    };
    // Reopened: migrations are not applied twice and the event is there.
    let s = SqliteStore::open(&path).unwrap();
    let e = s.event(id).unwrap();
    assert_eq!(e.name, "Club night");
    assert_eq!(e.players[15].name, "P16");
    assert_eq!(e.table_codes[3], "code4");
    assert_eq!(e.movement, new_event().movement);
    assert_eq!(e.deal_key, Some("ab".repeat(32)));
    assert!(!e.deals_released);
    assert!(matches!(s.event(99), Err(StoreError::NotFound(_))));
    let mode: String = rusqlite_journal_mode(&path);
    assert_eq!(mode, "wal");
    std::fs::remove_dir_all(&dir).ok();
}

fn rusqlite_journal_mode(path: &std::path::Path) -> String {
    // WAL is a property of the file: a fresh connection reports it.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "head -c 20 '{}' | od -An -tu1 | tr -s ' '",
            path.display()
        ))
        .output()
        .unwrap();
    // Bytes 18 and 19 of the header are 2 for WAL.
    let bytes: Vec<u8> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|b| b.parse().unwrap())
        .collect();
    if bytes[18] == 2 && bytes[19] == 2 {
        "wal".into()
    } else {
        "rollback".into()
    }
}

fn a_second_different_entry_becomes_a_conflict_for_the_director(s: &dyn Store) {
    let id = s.create_event(&new_event(), "director").unwrap();
    // Two phones loaded the empty form (version 0).
    assert_eq!(
        s.save_result(id, "1-1", 1, 1, &self_drawn(12), 0, "table 1 a")
            .unwrap(),
        Saved::Saved { version: 1 }
    );
    // The same entry again is harmless.
    assert_eq!(
        s.save_result(id, "1-1", 1, 1, &self_drawn(12), 0, "table 1 b")
            .unwrap(),
        Saved::Unchanged { version: 1 }
    );
    let Saved::Conflict { id: cid } = s
        .save_result(id, "1-1", 1, 1, &self_drawn(16), 0, "table 1 b")
        .unwrap()
    else {
        panic!("a different entry on a stale version must conflict");
    };
    let r = s.results(id).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].entry, self_drawn(12), "never silently overwritten");
    assert_eq!(r[0].points, [-12, 36, -12, -12]);
    assert_eq!(s.conflicts(id).unwrap().len(), 1);
    s.resolve_conflict(id, cid, true, "director").unwrap();
    let r = s.results(id).unwrap();
    assert_eq!((r[0].entry.clone(), r[0].version), (self_drawn(16), 2));
    assert!(s.conflicts(id).unwrap().is_empty());
    assert!(s.resolve_conflict(id, cid, true, "director").is_err());
    // An update on the current version goes through.
    assert_eq!(
        s.save_result(id, "1-1", 1, 1, &self_drawn(8), 2, "table 1 a")
            .unwrap(),
        Saved::Saved { version: 3 }
    );
    // Impossible entries are refused and nothing is written.
    let err = s
        .save_result(id, "1-2", 2, 1, &self_drawn(5), 0, "table 2")
        .unwrap_err();
    assert!(err.to_string().contains("at least 8"), "{err}");
    assert_eq!(s.results(id).unwrap().len(), 1);
    // Every change is in the audit trail with before and after.
    let a = s.audit(id).unwrap();
    let whats: Vec<&str> = a.iter().map(|l| l.what.as_str()).collect();
    assert_eq!(whats[0], "event created");
    assert!(whats.contains(&"result of deal 1-1 at table 1, hand 1"));
    assert!(whats.iter().any(|w| w.starts_with("conflict 1 accepted")));
    let last = a.last().unwrap();
    assert_eq!(last.who, "table 1 a");
    assert!(last.before.as_deref().unwrap().contains("16"));
    assert!(last.after.as_deref().unwrap().contains("\"value\":8"));
}

fn swaps_and_replacements_keep_every_result(s: &dyn Store) {
    let id = s.create_event(&new_event(), "director").unwrap();
    s.save_result(id, "1-1", 1, 1, &self_drawn(12), 0, "t1")
        .unwrap();
    let before = s.event(id).unwrap().movement;
    s.swap_players(id, 1, 2, 3, "director").unwrap();
    let after = s.event(id).unwrap().movement;
    assert_eq!(
        before.rounds[..2],
        after.rounds[..2],
        "earlier rounds unchanged"
    );
    let seat_of = |m: &tournament::movement::Movement, p: u32| {
        m.rounds[2].hands[0]
            .tables
            .iter()
            .flat_map(|t| {
                t.seats
                    .iter()
                    .map(move |s| (t.table, s.direction, s.player))
            })
            .find(|x| x.2 == p)
            .map(|x| (x.0, x.1))
    };
    assert_eq!(seat_of(&before, 1), seat_of(&after, 2));
    assert_eq!(seat_of(&before, 2), seat_of(&after, 1));
    s.set_player(
        id,
        5,
        &Entrant {
            name: "Sub".into(),
            team: None,
        },
        "director",
    )
    .unwrap();
    assert_eq!(s.event(id).unwrap().players[4].name, "Sub");
    assert_eq!(s.results(id).unwrap().len(), 1);
    assert!(s.swap_players(id, 1, 17, 1, "d").is_err());
    assert!(s.swap_players(id, 1, 2, 9, "d").is_err());
    let p = Penalty {
        player: 3,
        kind: PenaltyKind::Imp,
        deal: None,
        imp: 5,
        reason: "late".into(),
    };
    let pid = s.add_penalty(id, &p, "director").unwrap();
    assert_eq!(s.penalties(id).unwrap(), vec![(pid, p)]);
    s.remove_penalty(id, pid, "director").unwrap();
    assert!(s.penalties(id).unwrap().is_empty());
    let bad = Penalty {
        player: 40,
        kind: PenaltyKind::Imp,
        deal: None,
        imp: 5,
        reason: String::new(),
    };
    assert!(s.add_penalty(id, &bad, "director").is_err());
}

fn a_challenge_table_is_created_with_its_journal_once_per_person_and_deal(s: &dyn Store) {
    let p = s.create_person("Ann", None).unwrap();
    let c = s.create_challenge("{}").unwrap();
    let journal = vec!["{\"t\":\"start\",\"hand\":0}".to_string()];
    let t = s
        .open_challenge_table(c, p.id, 2, 1, "{\"x\":1}", &journal)
        .unwrap();
    assert_eq!(s.journal(t).unwrap(), journal);
    let plays = s.challenge_plays(c).unwrap();
    assert_eq!(plays.len(), 1);
    assert_eq!(
        (plays[0].deal_index, plays[0].seat, plays[0].play_table),
        (2, 1, t)
    );
    // The same deal again: refused, and no second table or journal line is left behind.
    let before = s.play_tables(false, 100).unwrap().len();
    let e = s
        .open_challenge_table(c, p.id, 2, 1, "{\"x\":2}", &journal)
        .unwrap_err();
    assert!(e.to_string().contains("already played"), "{e}");
    assert_eq!(s.play_tables(false, 100).unwrap().len(), before);
    assert_eq!(s.journal(t + 1).unwrap(), Vec::<String>::new());
    // An online sitting keeps its table when opened twice.
    let id = s.create_event(&new_event(), "test").unwrap();
    let a = s.open_sitting_table(id, 1, 1, 2, "{}", &journal).unwrap();
    let b = s.open_sitting_table(id, 1, 1, 2, "{}", &journal).unwrap();
    assert_eq!(a, b);
    assert_eq!(s.journal(a).unwrap().len(), 1);
    assert_eq!(s.online_sittings(id).unwrap().len(), 1);
}

#[test]
fn sessions_keep_no_token_expire_and_end_with_a_new_password() {
    use store::{Role, Session};
    let dir = std::env::temp_dir().join(format!("dupmj-sessions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.sqlite");
    std::fs::remove_file(&path).ok();
    let s = SqliteStore::open(&path).unwrap();
    let make = |token: &str, role| Session {
        token: token.into(),
        role,
        csrf: "c".into(),
    };
    s.create_session(&make("director-token-1", Role::Director))
        .unwrap();
    s.create_session(&make("table-token-1", Role::Table { event: 1, table: 2 }))
        .unwrap();
    assert_eq!(
        s.session("director-token-1").unwrap().unwrap().role,
        Role::Director
    );
    // The file holds no token in the clear.
    let bytes = std::fs::read(&path).unwrap();
    let wal = std::fs::read(path.with_extension("sqlite-wal")).unwrap_or_default();
    for hay in [&bytes, &wal] {
        assert!(!hay.windows(16).any(|w| w == b"director-token-1"));
    }
    // The director sees both and ends the table's.
    let list = s.sessions().unwrap();
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(|x| x.expires > x.created));
    let table = list.iter().find(|x| x.role != Role::Director).unwrap();
    s.end_session_id(table.id, "director").unwrap();
    assert!(s.session("table-token-1").unwrap().is_none());
    assert!(s.end_session_id(table.id, "director").is_err());
    // A new director password ends every director session.
    s.set_director_hash("$argon2id$new", "director").unwrap();
    assert!(s.session("director-token-1").unwrap().is_none());
    // An expired session is not accepted (made to look a day old).
    s.create_session(&make("old-token", Role::Table { event: 1, table: 1 }))
        .unwrap();
    drop(s);
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute(
        "UPDATE sessions SET expires = '2000-01-01T00:00:00.000Z'",
        [],
    )
    .unwrap();
    drop(c);
    let s = SqliteStore::open(&path).unwrap();
    assert!(s.session("old-token").unwrap().is_none());
    assert!(s.sessions().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_backup_is_a_whole_copy_taken_while_in_use_and_never_overwrites() {
    let dir = std::env::temp_dir().join(format!("dupmj-backup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("live.sqlite");
    let out = dir.join("copy.sqlite");
    for p in [&path, &out] {
        std::fs::remove_file(p).ok();
    }
    let s = SqliteStore::open(&path).unwrap();
    let id = s.create_event(&new_event(), "director").unwrap();
    // The live file alone does not hold it yet (it is in the write-ahead log) …
    s.backup_to(&out).unwrap();
    // … but the backup does, opened on its own.
    let copy = SqliteStore::open(&out).unwrap();
    assert_eq!(copy.event(id).unwrap().name, "Club night");
    let e = s.backup_to(&out).unwrap_err().to_string();
    assert!(e.contains("already exists"), "{e}");
    let e = s
        .backup_to(&dir.join("no-such-folder/copy.sqlite"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the folder") && e.contains("does not exist"),
        "{e}"
    );
    assert!(!dir.join("copy.part").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_database_that_cannot_be_written_is_refused_at_start() {
    let dir = std::env::temp_dir().join(format!("dupmj-readonly-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ro.sqlite");
    std::fs::remove_file(&path).ok();
    drop(SqliteStore::open(&path).unwrap());
    let e = SqliteStore::open_read_only(&path)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("cannot be written") || e.contains("readonly"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn one_phone_keeps_at_most_one_open_conflict_per_sitting(s: &dyn Store) {
    let id = s.create_event(&new_event(), "director").unwrap();
    s.save_result(id, "1-1", 1, 1, &self_drawn(20), 0, "table 1, phone a")
        .unwrap();
    // The same entry again is not a conflict.
    assert_eq!(
        s.save_result(id, "1-1", 1, 1, &self_drawn(20), 0, "table 1, phone b")
            .unwrap(),
        Saved::Unchanged { version: 1 }
    );
    // Phone b saves 300 different values on a stale form: one conflict, holding the last.
    let mut ids = std::collections::BTreeSet::new();
    for v in 0..300 {
        match s
            .save_result(
                id,
                "1-1",
                1,
                1,
                &self_drawn(21 + v % 50),
                0,
                "table 1, phone b",
            )
            .unwrap()
        {
            Saved::Conflict { id } => {
                ids.insert(id);
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(ids.len(), 1);
    let open = s.conflicts(id).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].entry, self_drawn(21 + 299 % 50));
    // Another phone's conflict on the same sitting is its own.
    s.save_result(id, "1-1", 1, 1, &self_drawn(30), 0, "table 1, phone c")
        .unwrap();
    assert_eq!(s.conflicts(id).unwrap().len(), 2);
}

fn check_ins_withdrawals_and_the_clock_are_kept_and_audited(s: &dyn Store) {
    let id = s.create_event(&new_event(), "director").unwrap();
    s.set_checked_in(id, 3, true, "director").unwrap();
    s.set_checked_in(id, 3, true, "director").unwrap(); // twice is once
    s.set_checked_in(id, 5, true, "director").unwrap();
    s.set_checked_in(id, 5, false, "director").unwrap();
    let e = s.event(id).unwrap();
    assert_eq!(e.checked_in.iter().copied().collect::<Vec<_>>(), vec![3]);
    assert!(matches!(
        s.set_checked_in(id, 17, true, "director"),
        Err(StoreError::NotFound(m)) if m.contains("player 17")
    ));

    let w = Withdrawal {
        player: 4,
        from_round: 3,
        stand_in: StandIn::Substitute("Lee".into()),
    };
    s.withdraw(id, &w, "director").unwrap();
    // A second withdrawal of the same player, a round out of range, an empty name: refused,
    // and the first stays.
    let again = s.withdraw(
        id,
        &Withdrawal {
            from_round: 2,
            ..w.clone()
        },
        "director",
    );
    assert!(matches!(again, Err(StoreError::Invalid(m)) if m.contains("already withdrawn")));
    let late = Withdrawal {
        player: 6,
        from_round: 6,
        stand_in: StandIn::Bot,
    };
    assert!(
        matches!(s.withdraw(id, &late, "d"), Err(StoreError::Invalid(m)) if m.contains("1 to 5, not 6"))
    );
    let blank = Withdrawal {
        player: 6,
        from_round: 2,
        stand_in: StandIn::Substitute("  ".into()),
    };
    assert!(
        matches!(s.withdraw(id, &blank, "d"), Err(StoreError::Invalid(m)) if m.contains("name is empty"))
    );
    assert_eq!(s.event(id).unwrap().withdrawals, vec![w.clone()]);
    s.cancel_withdrawal(id, 4, "director").unwrap();
    assert!(s.event(id).unwrap().withdrawals.is_empty());
    assert!(matches!(
        s.cancel_withdrawal(id, 4, "d"),
        Err(StoreError::NotFound(_))
    ));

    s.set_clock(id, Some((2, 1_800_000_000)), "director")
        .unwrap();
    assert_eq!(s.event(id).unwrap().clock, Some((2, 1_800_000_000)));
    assert!(s.set_clock(id, Some((9, 1)), "director").is_err());
    assert_eq!(s.event(id).unwrap().clock, Some((2, 1_800_000_000)));
    s.set_clock(id, None, "director").unwrap();
    assert_eq!(s.event(id).unwrap().clock, None);

    let audit: Vec<String> = s.audit(id).unwrap().into_iter().map(|a| a.what).collect();
    for needle in [
        "player 3 checked in",
        "player 5 check-in taken back",
        "player 4 withdrew from round 3",
        "withdrawal of player 4 taken back",
        "round 2 clock set",
        "round clock stopped",
    ] {
        assert!(
            audit.iter().any(|a| a.contains(needle)),
            "{needle} in {audit:?}"
        );
    }
}

fn names_are_compared_by_how_they_look(s: &dyn Store) {
    let ann = s.create_person("Ann", Some("hash")).unwrap();
    assert!(ann.account);
    // Another account that looks the same: refused, naming the one it looks like.
    for same in ["ANN", "Ａｎｎ", "\u{0410}nn"] {
        let e = s.create_person(same, Some("h2")).unwrap_err().to_string();
        assert!(e.contains("Ann"), "{same}: {e}");
    }
    // A guest may not take an account's name either, but two guests may share one.
    assert!(s.create_person("aNN", None).is_err());
    s.create_person("Bob", None).unwrap();
    s.create_person("bob", None).unwrap();
    // Signing in finds the account whichever way the name is written.
    assert_eq!(s.account("ＡＮＮ").unwrap().unwrap().0.id, ann.id);
    assert!(s.account("Bob").unwrap().is_none());
}

#[test]
fn names_made_before_keys_get_theirs_when_the_file_is_opened() {
    let dir = std::env::temp_dir().join(format!("dupmj-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k.sqlite");
    std::fs::remove_file(&path).ok();
    {
        // A database of schema version 6 with an account in it.
        let c = rusqlite::Connection::open(&path).unwrap();
        for m in &store::MIGRATIONS[..6] {
            c.execute_batch(m).unwrap();
        }
        c.pragma_update(None, "user_version", 6).unwrap();
        c.execute(
            "INSERT INTO people (name, hash, created) VALUES ('Zoë', 'h', 'then')",
            [],
        )
        .unwrap();
        c.execute(
            "INSERT INTO play_tables (spec, created) VALUES ('{\"challenge\":{\"id\":1}}', 'then'), ('{}', 'then')",
            [],
        )
        .unwrap();
        c.execute("UPDATE play_tables SET finished = 1", [])
            .unwrap();
    }
    let s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), 10);
    assert!(s.create_person("ZOË", Some("h2")).is_err());
    assert!(s.account("zoë").unwrap().is_some());
    // Only the table that is not a challenge's is the lobby's.
    let (tables, total) = s.finished_tables(0, 10).unwrap();
    assert_eq!((tables.len(), total), (1, 1));
    assert_eq!(tables[0].spec, "{}");
    std::fs::remove_dir_all(&dir).ok();
}

fn the_lobby_reads_its_finished_tables_a_page_at_a_time(s: &dyn Store) {
    let mut ids = Vec::new();
    for i in 0..7 {
        let t = s
            .create_play_table(&format!("{{\"n\":{i}}}"), i != 3)
            .unwrap();
        if i != 5 {
            s.update_play_table(t, "{}", true).unwrap();
        }
        ids.push(t);
    }
    // Listed and finished: tables 0, 1, 2, 4, 6 (3 is not the lobby's, 5 still plays).
    let (page, total) = s.finished_tables(0, 2).unwrap();
    assert_eq!(total, 5);
    assert_eq!(
        page.iter().map(|t| t.id).collect::<Vec<_>>(),
        [ids[6], ids[4]]
    );
    let (page, _) = s.finished_tables(2, 2).unwrap();
    assert_eq!(
        page.iter().map(|t| t.id).collect::<Vec<_>>(),
        [ids[2], ids[1]]
    );
    let (page, _) = s.finished_tables(4, 2).unwrap();
    assert_eq!(page.iter().map(|t| t.id).collect::<Vec<_>>(), [ids[0]]);
}

fn releasing_an_events_deals_is_audited_once(s: &dyn Store) {
    let id = s.create_event(&new_event(), "director").unwrap();
    s.release_deals(id, "director").unwrap();
    s.release_deals(id, "director").unwrap();
    assert!(s.event(id).unwrap().deals_released);
    let lines: Vec<_> = s
        .audit(id)
        .unwrap()
        .into_iter()
        .filter(|l| l.what == "deals released for practice")
        .collect();
    assert_eq!(lines.len(), 1);
    assert!(matches!(
        s.release_deals(99, "d"),
        Err(StoreError::NotFound(_))
    ));
}

/// Sessions on either database; `expire_all` makes every stored session look expired.
fn sessions_expire_and_end(s: &dyn Store, expire_all: &dyn Fn()) {
    use store::{Role, Session};
    let make = |token: &str, role| Session {
        token: token.into(),
        role,
        csrf: "c".into(),
    };
    s.create_session(&make("director-token-1", Role::Director))
        .unwrap();
    s.create_session(&make("table-token-1", Role::Table { event: 1, table: 2 }))
        .unwrap();
    let got = s.session("director-token-1").unwrap().unwrap();
    assert_eq!((got.role, got.csrf.as_str()), (Role::Director, "c"));
    assert!(s.session("nobody").unwrap().is_none());
    let list = s.sessions().unwrap();
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(|x| x.expires > x.created));
    // Newest first.
    assert_eq!(list[0].role, Role::Table { event: 1, table: 2 });
    s.end_session_id(list[0].id, "director").unwrap();
    assert!(s.session("table-token-1").unwrap().is_none());
    assert!(s.end_session_id(list[0].id, "director").is_err());
    s.set_director_hash("$argon2id$new", "director").unwrap();
    assert!(s.session("director-token-1").unwrap().is_none());
    assert_eq!(s.director_hash().unwrap().as_deref(), Some("$argon2id$new"));
    assert!(!s.set_first_director_hash("$other", "x").unwrap());
    s.create_session(&make("old-token", Role::Table { event: 1, table: 1 }))
        .unwrap();
    assert!(s.session("old-token").unwrap().is_some());
    expire_all();
    assert!(s.session("old-token").unwrap().is_none());
    assert!(s.sessions().unwrap().is_empty());
}

mod sessions_expire_and_end {
    #[test]
    fn sqlite() {
        let dir = std::env::temp_dir().join(format!("dupmj-sess2-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.sqlite");
        std::fs::remove_file(&path).ok();
        let s = store::SqliteStore::open(&path).unwrap();
        super::sessions_expire_and_end(&s, &|| {
            rusqlite::Connection::open(&path)
                .unwrap()
                .execute(
                    "UPDATE sessions SET expires = '2000-01-01T00:00:00.000Z'",
                    [],
                )
                .unwrap();
        });
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn postgres() {
        let Some(s) = super::pg("sessions_expire_and_end") else {
            return;
        };
        let url = s.url().to_string();
        super::sessions_expire_and_end(&s, &|| {
            let url = url.clone();
            // The blocking client of the test, on a thread of its own.
            std::thread::spawn(move || {
                let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
                c.execute(
                    "UPDATE sessions SET expires = '2000-01-01T00:00:00.000Z'",
                    &[],
                )
                .unwrap();
            })
            .join()
            .unwrap();
        });
    }
}

#[test]
fn postgresql_is_migrated_once_and_refuses_a_newer_schema() {
    let Some(s) = pg("migrated_once") else { return };
    assert_eq!(s.schema_version().unwrap(), store::MIGRATIONS.len());
    let id = s.create_event(&new_event(), "director").unwrap();
    let url = s.url().to_string();
    drop(s);
    // A second node on the same database: nothing migrated twice, the event is there.
    let s = PgStore::connect(&url).unwrap();
    assert_eq!(s.event(id).unwrap().players[15].name, "P16");
    assert_eq!(s.event(id).unwrap().deal_key, Some("ab".repeat(32)));
    std::thread::spawn({
        let url = url.clone();
        move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.execute("UPDATE dupmj_schema SET version = 99", &[])
                .unwrap();
        }
    })
    .join()
    .unwrap();
    let e = PgStore::connect(&url).err().expect("refused").to_string();
    assert!(e.contains("newer than this program"), "{e}");
    // A wrong address is named, without its password.
    let e = PgStore::connect("postgres://u:secret@127.0.0.1:1/none")
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("u:***@127.0.0.1:1/none") && !e.contains("secret"),
        "{e}"
    );
}

#[test]
fn two_nodes_saving_the_same_result_at_once_keep_one_version_and_a_conflict() {
    let Some(a) = pg("two_nodes_same_result") else {
        return;
    };
    let b = PgStore::connect(a.url()).unwrap();
    let id = a.create_event(&new_event(), "director").unwrap();
    // Eight phones per node enter the same sitting on an empty form, all at once: exactly
    // one entry becomes version 1; the others are unchanged (same entry) or a conflict.
    let (a, b) = (std::sync::Arc::new(a), std::sync::Arc::new(b));
    let outcomes: Vec<Saved> = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..16)
            .map(|i| {
                let s = if i % 2 == 0 { a.clone() } else { b.clone() };
                sc.spawn(move || {
                    let value = if i < 8 { 12 } else { 16 + i };
                    s.save_result(
                        id,
                        "1-1",
                        1,
                        1,
                        &self_drawn(value),
                        0,
                        &format!("phone {i}"),
                    )
                    .unwrap()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let saved = outcomes
        .iter()
        .filter(|o| matches!(o, Saved::Saved { version: 1 }))
        .count();
    assert_eq!(saved, 1, "{outcomes:?}");
    let r = a.results(id).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].version, 1);
    // Every other different entry is one conflict of its phone, each audited once.
    let conflicts = b.conflicts(id).unwrap();
    let differing = outcomes
        .iter()
        .filter(|o| matches!(o, Saved::Conflict { .. }))
        .count();
    assert_eq!(conflicts.len(), differing);
    let audited = a
        .audit(id)
        .unwrap()
        .iter()
        .filter(|l| l.what.starts_with("result of deal") || l.what.starts_with("conflicting"))
        .count();
    assert_eq!(audited, 1 + differing);
}

#[test]
fn the_store_answers_from_inside_an_async_runtime() {
    let Some(s) = pg("inside_runtime") else {
        return;
    };
    // The server calls the store from its runtime's threads; the blocking client must
    // not be entered there (it would panic), on either kind of runtime.
    for rt in [
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap(),
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap(),
    ] {
        let id = rt.block_on(async { s.create_event(&new_event(), "director").unwrap() });
        assert_eq!(
            rt.block_on(async { s.event(id).unwrap().name }),
            "Club night"
        );
    }
}

/// A SQLite file with something in every table moved into PostgreSQL: the same rows, the
/// same ids, and new ids continue after the largest.
#[test]
fn a_sqlite_file_moves_into_postgresql_whole() {
    use store::migrate::{dump, sqlite_to_postgres};
    let Some(to) = pg("moved_from_sqlite") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("dupmj-move-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.sqlite");
    std::fs::remove_file(&path).ok();
    let from = SqliteStore::open(&path).unwrap();
    let id = from.create_event(&new_event(), "director").unwrap();
    from.save_result(id, "1-1", 1, 1, &self_drawn(12), 0, "t1")
        .unwrap();
    from.save_result(id, "1-1", 1, 1, &self_drawn(16), 0, "t2")
        .unwrap();
    from.add_penalty(
        id,
        &Penalty {
            player: 3,
            kind: PenaltyKind::Imp,
            deal: None,
            imp: 5,
            reason: "late".into(),
        },
        "director",
    )
    .unwrap();
    from.set_checked_in(id, 2, true, "director").unwrap();
    from.set_round(id, 1, true, "director").unwrap();
    from.set_clock(id, Some((1, 1_900_000_000)), "director")
        .unwrap();
    from.set_director_hash("$argon2id$x", "director").unwrap();
    let ann = from.create_person("Ann", Some("h")).unwrap();
    from.set_prefs(ann.id, "{\"sound\":false}").unwrap();
    from.create_session(&store::Session {
        token: "tok".into(),
        role: store::Role::Player { person: ann.id },
        csrf: "c".into(),
    })
    .unwrap();
    let t = from.create_play_table("{}", true).unwrap();
    from.append_journal(&[(t, 0, "a".into()), (t, 1, "b".into())])
        .unwrap();
    let summary = format!(
        "{{\"persons\":[{},null,null,null],\"names\":[\"Ann\",\"b\",\"b\",\"b\"]}}",
        ann.id
    );
    from.save_hand(t, 1, Some("deal-1"), &summary, "{}")
        .unwrap();
    let c = from.create_challenge("{}").unwrap();
    from.open_challenge_table(c, ann.id, 0, 2, "{}", &["x".to_string()])
        .unwrap();
    from.set_online(id, "{}", "director").unwrap();
    from.bind_person(id, 1, ann.id).unwrap();
    from.open_sitting_table(id, 1, 1, 1, "{}", &[]).unwrap();
    from.withdraw(
        id,
        &Withdrawal {
            player: 4,
            from_round: 2,
            stand_in: StandIn::Bot,
        },
        "director",
    )
    .unwrap();

    // A lease of the file's node is not moved: the nodes on PostgreSQL take the table.
    from.claim_table(t, "local", 60_000, true).unwrap();
    let moved = sqlite_to_postgres(&from, &to).unwrap();
    assert_eq!(moved.len(), 23);
    assert!(to.table_owner(t).unwrap().is_none());
    assert!(to.unheld_tables().unwrap().contains(&t));
    assert!(!from.unheld_tables().unwrap().contains(&t));
    for m in &moved {
        assert_eq!(m.sqlite, m.postgres, "{m:?}");
        assert!(m.sqlite > 0, "the test leaves no table empty: {m:?}");
    }
    for table in [
        "events",
        "results",
        "audit",
        "play_journal",
        "play_hands",
        "people",
    ] {
        assert_eq!(
            dump(&from, table).unwrap(),
            dump(&to, table).unwrap(),
            "{table}"
        );
    }
    // Read through the store, the event and what hangs on it are the same.
    assert_eq!(from.event(id).unwrap(), to.event(id).unwrap());
    assert_eq!(from.results(id).unwrap(), to.results(id).unwrap());
    assert_eq!(from.conflicts(id).unwrap(), to.conflicts(id).unwrap());
    assert_eq!(from.penalties(id).unwrap(), to.penalties(id).unwrap());
    assert_eq!(
        from.challenge_plays(c).unwrap(),
        to.challenge_plays(c).unwrap()
    );
    assert_eq!(
        to.session("tok").unwrap().unwrap().role,
        store::Role::Player { person: ann.id }
    );
    assert_eq!(to.hands_of_person(ann.id, 0, 10).unwrap().len(), 1);
    assert_eq!(to.director_hash().unwrap().as_deref(), Some("$argon2id$x"));
    // New rows get new ids after the moved ones.
    let id2 = to.create_event(&new_event(), "director").unwrap();
    assert_eq!(id2, id + 1);
    let t2 = to.create_play_table("{}", true).unwrap();
    assert!(t2 > t);
    // A second move into a database that holds data is refused, and changes nothing.
    let e = sqlite_to_postgres(&from, &to).unwrap_err().to_string();
    assert!(e.contains("already holds data"), "{e}");
    assert_eq!(to.events().unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// A write of journal lines under a fence.
fn fenced(t: i64, seq: u64, line: &str, fence: u64) -> PlayWrite {
    PlayWrite {
        fences: vec![(t, fence)],
        entries: vec![(t, seq, line.to_string())],
        ..PlayWrite::default()
    }
}

fn leases_fence_out_a_node_that_lost_its_table(s: &dyn Store) {
    let t = s.create_play_table("{}", true).unwrap();
    assert_eq!(s.unheld_tables().unwrap(), vec![t]);
    assert_eq!(s.claim_table(t, "a", 60_000, false).unwrap(), Some(1));
    assert!(s.unheld_tables().unwrap().is_empty());
    // Another node cannot take a live lease; the owner renews its own with the same fence.
    assert_eq!(s.claim_table(t, "b", 60_000, false).unwrap(), None);
    assert_eq!(s.claim_table(t, "a", 60_000, false).unwrap(), Some(1));
    s.write_play(&fenced(t, 0, "x", 1)).unwrap();
    // a stalls: its lease runs out and b takes the table with a larger fence.
    assert!(s.renew_tables("a", &[(t, 1)], 0).unwrap().is_empty());
    std::thread::sleep(std::time::Duration::from_millis(5));
    assert_eq!(s.unheld_tables().unwrap(), vec![t]);
    assert_eq!(s.claim_table(t, "b", 60_000, false).unwrap(), Some(2));
    // a wakes up: it can neither renew nor write, and nothing of its write is kept (the
    // hand and the lobby line that came with the late line included).
    assert_eq!(s.renew_tables("a", &[(t, 1)], 60_000).unwrap(), vec![t]);
    let mut late = fenced(t, 1, "late", 1);
    late.hands.push(NewHand {
        table: t,
        hand_no: 1,
        deal_key: None,
        summary: "{}".into(),
        log: "{}".into(),
    });
    late.lobby.push((t, "a's line".into()));
    late.finished.push((t, "{}".into()));
    let e = s.write_play(&late).unwrap_err().to_string();
    assert!(
        e.contains(&format!("table {t}")) && e.contains("taken over"),
        "{e}"
    );
    assert_eq!(s.journal(t).unwrap(), ["x"]);
    assert!(s.hands_of_table(t).unwrap().is_empty());
    assert!(s.lobby_lines(0).unwrap().is_empty());
    assert!(!s.play_table(t).unwrap().finished);
    // b writes the same things under its fence: all of them at once.
    let mut ok = late.clone();
    ok.fences = vec![(t, 2)];
    ok.entries = vec![(t, 1, "y".into())];
    s.write_play(&ok).unwrap();
    assert_eq!(s.hands_of_table(t).unwrap().len(), 1);
    assert_eq!(s.lobby_lines(0).unwrap(), vec![(t, "a's line".to_string())]);
    assert!(s.play_table(t).unwrap().finished);
    // The same line twice is refused: an entry is never applied twice.
    assert!(s.write_play(&fenced(t, 1, "y", 2)).is_err());
    assert_eq!(s.journal(t).unwrap(), ["x", "y"]);
    // A table let go is claimed at once, the fence still growing, even by the node that let
    // it go; `force` takes a live lease anyway.
    s.release_table(t, "b", 2).unwrap();
    assert!(s.renew_tables("b", &[(t, 2)], 60_000).unwrap() == vec![t]);
    assert_eq!(s.claim_table(t, "b", 60_000, false).unwrap(), Some(3));
    assert_eq!(s.claim_table(t, "d", 60_000, true).unwrap(), Some(4));
    let owner = s.table_owner(t).unwrap().unwrap();
    assert_eq!((owner.node.as_str(), owner.fence), ("d", 4));
    // A finished table is never unheld: nobody takes it over.
    s.release_table(t, "d", 4).unwrap();
    assert!(s.unheld_tables().unwrap().is_empty());
}

fn nodes_say_where_they_are_and_one_holds_a_duty_at_a_time(s: &dyn Store) {
    assert!(s.node("a").unwrap().is_none());
    s.node_alive("a", "http://10.0.0.1:8080").unwrap();
    s.node_alive("b", "http://10.0.0.2:8080").unwrap();
    s.node_alive("a", "http://10.0.0.9:8080").unwrap();
    let a = s.node("a").unwrap().unwrap();
    assert_eq!(a.url, "http://10.0.0.9:8080");
    let names: Vec<String> = s.nodes().unwrap().into_iter().map(|n| n.name).collect();
    assert_eq!(names, ["a", "b"]);
    // One holder of a duty; its holder keeps it by holding it again; it passes on only when
    // the holder stops renewing.
    assert!(s.hold_duty("sweeper", "a", 60_000).unwrap());
    assert!(!s.hold_duty("sweeper", "b", 60_000).unwrap());
    assert!(s.hold_duty("sweeper", "a", 0).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(5));
    assert!(s.hold_duty("sweeper", "b", 60_000).unwrap());
    assert!(!s.hold_duty("sweeper", "a", 60_000).unwrap());
    assert!(s.hold_duty("other", "a", 60_000).unwrap());
}

fn failed_attempts_are_counted_in_a_window_and_forgotten(s: &dyn Store) {
    s.add_attempt("pw:1.2.3.4", 1_000, 0).unwrap();
    s.add_attempt("pw:1.2.3.4", 2_000, 0).unwrap();
    s.add_attempt("pw:5.6.7.8", 2_500, 0).unwrap();
    assert_eq!(s.attempts("pw:1.2.3.4", 0).unwrap(), vec![1_000, 2_000]);
    assert_eq!(s.attempts("pw:1.2.3.4", 1_000).unwrap(), vec![2_000]);
    // Forgetting is for every key.
    s.add_attempt("pw:9.9.9.9", 5_000, 2_200).unwrap();
    assert!(s.attempts("pw:1.2.3.4", 0).unwrap().is_empty());
    assert_eq!(s.attempts("pw:5.6.7.8", 0).unwrap(), vec![2_500]);
}

fn the_lobby_shows_tables_in_play_and_those_that_ended_lately(s: &dyn Store) {
    let a = s.create_play_table("{}", true).unwrap();
    let b = s.create_play_table("{}", true).unwrap();
    s.set_lobby_line(a, "line a").unwrap();
    s.set_lobby_line(b, "line b").unwrap();
    s.set_lobby_line(a, "line a, hand 2").unwrap();
    assert_eq!(
        s.lobby_lines(i64::MAX).unwrap(),
        vec![(b, "line b".to_string()), (a, "line a, hand 2".to_string())]
    );
    // b ends: listed while it ended lately, not after.
    s.update_play_table(b, "{}", true).unwrap();
    assert_eq!(s.lobby_lines(0).unwrap().len(), 2);
    assert_eq!(s.lobby_lines(i64::MAX).unwrap().len(), 1);
    s.drop_lobby_line(a).unwrap();
    assert_eq!(s.lobby_lines(0).unwrap(), vec![(b, "line b".to_string())]);
}

#[test]
fn two_nodes_claiming_a_table_at_once_get_one_lease() {
    let Some(a) = pg("two_nodes_claim") else {
        return;
    };
    let b = PgStore::connect(a.url()).unwrap();
    let (a, b) = (std::sync::Arc::new(a), std::sync::Arc::new(b));
    for round in 0..20 {
        let t = a.create_play_table("{}", true).unwrap();
        let got: Vec<Option<u64>> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..8)
                .map(|i| {
                    let s = if i % 2 == 0 { a.clone() } else { b.clone() };
                    sc.spawn(move || {
                        s.claim_table(t, &format!("node{i}"), 60_000, false)
                            .unwrap()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(got.iter().flatten().count(), 1, "round {round}: {got:?}");
        assert_eq!(got.iter().flatten().next(), Some(&1));
    }
}
