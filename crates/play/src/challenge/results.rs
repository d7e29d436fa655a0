//! A challenge's results: every player's hand at one deal-seat beside the par, and
//! how each hand ended, as much as the stage of the challenge allows to be shown.

use super::{deal_key, Hall, HandLog, HandSummary, HashMap, Loaded, StoredHand, Who, Wind};

/// One result at a deal-seat, as shown.
pub struct Shown {
    /// Whose result it is.
    pub who: Who,
    /// Their name as shown.
    pub name: String,
    /// The hand as stored.
    pub hand: StoredHand,
    /// Match points of that seat.
    pub ms: i32,
}

impl Shown {
    /// The hand's log, read only where a page shows the hand itself (standings need none).
    pub fn log(&self) -> Option<HandLog> {
        serde_json::from_str(&self.hand.log).ok()
    }
}

/// Every finished result at a deal-seat: the par and each person who played it. `index`
/// is the deal's place in the set (the slot, with one copy): each copy has results of its
/// own.
pub fn results_at(
    hall: &Hall,
    id: i64,
    index: usize,
    seat: Wind,
    names: &mut HashMap<i64, String>,
) -> Result<Vec<Shown>, store::StoreError> {
    let hands = hall
        .store
        .hands_of_deal(&deal_key(id, index, seat), usize::MAX >> 1)?;
    let mut out = Vec::new();
    for h in hands {
        let Ok(s) = serde_json::from_str::<HandSummary>(&h.summary) else {
            continue;
        };
        let s_i = seat.index();
        let (who, name) = match s.persons[s_i] {
            Some(p) => {
                let name = match names.get(&p) {
                    Some(n) => n.clone(),
                    None => {
                        let n = crate::names::shown(&hall.store.person(p)?);
                        names.insert(p, n.clone());
                        n
                    }
                };
                (Who::Person(p), name)
            }
            None => (Who::Par, s.names[s_i].clone()),
        };
        out.push(Shown {
            who,
            name,
            ms: s.points[s_i],
            hand: h,
        });
    }
    Ok(out)
}

/// Results of every deal-seat that at least one person has finished, as (who, ms) lists:
/// each copy of each slot compared within itself.
pub fn deal_seats(
    hall: &Hall,
    ch: &Loaded,
    names: &mut HashMap<i64, String>,
) -> Result<Vec<Vec<(Who, i32)>>, store::StoreError> {
    deal_seats_of(hall, ch, None, names)
}

/// [`deal_seats`] of one copy only (`Some(c)`: copy c of every slot), or of all.
pub fn deal_seats_of(
    hall: &Hall,
    ch: &Loaded,
    copy: Option<usize>,
    names: &mut HashMap<i64, String>,
) -> Result<Vec<Vec<(Who, i32)>>, store::StoreError> {
    let mut out = Vec::new();
    for i in 0..ch.spec.set_len() {
        if copy.is_some_and(|c| tournament::challenge::slot_copy(i, ch.spec.copies).1 != c) {
            continue;
        }
        for seat in Wind::ALL {
            let r = results_at(hall, ch.id, i, seat, names)?;
            if r.iter().any(|s| s.who != Who::Par) {
                out.push(r.iter().map(|s| (s.who, s.ms)).collect());
            }
        }
    }
    Ok(out)
}

/// How a logged hand ended, in words: who won, how, for how much, with which fans.
pub fn ending(log: &HandLog) -> String {
    let Some(r) = &log.result else {
        return "not finished".into();
    };
    if r.wins.is_empty() {
        return "draw".into();
    }
    r.wins
        .iter()
        .map(|w| {
            let how = if w.self_drawn {
                "self-drawn".to_string()
            } else {
                match r.discarder {
                    Some(d) => format!("on {}'s discard", crate::room::wind_name(d)),
                    None => "on a discard".to_string(),
                }
            };
            format!(
                "{} won {} {how}: {}",
                crate::room::wind_name(w.seat),
                w.value,
                w.fan_list("×")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
