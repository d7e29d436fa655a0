//! The rating's store on SQLite and PostgreSQL: a deal's field (its newest hands up to a
//! given one), and each rated hand-seat's IMP kept with the session's rating and replaced
//! by a rebuild's.

mod common;

use store::prelude::*;

use common::pg;

on_both!(a_deals_field_is_its_newest_hands_and_rated_hands_are_kept,);

fn a_deals_field_is_its_newest_hands_and_rated_hands_are_kept(s: &dyn Store) {
    let t = s.create_play_table("{}", false).unwrap();
    // Six hands of deal "dup:5" and one of another deal between them.
    let mut ids = Vec::new();
    for n in 1..=7u32 {
        let key = if n == 4 { "dup:6" } else { "dup:5" };
        ids.push(s.save_hand(t, n, Some(key), "{}", "{}").unwrap());
    }
    let of_5: Vec<i64> = ids
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, &id)| id)
        .collect();
    let field = |upto: i64, limit: usize| -> Vec<i64> {
        s.deal_field("dup:5", upto, limit)
            .unwrap()
            .iter()
            .map(|h| h.id)
            .collect()
    };
    // The newest three, oldest first; up to the fifth hand, the three before it too.
    assert_eq!(field(i64::MAX, 3), of_5[3..6]);
    assert_eq!(field(ids[4], 3), of_5[1..4]);
    assert_eq!(field(ids[0], 10), of_5[..1]);
    assert!(s.deal_field("dup:5", ids[0] - 1, 10).unwrap().is_empty());
    assert!(s.deal_field("dup:5", i64::MAX, 3).unwrap()[0]
        .log
        .is_empty());

    // Rating a session keeps its hand-seats' IMP; a rebuild's replace them all.
    let p = s.create_person("Rhea", None).unwrap();
    let hand = |h: usize, imp: i32| store::RatedHand {
        hand: ids[h],
        seat: 1,
        person: p.id,
        deal_key: "dup:5".into(),
        imp,
    };
    let row = store::RatingRow {
        person: p.id,
        state: "{}".into(),
        hands: 2,
        placed: 0,
    };
    let first = store::SessionRated {
        rows: vec![row.clone()],
        hands: vec![hand(0, 2), hand(1, -3)],
    };
    assert!(s
        .rate_session("table:1", ids[1], &[p.id], &mut |_| Ok(first.clone()))
        .unwrap());
    // Rated once: a second node's attempt writes nothing.
    assert!(!s
        .rate_session("table:1", ids[1], &[p.id], &mut |_| Ok(
            store::SessionRated {
                rows: vec![],
                hands: vec![hand(2, 9)],
            }
        ))
        .unwrap());
    assert_eq!(
        s.rated_hands_of(p.id, 10).unwrap(),
        vec![hand(1, -3), hand(0, 2)]
    );
    assert_eq!(s.rated_hands_of(p.id, 1).unwrap(), vec![hand(1, -3)]);
    assert_eq!(s.rated_hand_count().unwrap(), 2);
    s.replace_ratings(&[row], &[hand(4, 1)], &[]).unwrap();
    assert_eq!(s.rated_hands_of(p.id, 10).unwrap(), vec![hand(4, 1)]);
}
