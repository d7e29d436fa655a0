//! Publishing a challenge (its deal set, commitment and the par bot's results) and
//! taking up one of its deals at a table with three bots.

use super::*;

/// Publishes a challenge: draws its deal set's key, commits to it, plays the par of
/// every deal-seat and stores it all. Returns the challenge's id.
pub fn publish(hall: &Hall, c: &NewChallenge) -> Result<i64, String> {
    c.check()?;
    let key = crate::new_key();
    let deals: Vec<table::deal::Deal> = (0..c.deals)
        .map(|i| table::deal::Deal::generate(key.seed(i)))
        .collect();
    let now = now_s();
    let opens = now + c.opens_in_h as i64 * 3600;
    let mut spec = ChallengeSpec {
        name: c.name.trim().to_string(),
        deals: c.deals,
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
    };
    // The par: for each deal and seat, the par bot there and the challenge's bots around it.
    let mut par = Vec::new();
    for (i, deal) in deals.iter().enumerate() {
        for seat in Wind::ALL {
            let mut agents: [Box<dyn agents::bots::Agent + Send>; 4] = std::array::from_fn(|s| {
                let name = if s == seat.index() { &c.par } else { &c.level };
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
    let store = &hall.store;
    let id = store
        .create_challenge(&json(&spec)?)
        .map_err(|e| e.to_string())?;
    let table_spec = TableSpec {
        hands: Hands::Duplicate {
            deals: (0..c.deals)
                .map(|i| DealRef {
                    seed: key.seed(i),
                    label: (i + 1).to_string(),
                })
                .collect(),
        },
        places: std::array::from_fn(|_| Place::Bot {
            level: c.level.clone(),
        }),
        owner: 0,
        owner_place: 0,
        limit_s: c.limit_s,
        bank_s: c.bank_s,
        challenge: Some(ChallengeRef {
            id,
            index: 0,
            par: true,
        }),
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    };
    let table_json = json(&table_spec)?;
    let par_table = store
        .create_play_table(&table_json, false)
        .map_err(|e| e.to_string())?;
    for (i, seat, log) in &par {
        let result = log.result.as_ref().ok_or("a par hand did not finish")?;
        let names = std::array::from_fn(|s| {
            if s == seat.index() {
                format!("par ({} bot)", c.par)
            } else {
                format!("bot ({})", c.level)
            }
        });
        let summary = HandSummary {
            hand_no: i * 4 + seat.index() + 1,
            label: format!("deal {}", i + 1),
            names,
            persons: [None; 4],
            places: [0, 1, 2, 3],
            points: result.points,
            outcome: result.kind,
            stood_in: [false; 4],
        };
        store
            .save_hand(
                par_table,
                summary.hand_no as u32,
                Some(&deal_key(id, *i, *seat)),
                &json(&summary)?,
                &json(log)?,
            )
            .map_err(|e| e.to_string())?;
    }
    store
        .update_play_table(par_table, &table_json, true)
        .map_err(|e| e.to_string())?;
    spec.par_table = par_table;
    store
        .update_challenge(id, &json(&spec)?)
        .map_err(|e| e.to_string())?;
    tracing::info!(
        challenge = id,
        deals = c.deals,
        scheduled = c.scheduled,
        action = "publish_challenge",
        "challenge published"
    );
    Ok(id)
}

pub(super) fn json<T: Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

/// A person takes up deal `index` of a challenge: a table with three bots, in the seat the
/// rotation gives them. Returns the table's id.
pub fn take_up(
    hall: &Arc<Hall>,
    id: i64,
    person: i64,
    name: &str,
    index: usize,
) -> Result<i64, String> {
    let ch = load(hall, id).map_err(|e| e.to_string())?;
    match ch.stage(now_s()) {
        Stage::Open => {}
        Stage::Upcoming => return Err(format!("challenge {id} has not opened yet")),
        _ => return Err(format!("challenge {id} is closed")),
    }
    if index >= ch.spec.deals {
        return Err(format!("deal: 1 to {}, not {}", ch.spec.deals, index + 1));
    }
    if let Some(p) = ch.play_of(person, index) {
        return Err(format!(
            "deal {} of this challenge: you have already played it (table {})",
            index + 1,
            p.play_table
        ));
    }
    let seat = ch.seat_for(person, index);
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: vec![DealRef {
                seed: ch.spec.deal_seed(index),
                label: (index + 1).to_string(),
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
        }),
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    };
    spec.check()?;
    let journal =
        crate::room::Room::opening(&spec, &[(seat.index(), person, name.to_string())], &[])?;
    let table = hall
        .store
        .open_challenge_table(
            id,
            person,
            index as u32,
            seat.index() as u8,
            &json(&spec)?,
            &journal,
        )
        .map_err(|e| e.to_string())?;
    hall.room(table)?;
    Ok(table)
}
