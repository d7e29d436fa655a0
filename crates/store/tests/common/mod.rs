//! What the store's test files share: a PostgreSQL database of each test's own, the macro
//! that runs a test body on both databases, and a small event.
#![allow(dead_code)]

use mcr::Wind::*;
use store::{Entrant, NewEvent, PgStore};
use tournament::entry::{Outcome, ScoreEntry};
use tournament::movement::individual;

/// A database of its own on the test server (`DUPMJ_TEST_PG`, set by
/// `tools/with-postgres.sh`); `None` (the PostgreSQL half skipped, said on stderr) when it
/// is not set, unless `DUPMJ_REQUIRE_PG` asks for it, as the README's test command does.
pub fn pg(name: &str) -> Option<PgStore> {
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
#[macro_export]
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

pub fn new_event() -> NewEvent {
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

pub fn self_drawn(value: u32) -> ScoreEntry {
    ScoreEntry {
        outcome: Outcome::SelfDrawn {
            winner: South,
            value,
        },
        false_hu: vec![],
    }
}
