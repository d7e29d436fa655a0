//! What stays with a player: every hand they held a seat in, the duplicate rating
//! (`tournament::rating`, kept in the store and updated per finished session: [`kept`]),
//! their statistics, and the leaderboard. The statistics are read from the player's own
//! hands and their deals; a period's leaderboard rates the period afresh, in memory
//! ([`ratings_since`]).

mod fields;
mod kept;
mod stats;
mod trends;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use store::StoreError;
use tournament::rating::{self, Holder, Rated};

use super::Hall;

pub use fields::{company_of, deal_seats, par_key, par_points, par_points_with, PAR_LEVEL};
pub use kept::{
    catch_up, kept, rate_session, rebuild, rebuild_with_field, table_over, unrated, Rebuilt,
};
pub use stats::{profile, HandLine, Profile, RegularGame};
pub use trends::{trends, DecisionKind, KindCost, Period, ReviewedHand, Trends};

/// The rating of every person recomputed in memory from every compared hand, as of a
/// stored hand (a period's leaderboard, and tests comparing with the kept ratings).
#[derive(Debug, Default)]
pub struct Ratings {
    /// The newest hand it includes.
    pub upto: i64,
    /// By person.
    pub people: BTreeMap<i64, Rated>,
    /// The deal-seats it was computed from (profiles read their IMP from them).
    pub seats: Vec<tournament::rating::DealSeat>,
}

/// Hands read to count a player's hands in a period (the newest first).
const READ_PERIOD: usize = 10_000;

static CACHE: Mutex<Option<(usize, Arc<Ratings>)>> = Mutex::new(None);

/// The ratings as of the newest stored hand (recomputed when a hand was stored since).
pub fn ratings(hall: &Hall) -> Result<Arc<Ratings>, StoreError> {
    let upto = hall.store.last_hand_id()?;
    // The cache is per store (tests run several in one process).
    let store_id = Arc::as_ptr(&hall.store) as *const () as usize;
    if let Some((id, r)) = CACHE.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        if *id == store_id && r.upto == upto {
            return Ok(r.clone());
        }
    }
    let r = Arc::new(recompute(hall)?);
    *CACHE.lock().unwrap_or_else(|p| p.into_inner()) = Some((store_id, r.clone()));
    Ok(r)
}

/// Computes every rating from the stored hands, in memory (the kept ratings are
/// [`kept`]'s; this serves a period's ladder and the tests that compare with it).
fn recompute(hall: &Hall) -> Result<Ratings, StoreError> {
    let upto = hall.store.last_hand_id()?;
    let seats = deal_seats(hall)?;
    let people = people_of(&seats);
    Ok(Ratings {
        upto,
        people,
        seats,
    })
}

/// The ratings over the deal-seats played since `since` (an ISO date) only: a period's
/// ladder, where everyone starts afresh, as of the newest stored hand.
pub fn ratings_since(hall: &Hall, since: &str) -> Result<Arc<Ratings>, StoreError> {
    static PERIOD: Mutex<Option<(usize, String, Arc<Ratings>)>> = Mutex::new(None);
    let all = ratings(hall)?;
    let store_id = Arc::as_ptr(&hall.store) as *const () as usize;
    if let Some((id, s, r)) = PERIOD.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        if *id == store_id && s == since && r.upto == all.upto {
            return Ok(r.clone());
        }
    }
    let seats: Vec<_> = all
        .seats
        .iter()
        .filter(|ds| ds.at.as_str() >= since)
        .cloned()
        .collect();
    let r = Arc::new(Ratings {
        upto: all.upto,
        people: people_of(&seats),
        seats,
    });
    *PERIOD.lock().unwrap_or_else(|p| p.into_inner()) =
        Some((store_id, since.to_string(), r.clone()));
    Ok(r)
}

/// The keys of the deal-seats `person` was rated at (with someone else), as
/// `<deal key>/<seat letter>`.
pub fn compared_keys(
    hall: &Hall,
    person: i64,
) -> Result<std::collections::BTreeSet<String>, StoreError> {
    Ok(stats::rated_imps(hall, person)?.into_keys().collect())
}

fn people_of(seats: &[tournament::rating::DealSeat]) -> BTreeMap<i64, Rated> {
    rating::rate(&rating::sessions(seats), false)
        .into_iter()
        .filter_map(|(h, r)| match h {
            Holder::Person(p) => Some((p, r)),
            Holder::Bot(_) => None,
        })
        .collect()
}

/// One line of the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// A player with their rating.
    Player {
        /// Their number.
        person: i64,
        /// Their name.
        name: String,
        /// A bot account.
        bot: bool,
        /// The rating.
        rated: Rated,
    },
    /// A bot level's fixed rating, for reference.
    Bot {
        /// "strong", …
        level: &'static str,
        /// Its anchor.
        rating: f64,
    },
}

/// Players with at least `min_hands` rated hands, by conservative rating (mean − 2σ), with
/// the bot levels in their places: over all time, or (`since`, an ISO date) rated afresh over the deal-seats played
/// since then.
pub fn leaderboard(
    hall: &Hall,
    min_hands: usize,
    since: Option<&str>,
) -> Result<Vec<Line>, StoreError> {
    let mut lines = Vec::new();
    let r = match since {
        Some(s) => ratings_since(hall, s)?,
        None => {
            // All time: the kept ratings, best placed first.
            for (row, name, bot) in hall.store.rating_board(min_hands.max(1), BOARD)? {
                lines.push(Line::Player {
                    person: row.person,
                    name,
                    bot,
                    rated: kept::rated_of(&row)?,
                });
            }
            return Ok(with_bots(lines));
        }
    };
    for (&person, rated) in &r.people {
        if rated.hands < min_hands.max(1) {
            continue;
        }
        // A period lists those who played in it (a deal-seat played then may compare them
        // with someone who held it before), by the hands they played since.
        if let Some(s) = since {
            let played = hall
                .store
                .hands_of_person(person, 0, READ_PERIOD)?
                .iter()
                .take_while(|(h, _)| h.at.as_str() >= s)
                .count();
            if played < min_hands.max(1) {
                continue;
            }
        }
        let p = hall.store.person(person)?;
        if !p.account {
            continue;
        }
        lines.push(Line::Player {
            person,
            name: p.name,
            bot: p.bot,
            rated: rated.clone(),
        });
    }
    Ok(with_bots(lines))
}

/// Players listed on the leaderboard at most.
const BOARD: usize = 500;

/// The players' lines with the bot levels in their places.
fn with_bots(mut lines: Vec<Line>) -> Vec<Line> {
    for (level, rating) in rating::ANCHORS {
        lines.push(Line::Bot { level, rating });
    }
    // A player is placed by their conservative rating (mean − 2σ): nobody is listed above
    // a bot level they have not shown they beat.
    let key = |l: &Line| match l {
        Line::Player { rated, .. } => rated.conservative(),
        Line::Bot { rating, .. } => *rating,
    };
    lines.sort_by(|a, b| key(b).total_cmp(&key(a)));
    lines
}
