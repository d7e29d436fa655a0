//! Sign-ups and seasons on SQLite and PostgreSQL: twenty sign up for sixteen places and
//! three withdraw; the deadline and a made event close a sign-up; a season keeps its parts
//! in order and one final.

mod common;

use store::prelude::*;
use store::{EventKind, NewSignUp, PartKind, Season};
use tournament::signup::{Act, Place, Rules};

use common::{new_event, pg};

on_both!(a_sign_up_keeps_order_and_closes, a_season_keeps_its_parts);

fn a_sign_up_keeps_order_and_closes(s: &dyn Store) {
    let id = s
        .create_signup(
            &NewSignUp {
                name: "Spring open".into(),
                kind: EventKind::Online,
                rules: Rules {
                    cap: 16,
                    approval: false,
                },
                deadline: 1_000,
                note: "Saturday 14:00".into(),
            },
            "director",
        )
        .unwrap();
    // People 101 to 120 (numbers no real person of this database has).
    for who in 101..=120 {
        let act = Act::Join {
            who,
            name: format!("P{}", who - 100),
        };
        s.add_signup_act(id, &act, 500, &format!("person {who}"))
            .unwrap();
    }
    let mut lines = vec![];
    for who in [102, 107, 117] {
        lines = s
            .add_signup_act(id, &Act::Withdraw { who }, 900, "x")
            .unwrap();
    }
    // In: 101–116 less 102 and 107, then 117 withdrew, so 118 and 119 move up; 120 waits
    // first.
    let inn: Vec<i64> = lines
        .iter()
        .filter(|l| matches!(l.place, Place::In(_)))
        .map(|l| l.who)
        .collect();
    let mut expected: Vec<i64> = (101..=116).filter(|p| ![102, 107].contains(p)).collect();
    expected.extend([118, 119]);
    assert_eq!(inn, expected);
    assert_eq!(
        lines.iter().find(|l| l.who == 120).unwrap().place,
        Place::Waiting(1)
    );
    assert_eq!(s.signup_acts(id).unwrap().len(), 23);
    // A deleted account's name leaves the list; its place stays.
    let zed = s.create_person("Zed", Some("x")).unwrap();
    let act = Act::Join {
        who: zed.id,
        name: "Zed".into(),
    };
    let before = s.add_signup_act(id, &act, 500, "zed").unwrap();
    let zed_place = before.iter().find(|l| l.who == zed.id).unwrap().place;
    s.delete_person(zed.id).unwrap();
    let acts = s.signup_acts(id).unwrap();
    let after = tournament::signup::places(
        &tournament::signup::Rules {
            cap: 16,
            approval: false,
        },
        &acts,
    )
    .unwrap();
    let line = after.iter().find(|l| l.who == zed.id).unwrap();
    assert_eq!(
        (line.name.as_str(), line.place),
        (store::history::DELETED, zed_place)
    );
    assert!(after.iter().all(|l| l.name != "Zed"));
    s.add_signup_act(id, &Act::Withdraw { who: zed.id }, 600, "x")
        .unwrap();
    // Past the deadline: no new sign-up; a withdrawal still goes.
    let late = Act::Join {
        who: 30,
        name: "Late".into(),
    };
    let err = s
        .add_signup_act(id, &late, 1_001, "p")
        .unwrap_err()
        .to_string();
    assert!(err.contains("deadline"), "{err}");
    s.add_signup_act(id, &Act::Withdraw { who: 120 }, 1_001, "p")
        .unwrap();
    // An act that cannot be done is refused and not kept.
    let err = s
        .add_signup_act(id, &Act::Withdraw { who: 120 }, 1_001, "p")
        .unwrap_err()
        .to_string();
    assert!(err.contains("P20 is not on the list"), "{err}");
    assert_eq!(s.signup_acts(id).unwrap().len(), 26);
    // Made into an event: closed.
    let event = s.create_event(&new_event(), "director").unwrap();
    s.signup_made(id, event, "director").unwrap();
    assert!(s.signup_made(id, event, "director").is_err());
    assert_eq!(s.signup(id).unwrap().event, Some(event));
    let err = s
        .add_signup_act(id, &Act::Withdraw { who: 101 }, 900, "p")
        .unwrap_err()
        .to_string();
    assert!(err.contains("closed"), "{err}");
    assert!(s.signup(id + 100).is_err());
    assert_eq!(s.signups().unwrap().len(), 1);
}

fn a_season_keeps_its_parts(s: &dyn Store) {
    let season = Season {
        id: 0,
        name: "2027".into(),
        rules: tournament::season::Rules {
            best: 2,
            measure: tournament::season::Measure::PerHand,
        },
        final_k: 8,
        parts: vec![(PartKind::Challenge, 3), (PartKind::Event, 1)],
        final_event: None,
    };
    let id = s.create_season(&season, "director").unwrap();
    s.add_season_part(id, PartKind::Challenge, 5, "director")
        .unwrap();
    let err = s
        .add_season_part(id, PartKind::Event, 1, "director")
        .unwrap_err()
        .to_string();
    assert!(err.contains("event 1 is in season"), "{err}");
    let got = s.season(id).unwrap();
    assert_eq!(
        got.parts,
        [
            (PartKind::Challenge, 3),
            (PartKind::Event, 1),
            (PartKind::Challenge, 5)
        ]
    );
    assert_eq!((got.rules, got.final_k), (season.rules, 8));
    let event = s.create_event(&new_event(), "director").unwrap();
    s.set_season_final(id, event, "director").unwrap();
    assert!(s.set_season_final(id, event, "director").is_err());
    assert_eq!(s.seasons().unwrap()[0].final_event, Some(event));
}
