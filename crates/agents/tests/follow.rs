//! Agents that follow the hand event by event, as Botzone bots do.

use std::sync::{Arc, Mutex};

use agents::agent::Agent;
use agents::drive::play_hand;
use table::engine::{Action, Decision, View};
use table::log::Event;
use table::seen::SeenEvent;
use table::{Deal, Outcome, TableRules};

/// What a follower was told: how many times, and the last event.
#[derive(Default)]
struct Told {
    times: usize,
    last: Option<SeenEvent>,
}

/// Discards what it drew and passes every claim (so nobody wins); reports an error of its
/// own on the `fail_at`-th time it is told something.
struct Follower {
    told: Arc<Mutex<Told>>,
    fail_at: Option<usize>,
    fault: Option<String>,
}

impl Agent for Follower {
    fn name(&self) -> &str {
        "follower"
    }
    fn act(&mut self, view: &View) -> Action {
        let drew = match view.decision {
            Some(Decision::Turn { drew, .. }) => drew,
            _ => None,
        };
        match drew.map(Action::Discard) {
            Some(a) if view.legal.contains(&a) => a,
            _ if view.legal.contains(&Action::Pass) => Action::Pass,
            _ => *view
                .legal
                .iter()
                .find(|a| matches!(a, Action::Discard(_)))
                .unwrap(),
        }
    }
    fn follows_events(&self) -> bool {
        true
    }
    fn observe(&mut self, seen: &[SeenEvent], _legal: &[Action]) {
        let mut t = self.told.lock().unwrap();
        t.times += 1;
        t.last = seen.last().cloned();
        if Some(t.times) == self.fail_at {
            self.fault = Some("a HU where only PASS is allowed".into());
        }
    }
    fn take_fault(&mut self) -> Option<String> {
        self.fault.take()
    }
}

/// Plays deal 5 with four followers, West failing at its `west_fails_at`-th news.
fn play(rules: TableRules, west_fails_at: Option<usize>) -> (table::HandLog, Vec<Told>) {
    let told: Vec<Arc<Mutex<Told>>> = (0..4).map(|_| Arc::default()).collect();
    let mut agents: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| {
        Box::new(Follower {
            told: told[s].clone(),
            fail_at: if s == 2 { west_fails_at } else { None },
            fault: None,
        }) as Box<dyn Agent + Send>
    });
    let log = play_hand(Deal::generate(5), rules, &mut agents);
    drop(agents);
    let told = told
        .into_iter()
        .map(|t| Arc::try_unwrap(t).ok().unwrap().into_inner().unwrap())
        .collect();
    (log, told)
}

#[test]
fn a_drawn_hand_tells_everyone_its_last_discard() {
    let (log, told) = play(TableRules::botzone(), None);
    assert_eq!(log.result.as_ref().unwrap().kind, Outcome::Draw);
    let (seat, tile) = log
        .events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Discard { seat, tile } => Some((*seat, *tile)),
            _ => None,
        })
        .unwrap();
    for t in &told {
        assert_eq!(t.last, Some(SeenEvent::Discard { seat, tile }));
    }
}

#[test]
fn an_error_on_that_last_discard_ends_the_hand_under_botzone_only() {
    let (_, told) = play(TableRules::botzone(), None);
    let last = told[2].times;
    let (log, _) = play(TableRules::botzone(), Some(last));
    let r = log.result.as_ref().unwrap();
    assert_eq!(r.kind, Outcome::Fault);
    assert_eq!(r.points, [10, 10, -30, 10]);
    assert_eq!(log.actions.last().unwrap().action, Action::Fault);
    // The log replays to the same result.
    assert_eq!(table::replay(&log).unwrap().result(), Some(r));
    // Rules without an error penalty play on: the hand stays a draw.
    let (_, told) = play(TableRules::seeds(), None);
    let (log, _) = play(TableRules::seeds(), Some(told[2].times));
    assert_eq!(log.result.as_ref().unwrap().kind, Outcome::Draw);
}
