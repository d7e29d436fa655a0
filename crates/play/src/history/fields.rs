//! The deal-seats the rating compares: every stored hand under a deal key, by deal and
//! seat, with who held the seat. A challenge's hands carry their compared seat in the key
//! (the par's hands are stored under it too); an event's and an open table's compare each
//! seat. An open table's deal is usually held by one person only, so its par is added: the
//! same deal played by a `strong` bot at the person's seat and the bots they sat with at the
//! others (played once per deal and company, and kept).
//! Practice hands (deals anyone may know, or played with hints) and seats a stand-in played
//! from the start, never shown to their person, are left out.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use agents::{agent::Agent, registry::builtin};
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

/// Pars already read or computed, by deal seed and [`par_key`].
type Pars = HashMap<(u64, String), [i32; 4]>;

static PARS: Mutex<Option<Pars>> = Mutex::new(None);

/// The bot that plays the par's own seat.
pub const PAR_LEVEL: &str = "strong";

/// Under what a par is kept beside its deal's seed: the rules' name, and the bots at the
/// four seats when they are not all [`PAR_LEVEL`] (`seeds:strong,easy,easy,easy`), so
/// that pars kept before the company counted keep their key.
pub fn par_key(rules: &str, company: &[String; 4]) -> String {
    if company.iter().all(|l| l == PAR_LEVEL) {
        rules.to_string()
    } else {
        format!("{rules}:{}", company.join(","))
    }
}

/// The par of a person's seat in a hand of an open table: [`PAR_LEVEL`] at that seat, and
/// at each other seat the bot that sat there (a person's seat: [`PAR_LEVEL`]), so that
/// the company a person chose is the par's company too: three `easy` bots beside you give
/// the par the same chances they give you.
pub fn company_of(summary: &HandSummary, seat: usize) -> [String; 4] {
    std::array::from_fn(|s| match summary.persons[s] {
        _ if s == seat => PAR_LEVEL.to_string(),
        Some(_) => PAR_LEVEL.to_string(),
        None => level_of(&summary.names[s]),
    })
}

/// Match points by seat when four `strong` bots play the duplicate deal `seed` under
/// `rules`; see [`par_points_with`].
pub fn par_points(hall: &Hall, seed: u64, rules: &TableRules) -> [i32; 4] {
    par_points_with(
        hall,
        seed,
        rules,
        &std::array::from_fn(|_| PAR_LEVEL.to_string()),
    )
}

/// Match points by seat when the bots of `company` (a level by seat) play the duplicate
/// deal `seed` under `rules`, each bot's own randomness seeded from the deal and its seat
/// (`seed ^ 0x9e3779b9 × (seat + 1)`), so the par never changes: kept in the store once
/// played, so that a rebuild never plays it again.
pub fn par_points_with(
    hall: &Hall,
    seed: u64,
    rules: &TableRules,
    company: &[String; 4],
) -> [i32; 4] {
    let key = (seed, par_key(rules.name, company));
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
    let points = match hall.store.par(seed, &key.1) {
        Ok(Some(p)) => p,
        _ => {
            let mut bots: [Box<dyn Agent + Send>; 4] = std::array::from_fn(|s| {
                builtin(&company[s], seed ^ (0x9e37_79b9 * (s as u64 + 1)))
                    .or_else(|| builtin(PAR_LEVEL, seed ^ (0x9e37_79b9 * (s as u64 + 1))))
                    .expect("a built-in bot")
            });
            let (t, _) = agents::drive::play_table(Deal::generate(seed), rules.clone(), &mut bots);
            let points = t.result().map_or([0; 4], |r| r.points);
            if let Err(e) = hall.store.save_par(seed, &key.1, points) {
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

/// The par of an open table's deal (`dup:<seed>`) at each seat a person holds a result
/// at in this hand, played with the hand's own company (see [`company_of`]).
pub(super) fn pars_of(
    hall: &Hall,
    key: &str,
    spec: &TableSpec,
    summary: &HandSummary,
    seats: &[(usize, Holder, i32)],
) -> Vec<(usize, i32)> {
    let Some(seed) = key.strip_prefix("dup:").and_then(|s| s.parse::<u64>().ok()) else {
        return Vec::new();
    };
    if !matches!(spec.hands, Hands::Duplicate { .. }) {
        return Vec::new();
    }
    let rules = spec.rules();
    seats
        .iter()
        .filter(|(_, h, _)| matches!(h, Holder::Person(_)))
        .map(|&(seat, _, _)| {
            let points = par_points_with(hall, seed, &rules, &company_of(summary, seat));
            (seat, points[seat])
        })
        .collect()
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
    /// The par of its deal at each seat a person holds (open tables' deals): (seat, match
    /// points), played with the hand's company.
    pub pars: Vec<(usize, i32)>,
}

/// A stored hand as the rating reads it (none: no deal key, or unreadable).
pub(super) fn held_hand(hall: &Hall, h: &store::StoredHand, specs: &mut Specs) -> Option<HeldHand> {
    let key = h.deal_key.as_ref()?;
    let s = serde_json::from_str::<HandSummary>(&h.summary).ok()?;
    let spec = spec_of(hall, specs, h.play_table)?;
    let seats = held_seats(key, &s, &spec);
    Some(HeldHand {
        id: h.id,
        table: h.play_table,
        at: h.at.clone(),
        key: key.clone(),
        pars: pars_of(hall, key, &spec, &s, &seats),
        seats,
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
        // An open table's deal: the par at each person's seat, once (the first hand's
        // company, when people sat the same deal-seat with different bots).
        for &(seat, points) in &h.pars {
            if let Some(e) = by_seat.get_mut(&(h.key.clone(), seat)) {
                let bot = Holder::Bot(PAR_LEVEL.into());
                if !e.results.iter().any(|(h, _)| *h == bot) {
                    e.results.push((bot, points));
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
