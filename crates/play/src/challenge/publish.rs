//! Publishing a challenge (its deal set, commitment and the par bot's results) and
//! taking up one of its deals at a table with three bots.
//!
//! Publishing comes in two steps: the challenge is announced (its key drawn, committed to
//! and stored, upcoming), then its par is played at every deal-seat and stored, which lets
//! it open. A par that searches (`expert`) takes minutes, so the web plays it on a thread
//! of its own; the sweeper takes up a par left unplayed by a node that went away.

use super::{
    builtin, deal_key, load, now_s, play_hand, rules, Arc, ChallengeRef, ChallengeSpec, DealRef,
    Hall, HandSummary, Hands, NewChallenge, Place, Serialize, Setup, Stage, TableRules, TableSpec,
    Wind,
};
use crate::PlayError;

/// How long after its announcement a challenge without its par is taken up again by the
/// sweeper (its node stopped): longer than any par takes, so that two nodes do not both
/// play it (32 deals with an `expert` par take about 10 minutes on one core).
pub const PAR_GRACE_S: i64 = 30 * 60;

/// Publishes a challenge and plays its par before returning its id.
pub fn publish(hall: &Hall, c: &NewChallenge) -> Result<i64, PlayError> {
    let id = announce(hall, c)?;
    play_par(hall, id)?;
    Ok(id)
}

/// Publishes a challenge whose par is played on a thread of its own (see [`play_par`]): the
/// challenge is stored at once, upcoming until the par is in. Returns its id.
pub fn publish_in_background(hall: &Arc<Hall>, c: &NewChallenge) -> Result<i64, PlayError> {
    let id = announce(hall, c)?;
    play_par_in_background(hall, id);
    Ok(id)
}

/// Stores a new challenge without its par: draws its deal set's key, commits to it and
/// keeps its settings. It stays upcoming until [`play_par`] has stored the par.
pub fn announce(hall: &Hall, c: &NewChallenge) -> Result<i64, PlayError> {
    c.check()?;
    let key = crate::new_key();
    let now = now_s();
    let opens = now + c.opens_in_h as i64 * 3600;
    let spec = ChallengeSpec {
        name: c.name.trim().to_string(),
        deals: c.deals,
        copies: c.copies,
        opens,
        closes: opens + c.hours as i64 * 3600,
        level: c.level.clone(),
        par: c.par.clone(),
        rotation: c.rotation,
        limit_s: c.limit_s,
        bank_s: c.bank_s,
        commitment: key.commitment(),
        key: Some(key.hex()),
        seed: 0,
        salt: String::new(),
        par_table: 0,
        scheduled: c.scheduled,
        announced: now,
        bots: c.bots,
    };
    let id = hall.store.create_challenge(&json(&spec)?)?;
    tracing::info!(
        challenge = id,
        deals = c.deals,
        copies = c.copies,
        par = %c.par,
        scheduled = c.scheduled,
        action = "announce_challenge",
        "challenge announced"
    );
    Ok(id)
}

/// Plays [`play_par`] on a thread of its own, unless this node is playing it already; a
/// failure is logged (the challenge stays upcoming, and the sweeper tries again after
/// [`PAR_GRACE_S`]).
pub fn play_par_in_background(hall: &Arc<Hall>, id: i64) {
    if !hall.pars.lock().expect("pars lock").insert(id) {
        return;
    }
    // Leaves the set however the thread ends (a panic included), so that a later sweep
    // may try again.
    struct Playing(Arc<Hall>, i64);
    impl Drop for Playing {
        fn drop(&mut self) {
            if let Ok(mut pars) = self.0.pars.lock() {
                pars.remove(&self.1);
            }
        }
    }
    let playing = Playing(hall.clone(), id);
    let spawned = std::thread::Builder::new()
        .name(format!("par-{id}"))
        .spawn(move || {
            if let Err(e) = play_par(&playing.0, id) {
                tracing::error!(challenge = id, error = %e, "the par was not played");
            }
        });
    if let Err(e) = spawned {
        // The closure, and with it the guard, was dropped: the id has left the set.
        tracing::error!(challenge = id, error = %e, "no thread for the par");
    }
}

/// Plays the par of challenge `id` (the par bot at each deal-seat of every copy, the
/// challenge's bots around it) and stores it, which lets the challenge open. Nothing is stored until every
/// hand is played; a challenge whose par is already in is left as it is.
pub fn play_par(hall: &Hall, id: i64) -> Result<(), PlayError> {
    let spec = load(hall, id)?.spec;
    if spec.par_table != 0 {
        return Ok(());
    }
    let key = spec.set_key().ok_or_else(|| {
        PlayError::NotFound(format!(
            "challenge {id} has no key of its deals to play its par on"
        ))
    })?;
    let started = std::time::Instant::now();
    let mut par = Vec::new();
    for i in 0..spec.set_len() {
        let deal = table::deal::Deal::generate(key.seed(i));
        for seat in Wind::ALL {
            let mut agents: [Box<dyn agents::agent::Agent + Send>; 4] = std::array::from_fn(|s| {
                let name = if s == seat.index() {
                    &spec.par
                } else {
                    &spec.level
                };
                builtin(name, key.seed(i) ^ s as u64).expect("bot levels exist")
            });
            let log = play_hand(
                Setup::Duplicate(deal.clone()),
                TableRules::seeds(),
                &mut agents,
            );
            par.push((i, seat, log));
        }
    }
    // Another node may have stored it meanwhile (a par taken up again by the sweeper).
    let mut spec = load(hall, id)?.spec;
    if spec.par_table != 0 {
        return Ok(());
    }
    let store = &hall.store;
    let table_spec = TableSpec {
        hands: Hands::Duplicate {
            deals: (0..spec.set_len())
                .map(|i| DealRef {
                    seed: key.seed(i),
                    label: spec.label(i),
                })
                .collect(),
        },
        places: std::array::from_fn(|_| Place::Bot {
            level: spec.level.clone(),
        }),
        owner: 0,
        owner_place: 0,
        limit_s: spec.limit_s,
        bank_s: spec.bank_s,
        challenge: Some(ChallengeRef {
            id,
            index: 0,
            par: true,
            copy: 0,
            copies: spec.copies,
        }),
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    };
    let table_json = json(&table_spec)?;
    let par_table = store.create_play_table(&table_json, false)?;
    for (i, seat, log) in &par {
        let result = log
            .result
            .as_ref()
            .ok_or_else(|| PlayError::Internal("a par hand did not finish".into()))?;
        let names = std::array::from_fn(|s| {
            if s == seat.index() {
                format!("par ({} bot)", spec.par)
            } else {
                format!("bot ({})", spec.level)
            }
        });
        let summary = HandSummary {
            hand_no: i * 4 + seat.index() + 1,
            label: format!("deal {}", spec.label(*i)),
            names,
            persons: [None; 4],
            places: [0, 1, 2, 3],
            points: result.points,
            outcome: result.kind,
            stood_in: [false; 4],
            bot_moves: Default::default(),
            held: None,
        };
        store.save_hand(
            par_table,
            summary.hand_no as u32,
            Some(&deal_key(id, *i, *seat)),
            &json(&summary)?,
            &json(log)?,
        )?;
    }
    store.update_play_table(par_table, &table_json, true)?;
    spec.par_table = par_table;
    store.update_challenge(id, &json(&spec)?)?;
    tracing::info!(
        challenge = id,
        deals = spec.deals,
        copies = spec.copies,
        par = %spec.par,
        seconds = started.elapsed().as_secs_f64(),
        scheduled = spec.scheduled,
        action = "publish_challenge",
        "challenge published"
    );
    Ok(())
}

pub(super) fn json<T: Serialize>(v: &T) -> Result<String, PlayError> {
    Ok(serde_json::to_string(v)?)
}

/// A person takes up deal `index` of a challenge: a table with three bots, in the seat the
/// rotation gives them, playing one of the slot's copies drawn at random among those
/// given least so far. Returns the table's id.
pub fn take_up(
    hall: &Arc<Hall>,
    id: i64,
    person: i64,
    name: &str,
    index: usize,
) -> Result<i64, PlayError> {
    let ch = load(hall, id)?;
    match ch.stage(now_s()) {
        Stage::Open => {}
        Stage::Upcoming => {
            return Err(PlayError::Invalid(format!(
                "challenge {id} has not opened yet"
            )))
        }
        _ => return Err(PlayError::Invalid(format!("challenge {id} is closed"))),
    }
    if index >= ch.spec.deals {
        return Err(PlayError::Invalid(format!(
            "deal: 1 to {}, not {}",
            ch.spec.deals,
            index + 1
        )));
    }
    if let Some(p) = ch.play_of(person, index) {
        return Err(PlayError::Invalid(format!(
            "deal {} of this challenge: you have already played it (table {})",
            index + 1,
            p.play_table
        )));
    }
    let seat = ch.seat_for(person, index);
    let mut draw = [0u8; 8];
    getrandom::fill(&mut draw)
        .map_err(|e| PlayError::Internal(format!("no randomness to draw a copy: {e}")))?;
    let copy = rules::pick_copy(&ch.taken(index), u64::from_le_bytes(draw));
    let at = ch.spec.set_index(index, copy);
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: vec![DealRef {
                seed: ch.spec.deal_seed(at),
                label: ch.spec.label(at),
            }],
        },
        places: std::array::from_fn(|p| {
            if p == seat.index() {
                Place::Person
            } else {
                Place::Bot {
                    level: ch.spec.level.clone(),
                }
            }
        }),
        owner: person,
        owner_place: seat.index(),
        limit_s: ch.spec.limit_s,
        bank_s: ch.spec.bank_s,
        challenge: Some(ChallengeRef {
            id,
            index,
            par: false,
            copy,
            copies: ch.spec.copies,
        }),
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    };
    spec.check()?;
    let journal =
        crate::room::Room::opening(&spec, &[(seat.index(), person, name.to_string())], &[])?;
    let table = hall.store.open_challenge_table(
        id,
        person,
        index as u32,
        seat.index() as u8,
        &json(&spec)?,
        &journal,
    )?;
    hall.room(table)?;
    Ok(table)
}
