//! Entries saved under a phone's key (the venue's queue) on SQLite and PostgreSQL: sent
//! again, recorded once; a late copy after a correction changes nothing.

mod common;

use store::prelude::*;
use store::Saved;

use common::{new_event, pg, self_drawn};

on_both!(an_entry_sent_again_under_its_key_is_recorded_once,);

fn an_entry_sent_again_under_its_key_is_recorded_once(s: &dyn Store) {
    let id = s.create_event(&new_event(), "director").unwrap();
    let lines = |s: &dyn Store| s.audit(id).unwrap().len();
    let before = lines(s);
    let once = |key: &str, value: u32, expected: u32, who: &str| {
        s.save_result_once(id, key, ("1-1", 1, 1), &self_drawn(value), expected, who)
    };
    assert_eq!(
        once("phone-a-0001", 12, 0, "a").unwrap(),
        Saved::Saved { version: 1 }
    );
    // The answer was lost on the way: the phone sends the same entry again.
    assert_eq!(
        once("phone-a-0001", 12, 0, "a").unwrap(),
        Saved::Saved { version: 1 }
    );
    assert_eq!(lines(s), before + 1, "one save, one audit line");
    // The phone corrects it (version 1 → 2); a late copy of the first entry then still
    // answers what it did, neither a conflict nor a change back.
    assert_eq!(
        once("phone-a-0002", 16, 1, "a").unwrap(),
        Saved::Saved { version: 2 }
    );
    assert_eq!(
        once("phone-a-0001", 12, 0, "a").unwrap(),
        Saved::Saved { version: 1 }
    );
    let r = s.results(id).unwrap();
    assert_eq!((r[0].entry.clone(), r[0].version), (self_drawn(16), 2));
    assert!(s.conflicts(id).unwrap().is_empty());
    // Another phone's different entry on a stale version is a conflict, once.
    let Saved::Conflict { id: cid } = once("phone-b-0001", 20, 0, "b").unwrap() else {
        panic!("a stale different entry must conflict");
    };
    assert_eq!(
        once("phone-b-0001", 20, 0, "b").unwrap(),
        Saved::Conflict { id: cid }
    );
    assert_eq!(s.conflicts(id).unwrap().len(), 1);
    assert_eq!(lines(s), before + 3);
    // A key that is not one, or an impossible entry: refused, nothing written.
    for key in ["short", "has space in it", &"k".repeat(65)] {
        let err = once(key, 12, 2, "a").unwrap_err().to_string();
        assert!(err.contains("key:"), "{key}: {err}");
    }
    assert!(once("phone-a-0003", 5, 2, "a").is_err());
    assert!(
        once("phone-a-0003", 24, 2, "a").is_ok(),
        "the refused key is free"
    );
    assert_eq!(lines(s), before + 4);
}
