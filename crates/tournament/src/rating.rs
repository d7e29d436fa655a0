//! One rating over duplicate play (docs/rating.md).
//!
//! The unit of comparison is a **deal-seat**: everyone who held the same tiles at the same
//! seat of the same deal (people, and bots such as a challenge's par). Its results, ranked
//! by match points (equal points share a rank), are one free-for-all game of the Weng-Lin
//! Bayesian rating (the `skillratings` crate's `weng_lin_multi_team`, each holder a team of
//! one). Duplicate has already removed the luck of the tiles from that ranking, so what is
//! left to rate is play.
//!
//! Bots are the scale's fixed points: a bot holder enters every game at its anchor rating
//! and is never moved, as a chess site's engine levels are. Deal-seats are taken in the
//! order their last result arrived; the whole rating is a function of the stored results,
//! so it can be rebuilt at any time.

use std::collections::BTreeMap;

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// Who held a deal-seat.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holder {
    /// A person, by number.
    Person(i64),
    /// A built-in bot, by level ("strong", …).
    Bot(String),
}

/// One deal-seat's results: who held it and their match points.
#[derive(Clone, Debug)]
pub struct DealSeat {
    /// When its last result arrived (any text that sorts in time order, e.g. ISO 8601).
    pub at: String,
    /// What it is, for the history ("chal:3:5:1" …).
    pub key: String,
    /// The session it was played in: deals played together (a challenge, an event, a
    /// table), rated as one game.
    pub session: String,
    /// Each holder's match points.
    pub results: Vec<(Holder, i32)>,
}

/// One rated game: holders ranked by a score (higher is better; equal scores share a
/// rank).
#[derive(Clone, Debug)]
pub struct Game {
    /// When it ended (sorts in time order).
    pub at: String,
    /// What it is.
    pub key: String,
    /// Each holder's score and the hands it rests on.
    pub scores: Vec<(Holder, f64, usize)>,
}

/// Each deal-seat a game of its own, ranked by match points.
pub fn deal_games(seats: &[DealSeat]) -> Vec<Game> {
    seats
        .iter()
        .map(|d| Game {
            at: d.at.clone(),
            key: d.key.clone(),
            scores: d
                .results
                .iter()
                .map(|(h, p)| (h.clone(), *p as f64, 1))
                .collect(),
        })
        .collect()
}

/// The games of duplicate play: the deal-seats grouped into their sessions (a
/// challenge, an event, a table: deals played together), each holder
/// scored by their IMP per hand over the session's deal-seats they held, every IMP against
/// everyone who held that deal-seat (rules §5). A session's result is the sum of what its
/// deals said, so by how much a deal went counts, not only who did better.
pub fn sessions(seats: &[DealSeat]) -> Vec<Game> {
    // By session: when it ended, and each holder's IMP and hands.
    type Totals = BTreeMap<Holder, (i64, usize)>;
    let mut by: BTreeMap<String, (String, Totals)> = BTreeMap::new();
    for ds in seats {
        let mut results: Vec<(Holder, i32)> = Vec::new();
        for r in &ds.results {
            if !results.iter().any(|x| x.0 == r.0) {
                results.push(r.clone());
            }
        }
        if results.len() < 2 {
            continue;
        }
        let e = by
            .entry(ds.session.clone())
            .or_insert_with(|| (ds.at.clone(), BTreeMap::new()));
        e.0 = e.0.clone().max(ds.at.clone());
        for sc in crate::challenge::compare(&results) {
            let t = e.1.entry(sc.who).or_default();
            t.0 += sc.imp as i64;
            t.1 += 1;
        }
    }
    by.into_iter()
        .map(|(key, (at, totals))| Game {
            at,
            key,
            scores: totals
                .into_iter()
                .map(|(h, (imp, n))| (h, imp as f64 / n as f64, n))
                .collect(),
        })
        .collect()
}

/// The bots' fixed ratings: (level, rating). Measured by `dupmj rating --anchors --deals
/// 4000` (the four levels holding every seat of the same deals, rated freely in sessions
/// of 8 deals, then shifted so that `medium` is 25, a newcomer's start; docs/rating.md),
/// except `expert`'s: strong's plus its arena edge over strong (+0.38 IMP/hand over 1,442
/// fresh deals, +0.41 over 1,817 since, docs/expert.md) at the rate strong stands above
/// medium (1.6 for +0.63 IMP/hand), an estimate until it is measured the same way (hours
/// with a searching bot at every table).
pub const ANCHORS: [(&str, f64); 5] = [
    ("random", -26.7),
    ("easy", 6.6),
    ("medium", 25.0),
    ("strong", 26.6),
    ("expert", 27.6),
];

/// The uncertainty a bot enters a game with: small, since it is measured and never moves.
pub const ANCHOR_UNCERTAINTY: f64 = 0.5;

/// How much one game's result varies around what the ratings predict (Weng-Lin's β).
pub const BETA: f64 = 25.0 / 6.0;

/// Rated hands under which a rating is provisional.
pub const PROVISIONAL_HANDS: usize = 20;

/// A person's rating after some deal-seats.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The Weng-Lin mean.
    pub rating: f64,
    /// Its standard deviation.
    pub uncertainty: f64,
    /// Rated hands (deal-seats) it rests on.
    pub hands: usize,
    /// After each deal-seat: (when, rating, uncertainty).
    pub history: Vec<(String, f64, f64)>,
}

impl Rated {
    /// Fewer rated hands than [`PROVISIONAL_HANDS`].
    pub fn provisional(&self) -> bool {
        self.hands < PROVISIONAL_HANDS
    }
}

/// The anchor of a bot level (unknown levels count as `medium`).
pub fn anchor(level: &str) -> f64 {
    ANCHORS
        .iter()
        .find(|(l, _)| *l == level)
        .map_or(ANCHORS[2].1, |(_, r)| *r)
}

/// Rates every person over `games` (any order: they are sorted by `at`, then key).
/// `free_bots`: bots are rated like people too (to measure the anchors).
pub fn rate(games: &[Game], free_bots: bool) -> BTreeMap<Holder, Rated> {
    let config = WengLinConfig {
        beta: BETA,
        ..WengLinConfig::new()
    };
    let mut order: Vec<&Game> = games.iter().collect();
    order.sort_by(|a, b| a.at.cmp(&b.at).then(a.key.cmp(&b.key)));
    let mut out: BTreeMap<Holder, Rated> = BTreeMap::new();
    for seat in order {
        // One score per holder.
        let mut results: Vec<&(Holder, f64, usize)> = Vec::new();
        for r in &seat.scores {
            if !results.iter().any(|x| x.0 == r.0) {
                results.push(r);
            }
        }
        if results.len() < 2 || results.iter().all(|r| matches!(r.0, Holder::Bot(_))) && !free_bots
        {
            continue;
        }
        let moves = |h: &Holder| free_bots || matches!(h, Holder::Person(_));
        let before: Vec<WengLinRating> = results
            .iter()
            .map(|(h, ..)| match (h, moves(h)) {
                (Holder::Bot(level), false) => WengLinRating {
                    rating: anchor(level),
                    uncertainty: ANCHOR_UNCERTAINTY,
                },
                _ => out
                    .get(h)
                    .map_or_else(WengLinRating::new, |r| WengLinRating {
                        rating: r.rating,
                        uncertainty: r.uncertainty,
                    }),
            })
            .collect();
        // Rank 1 is the best score; equal scores share a rank.
        let ranks: Vec<usize> = results
            .iter()
            .map(|(_, p, _)| 1 + results.iter().filter(|(_, q, _)| q > p).count())
            .collect();
        let teams: Vec<[WengLinRating; 1]> = before.iter().map(|r| [*r]).collect();
        let game: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&ranks)
            .map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r)))
            .collect();
        let after = weng_lin_multi_team(&game, &config);
        for ((h, _, n), new) in results.iter().zip(after) {
            if !moves(h) {
                continue;
            }
            let e = out.entry(h.clone()).or_insert(Rated {
                rating: 0.0,
                uncertainty: 0.0,
                hands: 0,
                history: Vec::new(),
            });
            e.rating = new[0].rating;
            e.uncertainty = new[0].uncertainty;
            e.hands += n;
            e.history.push((seat.at.clone(), e.rating, e.uncertainty));
        }
    }
    out
}

/// Kendall's tau-b between two rankings of the same items (1 when they agree, −1 when
/// one is the other reversed); pairs tied in both count for neither.
pub fn kendall_tau(a: &[f64], b: &[f64]) -> f64 {
    let (mut concordant, mut discordant, mut tie_a, mut tie_b) = (0f64, 0f64, 0f64, 0f64);
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            let x = (a[i] - a[j]).signum() * f64::from(a[i] != a[j]);
            let y = (b[i] - b[j]).signum() * f64::from(b[i] != b[j]);
            match (x == 0.0, y == 0.0) {
                (true, true) => {}
                (true, false) => tie_a += 1.0,
                (false, true) => tie_b += 1.0,
                (false, false) if x == y => concordant += 1.0,
                _ => discordant += 1.0,
            }
        }
    }
    let n0 = concordant + discordant;
    ((n0 + tie_a) * (n0 + tie_b)).sqrt().recip() * (concordant - discordant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(at: &str, results: &[(Holder, i32)]) -> DealSeat {
        DealSeat {
            at: at.into(),
            key: at.into(),
            session: at.into(),
            results: results.to_vec(),
        }
    }

    #[test]
    fn beating_a_bot_raises_and_losing_lowers_and_the_bot_never_moves() {
        let strong = || Holder::Bot("strong".into());
        let won = rate(
            &deal_games(&[seat("1", &[(Holder::Person(1), 24), (strong(), -8)])]),
            false,
        );
        let lost = rate(
            &deal_games(&[seat("1", &[(Holder::Person(1), -8), (strong(), 24)])]),
            false,
        );
        let tie = rate(
            &deal_games(&[seat("1", &[(Holder::Person(1), 0), (strong(), 0)])]),
            false,
        );
        let start = WengLinRating::new();
        assert!(won[&Holder::Person(1)].rating > start.rating);
        assert!(lost[&Holder::Person(1)].rating < start.rating);
        // A draw with a bot rated above 25 is better than expected: up, a little.
        let t = tie[&Holder::Person(1)].rating;
        assert!(
            t > start.rating && t < won[&Holder::Person(1)].rating,
            "{t}"
        );
        assert!(!won.contains_key(&strong()), "a bot is not rated");
        // Every game makes the person's rating surer.
        assert!(won[&Holder::Person(1)].uncertainty < start.uncertainty);
    }

    #[test]
    fn a_deal_seat_held_by_one_or_by_bots_only_rates_nobody() {
        let r = rate(
            &deal_games(&[
                seat("1", &[(Holder::Person(1), 8)]),
                seat("2", &[(Holder::Person(1), 8), (Holder::Person(1), -8)]),
                seat(
                    "3",
                    &[
                        (Holder::Bot("easy".into()), 8),
                        (Holder::Bot("strong".into()), 0),
                    ],
                ),
            ]),
            false,
        );
        assert!(r.is_empty(), "{r:?}");
    }

    #[test]
    fn kendall_tau_of_known_orders() {
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), 1.0);
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
        // One discordant pair of three: (2 − 1) / 3.
        let t = kendall_tau(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0]);
        assert!((t - 1.0 / 3.0).abs() < 1e-12, "{t}");
    }
}
