//! What only PostgreSQL does: its migrations, two nodes saving at once, answering from an
//! async runtime, and a SQLite file moved in whole.

mod common;

use store::prelude::*;
use store::{PgStore, Saved, SqliteStore, StandIn, Withdrawal};
use tournament::standings::{Penalty, PenaltyKind};

use common::{new_event, pg, self_drawn};

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
    from.save_result_once(id, "phone-key-01", ("1-2", 2, 1), &self_drawn(8), 0, "t3")
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
    // A kept rating, its session and a par move too.
    let kept = store::RatingRow {
        person: ann.id,
        state: "{\"mean\":0.5}".into(),
        hands: 4,
        placed: -3000,
    };
    let row = kept.clone();
    let hand = store::RatedHand {
        hand: 1,
        seat: 2,
        person: ann.id,
        deal_key: "dup:7".into(),
        imp: -3,
    };
    let rated = store::SessionRated {
        rows: vec![row],
        hands: vec![hand.clone()],
    };
    assert!(from
        .rate_session("table:1", 1, &[ann.id], &mut |_: &[store::RatingRow]| Ok(
            rated.clone()
        ))
        .unwrap());
    from.save_par(42, "seeds", [8, -8, 0, 0]).unwrap();
    // A bot account and its token move with the site, and sign in there.
    let robo = from.create_person("Robo", Some("h")).unwrap();
    from.make_bot(robo.id).unwrap();
    from.add_api_token(robo.id, "dupmj_moved").unwrap();
    // Drills: a card, an answer, a hand looked through.
    from.mark_mined(ann.id, 1, &["fan:5".to_string()], 100)
        .unwrap();
    let said = store::DrillAnswer {
        answer: "8 points".into(),
        grade: 1,
    };
    from.answer_drill(ann.id, "fan:5", None, &said, 100)
        .unwrap();
    // A sign-up with one act, a season of one event, an entry kept under its key.
    let su = from
        .create_signup(
            &store::NewSignUp {
                name: "Open".into(),
                kind: store::EventKind::Live,
                rules: tournament::signup::Rules {
                    cap: 16,
                    approval: false,
                },
                deadline: 9_000_000_000,
                note: String::new(),
            },
            "d",
        )
        .unwrap();
    let join = tournament::signup::Act::Join {
        who: ann.id,
        name: "Ann".into(),
    };
    from.add_signup_act(su, &join, 0, "ann").unwrap();
    let season = store::Season {
        id: 0,
        name: "Year".into(),
        rules: tournament::season::Rules {
            best: 1,
            measure: tournament::season::Measure::Total,
        },
        final_k: 0,
        parts: vec![(store::PartKind::Event, 1)],
        final_event: None,
    };
    from.create_season(&season, "d").unwrap();
    let moved = sqlite_to_postgres(&from, &to).unwrap();
    assert_eq!(moved.len(), 37);
    assert_eq!(to.signup_acts(su).unwrap(), vec![join]);
    assert_eq!(to.season(1).unwrap().parts, season.parts);
    assert_eq!(to.mined_hands(ann.id).unwrap(), vec![1]);
    assert_eq!(
        to.drill_card(ann.id, "fan:5").unwrap().map(|c| c.due_day),
        Some(100)
    );
    // A later answer there comes after the moved one (the identity column continues).
    let later = store::DrillAnswer {
        answer: "9 points".into(),
        grade: 1,
    };
    to.answer_drill(ann.id, "fan:5", None, &later, 101).unwrap();
    assert_eq!(to.first_answer(ann.id, "fan:5").unwrap(), Some(said));
    assert_eq!(to.rating(ann.id).unwrap(), Some(kept));
    assert_eq!(to.rated_hands_of(ann.id, 10).unwrap(), vec![hand]);
    assert_eq!(to.rated_hand_count().unwrap(), 1);
    assert!(to.is_rated("table:1").unwrap());
    assert_eq!(to.par(42, "seeds").unwrap(), Some([8, -8, 0, 0]));
    assert_eq!(
        to.person_of_token("dupmj_moved").unwrap().map(|p| p.id),
        Some(robo.id)
    );
    // A new token there takes the next number (the identity column continues).
    let next = to.add_api_token(robo.id, "dupmj_after").unwrap();
    assert!(next.id > to.api_tokens(robo.id).unwrap()[1].id);
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
