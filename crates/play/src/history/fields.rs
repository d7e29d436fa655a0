//! The deal-seats the rating compares: every stored hand under a deal key, by deal and
//! seat, with who held the seat. A challenge's hands carry their compared seat in the key
//! (the par's hands are stored under it too); an event's and an open table's compare each
//! seat. An open table's deal is usually held by one person only, so its par is added: the
//! same deal played by four `strong` bots (computed once per deal and kept in memory).
//! Practice hands (deals anyone may know, or played with hints) and seats a stand-in played
//! from the start, never shown to their person, are left out.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use agents::bots::{builtin, Agent};
use mcr::Wind;
use store::StoreError;
use table::deal::Deal;
use table::rules::TableRules;
use tournament::rating::{DealSeat, Holder};

use crate::room::HandSummary;
use crate::spec::{Hands, TableSpec};
use crate::Hall;

/// The bot level a bot's shown name holds ("bot (strong)", "par (strong)", …).
fn level_of(name: &str) -> String {
    crate::spec::BOT_LEVELS
        .into_iter()
        .find(|l| name.contains(l))
        .unwrap_or("medium")
        .to_string()
}

/// Pars already read or computed, by deal seed and rules.
type Pars = HashMap<(u64, String), [i32; 4]>;

static PARS: Mutex<Option<Pars>> = Mutex::new(None);

/// Match points by seat when four `strong` bots play the duplicate deal `seed` under
/// `rules` (each bot's own randomness seeded from the deal, so the par never changes):
/// kept in the store once played, so that a rebuild never plays it again.
pub fn par_points(hall: &Hall, seed: u64, rules: &TableRules) -> [i32; 4] {
    let key = (seed, rules.name.to_string());
    let cached = |k: &(u64, String)| {
        PARS.lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert_with(HashMap::new)
            .get(k)
            .copied()
    };
    if let Some(p) = cached(&key) {
        return p;
    }
    let points = match hall.store.par(seed, rules.name) {
        Ok(Some(p)) => p,
        _ => {
            let mut bots: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| {
                builtin("strong", seed ^ (0x9e37_79b9 * (s as u64 + 1))).expect("a built-in bot")
            });
            let (t, _) = agents::play::play_table(Deal::generate(seed), rules.clone(), &mut bots);
            let points = t.result().map_or([0; 4], |r| r.points);
            if let Err(e) = hall.store.save_par(seed, rules.name, points) {
                tracing::warn!("keeping the par of deal {seed}: {e}");
            }
            points
        }
    };
    PARS.lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, points);
    points
}

/// The session a hand under `key` at `table` is rated in: its event's deal, else its
/// table (kept ratings are updated once per session, docs/rating.md).
pub fn session_of(key: &str, table: i64) -> String {
    match key.strip_prefix("event:") {
        Some(rest) => format!("event:{rest}"),
        None => format!("table:{table}"),
    }
}

/// Table specs read once per table.
pub(super) type Specs = HashMap<i64, Option<Arc<TableSpec>>>;

/// Most tables' settings the hall keeps for the history (then it starts again).
const SPECS_KEPT: usize = 200_000;

pub(super) fn spec_of(hall: &Hall, specs: &mut Specs, table: i64) -> Option<Arc<TableSpec>> {
    specs
        .entry(table)
        .or_insert_with(|| {
            let kept = hall
                .specs
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&table)
                .cloned();
            if kept.is_some() {
                return kept;
            }
            let spec = hall
                .store
                .play_table(table)
                .ok()
                .and_then(|t| serde_json::from_str::<TableSpec>(&t.spec).ok())
                .map(Arc::new)?;
            let mut all = hall.specs.lock().unwrap_or_else(|p| p.into_inner());
            if all.len() >= SPECS_KEPT {
                all.clear();
            }
            all.insert(table, spec.clone());
            Some(spec)
        })
        .clone()
}

/// The deal-seats a stored hand holds a result at: (seat, holder, match points). None
/// for a practice table's hand; a challenge's hand holds its compared seat only; a seat a
/// stand-in played from the start, never shown to its person, holds nothing (rules in
/// `room::Held`).
pub(super) fn held_seats(
    key: &str,
    s: &HandSummary,
    spec: &TableSpec,
) -> Vec<(usize, Holder, i32)> {
    if !spec.counts() {
        return Vec::new();
    }
    let seats: Vec<usize> = match key.strip_prefix("chal:") {
        Some(rest) => rest
            .rsplit(':')
            .next()
            .and_then(|x| x.parse().ok())
            .into_iter()
            .collect(),
        None => (0..4).collect(),
    };
    seats
        .into_iter()
        .filter(|&seat| seat <= 3 && s.held(seat).rated())
        .map(|seat| {
            let holder = match s.persons[seat] {
                Some(p) => Holder::Person(p),
                None => Holder::Bot(level_of(&s.names[seat])),
            };
            (seat, holder, s.points[seat])
        })
        .collect()
}

/// The par of an open table's deal (`dup:<seed>`), by seat.
pub(super) fn par_of(hall: &Hall, key: &str, spec: &TableSpec) -> Option<[i32; 4]> {
    let seed = key.strip_prefix("dup:")?.parse::<u64>().ok()?;
    matches!(spec.hands, Hands::Duplicate { .. }).then(|| par_points(hall, seed, &spec.rules()))
}

/// What one stored hand holds for the rating, read once: the deal-seats it holds a result
/// at and, for an open table's deal, the par.
#[derive(Clone, Debug)]
pub(super) struct HeldHand {
    /// The stored hand's number.
    pub id: i64,
    /// Its table.
    pub table: i64,
    /// When it finished.
    pub at: String,
    /// Its deal key.
    pub key: String,
    /// (seat, holder, match points) of each deal-seat it holds.
    pub seats: Vec<(usize, Holder, i32)>,
    /// The par of its deal, by seat (open tables' deals).
    pub par: Option<[i32; 4]>,
}

/// A stored hand as the rating reads it (none: no deal key, or unreadable).
pub(super) fn held_hand(hall: &Hall, h: &store::StoredHand, specs: &mut Specs) -> Option<HeldHand> {
    let key = h.deal_key.as_ref()?;
    let s = serde_json::from_str::<HandSummary>(&h.summary).ok()?;
    let spec = spec_of(hall, specs, h.play_table)?;
    Some(HeldHand {
        id: h.id,
        table: h.play_table,
        at: h.at.clone(),
        key: key.clone(),
        seats: held_seats(key, &s, &spec),
        par: par_of(hall, key, &spec),
    })
}

/// The deal-seats of `hands` (oldest first), each with its holders, keyed by (deal key,
/// seat).
pub(super) fn seats_from<'a>(
    hands: impl IntoIterator<Item = &'a HeldHand>,
) -> BTreeMap<(String, usize), DealSeat> {
    let mut by_seat: BTreeMap<(String, usize), DealSeat> = BTreeMap::new();
    for h in hands {
        for (seat, holder, points) in &h.seats {
            let e = by_seat
                .entry((h.key.clone(), *seat))
                .or_insert_with(|| DealSeat {
                    at: h.at.clone(),
                    key: format!("{}/{}", h.key, Wind::from_index(*seat).letter()),
                    session: session_of(&h.key, h.table),
                    results: Vec::new(),
                });
            if h.at > e.at {
                e.at = h.at.clone();
            }
            e.results.push((holder.clone(), *points));
        }
        // An open table's deal: the par at every seat, once.
        if let Some(par) = h.par {
            for (seat, points) in par.iter().enumerate() {
                if let Some(e) = by_seat.get_mut(&(h.key.clone(), seat)) {
                    let bot = Holder::Bot("strong".into());
                    if !e.results.iter().any(|(h, _)| *h == bot) {
                        e.results.push((bot, *points));
                    }
                }
            }
        }
    }
    by_seat
}

/// The deal-seats of `hands` (stored hands, oldest first), each with its holders, keyed by
/// (deal key, seat).
pub(super) fn seats_of(
    hall: &Hall,
    hands: &[store::StoredHand],
    specs: &mut Specs,
) -> BTreeMap<(String, usize), DealSeat> {
    let held: Vec<HeldHand> = hands
        .iter()
        .filter_map(|h| held_hand(hall, h, specs))
        .collect();
    seats_from(&held)
}

/// Every deal-seat with two holders or more, from the stored hands.
pub fn deal_seats(hall: &Hall) -> Result<Vec<DealSeat>, StoreError> {
    let hands = hall.store.compared_hands()?;
    let mut specs = Specs::new();
    Ok(seats_of(hall, &hands, &mut specs)
        .into_values()
        .filter(|d| d.results.len() >= 2)
        .collect())
}
