//! The quick-match queue and bot accounts on SQLite and PostgreSQL: a place in the queue
//! is kept while one waits, a table is given only to those still waiting, the unseen are
//! taken out; a bot account is an account's for good, its tokens sign it in until revoked.

mod common;

use store::prelude::*;
use store::Queued;

use common::pg;

on_both!(
    the_queue_keeps_places_and_gives_tables_once,
    bot_accounts_sign_in_by_token_until_revoked,
);

fn entry(person: i64, name: &str, at: i64) -> Queued {
    Queued {
        person,
        name: name.into(),
        rating_milli: 25_000,
        bot: false,
        bots_ok: false,
        joined_ms: at,
        seen_ms: at,
        table: None,
    }
}

fn the_queue_keeps_places_and_gives_tables_once(s: &dyn Store) {
    let a = s.create_person("Ada", None).unwrap();
    let b = s.create_person("Bea", None).unwrap();
    let c = s.create_person("Cy", None).unwrap();
    s.join_queue(&entry(a.id, "Ada", 1_000)).unwrap();
    s.join_queue(&entry(b.id, "Bea", 2_000)).unwrap();
    // Joining again keeps one's place (the time joined), with the new options.
    let again = Queued {
        bots_ok: true,
        joined_ms: 5_000,
        seen_ms: 5_000,
        ..entry(a.id, "Ada", 5_000)
    };
    s.join_queue(&again).unwrap();
    let q = s.queue().unwrap();
    assert_eq!(
        q.iter().map(|e| e.person).collect::<Vec<_>>(),
        vec![a.id, b.id]
    );
    assert_eq!(
        (q[0].joined_ms, q[0].seen_ms, q[0].bots_ok),
        (1_000, 5_000, true)
    );

    // Two people wait; the first joined at 1 000.
    assert_eq!(s.queue_waiting().unwrap(), (2, Some(1_000)));
    // Seen: the time is kept and the place told.
    let seen = s.queue_seen(b.id, 6_000).unwrap().unwrap();
    assert_eq!((seen.seen_ms, seen.table), (6_000, None));
    assert_eq!(s.queue_seen(c.id, 6_000).unwrap(), None);

    // A table goes to those who wait; one who left meanwhile does not get it.
    s.join_queue(&entry(c.id, "Cy", 3_000)).unwrap();
    assert!(s.leave_queue(c.id).unwrap());
    assert!(!s.leave_queue(c.id).unwrap());
    assert_eq!(s.seat_queued(&[a.id, b.id, c.id], 77).unwrap(), 2);
    // Given once: a second table does not replace the first.
    assert_eq!(s.seat_queued(&[a.id], 78).unwrap(), 0);
    assert_eq!(s.queue_seen(a.id, 7_000).unwrap().unwrap().table, Some(77));
    assert_eq!(s.queue_waiting().unwrap(), (0, None));

    // Joining after a table was given is a new wait.
    s.join_queue(&entry(a.id, "Ada", 8_000)).unwrap();
    let a_now = s.queue_seen(a.id, 8_000).unwrap().unwrap();
    assert_eq!((a_now.table, a_now.joined_ms), (None, 8_000));

    // Those not seen since 7 000 are taken out (Bea, last seen at 6 000).
    assert_eq!(s.prune_queue(7_000).unwrap(), vec![b.id]);
    assert_eq!(
        s.queue()
            .unwrap()
            .iter()
            .map(|e| e.person)
            .collect::<Vec<_>>(),
        vec![a.id]
    );
}

fn bot_accounts_sign_in_by_token_until_revoked(s: &dyn Store) {
    let guest = s.create_person("Gus", None).unwrap();
    let acct = s.create_person("Robo", Some("not a hash")).unwrap();
    assert!(!acct.bot);
    // A guest cannot be a bot account; an account without the switch has no tokens.
    let e = s.make_bot(guest.id).unwrap_err().to_string();
    assert!(e.contains("only an account"), "{e}");
    let e = s.add_api_token(acct.id, "tok-0").unwrap_err().to_string();
    assert!(e.contains("only a bot account"), "{e}");

    s.make_bot(acct.id).unwrap();
    assert!(s.person(acct.id).unwrap().bot);
    assert!(s.account("robo").unwrap().unwrap().0.bot);
    let t1 = s.add_api_token(acct.id, "tok-1").unwrap();
    let t2 = s.add_api_token(acct.id, "tok-2").unwrap();
    assert_eq!(s.person_of_token("tok-1").unwrap().unwrap().id, acct.id);
    assert_eq!(s.person_of_token("tok-0").unwrap(), None);
    // Newest first.
    let listed: Vec<i64> = s
        .api_tokens(acct.id)
        .unwrap()
        .iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(listed, vec![t2.id, t1.id]);

    // Revoked: signs nobody in; revoking again, or another's token, is refused.
    s.revoke_api_token(acct.id, t1.id).unwrap();
    assert_eq!(s.person_of_token("tok-1").unwrap(), None);
    assert!(s.revoke_api_token(acct.id, t1.id).is_err());
    assert!(s.revoke_api_token(guest.id, t2.id).is_err());
    assert_eq!(s.person_of_token("tok-2").unwrap().unwrap().name, "Robo");
    assert!(s.api_tokens(acct.id).unwrap()[1].revoked.is_some());

    // At most five in use at once.
    for i in 3..=6 {
        s.add_api_token(acct.id, &format!("tok-{i}")).unwrap();
    }
    let e = s.add_api_token(acct.id, "tok-7").unwrap_err().to_string();
    assert!(e.contains("at most 5"), "{e}");
}
