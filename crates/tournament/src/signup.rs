//! Sign-up for an event: who is in, who waits and in which order, who waits for the
//! director's approval and who stands by as a substitute — worked out from what the people
//! and the director did, in the order they did it. Places are kept in order of confirmation
//! (the sign-up itself, or its approval), so a later approval never pushes out someone who
//! is in; the first `cap` confirmed players are in, and when one of them withdraws the first
//! on the waitlist moves up.

use serde::{Deserialize, Serialize};

/// How an event's sign-up runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// How many players are in; the others wait.
    pub cap: u32,
    /// Whether each sign-up waits for the director's approval.
    pub approval: bool,
}

/// One thing done to a sign-up. `who` is a person's number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum Act {
    /// A person signs up to play.
    Join {
        /// The person.
        who: i64,
        /// Their name as listed.
        name: String,
    },
    /// A person offers to stand by as a substitute.
    Substitute {
        /// The person.
        who: i64,
        /// Their name as listed.
        name: String,
    },
    /// A person withdraws (as a player or a substitute).
    Withdraw {
        /// The person.
        who: i64,
    },
    /// The director approves a sign-up that waits for approval.
    Approve {
        /// The person.
        who: i64,
    },
    /// The director refuses a sign-up that waits for approval.
    Refuse {
        /// The person.
        who: i64,
    },
    /// The director seats a substitute as a player: in if there is room, else first on the
    /// waitlist.
    Seat {
        /// The person.
        who: i64,
    },
}

/// Where a person stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "place", content = "n", rename_all = "snake_case")]
pub enum Place {
    /// Plays: the n-th player in (1-based).
    In(u32),
    /// On the waitlist at position n (1-based).
    Waiting(u32),
    /// Waits for the director's approval.
    Pending,
    /// Stands by as a substitute.
    Substitute,
    /// Withdrew.
    Withdrawn,
    /// The director refused the sign-up.
    Refused,
}

/// A person on a sign-up's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The person.
    pub who: i64,
    /// Their name as listed.
    pub name: String,
    /// Where they stand.
    pub place: Place,
}

/// An act that cannot be done, saying why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignUpError(pub String);

impl std::fmt::Display for SignUpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SignUpError {}

/// Where each person stands after `acts`, in list order (in, waiting, pending,
/// substitutes, withdrawn, refused); an act that cannot be done is an error naming it.
pub fn places(rules: &Rules, acts: &[Act]) -> Result<Vec<Line>, SignUpError> {
    Ok(standing(rules, acts)?.lines)
}

/// A sign-up after its acts: the list, and who of those in got there from the waitlist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Where each person stands, as [`places`] gives it.
    pub lines: Vec<Line>,
    /// Those in now who waited after they last signed up (or were approved or seated)
    /// and were moved up by someone's withdrawal. A page tells them so, since nobody is
    /// sent word.
    pub moved_up: Vec<i64>,
}

/// [`places`] and who moved up, from one pass over `acts`.
pub fn standing(rules: &Rules, acts: &[Act]) -> Result<Standing, SignUpError> {
    let cap = rules.cap as usize;
    let mut s = State::default();
    let mut waited = std::collections::HashSet::new();
    for (i, a) in acts.iter().enumerate() {
        let before: std::collections::HashSet<i64> = s.queue.iter().copied().collect();
        s.apply(rules, a)
            .map_err(|e| SignUpError(format!("act {}: {e}", i + 1)))?;
        // Confirmed by this act: a place of their own, whatever came before.
        for who in s.queue.iter().filter(|w| !before.contains(w)) {
            waited.remove(who);
        }
        waited.extend(s.queue.iter().skip(cap).copied());
    }
    let moved_up = s
        .queue
        .iter()
        .take(cap)
        .filter(|w| waited.contains(w))
        .copied()
        .collect();
    Ok(Standing {
        lines: s.lines(rules),
        moved_up,
    })
}

/// Checks one more act after `acts`: the list it makes, or why it cannot be done.
pub fn after(rules: &Rules, acts: &[Act], next: &Act) -> Result<Vec<Line>, SignUpError> {
    let mut s = State::default();
    for a in acts {
        s.apply(rules, a).map_err(SignUpError)?;
    }
    s.apply(rules, next).map_err(SignUpError)?;
    Ok(s.lines(rules))
}

/// The players of an event made from a sign-up: those in, in order.
pub fn players(lines: &[Line]) -> Vec<&Line> {
    lines
        .iter()
        .filter(|l| matches!(l.place, Place::In(_)))
        .collect()
}

#[derive(Default)]
struct State {
    names: std::collections::HashMap<i64, String>,
    /// Confirmed players in order of confirmation (the first `cap` are in).
    queue: Vec<i64>,
    pending: Vec<i64>,
    substitutes: Vec<i64>,
    withdrawn: Vec<i64>,
    refused: Vec<i64>,
}

impl State {
    fn name(&self, who: i64) -> String {
        self.names
            .get(&who)
            .cloned()
            .unwrap_or_else(|| format!("person {who}"))
    }

    fn apply(&mut self, rules: &Rules, a: &Act) -> Result<(), String> {
        let listed = |s: &State, who: i64| {
            s.queue.contains(&who) || s.pending.contains(&who) || s.substitutes.contains(&who)
        };
        match a {
            Act::Join { who, name } => {
                if self.queue.contains(who) || self.pending.contains(who) {
                    return Err(format!("{name} has signed up already"));
                }
                self.substitutes.retain(|x| x != who);
                self.withdrawn.retain(|x| x != who);
                self.refused.retain(|x| x != who);
                self.names.insert(*who, name.clone());
                if rules.approval {
                    self.pending.push(*who);
                } else {
                    self.queue.push(*who);
                }
            }
            Act::Substitute { who, name } => {
                if listed(self, *who) {
                    return Err(format!(
                        "{name} is on the list already: withdraw first to stand by instead"
                    ));
                }
                self.withdrawn.retain(|x| x != who);
                self.refused.retain(|x| x != who);
                self.names.insert(*who, name.clone());
                self.substitutes.push(*who);
            }
            Act::Withdraw { who } => {
                if !listed(self, *who) {
                    return Err(format!("{} is not on the list", self.name(*who)));
                }
                self.queue.retain(|x| x != who);
                self.pending.retain(|x| x != who);
                self.substitutes.retain(|x| x != who);
                self.withdrawn.push(*who);
            }
            Act::Approve { who } | Act::Refuse { who } => {
                if !self.pending.contains(who) {
                    return Err(format!("{} does not wait for approval", self.name(*who)));
                }
                self.pending.retain(|x| x != who);
                if matches!(a, Act::Approve { .. }) {
                    self.queue.push(*who);
                } else {
                    self.refused.push(*who);
                }
            }
            Act::Seat { who } => {
                if !self.substitutes.contains(who) {
                    return Err(format!("{} is not a substitute", self.name(*who)));
                }
                self.substitutes.retain(|x| x != who);
                let at = self.queue.len().min(rules.cap as usize);
                self.queue.insert(at, *who);
            }
        }
        Ok(())
    }

    fn lines(&self, rules: &Rules) -> Vec<Line> {
        let line = |who: i64, place| Line {
            who,
            name: self.name(who),
            place,
        };
        let cap = rules.cap as usize;
        let mut out: Vec<Line> = self
            .queue
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let n = i as u32 + 1;
                line(
                    w,
                    if i < cap {
                        Place::In(n)
                    } else {
                        Place::Waiting(n - rules.cap)
                    },
                )
            })
            .collect();
        out.extend(self.pending.iter().map(|&w| line(w, Place::Pending)));
        out.extend(self.substitutes.iter().map(|&w| line(w, Place::Substitute)));
        out.extend(self.withdrawn.iter().map(|&w| line(w, Place::Withdrawn)));
        out.extend(self.refused.iter().map(|&w| line(w, Place::Refused)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved_up(rules: &Rules, acts: &[Act]) -> Vec<i64> {
        standing(rules, acts).unwrap().moved_up
    }

    #[test]
    fn moved_up_are_those_in_who_waited_since_they_last_signed_up() {
        let rules = Rules {
            cap: 2,
            approval: false,
        };
        let withdraw = |who| Act::Withdraw { who };
        // 1 and 2 in, 3 and 4 wait; 1 withdraws: 3 moves up.
        let mut acts = vec![join(1), join(2), join(3), join(4), withdraw(1)];
        assert_eq!(moved_up(&rules, &acts), [3]);
        // 3 withdraws (4 moves up) and signs up again: last in the queue, waiting.
        acts.extend([withdraw(3), join(3)]);
        assert_eq!(moved_up(&rules, &acts), [4]);
        // 2 withdraws: 3 moves up again, from the place of the second sign-up.
        acts.push(withdraw(2));
        assert_eq!(moved_up(&rules, &acts), [4, 3]);
        // A substitute seated while there is room is in at once, not moved up.
        let acts = vec![
            join(1),
            Act::Substitute {
                who: 5,
                name: "P5".into(),
            },
            Act::Seat { who: 5 },
        ];
        assert_eq!(moved_up(&rules, &acts), Vec::<i64>::new());
        // An act that cannot be done is named, as `places` names it.
        let bad = vec![join(1), withdraw(7)];
        assert_eq!(
            standing(&rules, &bad).unwrap_err().0,
            "act 2: person 7 is not on the list"
        );
    }

    fn join(who: i64) -> Act {
        Act::Join {
            who,
            name: format!("P{who}"),
        }
    }

    fn in_and_waiting(lines: &[Line]) -> (Vec<i64>, Vec<i64>) {
        let pick = |f: fn(&Place) -> bool| {
            lines
                .iter()
                .filter(|l| f(&l.place))
                .map(|l| l.who)
                .collect()
        };
        (
            pick(|p| matches!(p, Place::In(_))),
            pick(|p| matches!(p, Place::Waiting(_))),
        )
    }

    #[test]
    fn twenty_sign_up_for_sixteen_places_and_three_withdraw() {
        let rules = Rules {
            cap: 16,
            approval: false,
        };
        let mut acts: Vec<Act> = (1..=20).map(join).collect();
        // Two who are in and one who waits withdraw.
        acts.extend([3, 10, 18].map(|who| Act::Withdraw { who }));
        let lines = places(&rules, &acts).unwrap();
        let (inn, waiting) = in_and_waiting(&lines);
        // 1–16 less 3 and 10, then 17 and 19 move up (18 withdrew); 20 waits, first.
        let mut expected: Vec<i64> = (1..=16).filter(|p| ![3, 10].contains(p)).collect();
        expected.extend([17, 19]);
        assert_eq!(inn, expected);
        assert_eq!(waiting, [20]);
        assert_eq!(
            lines.iter().find(|l| l.who == 20).unwrap().place,
            Place::Waiting(1)
        );
        let gone: Vec<i64> = lines
            .iter()
            .filter(|l| l.place == Place::Withdrawn)
            .map(|l| l.who)
            .collect();
        assert_eq!(gone, [3, 10, 18]);
    }

    #[test]
    fn an_approval_never_pushes_out_someone_in() {
        let rules = Rules {
            cap: 2,
            approval: true,
        };
        let acts = vec![
            join(1),
            join(2),
            join(3),
            Act::Approve { who: 2 },
            Act::Approve { who: 3 },
            Act::Approve { who: 1 }, // signed up first, approved last: waits
        ];
        let (inn, waiting) = in_and_waiting(&places(&rules, &acts).unwrap());
        assert_eq!((inn, waiting), (vec![2, 3], vec![1]));
    }

    #[test]
    fn a_seated_substitute_goes_in_if_there_is_room_else_first_in_line() {
        let rules = Rules {
            cap: 2,
            approval: false,
        };
        let sub = |who| Act::Substitute {
            who,
            name: format!("S{who}"),
        };
        let acts = vec![
            join(1),
            sub(9),
            Act::Seat { who: 9 },
            join(2),
            join(3),
            sub(8),
        ];
        let (inn, waiting) = in_and_waiting(&places(&rules, &acts).unwrap());
        assert_eq!((inn, waiting), (vec![1, 9], vec![2, 3]));
        let mut more = acts.clone();
        more.push(Act::Seat { who: 8 });
        let (inn, waiting) = in_and_waiting(&places(&rules, &more).unwrap());
        assert_eq!((inn, waiting), (vec![1, 9], vec![8, 2, 3]));
    }

    #[test]
    fn acts_that_cannot_be_done_say_why() {
        let rules = Rules {
            cap: 4,
            approval: false,
        };
        let err = |acts: &[Act], next: Act| after(&rules, acts, &next).unwrap_err().0;
        assert!(err(&[join(1)], join(1)).contains("P1 has signed up already"));
        assert!(err(&[], Act::Withdraw { who: 5 }).contains("person 5 is not on the list"));
        assert!(err(&[join(1)], Act::Approve { who: 1 }).contains("does not wait for approval"));
        assert!(err(&[join(1)], Act::Seat { who: 1 }).contains("P1 is not a substitute"));
        assert!(err(
            &[join(1)],
            Act::Substitute {
                who: 1,
                name: "P1".into()
            }
        )
        .contains("withdraw first"));
        // Withdrawn, then back: at the end of the line.
        let acts = [join(1), join(2), Act::Withdraw { who: 1 }, join(1)];
        let (inn, _) = in_and_waiting(&places(&rules, &acts).unwrap());
        assert_eq!(inn, [2, 1]);
        let e = places(&rules, &[join(1), join(1)]).unwrap_err().0;
        assert_eq!(e, "act 2: P1 has signed up already");
    }
}
