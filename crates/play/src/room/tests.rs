//! The room without any I/O: decisions are numbered and timed one by one.

use std::time::{Duration, Instant};

use mcr::Wind;
use table::engine::{Action, Decision as Ask};

use super::*;
use crate::spec::{DealRef, Hands, Place, TableSpec};

fn south_alone(seed: u64) -> Room {
    let bot = || Place::Bot {
        level: "easy".into(),
    };
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: vec![DealRef {
                seed,
                label: "1".into(),
            }],
        },
        places: [bot(), Place::Person, bot(), bot()],
        owner: 7,
        owner_place: 1,
        limit_s: 30,
        bank_s: 0,
        challenge: None,
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    };
    let mut room = Room::new(1, spec, Duration::ZERO);
    room.sit(7, "Ann", 1).unwrap();
    room
}

/// Plays South's decisions by the time-out defaults until `stop` says a decision of
/// South's is the one wanted (it is then left to the caller).
fn play_until(room: &mut Room, stop: impl Fn(&Room) -> bool) -> bool {
    for _ in 0..2000 {
        if room.stage != Stage::Playing {
            return false;
        }
        if let Some(step) = room.asked_step(Wind::South) {
            if stop(room) {
                return true;
            }
            let a = timeout_default(room.table().unwrap(), Wind::South);
            room.act(7, step, a).unwrap();
        } else {
            room.tick(Instant::now());
        }
    }
    false
}

fn south_decision(room: &Room) -> Option<Ask> {
    room.table()?.view(Wind::South).decision
}

#[test]
fn a_turn_right_after_passing_a_claim_is_a_new_decision_with_its_own_clock() {
    // Deals where East discards something South may claim, nobody else may, and South's
    // pass brings South's own turn at once.
    let mut found = 0;
    for seed in 1..300 {
        let mut room = south_alone(seed);
        let claim_from_east = |r: &Room| {
            matches!(
                south_decision(r),
                Some(Ask::Claim {
                    from: Wind::East,
                    ..
                })
            ) && Wind::ALL
                .iter()
                .filter(|&&w| w != Wind::South)
                .all(|&w| r.table().unwrap().legal(w).is_empty())
        };
        if !play_until(&mut room, claim_from_east) {
            continue;
        }
        let step = room.asked_step(Wind::South).unwrap();
        let began = room.asked_at(Wind::South).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let passed_at = Instant::now();
        room.act(7, step, Action::Pass).unwrap();
        assert!(matches!(south_decision(&room), Some(Ask::Turn { .. })));
        let next = room.asked_step(Wind::South).expect("South's turn");
        assert_eq!(next, step + 1, "seed {seed}: a new number");
        let at = room.asked_at(Wind::South).unwrap();
        assert!(
            at >= passed_at && at > began,
            "seed {seed}: the turn's clock starts when it is asked"
        );
        // The pass sent again is for the decision that is over.
        let e = room.act(7, step, Action::Pass).unwrap_err();
        assert!(e.contains("earlier decision"), "{e}");
        let e = room.act(7, next + 1, Action::Pass).unwrap_err();
        assert!(e.contains("not asked yet"), "{e}");
        found += 1;
        if found == 3 {
            return;
        }
    }
    panic!("only {found} deals with a claim passed into a turn among 300");
}

#[test]
fn a_journal_rebuilds_the_same_numbers() {
    let mut room = south_alone(11);
    play_until(&mut room, |r| {
        r.asked_step(Wind::South).is_some_and(|s| s > 6)
    });
    let journal: Vec<String> = room
        .pending
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let again = Room::restore(1, room.spec.clone(), Duration::ZERO, &journal).unwrap();
    assert_eq!(again.asked_step(Wind::South), room.asked_step(Wind::South));
    assert_eq!(again.version > 0, room.version > 0);
}

#[test]
fn an_abandoned_table_is_over_and_counts_no_hand() {
    let mut room = south_alone(3);
    room.tick(Instant::now());
    room.abandon().unwrap();
    assert_eq!(room.stage, Stage::Over);
    assert!(room.abandoned && room.summaries.is_empty());
    assert!(room.abandon().is_err());
    assert!(room.act(7, 1, Action::Pass).is_err());
    let journal: Vec<String> = room
        .pending
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    assert!(journal.last().unwrap().contains("abandon"));
    let again = Room::restore(1, room.spec.clone(), Duration::ZERO, &journal).unwrap();
    assert_eq!(again.stage, Stage::Over);
    assert!(again.abandoned);
}
