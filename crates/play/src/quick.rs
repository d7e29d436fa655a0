//! Quick match: one click to a rated duplicate table with whoever else is waiting.
//!
//! The queue is in the database ([`store::QueueStore`]), so that every node shares it; the
//! node holding the `matchmaker` duty seats it once a second ([`matchmaker`]). People are
//! seated together as they arrive, four to a table; when the first of fewer than four has
//! waited [`PlayConfig::quick_wait`](crate::PlayConfig::quick_wait) the empty seats go to
//! bots of the level nearest the waiting people's mean rating. Bot accounts wait in the same
//! queue but fill seats only of people who let them, and never make a table of their own.
//! Someone whose browser stops asking for [`GONE`] has left the queue; someone given a
//! table who never comes has their seat played by a stand-in once their clock runs out.

use std::sync::Arc;
use std::time::Duration;

use store::{now_ms, Person, Queued};

use crate::spec::{DealRef, Hands, Place, TableSpec, BOT_LEVELS};
use crate::{Hall, PlayError};

/// Deals of a quick-match table.
pub const DEALS: usize = 4;
/// Seconds a decision at a quick-match table.
pub const LIMIT_S: u32 = 20;
/// Extra seconds each person may draw on over the table.
pub const BANK_S: u32 = 30;
/// Someone in the queue whose browser (or bot) has not asked for this long has left it.
pub const GONE: Duration = Duration::from_secs(8);
/// How often the matchmaker looks at the queue.
pub const ROUND: Duration = Duration::from_secs(1);

/// Where someone in the queue stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Standing {
    /// People (not bot accounts) waiting without a table, them included.
    pub waiting: usize,
    /// Seconds they have waited.
    pub waited_s: u64,
    /// Seconds after which bots fill the empty seats.
    pub wait_s: u64,
    /// Seconds until they do for those waiting now (the first of them counts).
    pub bots_in_s: u64,
    /// The table they were given, once they were.
    pub table: Option<i64>,
}

/// How many wait and how many play, as the lobby shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Crowd {
    /// People waiting in the queue.
    pub waiting: usize,
    /// Bot accounts waiting in the queue.
    pub bots_waiting: usize,
    /// People seated at the lobby's tables in play.
    pub playing: usize,
}

/// A person's rating as shown, × 1000; a newcomer's is `medium`'s.
fn rating_milli(hall: &Hall, person: i64) -> Result<i64, PlayError> {
    let shown = crate::history::kept(hall, person)?
        .map_or(tournament::rating::anchor("medium"), |r| r.rating);
    Ok((shown * 1000.0).round() as i64)
}

/// Puts `me` in the queue (`bots_ok`: bot accounts may fill the other seats). Refused to
/// someone with as many tables going as they may have.
pub fn join(hall: &Hall, me: &Person, bots_ok: bool) -> Result<Standing, PlayError> {
    hall.check_table_limit(me)?;
    let now = now_ms();
    hall.store.join_queue(&Queued {
        person: me.id,
        name: crate::names::shown(me),
        rating_milli: rating_milli(hall, me.id)?,
        bot: me.bot,
        bots_ok,
        joined_ms: now,
        seen_ms: now,
        table: None,
    })?;
    hall.quick_nudge.notify_one();
    seen(hall, me.id)?.ok_or_else(|| PlayError::Internal("the queue lost a player".into()))
}

/// Notes that `person` still waits and says where they stand; `None` when they are not in
/// the queue (they left, or were not seen for [`GONE`]).
pub fn seen(hall: &Hall, person: i64) -> Result<Option<Standing>, PlayError> {
    let now = now_ms();
    let Some(me) = hall.store.queue_seen(person, now)? else {
        return Ok(None);
    };
    let (waiting, first) = hall.store.queue_waiting()?;
    let first = first.unwrap_or(now);
    let wait_ms = hall.config.quick_wait.as_millis() as i64;
    Ok(Some(Standing {
        waiting,
        waited_s: (now - me.joined_ms).max(0) as u64 / 1000,
        wait_s: hall.config.quick_wait.as_secs(),
        bots_in_s: ((first + wait_ms - now).max(0) as u64).div_ceil(1000),
        table: me.table,
    }))
}

/// Takes `person` out of the queue; whether they were in it.
pub fn leave(hall: &Hall, person: i64) -> Result<bool, PlayError> {
    Ok(hall.store.leave_queue(person)?)
}

/// How many wait in the queue and play at the lobby's tables.
pub fn crowd(hall: &Hall) -> Crowd {
    let queue = hall.store.queue().unwrap_or_default();
    let waiting = |bot: bool| {
        queue
            .iter()
            .filter(|q| q.bot == bot && q.table.is_none())
            .count()
    };
    let mut playing: Vec<i64> = hall
        .lobby()
        .iter()
        .filter(|l| l.stage != "over")
        .flat_map(|l| l.people.iter().copied())
        .collect();
    playing.sort_unstable();
    playing.dedup();
    Crowd {
        waiting: waiting(false),
        bots_waiting: waiting(true),
        playing: playing.len(),
    }
}

/// The bot level nearest a mean rating (shown, × 1000).
pub fn level_near(rating_milli: i64) -> &'static str {
    let r = rating_milli as f64 / 1000.0;
    BOT_LEVELS
        .iter()
        .min_by(|a, b| {
            let da = (tournament::rating::anchor(a) - r).abs();
            let db = (tournament::rating::anchor(b) - r).abs();
            da.total_cmp(&db)
        })
        .copied()
        .unwrap_or("medium")
}

/// Who sits at one table the queue makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// People and bot accounts, in the order they joined.
    pub sitters: Vec<Queued>,
    /// The level of the bots in the empty seats.
    pub level: &'static str,
}

/// The tables the queue makes now (at `now`, bots after `wait`): people four at a time as
/// they joined; then the rest, with bot accounts where every one of them lets them, once
/// they make four or the first has waited `wait`.
pub fn groups(queue: &[Queued], now: i64, wait: Duration) -> Vec<Group> {
    let waiting = queue.iter().filter(|q| q.table.is_none());
    let people: Vec<&Queued> = waiting.clone().filter(|q| !q.bot).collect();
    let mut bots: Vec<&Queued> = waiting.filter(|q| q.bot).collect();
    let mut out = Vec::new();
    let mut chunks = people.chunks(4).peekable();
    while let Some(chunk) = chunks.next() {
        let full = chunk.len() == 4;
        let mut sitters: Vec<Queued> = chunk.iter().copied().cloned().collect();
        if !full {
            debug_assert!(chunks.peek().is_none());
            if sitters.iter().all(|q| q.bots_ok) {
                let n = (4 - sitters.len()).min(bots.len());
                sitters.extend(bots.drain(..n).cloned());
            }
            let oldest = sitters.iter().map(|q| q.joined_ms).min().unwrap_or(now);
            let waited = (now - oldest).max(0) as u128;
            if sitters.len() < 4 && waited < wait.as_millis() {
                break;
            }
        }
        let people: Vec<&Queued> = sitters.iter().filter(|q| !q.bot).collect();
        let mean = people.iter().map(|q| q.rating_milli).sum::<i64>() / people.len() as i64;
        out.push(Group {
            sitters,
            level: level_near(mean),
        });
    }
    out
}

/// The table a group plays: [`DEALS`] new secret duplicate deals, rated, each sitter at a
/// place drawn at random, bots of the group's level in the empty ones.
pub fn table_of(group: &Group) -> (TableSpec, Vec<(usize, i64, String)>) {
    let key = crate::new_key();
    let mut order = [0usize, 1, 2, 3];
    // The places shuffled by the table's own key: nobody is East for having come first.
    let mut r = key.seed(u32::MAX as usize);
    for i in (1..4).rev() {
        let j = (r % (i as u64 + 1)) as usize;
        r /= i as u64 + 1;
        order.swap(i, j);
    }
    let mut places: [Place; 4] = std::array::from_fn(|_| Place::Bot {
        level: group.level.to_string(),
    });
    let mut sitters = Vec::new();
    for (q, &place) in group.sitters.iter().zip(&order) {
        places[place] = Place::Person;
        sitters.push((place, q.person, q.name.clone()));
    }
    let first = group
        .sitters
        .iter()
        .position(|q| !q.bot)
        .unwrap_or_default();
    let hands = Hands::Duplicate {
        deals: (0..DEALS)
            .map(|i| DealRef {
                seed: key.seed(i),
                label: (i + 1).to_string(),
            })
            .collect(),
    };
    let spec = TableSpec {
        rules_version: TableSpec::current_rules_version(&hands),
        hands,
        places,
        owner: group.sitters[first].person,
        owner_place: order[first],
        limit_s: LIMIT_S,
        bank_s: BANK_S,
        challenge: None,
        sitting: None,
        deals_key: Some(key.hex()),
        practice: None,
    };
    (spec, sitters)
}

/// One look at the queue: takes out those gone, opens the tables it makes and gives them
/// to their sitters; the tables opened.
pub fn round(hall: &Arc<Hall>) -> Result<Vec<i64>, PlayError> {
    let now = now_ms();
    hall.store.prune_queue(now - GONE.as_millis() as i64)?;
    let queue = hall.store.queue()?;
    let mut opened = Vec::new();
    for group in groups(&queue, now, hall.config.quick_wait) {
        let (spec, sitters) = table_of(&group);
        let id = hall.open_seated(spec, &sitters)?;
        let persons: Vec<i64> = sitters.iter().map(|s| s.1).collect();
        hall.store.seat_queued(&persons, id)?;
        tracing::info!(table = id, people = persons.len(), "quick match");
        opened.push(id);
    }
    Ok(opened)
}

/// Seats the queue once a second, and at once when someone joins, on the node holding the
/// `matchmaker` duty.
pub async fn matchmaker(hall: Arc<Hall>) {
    loop {
        let h = hall.clone();
        let _ = tokio::task::spawn_blocking(move || {
            if h.holds_duty("matchmaker") {
                if let Err(e) = round(&h) {
                    tracing::warn!("quick match: {e}");
                }
            }
        })
        .await;
        tokio::select! {
            _ = tokio::time::sleep(ROUND) => {}
            _ = hall.quick_nudge.notified() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(person: i64, at: i64, bot: bool, bots_ok: bool, rating: i64) -> Queued {
        Queued {
            person,
            name: format!("p{person}"),
            rating_milli: rating,
            bot,
            bots_ok,
            joined_ms: at,
            seen_ms: at,
            table: None,
        }
    }

    fn who(g: &Group) -> Vec<i64> {
        g.sitters.iter().map(|q| q.person).collect()
    }

    const WAIT: Duration = Duration::from_secs(20);

    #[test]
    fn people_sit_four_at_a_time_and_the_rest_after_the_wait() {
        let queue: Vec<Queued> = (1..=6)
            .map(|p| q(p, p * 100, false, false, 25_000))
            .collect();
        // Before the wait: one table of the first four; 5 and 6 wait on.
        let g = groups(&queue, 10_000, WAIT);
        assert_eq!(g.len(), 1);
        assert_eq!(who(&g[0]), vec![1, 2, 3, 4]);
        // Once 5 has waited 20 s: a second table, two bots with them.
        let g = groups(&queue, 500 + 20_000, WAIT);
        assert_eq!(
            g.iter().map(who).collect::<Vec<_>>(),
            [vec![1, 2, 3, 4], vec![5, 6]]
        );
        // Those already given a table are not seated again.
        let mut given = queue.clone();
        for e in &mut given[..4] {
            e.table = Some(9);
        }
        assert_eq!(groups(&given, 10_000, WAIT), Vec::new());
    }

    #[test]
    fn bot_accounts_fill_only_the_seats_of_people_who_let_them() {
        let bots = [q(10, 0, true, false, 30_000), q(11, 0, true, false, 30_000)];
        // A bot account alone never makes a table.
        assert_eq!(groups(&bots, 99_000, WAIT), Vec::new());
        // Two people who let bots play them, two bot accounts: a table at once.
        let mut queue = vec![q(1, 50, false, true, 25_000), q(2, 60, false, true, 25_000)];
        queue.extend(bots.clone());
        let g = groups(&queue, 100, WAIT);
        assert_eq!(g.iter().map(who).collect::<Vec<_>>(), [vec![1, 2, 10, 11]]);
        // One of them does not: they wait for people, then get built-in bots.
        queue[1].bots_ok = false;
        assert_eq!(groups(&queue, 100, WAIT), Vec::new());
        let g = groups(&queue, 50 + 20_000, WAIT);
        assert_eq!(g.iter().map(who).collect::<Vec<_>>(), [vec![1, 2]]);
    }

    #[test]
    fn the_bots_are_near_the_people_s_level() {
        // Anchors: easy 7.1, medium 25, strong 26.9, expert 29.1.
        assert_eq!(level_near(25_000), "medium");
        assert_eq!(level_near(27_000), "strong");
        assert_eq!(level_near(31_000), "expert");
        assert_eq!(level_near(10_000), "easy");
        // The mean of the people, bot accounts not counted.
        let queue = [
            q(1, 0, false, true, 28_000),
            q(2, 0, false, true, 30_000),
            q(3, 0, true, false, 0),
        ];
        let g = groups(&queue, 30_000, WAIT);
        assert_eq!(g[0].level, "expert");
    }

    #[test]
    fn a_table_seats_every_sitter_at_a_place_of_their_own() {
        let g = Group {
            sitters: vec![q(7, 0, false, false, 25_000), q(8, 0, false, false, 25_000)],
            level: "strong",
        };
        let (spec, sitters) = table_of(&g);
        spec.check().unwrap();
        assert!(spec.rated() && spec.deals_key.is_some());
        assert_eq!(spec.hand_count(), DEALS);
        let mut places: Vec<usize> = sitters.iter().map(|s| s.0).collect();
        places.sort_unstable();
        places.dedup();
        assert_eq!(places.len(), 2);
        for (p, place) in spec.places.iter().enumerate() {
            let seated = sitters.iter().any(|s| s.0 == p);
            assert_eq!(*place == Place::Person, seated, "place {p}");
            if !seated {
                assert_eq!(
                    place,
                    &Place::Bot {
                        level: "strong".into()
                    }
                );
            }
        }
        assert_eq!(spec.owner, 7);
        assert_eq!(spec.places[spec.owner_place], Place::Person);
    }

    /// Someone given a table who never comes holds nobody up: once their clock (the
    /// decision's and the bank's) runs out a stand-in plays their place, and the person
    /// who came plays on.
    #[test]
    fn a_player_who_never_comes_gets_a_stand_in_when_their_clock_runs_out() {
        use crate::room::{Room, Stage};
        use std::time::Instant;
        let g = Group {
            sitters: vec![q(7, 0, false, false, 25_000), q(8, 0, false, false, 25_000)],
            level: "easy",
        };
        let (spec, sitters) = table_of(&g);
        let mut room = Room::new(1, spec, Duration::ZERO);
        for (place, person, name) in &sitters {
            room.sit(*person, name, *place).unwrap();
        }
        assert_eq!(room.stage, Stage::Playing);
        let (here, absent) = (sitters[0].0, sitters[1].0);
        room.connected[here] = 1;
        let mut now = Instant::now();
        let limit = Duration::from_secs((LIMIT_S + BANK_S) as u64);
        for _ in 0..200 {
            if room.away[absent] {
                break;
            }
            now += limit;
            room.tick(now);
        }
        assert!(room.away[absent], "the one who never came is played for");
        assert!(!room.away[here], "the one who came keeps their place");
        // The hand goes on to its end without them.
        for _ in 0..2000 {
            if room.stage != Stage::Playing {
                break;
            }
            now += limit;
            room.tick(now);
        }
        assert_ne!(room.stage, Stage::Playing);
    }
}
