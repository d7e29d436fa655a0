//! The kept rating: sessions rated once each by whichever node gets there first, and the
//! ratings two nodes keep while rating sessions at once are those a rebuild from the
//! stored hands finds (SQLite: two stores on one file; PostgreSQL: two nodes on one
//! database, where `DUPMJ_TEST_PG` is set, as the README's test command sets it).

use std::sync::Arc;

use server::bench::rating::{generate, Plan};
use server::play::history;
use server::play::PlayConfig;
use server::App;

fn plan() -> Plan {
    Plan {
        hands: 480,
        players: 12,
        pool: 6,
        samples: 0,
        seed: 7,
    }
}

/// Both nodes go through every finished table, in the same order, at the same time.
fn rate_on_two_nodes(a: App, b: App, tables: Vec<i64>) -> usize {
    let tables = Arc::new(tables);
    let run = |app: App, tables: Arc<Vec<i64>>| {
        std::thread::spawn(move || {
            tables
                .iter()
                .filter(|&&t| history::table_over(&app.hall, t).unwrap())
                .count()
        })
    };
    let (x, y) = (run(a, tables.clone()), run(b, tables));
    x.join().unwrap() + y.join().unwrap()
}

fn check(a: &App, tables: usize, rated: usize) {
    assert_eq!(rated, tables, "each session rated once, by one node");
    let sessions = a.store.rated_sessions().unwrap();
    assert_eq!(sessions.len(), tables);
    let r = history::rebuild(&a.hall).unwrap();
    assert_eq!(r.unrated, 0);
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    assert_eq!(r.people, 12, "every player rated");
    // What the pages read is what was kept.
    let board = history::leaderboard(&a.hall, 1, None).unwrap();
    let players = board
        .iter()
        .filter(|l| matches!(l, history::Line::Player { .. }))
        .count();
    assert_eq!(players, 12);
}

#[test]
fn two_stores_rating_at_once_on_one_sqlite_file_keep_what_a_rebuild_finds() {
    let dir = std::env::temp_dir().join(format!("dupmj-kept-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kept.sqlite");
    std::fs::remove_file(&path).ok();
    let a = server::open(
        &store::Location::Sqlite(path.clone()),
        PlayConfig::default(),
    )
    .unwrap();
    let b = server::open(
        &store::Location::Sqlite(path.clone()),
        PlayConfig::default(),
    )
    .unwrap();
    let h = generate(&a.store, &plan(), &|_| {}).unwrap();
    let n = h.tables.len();
    let rated = rate_on_two_nodes(a.clone(), b, h.tables);
    check(&a, n, rated);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_nodes_rating_at_once_on_postgresql_keep_what_a_rebuild_finds() {
    let Ok(admin) = std::env::var("DUPMJ_TEST_PG") else {
        assert!(
            std::env::var_os("DUPMJ_REQUIRE_PG").is_none(),
            "DUPMJ_REQUIRE_PG is set but DUPMJ_TEST_PG is not: run under tools/with-postgres.sh"
        );
        eprintln!("skipped (DUPMJ_TEST_PG is not set)");
        return;
    };
    let url = store::scratch_database(&admin, "rating_kept").unwrap();
    let node = |name: &str| {
        App::new(
            Arc::new(store::PgStore::connect(&url).unwrap()),
            PlayConfig {
                shared_node: Some(name.into()),
                ..Default::default()
            },
        )
    };
    let (a, b) = (node("a"), node("b"));
    let h = generate(&a.store, &plan(), &|_| {}).unwrap();
    let n = h.tables.len();
    let rated = rate_on_two_nodes(a.clone(), b, h.tables);
    check(&a, n, rated);
}

/// A kept rating that cannot be read stops the update naming the person, and nothing of
/// the session is written (it is rated once the row is mended).
#[test]
fn an_unreadable_kept_rating_stops_the_update_and_writes_nothing() {
    let a = server::open(
        &store::Location::Sqlite(":memory:".into()),
        PlayConfig::default(),
    )
    .unwrap();
    let mut h = generate(&a.store, &plan(), &|_| {}).unwrap();
    for &t in &h.tables {
        history::table_over(&a.hall, t).unwrap();
    }
    let mut rows = a.store.all_ratings().unwrap();
    let victim = rows[0].person;
    rows[0].state = "not json".into();
    a.store.replace_ratings(&rows, &[]).unwrap();
    let before = a.store.rated_sessions().unwrap().len();
    // New tables until one holds a deal-seat with the unreadable person.
    let mut plan = plan();
    plan.hands = 4;
    let mut rated = 0;
    let err = (0..200)
        .find_map(|_| {
            let t = h.table(&a.store, &plan).unwrap();
            match history::table_over(&a.hall, t) {
                Ok(_) => {
                    rated += 1;
                    None
                }
                Err(e) => Some(e),
            }
        })
        .expect("a table compared with the unreadable rating");
    assert!(
        err.to_string()
            .contains(&format!("rating of person {victim}")),
        "{err}"
    );
    // The failed session is not recorded.
    assert_eq!(a.store.rated_sessions().unwrap().len(), before + rated);
    assert_eq!(a.store.rating(victim).unwrap().unwrap().state, "not json");
}
