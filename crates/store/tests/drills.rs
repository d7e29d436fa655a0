//! Training drills on SQLite and PostgreSQL: a drill is given once, comes due on its day,
//! keeps its schedule with every answer, and the problem of the day counts each person's
//! first answer.

mod common;

use store::prelude::*;
use store::{DrillAnswer, DrillCard};

use common::pg;

on_both!(drills_keep_their_schedule_and_answers,);

fn answer(a: &str, grade: u8) -> DrillAnswer {
    DrillAnswer {
        answer: a.into(),
        grade,
    }
}

fn drills_keep_their_schedule_and_answers(s: &dyn Store) {
    let ada = s.create_person("Ada", None).unwrap();
    let bea = s.create_person("Bea", None).unwrap();
    let keys: Vec<String> = ["fan:1", "route:2"].iter().map(|k| k.to_string()).collect();
    assert_eq!(s.add_drills(ada.id, &keys, 100).unwrap(), 2);
    // Given again: nothing new, nothing moved.
    assert_eq!(s.add_drills(ada.id, &keys, 105).unwrap(), 0);
    let due = s.drills_due(ada.id, 100, 10).unwrap();
    assert_eq!(due.len(), 2);
    assert_eq!(
        (due[0].due_day, due[0].ease_milli, due[0].streak),
        (100, 2500, 0)
    );
    assert!(s.drills_due(ada.id, 99, 10).unwrap().is_empty());
    // A right answer moves the card 6 days on; the answer is kept.
    let after = DrillCard {
        due_day: 106,
        streak: 2,
        interval_days: 6,
        ease_milli: 2600,
        answered: 1,
        right: 1,
        ..due[0].clone()
    };
    s.answer_drill(ada.id, &due[0].drill, Some(&after), &answer("32", 5), 100)
        .unwrap();
    assert_eq!(s.drill_card(ada.id, &due[0].drill).unwrap(), Some(after));
    assert_eq!(s.drills_due(ada.id, 100, 10).unwrap().len(), 1);
    assert_eq!(s.drills_due(ada.id, 106, 10).unwrap().len(), 2);
    // Not Bea's card: refused, and no answer kept.
    assert!(s
        .answer_drill(bea.id, "fan:1", Some(&due[0]), &answer("8", 1), 100)
        .is_err());
    let p = s.drill_progress(ada.id, 100).unwrap();
    assert_eq!(
        (p.cards, p.answered, p.right, p.due, p.answered_today),
        (2, 1, 1, 1, 1)
    );
    assert_eq!(s.drill_progress(bea.id, 100).unwrap().answered, 0);
    // The problem of the day: no card, first answers counted.
    s.answer_drill(ada.id, "day:100", None, &answer("5p", 5), 100)
        .unwrap();
    s.answer_drill(ada.id, "day:100", None, &answer("9s", 1), 100)
        .unwrap();
    s.answer_drill(bea.id, "day:100", None, &answer("5p", 5), 100)
        .unwrap();
    assert_eq!(s.answers_to("day:100").unwrap(), vec![(answer("5p", 5), 2)]);
    assert_eq!(
        s.first_answer(ada.id, "day:100").unwrap(),
        Some(answer("5p", 5))
    );
    assert_eq!(s.first_answer(bea.id, "day:101").unwrap(), None);
    // Hands looked through once, with their drills, in one go.
    s.mark_mined(bea.id, 7, &["play:3:1:20".to_string()], 101)
        .unwrap();
    s.mark_mined(bea.id, 7, &[], 101).unwrap();
    assert_eq!(s.mined_hands(bea.id).unwrap(), vec![7]);
    assert_eq!(
        s.drills_due(bea.id, 101, 10).unwrap()[0].drill,
        "play:3:1:20"
    );
}
