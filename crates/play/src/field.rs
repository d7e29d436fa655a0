//! The field explorer: everyone who held the same deal-seat as a hand, and at each of
//! that hand's decisions, who reached the same position (the same concealed tiles and
//! melds, at the same point of the seat's wall, asked the same thing), what each did
//! there and the IMP each finished the deal with. Duplicate's gift: the other branches
//! were really played, on the same tiles.
//!
//! [`explore`] works on logs alone; [`field_of`] gathers the holders from the store. The
//! route that shows it asks the secrecy rule first: the field shows every holder's
//! tiles.

use std::collections::HashMap;

use mcr::Wind;
use serde::Serialize;
use table::engine::Action;
use table::log::{start_of, HandLog, ReplayError};

use crate::room::{HandSummary, Held};
use crate::{Hall, PlayError};

/// Most holders a field reads (the newest hands under the deal first).
pub const MAX_HOLDERS: usize = 1000;

/// Who held the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HolderKind {
    /// A person, their own play.
    Person,
    /// A person's seat a stand-in bot played from the start, unseen by them.
    StandIn,
    /// A bot at an open table or an event.
    Bot,
    /// A challenge's par.
    Par,
}

/// One holder of the deal-seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Holder {
    /// Their name as shown.
    pub name: String,
    /// What kind of player.
    pub kind: HolderKind,
    /// The hand explored.
    pub me: bool,
    /// Where they played it.
    pub table: i64,
    /// Its number at that table.
    pub hand: u32,
    /// Their match points at the seat.
    pub ms: i32,
    /// Their IMP against the field's average (rules §5).
    pub imp: i32,
}

/// Holders at one position who made the same move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Branch {
    /// The move.
    pub action: Action,
    /// Who made it (indices into [`Field::holders`]).
    pub holders: Vec<usize>,
    /// Their average IMP.
    pub mean_imp: f64,
}

/// One decision of the explored hand, and the field there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moment {
    /// The decision's number in the hand's log (1-based, as the review's).
    pub index: usize,
    /// The move made in the explored hand.
    pub played: Action,
    /// How the holders who reached this position split, the most followed move first;
    /// together they are every holder who reached it, the explored hand included.
    pub branches: Vec<Branch>,
}

/// Where the explored hand and a holder who scored better first went different ways.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Parting {
    /// The holder (index into [`Field::holders`]).
    pub holder: usize,
    /// The explored hand's decision where it happened.
    pub index: usize,
    /// What the holder did there: `None` when they never reached the position (the play
    /// of the other seats, or a move of theirs where the explored hand was not asked,
    /// had already taken them elsewhere).
    pub theirs: Option<Action>,
}

/// The field of one deal-seat, seen from one hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// The seat.
    pub seat: Wind,
    /// Every holder, the explored hand among them.
    pub holders: Vec<Holder>,
    /// The explored hand's decisions in order.
    pub moments: Vec<Moment>,
    /// For each holder with more IMP than the explored hand: where it parted.
    pub partings: Vec<Parting>,
}

/// Everything that makes two holders' positions the same, written as a key.
type Position = String;

/// Each decision `seat` made in `log`, with its number and the position it was made in.
fn positions(log: &HandLog, seat: Wind) -> Result<Vec<(usize, Position, Action)>, ReplayError> {
    let mut table = start_of(log)?;
    let mut out = Vec::new();
    for (i, d) in log.actions.iter().enumerate() {
        if d.seat == seat {
            let v = table.view(seat);
            let s = seat.index();
            let key = format!(
                "{}|{:?}|{:?}|{:?}",
                v.wall_left[s],
                v.hand.counts(),
                v.melds[s],
                v.decision
            );
            out.push((i + 1, key, d.action));
        }
        table
            .apply(d.seat, d.action)
            .map_err(|e| ReplayError(format!("action {} ({} {}): {e}", i + 1, d.seat, d.action)))?;
    }
    Ok(out)
}

/// The field of `seat` seen from `holders[me]`: each holder with their log, if kept (an
/// open table's par keeps its result only). A holder's log that does not replay is left
/// out of the positions (it still has its result).
pub fn explore(
    seat: Wind,
    holders: Vec<Holder>,
    logs: &[Option<HandLog>],
    me: usize,
) -> Result<Field, ReplayError> {
    let mine_log = logs[me]
        .as_ref()
        .ok_or_else(|| ReplayError("the explored hand has no log".into()))?;
    let mine = positions(mine_log, seat)?;
    let theirs: Vec<HashMap<Position, Action>> = logs
        .iter()
        .map(|l| {
            let mut at = HashMap::new();
            let seen = l.as_ref().and_then(|l| positions(l, seat).ok());
            for (_, key, a) in seen.unwrap_or_default() {
                at.entry(key).or_insert(a);
            }
            at
        })
        .collect();
    let mut moments = Vec::new();
    for (index, key, played) in &mine {
        let mut branches: Vec<Branch> = Vec::new();
        for (h, at) in theirs.iter().enumerate() {
            let Some(&action) = at.get(key) else { continue };
            match branches.iter_mut().find(|b| b.action == action) {
                Some(b) => b.holders.push(h),
                None => branches.push(Branch {
                    action,
                    holders: vec![h],
                    mean_imp: 0.0,
                }),
            }
        }
        for b in &mut branches {
            let sum: i32 = b.holders.iter().map(|&h| holders[h].imp).sum();
            b.mean_imp = sum as f64 / b.holders.len() as f64;
        }
        branches.sort_by_key(|b| std::cmp::Reverse(b.holders.len()));
        moments.push(Moment {
            index: *index,
            played: *played,
            branches,
        });
    }
    let partings = (0..holders.len())
        .filter(|&h| holders[h].imp > holders[me].imp)
        .filter_map(|h| {
            mine.iter()
                .find_map(|(index, key, played)| match theirs[h].get(key) {
                    Some(a) if a == played => None,
                    other => Some(Parting {
                        holder: h,
                        index: *index,
                        theirs: other.copied(),
                    }),
                })
        })
        .collect();
    Ok(Field {
        seat,
        holders,
        moments,
        partings,
    })
}

/// The field of `seat` of the stored hand `h`, gathered from every hand kept under its
/// deal key (none for a hand whose deal was dealt at its table only, as a regular game's).
/// The caller has asked the secrecy rule.
pub fn field_of(
    hall: &Hall,
    h: &store::StoredHand,
    seat: Wind,
) -> Result<Option<Field>, PlayError> {
    let (table, hand_no) = (h.play_table, h.hand_no);
    let Some(key) = h.deal_key.clone() else {
        return Ok(None);
    };
    let mut holders = Vec::new();
    let mut logs = Vec::new();
    let mut names: HashMap<i64, String> = HashMap::new();
    let mut me = None;
    // An open table's deal is compared with its par too (as the rating does): `strong` at
    // the person's seat with the company they had, played once and kept.
    let par = match key.strip_prefix("dup:").and_then(|x| x.parse::<u64>().ok()) {
        Some(seed) => {
            let spec: crate::spec::TableSpec =
                serde_json::from_str(&hall.store.play_table(table)?.spec)
                    .map_err(|e| PlayError::Internal(format!("table {table}: {e}")))?;
            Some((seed, spec.rules()))
        }
        None => None,
    };
    let mut field = hall.store.hands_of_deal(&key, MAX_HOLDERS)?;
    if !field.iter().any(|o| o.id == h.id) {
        field.push(h.clone());
    }
    for other in field {
        let (Ok(s), Ok(log)) = (
            serde_json::from_str::<HandSummary>(&other.summary),
            serde_json::from_str::<HandLog>(&other.log),
        ) else {
            continue;
        };
        let w = seat.index();
        let kind = match (s.persons[w], s.held(w)) {
            (Some(_), Held::Unseen { .. }) => HolderKind::StandIn,
            (Some(_), _) => HolderKind::Person,
            (None, _) if key.starts_with("chal:") => HolderKind::Par,
            (None, _) => HolderKind::Bot,
        };
        let name = match s.persons[w] {
            Some(p) => match names.get(&p) {
                Some(n) => n.clone(),
                None => {
                    let n = crate::names::shown(&hall.store.person(p)?);
                    names.insert(p, n.clone());
                    n
                }
            },
            None => s.names[w].clone(),
        };
        if other.id == h.id {
            me = Some(holders.len());
        }
        holders.push(Holder {
            name,
            kind,
            me: other.id == h.id,
            table: other.play_table,
            hand: other.hand_no,
            ms: s.points[w],
            imp: 0,
        });
        logs.push(Some(log));
        if let (Some((seed, rules)), HolderKind::Person) = (&par, kind) {
            let company = crate::history::company_of(&s, w);
            let points = crate::history::par_points_with(hall, *seed, rules, &company);
            holders.push(Holder {
                name: format!("par ({})", crate::history::PAR_LEVEL),
                kind: HolderKind::Par,
                me: false,
                table: other.play_table,
                hand: other.hand_no,
                ms: points[w],
                imp: 0,
            });
            logs.push(None);
        }
    }
    let Some(me) = me else {
        return Err(PlayError::Internal(format!(
            "hand {hand_no} of table {table}: its summary or log does not read"
        )));
    };
    let list: Vec<(usize, i32)> = holders.iter().map(|h| h.ms).enumerate().collect();
    for s in tournament::challenge::compare(&list) {
        holders[s.who].imp = s.imp;
    }
    explore(seat, holders, &logs, me)
        .map(Some)
        .map_err(|e| PlayError::Internal(format!("hand {hand_no} of table {table}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::deal::Deal;
    use table::rules::TableRules;

    /// East of deal `seed` played by four companies: `strong` (twice, the same seeds: the
    /// same play), `medium`, `random`. Holders' match points are East's.
    fn holders(seed: u64) -> (Vec<Holder>, Vec<Option<HandLog>>) {
        let mut holders = Vec::new();
        let mut logs = Vec::new();
        for (i, level) in ["strong", "strong", "medium", "random"].iter().enumerate() {
            let mut four = std::array::from_fn(|s| {
                agents::registry::builtin(level, 40 + s as u64).expect("a built-in bot")
            });
            let log =
                agents::drive::play_hand(Deal::generate(seed), TableRules::seeds(), &mut four);
            let ms = log.result.as_ref().map_or(0, |r| r.points[0]);
            holders.push(Holder {
                name: format!("{level} {i}"),
                kind: HolderKind::Bot,
                me: i == 0,
                table: i as i64 + 1,
                hand: 1,
                ms,
                imp: 0,
            });
            logs.push(Some(log));
        }
        let list: Vec<(usize, i32)> = holders.iter().map(|h| h.ms).enumerate().collect();
        for s in tournament::challenge::compare(&list) {
            holders[s.who].imp = s.imp;
        }
        (holders, logs)
    }

    /// At every decision the branches are exactly the holders who reached the position,
    /// the explored hand in the branch of its own move; everyone starts at the same
    /// position; a holder who played the same moves is in every branch of yours and never
    /// parts from you; a better holder parts where their move or position differs.
    #[test]
    fn branches_add_up_to_the_holders_who_reached_each_position() {
        // The first deal where East's results differ.
        let (holders, logs) = (1..50)
            .map(holders)
            .find(|(h, _)| h.iter().any(|x| x.imp != h[0].imp))
            .expect("a deal East's holders score differently on");
        let f = explore(Wind::East, holders.clone(), &logs, 0).unwrap();
        let east = logs[0]
            .as_ref()
            .unwrap()
            .actions
            .iter()
            .filter(|d| d.seat == Wind::East)
            .count();
        assert_eq!(f.moments.len(), east);
        let reached = |m: &Moment| m.branches.iter().map(|b| b.holders.len()).sum::<usize>();
        assert_eq!(
            reached(&f.moments[0]),
            4,
            "the first decision is everyone's"
        );
        for m in &f.moments {
            let mut all: Vec<usize> = m.branches.iter().flat_map(|b| b.holders.clone()).collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), reached(m), "a holder in one branch only");
            let mine = m.branches.iter().find(|b| b.holders.contains(&0)).unwrap();
            assert_eq!(mine.action, m.played);
            assert!(
                mine.holders.contains(&1),
                "the same play reaches the same places"
            );
            for b in &m.branches {
                let sum: i32 = b.holders.iter().map(|&h| holders[h].imp).sum();
                assert_eq!(b.mean_imp, sum as f64 / b.holders.len() as f64);
            }
        }
        assert!(f.partings.iter().all(|p| p.holder != 1));
        for p in &f.partings {
            assert!(holders[p.holder].imp > holders[0].imp);
            let m = f.moments.iter().find(|m| m.index == p.index).unwrap();
            match p.theirs {
                Some(a) => {
                    assert_ne!(a, m.played);
                    assert!(m
                        .branches
                        .iter()
                        .any(|b| b.action == a && b.holders.contains(&p.holder)));
                }
                None => assert!(m.branches.iter().all(|b| !b.holders.contains(&p.holder))),
            }
        }
        // Explored from the random bot's hand, the better holders part from it somewhere.
        let worst = (0..4).min_by_key(|&h| holders[h].imp).unwrap();
        let f = explore(Wind::East, holders.clone(), &logs, worst).unwrap();
        let better = holders
            .iter()
            .filter(|h| h.imp > holders[worst].imp)
            .count();
        assert_eq!(f.partings.len(), better);
        assert!(better > 0, "{holders:?}");
        assert!(
            f.moments.iter().any(|m| m.branches.len() > 1),
            "somewhere the holders split"
        );
    }
}
