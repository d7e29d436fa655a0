//! A regular MCR game (rules §8, S2): 16 hands in four rounds of prevalent wind
//! East, South, West, North; after every hand the seats rotate one step (East becomes
//! North, South becomes East, …); scores run on; table points at the end.
//!
//! Players are numbered 0–3 by their seat in the first hand (0 East … 3 North). Hand `k`
//! (0-based) of a game whose first wall seed is `s` is played on
//! [`RegularWall::generate`]`(s + k)` with prevalent wind `k / 4`; a game given its walls'
//! seeds one by one (from a deal set, [`crate::set`], so that no wall follows from another)
//! plays hand `k` on the `k`-th of them.

use std::fmt;

use mcr::Wind;
use serde::{Deserialize, Serialize};

use crate::engine::HandResult;
use crate::log::{replay, HandLog, ReplayError};
use crate::rules::TableRules;
use crate::wall::{RegularWall, Setup, WallModel};

/// Hands in a full game.
pub const GAME_HANDS: usize = 16;
/// Game log format tag.
pub const GAME_FORMAT: &str = "dupmj-game/1";

/// The seat of `player` in hand `hand` (0-based).
pub fn seat_of(player: usize, hand: usize) -> Wind {
    Wind::from_index((player + 4 - hand % 4) % 4)
}

/// The player at `seat` in hand `hand`: players by seat (E, S, W, N).
pub fn seating(hand: usize) -> [usize; 4] {
    std::array::from_fn(|s| (s + hand) % 4)
}

/// The prevalent wind of hand `hand`.
pub fn prevalent_of(hand: usize) -> Wind {
    Wind::from_index(hand / 4 % 4)
}

/// Table points for four game scores: 4, 2, 1, 0 by rank, tied players sharing the points
/// of the places they share (S4, "The table points in a tournament").
///
/// S4 gives 4.5 / 2.5 / 0 / 0 for a tie for third, which neither splits the shared
/// places nor follows its own other examples; we split as it says in words ("they split
/// table points between them"), giving 4 / 2 / 0.5 / 0.5.
pub fn table_points(scores: [i64; 4]) -> [f64; 4] {
    const PLACES: [f64; 4] = [4.0, 2.0, 1.0, 0.0];
    std::array::from_fn(|i| {
        let above = scores.iter().filter(|&&s| s > scores[i]).count();
        let equal = scores.iter().filter(|&&s| s == scores[i]).count();
        PLACES[above..above + equal].iter().sum::<f64>() / equal as f64
    })
}

/// Why a game cannot be set up or recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

/// A game in progress: which hand comes next and the running scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    rules: TableRules,
    first_seed: u64,
    /// Each hand's wall seed, when they were given rather than counted from `first_seed`.
    seeds: Option<Vec<u64>>,
    /// Hands to play (16, or fewer when the event stops at a number of hands).
    planned: usize,
    results: Vec<HandResult>,
    scores: [i64; 4],
    /// Stopped at a time limit: the hand in play then counted nothing.
    stopped: bool,
}

impl Game {
    /// A game of `hands` hands (1–16) on the walls of seeds `first_seed`, `first_seed + 1` ….
    pub fn new(rules: TableRules, first_seed: u64, hands: usize) -> Result<Game, GameError> {
        if rules.wall != WallModel::Shared {
            return Err(GameError(format!(
                "a game is played under regular rules; '{}' plays duplicate deals",
                rules.name
            )));
        }
        if !(1..=GAME_HANDS).contains(&hands) {
            return Err(GameError(format!(
                "a game has 1 to {GAME_HANDS} hands, not {hands}"
            )));
        }
        if first_seed.checked_add(hands as u64 - 1).is_none() {
            return Err(GameError(format!(
                "seed {first_seed}: the game's walls would run past the largest seed"
            )));
        }
        Ok(Game {
            rules,
            first_seed,
            seeds: None,
            planned: hands,
            results: Vec::new(),
            scores: [0; 4],
            stopped: false,
        })
    }

    /// A game of one hand per seed (1–16 of them), hand `k` on the wall of `seeds[k]`.
    pub fn with_seeds(rules: TableRules, seeds: Vec<u64>) -> Result<Game, GameError> {
        let first = *seeds
            .first()
            .ok_or_else(|| GameError("a game has 1 to 16 hands, not 0".into()))?;
        let mut g = Game::new(rules, first.min(u64::MAX - 16), seeds.len())?;
        g.first_seed = first;
        g.seeds = Some(seeds);
        Ok(g)
    }

    /// The seed of hand `k`'s wall.
    pub fn seed_of(&self, k: usize) -> u64 {
        match &self.seeds {
            Some(s) => s[k],
            None => self.first_seed + k as u64,
        }
    }

    /// The rules of every hand of the game.
    pub fn rules(&self) -> &TableRules {
        &self.rules
    }
    /// Seed of the first hand's wall.
    pub fn first_seed(&self) -> u64 {
        self.first_seed
    }
    /// Hands the game was set to play.
    pub fn planned(&self) -> usize {
        self.planned
    }
    /// Hands finished so far.
    pub fn played(&self) -> usize {
        self.results.len()
    }
    /// The result of each finished hand.
    pub fn results(&self) -> &[HandResult] {
        &self.results
    }
    /// Running scores by player.
    pub fn scores(&self) -> [i64; 4] {
        self.scores
    }
    /// Whether it was stopped at its time limit.
    pub fn stopped(&self) -> bool {
        self.stopped
    }
    /// Whether it is over (every planned hand played, or stopped).
    pub fn is_over(&self) -> bool {
        self.stopped || self.results.len() >= self.planned
    }
    /// Table points by player from the scores so far.
    pub fn table_points(&self) -> [f64; 4] {
        table_points(self.scores)
    }

    /// The wall of the next hand, with its prevalent wind, unless the game is over.
    pub fn next_setup(&self) -> Option<Setup> {
        if self.is_over() {
            return None;
        }
        let k = self.results.len();
        let mut wall = RegularWall::generate(self.seed_of(k));
        wall.prevalent = prevalent_of(k);
        Some(Setup::Regular(wall))
    }

    /// Players by seat (E, S, W, N) for the next hand.
    pub fn next_seating(&self) -> [usize; 4] {
        seating(self.results.len())
    }

    /// Adds a finished hand's points (by seat) to the players' scores.
    pub fn record(&mut self, result: &HandResult) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError("the game is over".into()));
        }
        let seats = self.next_seating();
        for (s, &p) in seats.iter().enumerate() {
            self.scores[p] += result.points[s] as i64;
        }
        self.results.push(result.clone());
        Ok(())
    }

    /// The time limit was reached: the hand in play counts nothing and the game ends.
    pub fn stop(&mut self) {
        self.stopped = true;
    }
}

fn first_version() -> u32 {
    1
}

fn is_first_version(v: &u32) -> bool {
    *v == 1
}

/// One hand of a game log: the players by seat and the hand's own log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(expecting = "a hand of a game: {\"seating\": […], \"log\": {…}}")]
pub struct GameHand {
    /// Which player (0-based) sat at each seat E, S, W, N.
    pub seating: [usize; 4],
    /// The hand's log.
    pub log: HandLog,
}

/// A whole game, as written by `dupmj play --game regular --log`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(expecting = "a game log: an object with \"format\", \"players\", \"hands\" and the scores")]
pub struct GameLog {
    /// The format tag (`dupmj-game/1`).
    pub format: String,
    /// The table rules' name.
    pub rules: String,
    /// Which meaning of that name (see [`TableRules::version`]); none in logs written
    /// before versions, which is version 1.
    #[serde(default = "first_version", skip_serializing_if = "is_first_version")]
    pub rules_version: u32,
    /// Seed of the first hand's wall.
    pub first_seed: u64,
    /// Each hand's wall seed, when the game was given them (from a deal set) rather than
    /// counting up from `first_seed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<Vec<u64>>,
    /// Hands the game was set to play.
    pub planned: usize,
    /// Player names, by player number.
    pub players: Vec<String>,
    /// Every hand played.
    pub hands: Vec<GameHand>,
    /// Whether the game was stopped at its time limit.
    pub stopped: bool,
    /// Each player's score.
    pub scores: [i64; 4],
    /// Each player's table points.
    pub table_points: [f64; 4],
}

impl GameLog {
    /// The log of a game from its hand logs (in order).
    pub fn of(game: &Game, players: Vec<String>, hands: Vec<HandLog>) -> GameLog {
        GameLog {
            format: GAME_FORMAT.into(),
            rules: game.rules.name.into(),
            rules_version: game.rules.version,
            first_seed: game.first_seed,
            seeds: game.seeds.clone(),
            planned: game.planned,
            players,
            hands: hands
                .into_iter()
                .enumerate()
                .map(|(k, log)| GameHand {
                    seating: seating(k),
                    log,
                })
                .collect(),
            stopped: game.stopped,
            scores: game.scores,
            table_points: game.table_points(),
        }
    }
}

/// Replays every hand of a game log and checks the seating, the walls, the prevalent
/// winds, the scores and the table points; the rebuilt game on success.
pub fn replay_game(log: &GameLog) -> Result<Game, ReplayError> {
    let err = |s: String| ReplayError(s);
    if log.format != GAME_FORMAT {
        return Err(err(format!("format '{}' is not {GAME_FORMAT}", log.format)));
    }
    let rules = TableRules::by_name_version(&log.rules, log.rules_version).ok_or_else(|| {
        err(format!(
            "unknown rules '{}' version {}",
            log.rules, log.rules_version
        ))
    })?;
    let mut game = match &log.seeds {
        Some(seeds) => {
            if seeds.len() != log.planned {
                return Err(err(format!(
                    "{} wall seeds for a game of {} hands",
                    seeds.len(),
                    log.planned
                )));
            }
            Game::with_seeds(rules, seeds.clone())
        }
        None => Game::new(rules, log.first_seed, log.planned),
    }
    .map_err(|e| err(e.0))?;
    if log.hands.len() > log.planned {
        return Err(err(format!(
            "{} hands logged, the game has {}",
            log.hands.len(),
            log.planned
        )));
    }
    for (k, h) in log.hands.iter().enumerate() {
        let at = |m: String| err(format!("hand {}: {m}", k + 1));
        if h.seating != game.next_seating() {
            return Err(at(format!(
                "seating {:?}, the rotation gives {:?}",
                h.seating,
                game.next_seating()
            )));
        }
        if h.log.rules != log.rules || h.log.rules_version != log.rules_version {
            return Err(at(format!(
                "rules '{}' version {}, the game's are '{}' version {}",
                h.log.rules, h.log.rules_version, log.rules, log.rules_version
            )));
        }
        let table = replay(&h.log).map_err(|e| at(e.0))?;
        let expected = game.next_setup().expect("hands left");
        if table.setup() != &expected {
            return Err(at(format!(
                "the wall is not that of seed {} with prevalent wind {}",
                game.seed_of(k),
                prevalent_of(k)
            )));
        }
        let result = table
            .result()
            .ok_or_else(|| at("the hand is not finished".into()))?;
        game.record(result).map_err(|e| at(e.0))?;
    }
    if log.stopped {
        game.stop();
    } else if !game.is_over() {
        return Err(err(format!(
            "{} of {} hands logged and the game was not stopped",
            log.hands.len(),
            log.planned
        )));
    }
    if game.scores != log.scores {
        return Err(err(format!(
            "scores: logged {:?}, replayed {:?}",
            log.scores, game.scores
        )));
    }
    if game.table_points() != log.table_points {
        return Err(err(format!(
            "table points: logged {:?}, replayed {:?}",
            log.table_points,
            game.table_points()
        )));
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_as_seeds_002_says() {
        // Hand 2: East becomes North, South becomes East, West South, North West.
        assert_eq!(seat_of(0, 1), Wind::North);
        assert_eq!(seat_of(1, 1), Wind::East);
        assert_eq!(seat_of(2, 1), Wind::South);
        assert_eq!(seat_of(3, 1), Wind::West);
        assert_eq!(seating(1), [1, 2, 3, 0]);
        // Every player sits every seat once in each round of four hands.
        for round in 0..4 {
            for p in 0..4 {
                let mut seats: Vec<Wind> = (0..4).map(|h| seat_of(p, 4 * round + h)).collect();
                seats.sort_by_key(|w| w.index());
                assert_eq!(seats, Wind::ALL.to_vec());
            }
        }
        for k in 0..16 {
            for (s, &p) in seating(k).iter().enumerate() {
                assert_eq!(seat_of(p, k).index(), s);
            }
        }
        let winds: Vec<Wind> = [0, 3, 4, 7, 8, 11, 12, 15].map(prevalent_of).to_vec();
        use Wind::*;
        assert_eq!(winds, [East, East, South, South, West, West, North, North]);
    }

    #[test]
    fn table_points_split_ties() {
        assert_eq!(table_points([50, 20, 10, -80]), [4.0, 2.0, 1.0, 0.0]);
        assert_eq!(table_points([30, 30, 10, -70]), [3.0, 3.0, 1.0, 0.0]);
        assert_eq!(table_points([40, 10, 10, -60]), [4.0, 1.5, 1.5, 0.0]);
        assert_eq!(table_points([40, 10, -25, -25]), [4.0, 2.0, 0.5, 0.5]);
        assert_eq!(table_points([0, 0, 0, 0]), [1.75; 4]);
        let three = table_points([5, 5, 5, -15]);
        assert!((three[0] - 7.0 / 3.0).abs() < 1e-12 && three[3] == 0.0);
        assert!((three.iter().sum::<f64>() - 7.0).abs() < 1e-12);
    }

    #[test]
    fn games_need_regular_rules_and_1_to_16_hands() {
        assert!(Game::new(TableRules::seeds(), 1, 16).is_err());
        assert!(Game::new(TableRules::regular(), 1, 0).is_err());
        assert!(Game::new(TableRules::regular(), 1, 17).is_err());
        assert!(Game::new(TableRules::regular(), u64::MAX, 2).is_err());
        let g = Game::new(TableRules::regular(), 5, 16).unwrap();
        let Some(Setup::Regular(w)) = g.next_setup() else {
            panic!("a regular wall")
        };
        assert_eq!(w.seed, Some(5));
        assert_eq!(w.prevalent, Wind::East);
    }

    #[test]
    fn a_game_given_its_seeds_plays_each_hand_on_its_own() {
        assert!(Game::with_seeds(TableRules::regular(), vec![]).is_err());
        assert!(Game::with_seeds(TableRules::regular(), vec![1; 17]).is_err());
        let seeds = vec![90, 7, u64::MAX >> 11, 3, 1, 2];
        let mut g = Game::with_seeds(TableRules::regular(), seeds.clone()).unwrap();
        assert_eq!(g.planned(), 6);
        for (k, &s) in seeds.iter().enumerate().take(5) {
            let Some(Setup::Regular(w)) = g.next_setup() else {
                panic!("a regular wall")
            };
            assert_eq!(w.seed, Some(s), "hand {k}");
            assert_eq!(w.prevalent, prevalent_of(k));
            let draw = HandResult {
                kind: crate::engine::Outcome::Draw,
                discarder: None,
                wins: vec![],
                offender: None,
                points: [0; 4],
            };
            g.record(&draw).unwrap();
        }
    }
}
