//! Several nodes on one database: leases and fences, nodes and duties, failed attempts and
//! the lobby, on SQLite and PostgreSQL; concurrent claims on PostgreSQL.

mod common;

use common::pg;
use store::prelude::*;
use store::{NewHand, PgStore, PlayWrite};

on_both!(
    leases_fence_out_a_node_that_lost_its_table,
    nodes_say_where_they_are_and_one_holds_a_duty_at_a_time,
    failed_attempts_are_counted_in_a_window_and_forgotten,
    the_lobby_shows_tables_in_play_and_those_that_ended_lately,
);

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
    // Each line says which owner wrote it.
    assert_eq!(s.journal_fences(t).unwrap(), [Some(1), Some(2)]);
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
