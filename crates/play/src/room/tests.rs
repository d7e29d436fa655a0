//! The room without any I/O: decisions are numbered and timed one by one.

use std::time::{Duration, Instant};

use mcr::Wind;
use table::engine::{Action, Decision as Ask};

use super::{timeout_default, Held, Refusal, Room, Stage};
use crate::spec::{DealRef, Hands, Place, TableSpec};

fn south_alone(seed: u64) -> Room {
    south_with(["easy", "easy", "easy"], seed)
}

/// South a person, bots of `levels` at East, West and North.
fn south_with(levels: [&str; 3], seed: u64) -> Room {
    let bot = |l: &str| Place::Bot { level: l.into() };
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: vec![DealRef {
                seed,
                label: "1".into(),
            }],
        },
        places: [
            bot(levels[0]),
            Place::Person,
            bot(levels[1]),
            bot(levels[2]),
        ],
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
        assert_eq!(e, Refusal::Behind { step, asked: next });
        assert!(e.to_string().contains("earlier decision"), "{e}");
        let e = room.act(7, next + 1, Action::Pass).unwrap_err();
        assert_eq!(
            e,
            Refusal::Ahead {
                step: next + 1,
                asked: next
            }
        );
        assert!(e.to_string().contains("not asked yet"), "{e}");
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

/// The expert's moves are worked out away from the room: while East's bot is out thinking
/// nothing moves for it and nothing is due; its answer is played when it comes back, and
/// an answer to a decision that is no longer asked is dropped with the bot back in place.
#[test]
fn a_bot_that_thinks_leaves_the_room_and_comes_back_with_its_move() {
    let mut room = south_with(["expert", "easy", "easy"], 5);
    let now = Instant::now();
    room.tick(now);
    assert_eq!(room.stage, Stage::Playing);
    let job = room.start_thinking(now).expect("East's first turn is due");
    assert_eq!((job.place, job.seat), (0, Wind::East));
    assert!(room.bots[0].is_none() && room.thinking[0]);
    assert!(!room.tick(now), "nothing moves while East thinks");
    assert_eq!(room.next_wake(now), None, "East is not due again");
    assert!(room.start_thinking(now).is_none());
    // Its move (here the first legal one, for time: the search is the bot's own test's).
    let legal = job.table.legal(Wind::East);
    let Action::Discard(tile) = legal[0] else {
        panic!("East discards first: {legal:?}")
    };
    let step = job.step;
    room.answer(job, Action::Discard(tile));
    assert!(room.bots[0].is_some() && !room.thinking[0]);
    assert_eq!(room.table().unwrap().discards(Wind::East), &[tile]);
    // East's next decision: an answer to the earlier one is dropped.
    for _ in 0..200 {
        if room.asked_step(Wind::East).is_some_and(|s| s > step) {
            break;
        }
        match room.asked_step(Wind::South) {
            Some(s) => {
                let a = timeout_default(room.table().unwrap(), Wind::South);
                room.act(7, s, a).unwrap();
            }
            None => assert!(room.tick(Instant::now()), "West and North move"),
        }
    }
    let mut job = room
        .start_thinking(Instant::now())
        .expect("East is due again");
    let before = room.table().unwrap().discards(Wind::East).len();
    job.step = step;
    let first = job.table.legal(Wind::East)[0];
    room.answer(job, first);
    assert!(room.bots[0].is_some() && !room.thinking[0]);
    assert_eq!(room.table().unwrap().discards(Wind::East).len(), before);
    assert!(
        room.start_thinking(Instant::now()).is_some(),
        "still asked, due again"
    );
}

/// Runs the hand in play to its end with the clock `ahead` of now: every person's
/// decision times out at once, and bots and stand-ins move.
fn run_out(room: &mut Room, ahead: Duration) {
    for _ in 0..5000 {
        if room.stage != Stage::Playing {
            return;
        }
        room.tick(Instant::now() + ahead);
    }
    panic!("the hand did not end");
}

fn journal_of(room: &Room) -> Vec<String> {
    room.pending
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect()
}

/// Fair play (docs/rating.md): a time-out is the person's own move, so letting the clock
/// run out never takes a hand out of the rating.
#[test]
fn a_hand_whose_every_decision_timed_out_is_still_yours() {
    let mut room = south_alone(21);
    room.connected[1] = 1;
    room.note_shown();
    run_out(&mut room, Duration::from_secs(31));
    let s = &room.summaries[0];
    assert!(s.stood_in[1], "the server played South's time-outs");
    assert_eq!(s.held(1), Held::Own);
    assert!(s.held(1).rated() && s.held(1).own_play());
    assert!(s.bot_moves[1].is_empty(), "no bot chose South's moves");
}

/// Leaving after seeing your tiles does not escape the hand: it stays rated, and what the
/// stand-in chose is not counted as your play. The journal rebuilds the same holding.
#[test]
fn leaving_after_seeing_your_tiles_keeps_the_hand_yours_but_not_the_bots_play() {
    let mut room = south_alone(22);
    room.connected[1] = 1;
    room.note_shown();
    room.connected[1] = 0; // gone to another page
    run_out(&mut room, Duration::from_secs(31));
    assert!(room.away[1], "a stand-in took over");
    let held = room.summaries[0].held(1);
    assert_eq!(
        held,
        Held::FinishedBy {
            bot: "medium".into()
        }
    );
    assert!(held.rated() && !held.own_play());
    assert_eq!(
        held.words(),
        Some(("finished by bot ({}) after you left", "medium".to_string()))
    );
    // South's first move is the time-out that made the stand-in take over (their own);
    // every later one is the stand-in's, named by its number in the log, for the review to
    // set aside.
    let log = &room.finished[0].log;
    let south: Vec<usize> = (1..=log.actions.len())
        .filter(|&i| log.actions[i - 1].seat == mcr::Wind::South)
        .collect();
    assert!(south.len() > 1);
    assert_eq!(room.summaries[0].bot_moves[1], south[1..]);
    assert!(room.summaries[0].bot_moves[0].is_empty());
    let again = Room::restore(1, room.spec.clone(), Duration::ZERO, &journal_of(&room)).unwrap();
    assert_eq!(again.summaries[0].held(1), held);
    assert_eq!(again.summaries[0].bot_moves, room.summaries[0].bot_moves);
}

/// A hand a stand-in played from its first move while the person was elsewhere is not
/// theirs: not rated, not in their statistics, and said so in words.
#[test]
fn a_hand_played_by_a_stand_in_before_you_came_back_is_not_yours() {
    let mut room = south_alone(23);
    // South never connects during the hand.
    run_out(&mut room, Duration::from_secs(31));
    let held = room.summaries[0].held(1);
    assert_eq!(
        held,
        Held::Unseen {
            bot: "medium".into()
        }
    );
    assert!(!held.rated() && !held.own_play());
    assert!(held.words().unwrap().0.contains("never saw"));
    // The bots' seats are their own.
    assert_eq!(room.summaries[0].held(0), Held::Own);
    let again = Room::restore(1, room.spec.clone(), Duration::ZERO, &journal_of(&room)).unwrap();
    assert_eq!(again.summaries[0].held(1), held);
}

/// Coming back in the middle of a hand the stand-in started: from then on it is yours.
#[test]
fn coming_back_mid_hand_makes_the_rest_of_it_yours() {
    let mut room = south_alone(24);
    let ahead = Duration::from_secs(31);
    // The stand-in plays South's first decisions.
    for _ in 0..400 {
        if room.away[1] && room.table().unwrap().discards(Wind::South).len() >= 2 {
            break;
        }
        // One move at a time (a tick plays many).
        let now = Instant::now() + ahead;
        assert!(room.timeouts(now) || room.bot_move(now), "something moves");
    }
    assert!(room.stage == Stage::Playing && room.away[1]);
    room.connected[1] = 1;
    room.came_back(1);
    room.note_shown();
    run_out(&mut room, ahead);
    assert_eq!(
        room.summaries[0].held(1),
        Held::FinishedBy {
            bot: "medium".into()
        }
    );
}

/// A decision's own seconds run first and the bank only after them, and the state sent
/// to the page says the same at the same moment.
#[test]
fn the_decisions_own_time_runs_before_the_bank() {
    let mut room = south_alone(3);
    room.spec.limit_s = 20;
    room.bank_ms[1] = 30_000;
    assert!(play_until(&mut room, |r| r
        .asked_step(Wind::South)
        .is_some()));
    let step = room.asked_step(Wind::South).unwrap();
    // The decision asked `ago` ms before `now`: the room's split, the state's, and the
    // state's total.
    fn shown(room: &mut Room, step: u64, ago: u64) -> ((u64, u64), (u64, u64), u64) {
        let now = Instant::now();
        room.asked[Wind::South.index()] = Some((step, now - Duration::from_millis(ago)));
        let seen = crate::actor::Finished {
            shown: true,
            open: false,
        };
        let s = room.snapshot(Some(7), false, seen, now);
        let c = &s["clock"];
        (
            room.clock_split_ms(1, now).unwrap(),
            (
                c["own_ms"].as_u64().unwrap(),
                c["bank_ms"].as_u64().unwrap(),
            ),
            c["left_ms"].as_u64().unwrap(),
        )
    }
    // 7 s into a 20 s decision: 13 s of its own, the whole bank untouched.
    let (split, sent, left) = shown(&mut room, step, 7_000);
    assert_eq!(split, (13_000, 30_000));
    assert_eq!(sent, split, "the page is told what the server enforces");
    assert_eq!(left, 43_000);
    // 25 s in: the own time is spent and 5 s of the bank.
    let (split, sent, left) = shown(&mut room, step, 25_000);
    assert_eq!(split, (0, 25_000));
    assert_eq!(sent, split);
    assert_eq!(left, 25_000);
    // Answering then charges those 5 s to the bank, and only those.
    let a = timeout_default(room.table().unwrap(), Wind::South);
    room.act(7, step, a).unwrap();
    let bank = room.bank_ms(1);
    assert!((24_900..=25_000).contains(&bank), "bank left {bank}");
}

#[test]
fn stamps_come_from_the_set_a_few_a_minute_from_people_seated() {
    let mut room = south_alone(5);
    let t0 = Instant::now();
    let v = room.version;
    room.stamp(7, "gg", t0).unwrap();
    assert!(room.version > v, "the state changes for everyone");
    let shown = room.stamps.json();
    assert_eq!(
        shown,
        serde_json::json!([{"place": 1, "stamp": "gg", "n": 1}])
    );
    // Not from the set, not seated, too soon: refused, nothing shown changes.
    assert_eq!(
        room.stamp(7, "you fool", t0 + Duration::from_secs(5)),
        Err(Refusal::NoSuchStamp("you fool".into()))
    );
    assert_eq!(room.stamp(8, "gg", t0), Err(Refusal::NotSeated));
    assert_eq!(
        room.stamp(7, "sorry", t0 + Duration::from_millis(1500)),
        Err(Refusal::StampsTooFast(2))
    );
    assert_eq!(room.stamps.json(), shown);
    // Every 3 s: six in the first minute, the seventh waits until the first is a minute old.
    for k in 1..6 {
        room.stamp(7, "thanks", t0 + Duration::from_secs(3 * k))
            .unwrap();
    }
    assert_eq!(
        room.stamp(7, "thanks", t0 + Duration::from_secs(18)),
        Err(Refusal::StampsTooFast(43))
    );
    room.stamp(7, "hello", t0 + Duration::from_secs(60))
        .unwrap();
    assert_eq!(
        room.stamps.json(),
        serde_json::json!([{"place": 1, "stamp": "hello", "n": 7}])
    );
}
