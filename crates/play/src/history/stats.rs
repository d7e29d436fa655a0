//! A player's statistics and results, as their profile shows them: hands and tables,
//! IMP per hand against the field, how often they win, deal in and draw, the fans they win
//! with, their places in challenges and online events, and their last hands (with a replay
//! link only where the deal secrecy rule lets the viewer see the hand).

use std::collections::{BTreeMap, BTreeSet};

use mcr::Wind;
use store::{Person, StoreError};
use table::engine::Outcome;
use table::game::table_points;
use table::log::HandLog;
use tournament::challenge::standings;
use tournament::rating::{Holder, Rated};

use super::fields::{seats_of, Specs};

use crate::room::HandSummary;
use crate::secrecy::{hand_sight, Viewer};
use crate::spec::{Hands, TableSpec};
use crate::Hall;

/// Hands read for a profile's statistics (the newest).
const READ: usize = 5000;

/// One of a player's hands, as their lists show it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HandLine {
    /// The table and the hand's number at it.
    pub table: i64,
    /// 1-based.
    pub hand_no: u32,
    /// "deal 3", "hand 5 of 16, South round", …
    pub label: String,
    /// When it finished (UTC).
    pub at: String,
    /// The seat held.
    pub seat: char,
    /// Match points.
    pub points: i32,
    /// How it ended for them: "won", "dealt in", "draw", or "" (someone else won).
    pub ending: &'static str,
    /// IMP against the field at that deal-seat, when it was compared.
    pub imp: Option<i32>,
    /// Whether the viewer may open its replay.
    pub replay: bool,
    /// Whose play it was, when not wholly theirs ([`crate::room::Held::words`]): English with `{}` for
    /// the stand-in's level, and the level.
    pub held: Option<(&'static str, String)>,
    /// Played at a practice table: counts nowhere.
    pub practice: bool,
}

/// A regular game being added up: when, how many hands, totals by place, and whose.
#[derive(Default)]
struct Regular {
    at: String,
    played: usize,
    of: usize,
    totals: [i64; 4],
    mine: usize,
}

/// Everything a profile shows.
#[derive(Clone, Debug)]
pub struct Profile {
    /// Who.
    pub person: Person,
    /// Their duplicate rating, once rated.
    pub rated: Option<Rated>,
    /// Hands they held a seat in.
    pub hands: usize,
    /// Hands that are wholly their own play at tables that count: what the statistics
    /// below (wins, deal-ins, draws, fans) are taken over. A hand a stand-in bot chose
    /// moves in, or one played at a practice table, is left out of them.
    pub played: usize,
    /// Tables they held a seat at.
    pub tables: usize,
    /// Hands compared with a field, and the IMP over them.
    pub compared: usize,
    /// The deal-seats compared, as `<deal key>/<seat letter>` ("my games" marks them).
    pub compared_keys: BTreeSet<String>,
    /// Total IMP over the compared hands.
    pub imp: i64,
    /// Hands won, dealt into, and ended without a winner.
    pub wins: usize,
    /// Their discard won someone's hand.
    pub dealt_in: usize,
    /// Nobody won.
    pub draws: usize,
    /// The points of their wins added up.
    pub win_points: u64,
    /// The fans they won with most: (name, Chinese name, wins).
    pub fans: Vec<(String, String, usize)>,
    /// Challenges over: (id, name, place, of, IMP).
    pub challenges: Vec<(i64, String, usize, usize, i64)>,
    /// Online events: (id, name, place, of, IMP).
    pub events: Vec<(i64, String, usize, usize, i64)>,
    /// Their newest hands.
    pub last: Vec<HandLine>,
    /// Their regular games (newest first): table points, not the duplicate rating, since
    /// nobody else held their tiles.
    pub regular: Vec<RegularGame>,
}

/// One regular game a player sat at, as their record shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RegularGame {
    /// The table.
    pub table: i64,
    /// When its last stored hand finished (UTC).
    pub at: String,
    /// Hands played, of the game's hands.
    pub played: usize,
    /// Of how many.
    pub of: usize,
    /// Their score over the hands played.
    pub score: i64,
    /// Their place by score (1–4, shared places counted from the top).
    pub place: usize,
    /// Their table points (rules §8: 4 / 2 / 1 / 0, ties sharing), once every hand of the game
    /// was played; none for a game still going or abandoned.
    pub table_points: Option<f64>,
}

impl Profile {
    /// Regular games played to the end.
    pub fn regular_complete(&self) -> impl Iterator<Item = &RegularGame> {
        self.regular.iter().filter(|g| g.table_points.is_some())
    }
}

/// The IMP of every hand-seat `person` was rated at (the newest [`READ`]), by
/// `<deal key>/<seat letter>`: as their session's rating saw it, against the field then.
pub fn rated_imps(hall: &Hall, person: i64) -> Result<BTreeMap<String, i32>, StoreError> {
    Ok(hall
        .store
        .rated_hands_of(person, READ)?
        .into_iter()
        .map(|h| {
            let seat = Wind::from_index(h.seat as usize % 4).letter();
            (format!("{}/{seat}", h.deal_key), h.imp)
        })
        .collect())
}

/// The profile of `person` as `viewer` may see it; `last`: how many hands to list.
pub fn profile(
    hall: &Hall,
    person: i64,
    viewer: Viewer,
    last: usize,
) -> Result<Profile, StoreError> {
    let who = hall.store.person(person)?;
    let me = Holder::Person(person);
    // Their hands, read once; the IMP at every deal-seat they were rated at, by its key.
    let own = hall.store.hands_of_person(person, 0, READ)?;
    let imp_at = rated_imps(hall, person)?;
    // Every deal-seat of the challenges and online events they played, for their places.
    let mut specs = Specs::new();
    let mut by_challenge: BTreeMap<i64, Vec<Vec<(Holder, i32)>>> = BTreeMap::new();
    let mut by_event: BTreeMap<i64, Vec<Vec<(Holder, i32)>>> = BTreeMap::new();
    let ids = |prefix: &str| -> BTreeSet<i64> {
        imp_at
            .keys()
            .filter_map(|k| k.strip_prefix(prefix))
            .filter_map(|r| r.split(':').next()?.parse().ok())
            .collect()
    };
    for (prefix, into) in [("chal:", &mut by_challenge), ("event:", &mut by_event)] {
        for id in ids(prefix) {
            let hands = hall.store.deal_summaries(&format!("{prefix}{id}:"), true)?;
            let lists = seats_of(hall, &hands, &mut specs)
                .into_values()
                .filter(|d| d.results.len() >= 2)
                .map(|d| d.results)
                .collect();
            into.insert(id, lists);
        }
    }
    let place = |lists: &Vec<Vec<(Holder, i32)>>| {
        let st = standings(lists);
        let people = st
            .iter()
            .filter(|l| matches!(l.who, Holder::Person(_)))
            .count();
        st.iter()
            .find(|l| l.who == me)
            .map(|l| (l.rank, st.len().max(people), l.imp))
    };
    let mut challenges = Vec::new();
    for (id, lists) in &by_challenge {
        let Ok(ch) = crate::challenge::load(hall, *id) else {
            continue;
        };
        // Places only once the challenge's deals are public.
        if ch.stage(crate::challenge::now_s()) != crate::challenge::Stage::Revealed {
            continue;
        }
        if let Some((rank, of, imp)) = place(lists) {
            challenges.push((*id, ch.spec.name.clone(), rank, of, imp));
        }
    }
    let names: BTreeMap<i64, String> = hall.store.online_events()?.into_iter().collect();
    let mut events = Vec::new();
    for (id, lists) in &by_event {
        if let Some((rank, of, imp)) = place(lists) {
            let name = names
                .get(id)
                .cloned()
                .unwrap_or_else(|| format!("event {id}"));
            events.push((*id, name, rank, of, imp));
        }
    }
    let mut p = Profile {
        rated: super::kept(hall, person)?,
        hands: hall.store.hand_count_of_person(person)?,
        played: 0,
        tables: 0,
        compared: imp_at.len(),
        compared_keys: imp_at.keys().cloned().collect(),
        imp: imp_at.values().map(|&x| x as i64).sum(),
        wins: 0,
        dealt_in: 0,
        draws: 0,
        win_points: 0,
        fans: Vec::new(),
        challenges,
        events,
        last: Vec::new(),
        regular: Vec::new(),
        person: who,
    };
    let mut tables = BTreeSet::new();
    let mut fans: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut specs: BTreeMap<i64, Option<TableSpec>> = BTreeMap::new();
    let mut games: Vec<(i64, Regular)> = Vec::new();
    for (h, seat) in own {
        tables.insert(h.play_table);
        let Ok(s) = serde_json::from_str::<HandSummary>(&h.summary) else {
            continue;
        };
        let spec = specs.entry(h.play_table).or_insert_with(|| {
            hall.store
                .play_table(h.play_table)
                .ok()
                .and_then(|t| serde_json::from_str::<TableSpec>(&t.spec).ok())
        });
        let counts = spec.as_ref().is_some_and(TableSpec::counts);
        // A regular game at a practice table is no part of the record.
        if let Some(TableSpec {
            hands: Hands::Regular { hands, .. },
            ..
        }) = spec.as_ref().filter(|_| counts)
        {
            // Hands come newest first, and a person may sit at two tables at once.
            let at = match games.iter().position(|g| g.0 == h.play_table) {
                Some(i) => i,
                None => {
                    games.push((
                        h.play_table,
                        Regular {
                            at: h.at.clone(),
                            of: *hands,
                            mine: s.places[seat],
                            ..Regular::default()
                        },
                    ));
                    games.len() - 1
                }
            };
            {
                let g = &mut games[at].1;
                g.played += 1;
                for (k, &place) in s.places.iter().enumerate() {
                    g.totals[place] += s.points[k] as i64;
                }
            }
        }
        let log: Option<HandLog> = serde_json::from_str(&h.log).ok();
        let result = log.as_ref().and_then(|l| l.result.as_ref());
        let wind = Wind::from_index(seat);
        let held = s.held(seat);
        // Statistics are of their own play only: what a bot chose is not theirs.
        let own = counts && held.own_play();
        let won = result.and_then(|r| r.wins.iter().find(|w| w.seat == wind));
        let ending = match (s.outcome, won) {
            (Outcome::Draw, _) => "draw",
            (_, Some(_)) => "won",
            _ if result.and_then(|r| r.discarder) == Some(wind) => "dealt in",
            _ => "",
        };
        if own {
            p.played += 1;
            match ending {
                "draw" => p.draws += 1,
                "won" => p.wins += 1,
                "dealt in" => p.dealt_in += 1,
                _ => {}
            }
        }
        if let Some(w) = won.filter(|_| own) {
            p.win_points += w.value as u64;
            for f in &w.fans {
                let zh = mcr::Fan::from_number(f.no)
                    .map(|x| x.chinese().to_string())
                    .unwrap_or_default();
                *fans.entry((f.name.clone(), zh)).or_default() += 1;
            }
        }
        if p.last.len() < last {
            let replay = match specs.get(&h.play_table).and_then(|s| s.as_ref()) {
                Some(spec) => hand_sight(hall, h.play_table, spec, h.hand_no as usize, viewer)
                    .is_ok_and(|s| s.shown()),
                None => false,
            };
            let imp = h
                .deal_key
                .as_ref()
                .and_then(|k| imp_at.get(&format!("{k}/{}", wind.letter())).copied());
            p.last.push(HandLine {
                table: h.play_table,
                hand_no: h.hand_no,
                label: s.label.clone(),
                at: h.at.clone(),
                seat: wind.letter(),
                points: s.points[seat],
                ending,
                imp,
                replay,
                held: held.words(),
                practice: !counts,
            });
        }
    }
    p.tables = tables.len();
    for (table, g) in games {
        let complete = g.played >= g.of
            && hall
                .store
                .play_table(table)
                .map(|t| t.finished)
                .unwrap_or(false);
        let score = g.totals[g.mine];
        p.regular.push(RegularGame {
            table,
            at: g.at,
            played: g.played,
            of: g.of,
            score,
            place: 1 + g.totals.iter().filter(|&&x| x > score).count(),
            table_points: complete.then(|| table_points(g.totals)[g.mine]),
        });
    }
    let mut fans: Vec<_> = fans.into_iter().map(|((n, z), c)| (n, z, c)).collect();
    fans.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    fans.truncate(8);
    p.fans = fans;
    Ok(p)
}
