//! The rating kept in the store, not recomputed: a finished session (a table, or an
//! online event's deal once every table has played it) updates its own people's ratings,
//! once, against the newest [`FIELD`] who held the same deal-seats before (the par
//! included), and keeps each of their hand-seats' IMP there; a rebuild replays every
//! session in the order it was rated and reports what differs.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use store::{RatedHand, RatingRow, SessionRated, StoreError, StoredHand};
use tournament::challenge::compare;
use tournament::rating::{once_each, Game, Holder, Rated, Ratings, Skill, FIELD};

use super::fields::{held_hand, seats_from, session_of, spec_of, HeldHand, Specs};
use crate::Hall;

/// The session a finished table's hands are rated in, if they are rated at all: an online
/// event's deal (rated once all its tables are over), else the table itself. Practice
/// tables, regular games and a challenge's par table are not.
pub fn session_of_table(hall: &Hall, table: i64) -> Result<Option<String>, StoreError> {
    let mut specs = Specs::new();
    let Some(spec) = spec_of(hall, &mut specs, table) else {
        return Ok(None);
    };
    if !spec.rated() {
        return Ok(None);
    }
    let hands = hall.store.hands_of_table(table)?;
    let Some(key) = hands.iter().find_map(|h| h.deal_key.clone()) else {
        return Ok(None);
    };
    Ok(Some(session_of(&key, table)))
}

/// Where a session's hands are read from: the store, one query at a time (an update),
/// or every compared hand read once (a rebuild).
enum Source {
    Store,
    Memory {
        hands: Vec<HeldHand>,
        by_table: HashMap<i64, Vec<usize>>,
        by_key: HashMap<String, Vec<usize>>,
    },
}

impl Source {
    /// Every compared hand, read once.
    fn memory(hall: &Hall, all: &[StoredHand], specs: &mut Specs) -> Source {
        let hands: Vec<HeldHand> = all
            .iter()
            .filter_map(|h| held_hand(hall, h, specs))
            .collect();
        let mut by_table: HashMap<i64, Vec<usize>> = HashMap::new();
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, h) in hands.iter().enumerate() {
            by_key.entry(h.key.clone()).or_default().push(i);
            by_table.entry(h.table).or_default().push(i);
        }
        Source::Memory {
            hands,
            by_table,
            by_key,
        }
    }

    /// The field of deal `key` as of hand `upto`: its newest `field` hands up to then.
    fn field(
        &self,
        hall: &Hall,
        specs: &mut Specs,
        key: &str,
        upto: i64,
        field: usize,
    ) -> Result<Vec<Cow<'_, HeldHand>>, StoreError> {
        Ok(match self {
            Source::Store => hall
                .store
                .deal_field(key, upto, field)?
                .iter()
                .filter_map(|h| held_hand(hall, h, specs))
                .map(Cow::Owned)
                .collect(),
            Source::Memory { hands, by_key, .. } => {
                let ids = by_key.get(key).map(Vec::as_slice).unwrap_or_default();
                // Kept in id order: the newest up to `upto` end where the later ones start.
                let end = ids.partition_point(|&i| hands[i].id <= upto);
                ids[end.saturating_sub(field)..end]
                    .iter()
                    .map(|&i| Cow::Borrowed(&hands[i]))
                    .collect()
            }
        })
    }

    /// The hands of a table, or (`key`) of a deal, up to hand `upto`.
    fn hands(
        &self,
        hall: &Hall,
        specs: &mut Specs,
        table: Option<i64>,
        key: Option<&str>,
        upto: i64,
    ) -> Result<Vec<Cow<'_, HeldHand>>, StoreError> {
        Ok(match self {
            Source::Store => {
                let stored = match (table, key) {
                    (Some(t), _) => hall.store.hands_of_table(t)?,
                    (None, Some(k)) => hall.store.deal_summaries(k, false)?,
                    (None, None) => Vec::new(),
                };
                stored
                    .iter()
                    .filter(|h| h.id <= upto)
                    .filter_map(|h| held_hand(hall, h, specs))
                    .map(Cow::Owned)
                    .collect()
            }
            Source::Memory {
                hands,
                by_table,
                by_key,
            } => {
                let ids = match (table, key) {
                    (Some(t), _) => by_table.get(&t),
                    (None, Some(k)) => by_key.get(k),
                    (None, None) => None,
                };
                ids.into_iter()
                    .flatten()
                    .map(|&i| &hands[i])
                    .filter(|h| h.id <= upto)
                    .map(Cow::Borrowed)
                    .collect()
            }
        })
    }
}

/// A session as it is rated: its game, the people it moves, and the IMP of each of their
/// hand-seats in it.
struct Rating {
    game: Game,
    movers: BTreeSet<Holder>,
    hands: Vec<RatedHand>,
}

/// The game a session is rated on, as of hand `upto`: its deal-seats, each with the
/// session's own holders and the newest [`FIELD`] stored up to then, and the people it
/// moves (its own).
fn game_of(
    hall: &Hall,
    source: &Source,
    specs: &mut Specs,
    session: &str,
    upto: i64,
    field: usize,
) -> Result<Option<Rating>, StoreError> {
    // The session's own hands: a table's, or every table's of an event's deal.
    let own = match session.split_once(':') {
        Some(("table", id)) => {
            let id: i64 = id
                .parse()
                .map_err(|_| StoreError::Invalid(format!("session '{session}': not a table")))?;
            source.hands(hall, specs, Some(id), None, upto)?
        }
        Some(("event", rest)) => {
            source.hands(hall, specs, None, Some(&format!("event:{rest}")), upto)?
        }
        _ => {
            return Err(StoreError::Invalid(format!(
                "session '{session}' is neither table:N nor event:N:deal"
            )))
        }
    };
    let movers: BTreeSet<Holder> = own
        .iter()
        .flat_map(|h| h.seats.iter().map(|(_, holder, _)| holder.clone()))
        .filter(|h| matches!(h, Holder::Person(_)))
        .collect();
    if movers.is_empty() {
        return Ok(None);
    }
    // The field of those deal-seats as of `upto`, with the session's own hands.
    let keys: BTreeSet<&str> = own.iter().map(|h| h.key.as_str()).collect();
    let mut all: Vec<&HeldHand> = own.iter().map(|h| h.as_ref()).collect();
    let mut fields = Vec::new();
    for k in keys {
        fields.push(source.field(hall, specs, k, upto, field)?);
    }
    all.extend(fields.iter().flatten().map(|h| h.as_ref()));
    all.sort_by_key(|h| h.id);
    all.dedup_by_key(|h| h.id);
    let by_seat: BTreeMap<(String, usize), _> = seats_from(all.iter().copied())
        .into_iter()
        .filter(|(_, d)| d.results.iter().any(|(h, _)| movers.contains(h)))
        .collect();
    // Each of the movers' hand-seats' IMP, as the game below scores it: a holder counts
    // once at a deal-seat, with their first result there (a later hand of the same deal
    // and seat, replayed, keeps no IMP of its own).
    let mut first: BTreeMap<(&str, usize, &Holder), i64> = BTreeMap::new();
    for h in &all {
        for (seat, holder, _) in &h.seats {
            first.entry((h.key.as_str(), *seat, holder)).or_insert(h.id);
        }
    }
    let mut imps: BTreeMap<(&str, usize, &Holder), i32> = BTreeMap::new();
    for ((key, seat), ds) in &by_seat {
        let results = once_each(&ds.results);
        if results.len() < 2 {
            continue;
        }
        for scored in compare(&results) {
            if let Some((h, _)) = ds.results.iter().find(|(h, _)| *h == scored.who) {
                imps.insert((key.as_str(), *seat, h), scored.imp);
            }
        }
    }
    let hands: Vec<RatedHand> = own
        .iter()
        .flat_map(|h| {
            h.seats.iter().filter_map(|(seat, holder, _)| match holder {
                Holder::Person(_) if first.get(&(h.key.as_str(), *seat, holder)) != Some(&h.id) => {
                    None
                }
                Holder::Person(p) => {
                    imps.get(&(h.key.as_str(), *seat, holder))
                        .map(|&imp| RatedHand {
                            hand: h.id,
                            seat: *seat as u8,
                            person: *p,
                            deal_key: h.key.clone(),
                            imp,
                        })
                }
                Holder::Bot(_) => None,
            })
        })
        .collect();
    let seats: Vec<_> = by_seat.into_values().collect();
    let at = seats.iter().map(|d| d.at.clone()).max().unwrap_or_default();
    // Everything here is one session, whatever each deal-seat's own session says.
    let game = Game {
        at,
        key: session.to_string(),
        seats: tournament::rating::sessions(&seats)
            .into_iter()
            .flat_map(|g| g.seats)
            .collect(),
    };
    Ok(Some(Rating {
        game,
        movers,
        hands,
    }))
}

/// A kept row's belief.
fn skill_of(row: &RatingRow) -> Result<Skill, StoreError> {
    serde_json::from_str(&row.state)
        .map_err(|e| StoreError::Backend(format!("rating of person {}: {e}", row.person)))
}

/// A kept row's belief without its history: enough for someone the update does not move
/// (their history is skipped, not built).
fn belief_of(row: &RatingRow) -> Result<Skill, StoreError> {
    #[derive(serde::Deserialize)]
    struct Belief {
        mean: f64,
        var: f64,
        hands: usize,
    }
    let b: Belief = serde_json::from_str(&row.state)
        .map_err(|e| StoreError::Backend(format!("rating of person {}: {e}", row.person)))?;
    Ok(Skill {
        mean: b.mean,
        var: b.var,
        hands: b.hands,
        history: Vec::new(),
    })
}

fn row_of(person: i64, s: &Skill) -> RatingRow {
    RatingRow {
        person,
        state: serde_json::to_string(s).expect("a rating serialises"),
        hands: s.hands,
        placed: (s.rated().conservative() * 1000.0).round() as i64,
    }
}

/// Rates one session now, once (another node may have done it: then nothing changes).
/// Returns whether this call rated it.
pub fn rate_session(hall: &Hall, session: &str) -> Result<bool, StoreError> {
    let upto = hall.store.last_hand_id()?;
    let Some(rating) = game_of(
        hall,
        &Source::Store,
        &mut Specs::new(),
        session,
        upto,
        FIELD,
    )?
    else {
        // Nothing in it to rate (every seat a stand-in's from the start): kept as rated,
        // so that it is not looked at again.
        return hall
            .store
            .rate_session(session, upto, &[], &mut |_: &[RatingRow]| {
                Ok(SessionRated::default())
            });
    };
    let Rating {
        game,
        movers,
        hands,
    } = rating;
    let people: Vec<i64> = game
        .seats
        .iter()
        .flatten()
        .filter_map(|(h, _)| match h {
            Holder::Person(p) => Some(*p),
            Holder::Bot(_) => None,
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    hall.store
        .rate_session(session, upto, &people, &mut |kept: &[RatingRow]| {
            let mut r = Ratings::new(false);
            for row in kept {
                let h = Holder::Person(row.person);
                let skill = if movers.contains(&h) {
                    skill_of(row)?
                } else {
                    belief_of(row)?
                };
                r.set(h, skill);
            }
            let moved = r.session_of(&game, |h| movers.contains(h));
            Ok(SessionRated {
                rows: moved
                    .iter()
                    .filter_map(|h| match h {
                        Holder::Person(p) => Some(row_of(*p, &r.skills[h])),
                        Holder::Bot(_) => None,
                    })
                    .collect(),
                hands: hands.clone(),
            })
        })
}

/// After a table is over: rates its session when it is complete (an event's deal waits
/// for its last table). Errors are the caller's to log; nothing is half-written.
pub fn table_over(hall: &Hall, table: i64) -> Result<bool, StoreError> {
    let Some(session) = session_of_table(hall, table)? else {
        return Ok(false);
    };
    if session.starts_with("event:") && !event_deal_over(hall, &session)? {
        return Ok(false);
    }
    rate_session(hall, &session)
}

/// Whether every table of an online event's deal (`event:E:deal`) is over.
fn event_deal_over(hall: &Hall, session: &str) -> Result<bool, StoreError> {
    let Some((event, deal)) = session
        .strip_prefix("event:")
        .and_then(|r| r.split_once(':'))
    else {
        return Ok(false);
    };
    let Ok(event) = event.parse::<i64>() else {
        return Ok(false);
    };
    Ok(match crate::online::load(hall, event)? {
        Some(st) => st.deal_done(deal),
        None => false,
    })
}

/// Sessions complete but not yet rated (tables over before ratings were kept, or whose
/// rating failed), oldest first by their newest hand.
pub fn unrated(hall: &Hall) -> Result<Vec<String>, StoreError> {
    unrated_in(hall, &hall.store.compared_hands()?)
}

fn unrated_in(hall: &Hall, hands: &[StoredHand]) -> Result<Vec<String>, StoreError> {
    let rated: BTreeSet<String> = hall
        .store
        .rated_sessions()?
        .into_iter()
        .map(|s| s.session)
        .collect();
    let mut newest: BTreeMap<String, i64> = BTreeMap::new();
    // By table: its session, when it is over and rated at all.
    let mut tables: HashMap<i64, Option<String>> = HashMap::new();
    for h in hands {
        let session = match tables.get(&h.play_table) {
            Some(s) => s.clone(),
            None => {
                let t = hall.store.play_table(h.play_table)?;
                let spec = serde_json::from_str::<crate::spec::TableSpec>(&t.spec).ok();
                let rated = spec.as_ref().is_some_and(|s| s.rated());
                let s = match (&h.deal_key, t.finished && rated) {
                    (Some(key), true) => Some(session_of(key, h.play_table)),
                    _ => None,
                };
                tables.insert(h.play_table, s.clone());
                s
            }
        };
        let Some(session) = session else { continue };
        let e = newest.entry(session).or_insert(h.id);
        *e = (*e).max(h.id);
    }
    let mut out: Vec<(i64, String)> = Vec::new();
    for (session, id) in newest {
        if rated.contains(&session) {
            continue;
        }
        if session.starts_with("event:") && !event_deal_over(hall, &session)? {
            continue;
        }
        out.push((id, session));
    }
    out.sort();
    Ok(out.into_iter().map(|(_, s)| s).collect())
}

/// Rates every complete session not yet rated (a store kept before ratings were, once).
/// A store whose sessions were rated before each hand-seat's IMP was kept is rebuilt
/// first, once, and the rebuild written, so that profiles have every IMP.
pub fn catch_up(hall: &Hall) -> Result<usize, StoreError> {
    if hall.store.rated_hand_count()? == 0 && !hall.store.rated_sessions()?.is_empty() {
        let r = rebuild(hall)?;
        hall.store.replace_ratings(&r.rows, &r.hands, &r.newly)?;
    }
    let mut n = 0;
    for s in unrated(hall)? {
        n += usize::from(rate_session(hall, &s)?);
    }
    Ok(n)
}

/// What a rebuild found.
#[derive(Debug, Default)]
pub struct Rebuilt {
    /// Sessions replayed.
    pub sessions: usize,
    /// People rated.
    pub people: usize,
    /// Complete sessions that were not rated yet (rated in the rebuild).
    pub unrated: usize,
    /// Each difference from the kept ratings, in words.
    pub differences: Vec<String>,
    /// The ratings as rebuilt.
    pub rows: Vec<RatingRow>,
    /// Every rated hand-seat's IMP as rebuilt.
    pub hands: Vec<RatedHand>,
    /// The sessions it rated that were not rated before, with the newest hand they saw.
    pub newly: Vec<(String, i64)>,
}

/// Recomputes every rating from the stored hands: the sessions rated, in their order and
/// each as of its newest hand, then those complete but not rated; compares the result with
/// the kept ratings.
pub fn rebuild(hall: &Hall) -> Result<Rebuilt, StoreError> {
    rebuild_with_field(hall, FIELD)
}

/// [`rebuild`] with each deal-seat's field bounded at `field` earlier holders instead of
/// [`FIELD`] (`usize::MAX`: every one): to measure what the bound changes.
pub fn rebuild_with_field(hall: &Hall, field: usize) -> Result<Rebuilt, StoreError> {
    let mut order: Vec<(String, i64)> = hall
        .store
        .rated_sessions()?
        .into_iter()
        .map(|s| (s.session, s.upto))
        .collect();
    let all = hall.store.compared_hands()?;
    let missing = unrated_in(hall, &all)?;
    let last = hall.store.last_hand_id()?;
    let unrated = missing.len();
    order.extend(missing.into_iter().map(|s| (s, last)));
    let mut specs = Specs::new();
    let source = Source::memory(hall, &all, &mut specs);
    let mut r = Ratings::new(false);
    let mut hands = Vec::new();
    for (session, upto) in &order {
        if let Some(rating) = game_of(hall, &source, &mut specs, session, *upto, field)? {
            r.session_of(&rating.game, |h| rating.movers.contains(h));
            hands.extend(rating.hands);
        }
    }
    let rows: Vec<RatingRow> = r
        .skills
        .iter()
        .filter_map(|(h, s)| match h {
            Holder::Person(p) => Some(row_of(*p, s)),
            Holder::Bot(_) => None,
        })
        .collect();
    let kept: BTreeMap<i64, RatingRow> = hall
        .store
        .all_ratings()?
        .into_iter()
        .map(|r| (r.person, r))
        .collect();
    let mut differences = Vec::new();
    let rebuilt: BTreeMap<i64, &RatingRow> = rows.iter().map(|r| (r.person, r)).collect();
    for (p, new) in &rebuilt {
        match kept.get(p) {
            None => differences.push(format!("person {p}: not kept, rebuilt {}", shown(new)?)),
            Some(old) if old.state != new.state => differences.push(format!(
                "person {p}: kept {}, rebuilt {}",
                shown(old)?,
                shown(new)?
            )),
            Some(_) => {}
        }
    }
    for (p, old) in &kept {
        if !rebuilt.contains_key(p) {
            differences.push(format!(
                "person {p}: kept {}, not rated in a rebuild",
                shown(old)?
            ));
        }
    }
    Ok(Rebuilt {
        sessions: order.len(),
        people: rows.len(),
        unrated,
        differences,
        rows,
        hands,
        newly: order[order.len() - unrated..].to_vec(),
    })
}

fn shown(row: &RatingRow) -> Result<String, StoreError> {
    let r = skill_of(row)?.rated();
    Ok(format!(
        "{:.2} ± {:.2} over {} hands",
        r.rating, r.uncertainty, r.hands
    ))
}

/// A kept row as shown.
pub fn rated_of(row: &RatingRow) -> Result<Rated, StoreError> {
    Ok(skill_of(row)?.rated())
}

/// A person's kept rating, as shown.
pub fn kept(hall: &Hall, person: i64) -> Result<Option<Rated>, StoreError> {
    hall.store
        .rating(person)?
        .map(|row| skill_of(&row).map(|s| s.rated()))
        .transpose()
}
