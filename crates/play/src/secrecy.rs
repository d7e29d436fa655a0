//! Who may see what of a deal: the one rule every page, log, replay, hint and message of
//! online play asks (`docs/secrecy.md`).
//!
//! A deal's tiles, and anything they follow from (its seed, a log, a replay step in any
//! view, an end-of-hand reveal), reach a person only when
//!
//! - (a) they sit at that seat in play: their own tiles, as the seat sees them;
//! - (b) they have played that deal and its set is released to the players who have
//!   played it (challenges: a finished deal may be looked at whole, as on a robot
//!   duplicate site);
//! - (c) the deal is public: every table that will ever play it has played it (a table's
//!   own set, hand by hand; an online event's deal once every sitting of it is over; a
//!   challenge once it is revealed), or its owner released it (the director, for an
//!   event's practice), or it was never secret (a seed typed in).
//!
//! The director owns the deals of events and challenges and may always look at their
//! finished hands. Watchers of a table in play see public facts only (never a concealed
//! tile, whatever the deal), and nothing of a finished hand until its deal is open to them.
//! Routes and the table's task call [`hand_sight`] or [`table_sight`]; none decides for
//! itself.

use mcr::Wind;
use store::StoreError;

use super::challenge::{self, Stage};
use super::room::HandSummary;
use super::spec::TableSpec;
use super::Hall;

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Nobody signed in.
    Anonymous,
    /// A person who plays online (guest or account), by id.
    Person(i64),
    /// The tournament director.
    Director,
}

impl Viewer {
    /// The person's id, for a person.
    pub fn person(self) -> Option<i64> {
        match self {
            Viewer::Person(p) => Some(p),
            _ => None,
        }
    }
}

/// What someone may have of one hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sight {
    /// Everything: every seat's tiles, the walls, the seed, the log.
    Open,
    /// One seat's own tiles as that seat saw them, and the public facts.
    Seat(Wind),
    /// The public facts only (discards, melds, who moved): a watcher of a hand in play.
    Watch,
    /// Nothing of it, and why, in words.
    Hidden(String),
}

impl Sight {
    /// Whether anything may be shown.
    pub fn shown(&self) -> bool {
        !matches!(self, Sight::Hidden(_))
    }
}

/// What is known of a deal beyond the table: the facts the rule needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealState {
    /// (c): anyone may see all of it.
    pub public: bool,
    /// (b): those who have played it may see all of it.
    pub to_players: bool,
    /// The director owns it (an event's or a challenge's deal).
    pub director_owns: bool,
    /// Others may watch its table in play (public facts only).
    pub watchable: bool,
    /// Why it is secret, in words, for a refusal.
    pub why: String,
}

/// Who is asking about a hand, as far as the rule cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asker {
    /// Who they are.
    pub viewer: Viewer,
    /// The seat they hold in this hand at this table, if any.
    pub seat: Option<Wind>,
    /// They have played this deal to its end (here or at another table).
    pub played: bool,
}

/// The rule: what `asker` may have of a hand on `deal`, in play or finished.
pub fn decide(deal: &DealState, asker: &Asker, finished: bool) -> Sight {
    if !finished {
        return match asker.seat {
            Some(w) => Sight::Seat(w),
            None if deal.watchable || asker.viewer == Viewer::Director => Sight::Watch,
            None => Sight::Hidden(deal.why.clone()),
        };
    }
    if deal.public
        || (deal.director_owns && asker.viewer == Viewer::Director)
        || (deal.to_players && asker.played)
    {
        return Sight::Open;
    }
    match asker.seat {
        Some(w) => Sight::Seat(w),
        None => Sight::Hidden(deal.why.clone()),
    }
}

/// What is known of the deal of hand `hand` (0-based) of a table; `finished_here`: that
/// hand is over at this table.
pub fn deal_state(
    hall: &Hall,
    spec: &TableSpec,
    hand: usize,
    finished_here: bool,
) -> Result<DealState, StoreError> {
    if spec.deals_known() {
        return Ok(DealState {
            public: true,
            to_players: true,
            director_owns: false,
            watchable: true,
            why: String::new(),
        });
    }
    if let Some(c) = &spec.challenge {
        return Ok(challenge_state(&challenge::load(hall, c.id)?));
    }
    if let Some(s) = &spec.sitting {
        let st = super::online::load(hall, s.event)?;
        let released = set_public(hall, SetOf::Event(s.event))?;
        return Ok(DealState {
            public: released || st.as_ref().is_some_and(|st| st.deal_done(&s.deal)),
            to_players: false,
            director_owns: true,
            watchable: false,
            why: format!(
                "this table plays deal {} of event {}, which other tables have still to play",
                s.deal, s.event
            ),
        });
    }
    // A table of the lobby plays a set of its own: a deal is over everywhere once it is
    // over here.
    let _ = hand;
    Ok(DealState {
        public: finished_here,
        to_players: true,
        director_owns: false,
        watchable: true,
        why: "this hand is still being played".into(),
    })
}

/// What is known of every deal of a challenge: public once it is revealed, and before that
/// open to those who have played it.
pub fn challenge_state(ch: &challenge::Loaded) -> DealState {
    DealState {
        public: ch.stage(challenge::now_s()) == Stage::Revealed,
        to_players: true,
        director_owns: true,
        watchable: false,
        why: format!(
            "this is a deal of challenge {} ({}), which is still open: its hands are shown once you have played the deal, and to everyone when it closes",
            ch.id, ch.spec.name
        ),
    }
}

/// What `viewer` may have of the deal at `set_index` of a challenge's deal set (the slot,
/// with one copy), all tables together: a player who finished another copy of its slot
/// has not played this one.
pub fn challenge_deal(ch: &challenge::Loaded, set_index: usize, viewer: Viewer) -> Sight {
    let played = viewer
        .person()
        .is_some_and(|p| ch.finished_deal(p, set_index));
    decide(
        &challenge_state(ch),
        &Asker {
            viewer,
            seat: None,
            played,
        },
        true,
    )
}

/// Whether `person` has played the deal of hand `hand` of this table to its end, here or
/// at another table of the same challenge or event.
fn played(hall: &Hall, spec: &TableSpec, hand: usize, person: i64) -> Result<bool, StoreError> {
    if let Some(c) = &spec.challenge {
        let set_index = if c.par { hand / 4 } else { c.set_index() };
        return Ok(challenge::load(hall, c.id)?.finished_deal(person, set_index));
    }
    let Some(key) = spec.deal_key(hand, 0) else {
        return Ok(false);
    };
    Ok(hall
        .store
        .hands_of_deal(&key, usize::MAX >> 1)?
        .iter()
        .filter_map(|h| serde_json::from_str::<HandSummary>(&h.summary).ok())
        .any(|s| s.persons.contains(&Some(person))))
}

/// What `viewer` may have of hand `hand_no` (1-based) of table `table`: a finished hand
/// from its stored summary, the hand in play from who sits there (`seated`, when the
/// caller knows it).
pub fn hand_sight(
    hall: &Hall,
    table: i64,
    spec: &TableSpec,
    hand_no: usize,
    viewer: Viewer,
) -> Result<Sight, StoreError> {
    let stored = hall
        .store
        .hands_of_table(table)?
        .into_iter()
        .find(|h| h.hand_no as usize == hand_no);
    let Some(h) = stored else {
        return Err(StoreError::NotFound(format!(
            "table {table} has no finished hand {hand_no}"
        )));
    };
    let summary: HandSummary = serde_json::from_str(&h.summary)
        .map_err(|e| StoreError::Backend(format!("hand {hand_no} of table {table}: {e}")))?;
    let hand = hand_no.saturating_sub(1);
    let deal = deal_state(hall, spec, hand, true)?;
    let seat = viewer
        .person()
        .and_then(|p| summary.persons.iter().position(|x| *x == Some(p)))
        .map(Wind::from_index);
    let played = match viewer.person() {
        Some(p) if deal.to_players && !deal.public => {
            seat.is_some() || played(hall, spec, hand, p)?
        }
        _ => false,
    };
    Ok(decide(
        &deal,
        &Asker {
            viewer,
            seat,
            played,
        },
        true,
    ))
}

/// What `viewer` may have of the table while it plays: its seat, watching, or nothing.
/// The seat is the one the table gives the viewer (`seated`), when the caller knows it;
/// for a challenge or an event table it follows from the table's settings.
pub fn table_sight(
    hall: &Hall,
    spec: &TableSpec,
    viewer: Viewer,
    seated: Option<Wind>,
) -> Result<Sight, StoreError> {
    let seat = seated.or_else(|| {
        let me = viewer.person()?;
        if spec.challenge.as_ref().is_some_and(|c| !c.par) && spec.owner == me {
            return Some(Wind::from_index(spec.owner_place));
        }
        None
    });
    let seat = match (seat, &spec.sitting, viewer.person()) {
        (None, Some(s), Some(me)) => {
            let st = super::online::load(hall, s.event)?;
            st.and_then(|st| {
                (0..4)
                    .find(|&w| {
                        spec.places[w] == super::spec::Place::Person
                            && st.person_of(s.players[w]) == Some(me)
                    })
                    .map(Wind::from_index)
            })
        }
        (seat, ..) => seat,
    };
    let deal = deal_state(hall, spec, 0, false)?;
    Ok(decide(
        &deal,
        &Asker {
            viewer,
            seat,
            played: false,
        },
        false,
    ))
}

/// A deal set, by what owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOf {
    /// A table's own set (opened in the lobby).
    Table(i64),
    /// A challenge's.
    Challenge(i64),
    /// An event's.
    Event(i64),
}

/// Whether a whole set is public, so that its key may be published and its deals played
/// for practice: a table's once the table is over (it is the only table that plays them),
/// a challenge's once it is revealed, an event's once its director released it.
pub fn set_public(hall: &Hall, set: SetOf) -> Result<bool, StoreError> {
    Ok(match set {
        SetOf::Table(id) => hall.store.play_table(id)?.finished,
        SetOf::Challenge(id) => {
            challenge::load(hall, id)?.stage(challenge::now_s()) == Stage::Revealed
        }
        SetOf::Event(id) => hall.store.event(id)?.deals_released,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(public: bool, to_players: bool, director_owns: bool, watchable: bool) -> DealState {
        DealState {
            public,
            to_players,
            director_owns,
            watchable,
            why: "secret".into(),
        }
    }

    fn asker(viewer: Viewer, seat: Option<Wind>, played: bool) -> Asker {
        Asker {
            viewer,
            seat,
            played,
        }
    }

    #[test]
    fn in_play_a_seat_sees_its_own_tiles_and_nobody_more() {
        let public = deal(true, true, true, true);
        let p = Viewer::Person(1);
        // Even a public deal is not shown open while it is played: kibitzers could tell.
        assert_eq!(
            decide(&public, &asker(p, Some(Wind::South), true), false),
            Sight::Seat(Wind::South)
        );
        assert_eq!(
            decide(&public, &asker(Viewer::Director, None, false), false),
            Sight::Watch
        );
        let unwatched = deal(false, true, true, false);
        assert!(!decide(&unwatched, &asker(p, None, true), false).shown());
        assert!(!decide(&unwatched, &asker(Viewer::Anonymous, None, false), false).shown());
        assert_eq!(
            decide(&unwatched, &asker(Viewer::Director, None, false), false),
            Sight::Watch
        );
    }

    #[test]
    fn a_finished_hand_opens_by_the_three_ways_only() {
        let p = Viewer::Person(1);
        let secret = deal(false, false, true, true);
        // (a) only: the own seat.
        assert_eq!(
            decide(&secret, &asker(p, Some(Wind::West), true), true),
            Sight::Seat(Wind::West)
        );
        assert!(!decide(&secret, &asker(p, None, true), true).shown());
        assert!(!decide(&secret, &asker(Viewer::Anonymous, None, false), true).shown());
        // The director owns it.
        assert_eq!(
            decide(&secret, &asker(Viewer::Director, None, false), true),
            Sight::Open
        );
        // (b): released to the players who played it, and only to them.
        let to_players = deal(false, true, false, false);
        assert_eq!(
            decide(&to_players, &asker(p, None, true), true),
            Sight::Open
        );
        assert!(!decide(&to_players, &asker(p, None, false), true).shown());
        assert!(!decide(&to_players, &asker(Viewer::Director, None, false), true).shown());
        // (c): public.
        let public = deal(true, false, false, false);
        assert_eq!(
            decide(&public, &asker(Viewer::Anonymous, None, false), true),
            Sight::Open
        );
    }
}
