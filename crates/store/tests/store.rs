//! The store's domains on SQLite and PostgreSQL: events and results, conflicts, swaps,
//! sessions, people, backups, the lobby's pages. PostgreSQL-only behaviour is in
//! `postgres.rs`, several nodes' leases in `cluster.rs`.

mod common;

use store::prelude::*;
use store::{Entrant, Saved, SqliteStore, StandIn, StoreError, Withdrawal};
use tournament::standings::{Penalty, PenaltyKind};

use common::{new_event, pg, self_drawn};

on_both!(
    a_second_different_entry_becomes_a_conflict_for_the_director,
    swaps_and_replacements_keep_every_result,
    a_challenge_table_is_created_with_its_journal_once_per_person_and_deal,
    one_phone_keeps_at_most_one_open_conflict_per_sitting,
    check_ins_withdrawals_and_the_clock_are_kept_and_audited,
    names_are_compared_by_how_they_look,
    the_lobby_reads_its_finished_tables_a_page_at_a_time,
    releasing_an_events_deals_is_audited_once,
);

#[test]
fn events_round_trip_and_schema_is_versioned() {
    let dir = std::env::temp_dir().join(format!("dupmj-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.sqlite");
    std::fs::remove_file(&path).ok();
    let id = {
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), store::MIGRATIONS.len());
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
    assert_eq!(s.schema_version().unwrap(), store::MIGRATIONS.len());
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
