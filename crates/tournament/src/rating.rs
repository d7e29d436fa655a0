//! One rating over duplicate play (docs/rating.md).
//!
//! The unit of comparison is a **deal-seat**: everyone who held the same tiles at the same
//! seat of the same deal (people, and bots such as a challenge's par). Each holder's IMP
//! there is against the average of all of them (rules §5). The rating reads those IMP as
//! they are — by how much a holder did better, not only whether — through a linear model:
//!
//! ```text
//! IMP of h at a deal-seat  =  skill(h) − mean skill of its holders  +  noise (sd NOISE)
//! ```
//!
//! Skill is in IMP per hand against a field of `medium` bots. Each person carries a
//! Gaussian belief about their skill (a mean and a standard deviation), updated once per
//! **session** (the deal-seats played together: a challenge, an event, a table) from the
//! other holders' beliefs as they stood before it (a one-pass Bayesian update of the
//! model, as a Kalman filter does). Bots are fixed points at their measured skill. What
//! is shown is `25 + 10 × skill`: `medium` is 25, and 10 points are 1 IMP per hand.
//!
//! The whole rating is a function of the stored results taken in time order, so it can
//! be rebuilt at any time; [`Ratings::session`] updates it by one session, touching only
//! its holders.

use std::collections::BTreeMap;

/// Who held a deal-seat.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// table), rated as one update.
    pub session: String,
    /// Each holder's match points.
    pub results: Vec<(Holder, i32)>,
}

/// One rated session: its deal-seats, each with every holder's IMP there.
#[derive(Clone, Debug)]
pub struct Game {
    /// When it ended (sorts in time order).
    pub at: String,
    /// What it is.
    pub key: String,
    /// By deal-seat: each holder's IMP against the average of the deal-seat's holders.
    pub seats: Vec<Vec<(Holder, i32)>>,
}

/// The deal-seats grouped into their sessions (a challenge, an event, a table: deals
/// played together), each deal-seat's holders scored by their IMP there (rules §5). A
/// holder listed twice at one deal-seat counts once; a deal-seat with one holder compares
/// nothing and is left out.
pub fn sessions(seats: &[DealSeat]) -> Vec<Game> {
    let mut by: BTreeMap<String, Game> = BTreeMap::new();
    for ds in seats {
        let results = once_each(&ds.results);
        if results.len() < 2 {
            continue;
        }
        let g = by.entry(ds.session.clone()).or_insert_with(|| Game {
            at: ds.at.clone(),
            key: ds.session.clone(),
            seats: Vec::new(),
        });
        g.at = g.at.clone().max(ds.at.clone());
        g.seats.push(
            crate::challenge::compare(&results)
                .into_iter()
                .map(|s| (s.who, s.imp))
                .collect(),
        );
    }
    by.into_values().collect()
}

/// A deal-seat's results with each holder once, with their first result there (a deal
/// replayed at the same seat counts once).
pub fn once_each(results: &[(Holder, i32)]) -> Vec<(Holder, i32)> {
    let mut out: Vec<(Holder, i32)> = Vec::new();
    for r in results {
        if !out.iter().any(|x| x.0 == r.0) {
            out.push(r.clone());
        }
    }
    out
}

/// The bots' fixed skills, in IMP per hand against a field of `medium` bots: (level,
/// skill). Measured by `dupmj rating --anchors --deals 2000` (docs/rating.md), except
/// `expert`'s: strong's plus its arena edge over strong (+0.37 IMP/hand, docs/expert.md)
/// at the rate strong's own arena edge over medium (+0.317) maps to its skill here
/// (+0.19): an estimate until it is measured the same way.
pub const SKILLS: [(&str, f64); 5] = [
    ("random", -3.34),
    ("easy", -1.79),
    ("medium", 0.0),
    ("strong", 0.19),
    ("expert", 0.41),
];

/// The bots' fixed ratings as shown: (level, rating).
pub const ANCHORS: [(&str, f64); 5] = [
    ("random", shown(SKILLS[0].1)),
    ("easy", shown(SKILLS[1].1)),
    ("medium", shown(SKILLS[2].1)),
    ("strong", shown(SKILLS[3].1)),
    ("expert", shown(SKILLS[4].1)),
];

/// The rating shown for a skill: `medium` is 25, 10 points are 1 IMP per hand.
pub const fn shown(skill: f64) -> f64 {
    25.0 + SCALE * skill
}

/// Rating points per IMP per hand.
pub const SCALE: f64 = 10.0;

/// How far a holder's IMP at one deal-seat strays from what the skills predict, in IMP
/// (the residual standard deviation measured by `dupmj rating --simulate`, docs/rating.md).
pub const NOISE: f64 = 2.9;

/// A newcomer's belief: the skill of `medium`, give or take this much (IMP per hand), so
/// that a newcomer's conservative rating (mean − 2σ) starts below every bot level.
pub const PRIOR_SD: f64 = 1.8;

/// How many earlier holders of a deal-seat a session is compared with at most: the newest
/// before it (the par and the session's own holders come on top). A deal held by hundreds
/// costs an update no more than one held by a few dozen, and an IMP against 32 others is
/// within a few hundredths of one against all of them (docs/rating.md).
pub const FIELD: usize = 32;

/// Rated hands under which a rating is provisional.
pub const PROVISIONAL_HANDS: usize = 20;

/// A person's rating after some sessions, as shown (`25 + 10 × skill`).
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The mean.
    pub rating: f64,
    /// Its standard deviation.
    pub uncertainty: f64,
    /// Rated hands (deal-seats) it rests on.
    pub hands: usize,
    /// After each session: (when, rating, uncertainty).
    pub history: Vec<(String, f64, f64)>,
}

impl Rated {
    /// Fewer rated hands than [`PROVISIONAL_HANDS`].
    pub fn provisional(&self) -> bool {
        self.hands < PROVISIONAL_HANDS
    }

    /// What the leaderboard ranks by: the mean less two standard deviations, so that
    /// nobody is listed above a level they have not shown they beat.
    pub fn conservative(&self) -> f64 {
        self.rating - 2.0 * self.uncertainty
    }
}

/// The fixed skill of a bot level (unknown levels count as `medium`).
pub fn skill_of(level: &str) -> f64 {
    SKILLS
        .iter()
        .find(|(l, _)| *l == level)
        .map_or(0.0, |(_, s)| *s)
}

/// The anchor (shown rating) of a bot level.
pub fn anchor(level: &str) -> f64 {
    shown(skill_of(level))
}

/// A belief about one holder's skill, in IMP per hand.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Skill {
    /// The mean.
    pub mean: f64,
    /// The variance.
    pub var: f64,
    /// Rated hands.
    pub hands: usize,
    /// After each session: (when, mean, standard deviation).
    pub history: Vec<(String, f64, f64)>,
}

impl Skill {
    /// A newcomer's.
    pub fn new() -> Skill {
        Skill {
            mean: 0.0,
            var: PRIOR_SD * PRIOR_SD,
            hands: 0,
            history: Vec::new(),
        }
    }

    /// As shown.
    pub fn rated(&self) -> Rated {
        Rated {
            rating: shown(self.mean),
            uncertainty: SCALE * self.var.sqrt(),
            hands: self.hands,
            history: self
                .history
                .iter()
                .map(|(at, m, sd)| (at.clone(), shown(*m), SCALE * sd))
                .collect(),
        }
    }
}

impl Default for Skill {
    fn default() -> Skill {
        Skill::new()
    }
}

/// Everyone's beliefs as of some sessions: the rating's whole state, updated one session
/// at a time.
#[derive(Clone, Debug, Default)]
pub struct Ratings {
    /// By holder (bots only when they are rated freely).
    pub skills: BTreeMap<Holder, Skill>,
    /// Bots are rated like people (to measure their skills).
    pub free_bots: bool,
}

impl Ratings {
    /// Nobody rated yet; `free_bots`: bots are rated like people.
    pub fn new(free_bots: bool) -> Ratings {
        Ratings {
            skills: BTreeMap::new(),
            free_bots,
        }
    }

    fn moves(&self, h: &Holder) -> bool {
        self.free_bots || matches!(h, Holder::Person(_))
    }

    /// Mean and variance of a holder's skill now (a fixed bot: its skill, no variance).
    fn belief(&self, h: &Holder) -> (f64, f64) {
        match (h, self.moves(h)) {
            (Holder::Bot(level), false) => (skill_of(level), 0.0),
            _ => self
                .skills
                .get(h)
                .map_or((0.0, PRIOR_SD * PRIOR_SD), |s| (s.mean, s.var)),
        }
    }

    /// Updates the beliefs of the holders of one session (and nobody else's), each from
    /// every other holder's belief as it stood before the session. A session of bots only
    /// moves nobody unless bots are free. Returns the holders it moved.
    pub fn session(&mut self, game: &Game) -> Vec<Holder> {
        self.session_of(game, |_| true)
    }

    /// As [`Ratings::session`], moving only the holders `moves` accepts (a table's people,
    /// compared with everyone who held the same deal-seats before them, who keep theirs).
    pub fn session_of(&mut self, game: &Game, moves: impl Fn(&Holder) -> bool) -> Vec<Holder> {
        // By holder: precision and precision-weighted evidence gathered, and hands.
        let mut gathered: BTreeMap<Holder, (f64, f64, usize)> = BTreeMap::new();
        for seat in &game.seats {
            let n = seat.len() as f64;
            if seat.len() < 2 {
                continue;
            }
            let beliefs: Vec<(f64, f64)> = seat.iter().map(|(h, _)| self.belief(h)).collect();
            let (sum_mean, sum_var) = beliefs
                .iter()
                .fold((0.0, 0.0), |(m, v), b| (m + b.0, v + b.1));
            for (i, (h, imp)) in seat.iter().enumerate() {
                if !self.moves(h) || !moves(h) {
                    continue;
                }
                // IMP = a·skill − (Σ others' skills)/n + noise, a = (n − 1)/n.
                let a = (n - 1.0) / n;
                let others_mean = sum_mean - beliefs[i].0;
                let others_var = sum_var - beliefs[i].1;
                let noise = NOISE * NOISE + others_var / (n * n);
                let seen = *imp as f64 + others_mean / n;
                let e = gathered.entry(h.clone()).or_default();
                e.0 += a * a / noise;
                e.1 += a * seen / noise;
                e.2 += 1;
            }
        }
        let mut moved = Vec::new();
        for (h, (precision, evidence, hands)) in gathered {
            let s = self.skills.entry(h.clone()).or_default();
            let prior_var = s.var;
            let var = 1.0 / (1.0 / prior_var + precision);
            s.mean = var * (s.mean / prior_var + evidence);
            s.var = var;
            s.hands += hands;
            s.history.push((game.at.clone(), s.mean, var.sqrt()));
            moved.push(h);
        }
        moved
    }

    /// Sets a holder's belief (as kept between updates).
    pub fn set(&mut self, h: Holder, s: Skill) {
        self.skills.insert(h, s);
    }

    /// Each holder's rating as shown.
    pub fn rated(&self) -> BTreeMap<Holder, Rated> {
        self.skills
            .iter()
            .map(|(h, s)| (h.clone(), s.rated()))
            .collect()
    }
}

/// Sorts sessions in the order they are rated: by when they ended, then by key.
pub fn in_order(games: &[Game]) -> Vec<&Game> {
    let mut order: Vec<&Game> = games.iter().collect();
    order.sort_by(|a, b| a.at.cmp(&b.at).then(a.key.cmp(&b.key)));
    order
}

/// Rates every holder over `games` (any order: they are taken by `at`, then key).
/// `free_bots`: bots are rated like people too (to measure their skills).
pub fn rate(games: &[Game], free_bots: bool) -> BTreeMap<Holder, Rated> {
    rate_state(games, free_bots).rated()
}

/// The rating's state after `games`, in their order.
pub fn rate_state(games: &[Game], free_bots: bool) -> Ratings {
    let mut r = Ratings::new(free_bots);
    for g in in_order(games) {
        r.session(g);
    }
    r
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
        let one = |me: i32, bot: i32| {
            rate(
                &sessions(&[seat("1", &[(Holder::Person(1), me), (strong(), bot)])]),
                false,
            )
        };
        let won = one(24, -8);
        let lost = one(-8, 24);
        let tie = one(0, 0);
        let start = shown(0.0);
        let me = Holder::Person(1);
        assert!(won[&me].rating > start);
        assert!(lost[&me].rating < start);
        // By how much: a tie with a bot rated above `medium` is better than expected.
        let t = tie[&me].rating;
        assert!(t > start && t < won[&me].rating, "{t}");
        assert!(!won.contains_key(&strong()), "a bot is not rated");
        // Every session makes the person's rating surer.
        assert!(won[&me].uncertainty < SCALE * PRIOR_SD);
        // The size of a win counts: winning by more moves further.
        let big = one(64, -8)[&me].rating;
        assert!(big > won[&me].rating, "{big}");
    }

    /// The update is the model's: with the other holder a fixed bot, one deal-seat moves
    /// the mean by the precision-weighted residual (worked out here from the formula).
    #[test]
    fn one_deal_seat_against_a_fixed_bot_is_the_gaussian_update_of_the_model() {
        let g = sessions(&[seat(
            "1",
            &[(Holder::Person(1), 32), (Holder::Bot("strong".into()), 0)],
        )]);
        // Two holders: 32 against 0 is 16 above the average, 4 IMP (rules §5's table).
        let imp = g[0].seats[0][0].1 as f64;
        assert_eq!(imp, 4.0);
        let (a, prior) = (0.5, PRIOR_SD * PRIOR_SD);
        let seen = imp + skill_of("strong") / 2.0;
        let noise = NOISE * NOISE;
        let var = 1.0 / (1.0 / prior + a * a / noise);
        let mean = var * (a * seen / noise);
        let r = rate(&g, false);
        let got = &r[&Holder::Person(1)];
        assert!((got.rating - shown(mean)).abs() < 1e-9, "{got:?} {mean}");
        assert!((got.uncertainty - SCALE * var.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_deal_seat_held_by_one_or_by_bots_only_rates_nobody() {
        let r = rate(
            &sessions(&[
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

    /// A session moves its own holders only, so that storing ratings and updating them
    /// session by session gives what a rebuild from every session gives.
    #[test]
    fn updating_session_by_session_is_the_rebuild() {
        let p = Holder::Person;
        let games = sessions(&[
            DealSeat {
                at: "1".into(),
                key: "a".into(),
                session: "s1".into(),
                results: vec![(p(1), 8), (p(2), -8), (Holder::Bot("medium".into()), 0)],
            },
            DealSeat {
                at: "2".into(),
                key: "b".into(),
                session: "s2".into(),
                results: vec![(p(3), 30), (p(1), -10)],
            },
        ]);
        let mut r = Ratings::new(false);
        assert_eq!(r.session(&games[0]), vec![p(1), p(2)]);
        let before3 = r.skills.get(&p(3)).cloned();
        assert_eq!(before3, None);
        let two = r.skills[&p(2)].clone();
        assert_eq!(r.session(&games[1]), vec![p(1), p(3)]);
        assert_eq!(r.skills[&p(2)], two, "person 2 was not at session 2");
        assert_eq!(r.rated(), rate(&games, false));
    }

    #[test]
    fn the_bots_anchors_are_in_order_and_medium_is_25() {
        assert_eq!(anchor("medium"), 25.0);
        assert!(ANCHORS.windows(2).all(|w| w[0].1 < w[1].1), "{ANCHORS:?}");
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
