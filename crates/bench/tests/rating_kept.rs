//! The kept rating: sessions rated once each by whichever node gets there first, and the
//! ratings two nodes keep while rating sessions at once are those a rebuild from the
//! stored hands finds (SQLite: two stores on one file; PostgreSQL: two nodes on one
//! database, where `DUPMJ_TEST_PG` is set, as the README's test command sets it).

use std::sync::Arc;

use bench::rating::{generate, Plan};
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
        unbounded: false,
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
    a.store.replace_ratings(&rows, &[], &[]).unwrap();
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

/// A deal held by more than the field's bound: each session is compared with the newest
/// `FIELD` holders up to its rating (and its own hands and the par), and each hand-seat's
/// IMP is kept as that comparison gives it.
#[test]
fn a_session_is_compared_with_the_newest_field_and_its_imp_is_kept() {
    use server::play::room::HandSummary;
    use tournament::rating::FIELD;
    let a = server::open(
        &store::Location::Sqlite(":memory:".into()),
        PlayConfig::default(),
    )
    .unwrap();
    let mut plan = plan();
    plan.pool = 2;
    plan.players = 200;
    let h = generate(&a.store, &plan, &|_| {}).unwrap();
    for &t in &h.tables {
        assert!(history::table_over(&a.hall, t).unwrap());
    }
    let rated = a.store.rated_sessions().unwrap();
    // The generated tables' company: the person at East, three `medium` bots.
    let par_key = history::par_key(
        "seeds",
        &["strong", "medium", "medium", "medium"].map(String::from),
    );
    assert_eq!(par_key, "seeds:strong,medium,medium,medium");
    let (mut checked, mut replays) = (0, 0);
    // The last four tables of the pool: their deals have many holders.
    let pooled = |t: i64| {
        let key = a.store.hands_of_table(t).unwrap()[0]
            .deal_key
            .clone()
            .unwrap();
        a.store.hands_of_deal(&key, 100_000).unwrap().len() > FIELD
    };
    let last: Vec<i64> = h
        .tables
        .iter()
        .rev()
        .copied()
        .filter(|&t| pooled(t))
        .take(4)
        .collect();
    for t in last {
        let upto = rated
            .iter()
            .find(|s| s.session == format!("table:{t}"))
            .unwrap()
            .upto;
        let own = a.store.hands_of_table(t).unwrap();
        for hand in &own {
            let key = hand.deal_key.clone().unwrap();
            let all: Vec<_> = a
                .store
                .hands_of_deal(&key, 100_000)
                .unwrap()
                .into_iter()
                .filter(|x| x.id <= upto)
                .collect();
            assert!(all.len() > FIELD, "{key} has {} holders", all.len());
            // The newest FIELD, with the table's own hands; East is the person's seat.
            let mut field: Vec<_> = all[all.len() - FIELD..].to_vec();
            for o in &own {
                if o.deal_key == hand.deal_key && !field.iter().any(|f| f.id == o.id) {
                    field.push(o.clone());
                }
            }
            field.sort_by_key(|f| f.id);
            let mut results: Vec<(Option<i64>, i32)> = Vec::new();
            for f in &field {
                let s: HandSummary = serde_json::from_str(&f.summary).unwrap();
                let who = s.persons[0];
                assert!(who.is_some());
                if !results.iter().any(|r| r.0 == who) {
                    results.push((who, s.points[0]));
                }
            }
            let seed: u64 = key.strip_prefix("dup:").unwrap().parse().unwrap();
            let par = a
                .store
                .par(seed, &par_key)
                .unwrap()
                .expect("the par is kept");
            results.push((None, par[0]));
            let all_ms: Vec<i32> = results.iter().map(|r| r.1).collect();
            let s: HandSummary = serde_json::from_str(&hand.summary).unwrap();
            let me = s.persons[0].unwrap();
            let kept = a
                .store
                .rated_hands_of(me, 100_000)
                .unwrap()
                .into_iter()
                .find(|r| r.hand == hand.id && r.seat == 0);
            // A holder counts once, with their first result in the field: a replay of a
            // deal-seat they held before keeps no IMP of its own.
            let earlier = field.iter().take_while(|f| f.id < hand.id).any(|f| {
                serde_json::from_str::<HandSummary>(&f.summary)
                    .unwrap()
                    .persons[0]
                    == Some(me)
            });
            if earlier {
                assert_eq!(
                    kept, None,
                    "table {t} hand {}: a replayed deal-seat",
                    hand.hand_no
                );
                replays += 1;
            } else {
                let kept = kept.expect("the hand-seat's IMP is kept");
                let want = imp_by_hand(s.points[0], &all_ms);
                assert_eq!(kept.imp, want, "table {t} hand {}", hand.hand_no);
                assert_eq!(kept.deal_key, key);
                checked += 1;
            }
        }
    }
    assert_eq!(checked + replays, 16);
    println!("{checked} hands compared, {replays} replays");
    assert!(checked >= 4, "{checked} hands compared, {replays} replays");
    // A rebuild finds the same IMP for every hand-seat.
    let r = history::rebuild(&a.hall).unwrap();
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    let mut kept = Vec::new();
    for (p, _, _) in &h.people {
        kept.extend(a.store.rated_hands_of(*p, 100_000).unwrap());
    }
    let mut rebuilt = r.hands.clone();
    kept.sort_by_key(|k| (k.hand, k.seat));
    rebuilt.sort_by_key(|k| (k.hand, k.seat));
    assert_eq!(kept, rebuilt);
}

/// The par of an open table's deal is played with the company the person chose: `strong`
/// at their seat and, at the others, the bots they sat with. Three `random` bots beside
/// you give the par the same easy points they give you, so weak company is not skill.
#[test]
fn an_open_tables_par_sits_with_the_bots_the_person_chose() {
    use agents::registry::builtin;
    use server::play::room::{HandSummary, Held};
    use table::rules::TableRules;
    let a = server::open(
        &store::Location::Sqlite(":memory:".into()),
        PlayConfig::default(),
    )
    .unwrap();
    // The par as the docs define it: each bot seeded with seed ^ 0x9e3779b9 × (seat + 1).
    let play = |seed: u64, levels: [&str; 4]| -> [i32; 4] {
        let mut bots: [Box<dyn agents::agent::Agent + Send>; 4] = std::array::from_fn(|s| {
            builtin(levels[s], seed ^ (0x9e37_79b9 * (s as u64 + 1))).unwrap()
        });
        let (t, _) = agents::drive::play_table(
            table::deal::Deal::generate(seed),
            TableRules::seeds(),
            &mut bots,
        );
        t.result().unwrap().points
    };
    // A deal where the company changes East's par.
    let (seed, with_random, all_strong) = (1..40u64)
        .map(|seed| {
            (
                seed,
                play(seed, ["strong", "random", "random", "random"]),
                play(seed, ["strong"; 4]),
            )
        })
        .find(|(_, r, s)| r[0] != s[0])
        .expect("a deal where the company matters");
    let p = a
        .store
        .create_person("Ann", Some("not a password"))
        .unwrap();
    let spec = bench::rating::spec(p.id, &[seed], "random");
    let text = serde_json::to_string(&spec).unwrap();
    let t = a.store.create_play_table(&text, false).unwrap();
    let summary = HandSummary {
        hand_no: 1,
        label: "deal 1".into(),
        names: ["Ann", "bot (random)", "bot (random)", "bot (random)"].map(String::from),
        persons: [Some(p.id), None, None, None],
        places: [0, 1, 2, 3],
        points: [24, -8, -8, -8],
        outcome: table::engine::Outcome::Discard,
        stood_in: [false; 4],
        bot_moves: Default::default(),
        held: Some(std::array::from_fn(|_| Held::Own)),
    };
    let mut w = store::PlayWrite::default();
    w.hands.push(store::NewHand {
        table: t,
        hand_no: 1,
        deal_key: Some(format!("dup:{seed}")),
        summary: serde_json::to_string(&summary).unwrap(),
        log: "{}".into(),
    });
    w.finished.push((t, text));
    a.store.write_play(&w).unwrap();
    assert!(history::table_over(&a.hall, t).unwrap());
    // The par kept is the one with the person's company, under its own key.
    assert_eq!(
        a.store
            .par(seed, "seeds:strong,random,random,random")
            .unwrap(),
        Some(with_random)
    );
    // Ann's IMP is against that par: 24 and the par's East, by rules §5.
    let kept = a.store.rated_hands_of(p.id, 10).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].imp, imp_by_hand(24, &[24, with_random[0]]));
    assert_ne!(
        imp_by_hand(24, &[24, with_random[0]]),
        imp_by_hand(24, &[24, all_strong[0]]),
        "seed {seed}: the company changes the IMP"
    );
}

/// IMP of `ms` among `all` (itself included), worked out with whole numbers from the
/// rules' table (rules §5): |ms − avg| ≥ b ⇔ |n·ms − Σ| ≥ n·b.
fn imp_by_hand(ms: i32, all: &[i32]) -> i32 {
    const BRACKETS: [i64; 20] = [
        2, 6, 10, 16, 24, 32, 40, 48, 56, 64, 72, 84, 96, 108, 132, 156, 180, 212, 244, 296,
    ];
    let n = all.len() as i64;
    let d = n * ms as i64 - all.iter().map(|&x| x as i64).sum::<i64>();
    let k = BRACKETS.iter().filter(|&&b| d.abs() >= n * b).count() as i32;
    k * d.signum() as i32
}
