//! [`GameEnv`](super::GameEnv): a regular 16-hand game for Python, numbered by player
//! (not seat) as the seats rotate after each hand.

use pyo3::prelude::*;

use super::{
    actions_of, legal_list, lock, mask_array, planes_array, value_error, Game, Mutex, PyArray1,
    PyArray2, Seats, Settings, TableRules,
};

/// A regular game: `GameEnv(bots=None, hands=16, seed=0)`. Players are numbered 0–3 by
/// their seat in the first hand; every call takes and gives players, not seats, as the seats
/// rotate after each hand (rules §8). `bots` is as for `Env`, by player.
#[pyclass(module = "dupmj._dupmj")]
pub struct GameEnv {
    players: Seats,
    hands: usize,
    game: Mutex<Game>,
    next_seed: Mutex<u64>,
}

pub(super) fn player(p: i64) -> PyResult<usize> {
    if (0..4).contains(&p) {
        Ok(p as usize)
    } else {
        Err(value_error(format!(
            "player: {p} (0–3, by seat in the first hand)"
        )))
    }
}

/// A regular game of `hands` hands on the walls of `seed`, `seed + 1`, …
pub(super) fn start_game(players: &Seats, hands: usize, seed: u64) -> PyResult<Game> {
    Game::new(TableRules::regular(), players.clone(), seed, hands, seed).map_err(value_error)
}

#[pymethods]
impl GameEnv {
    #[new]
    #[pyo3(signature = (bots = None, hands = 16, seed = 0))]
    fn new(bots: Option<&Bound<'_, PyAny>>, hands: usize, seed: u64) -> PyResult<GameEnv> {
        let players = Settings::read("regular", bots, None, "points")?.seats;
        let game = start_game(&players, hands, seed)?;
        Ok(GameEnv {
            players,
            hands,
            game: Mutex::new(game),
            next_seed: Mutex::new(seed.saturating_add(hands as u64)),
        })
    }

    /// Starts a new game on the walls of `seed`, `seed + 1`, … (the next unused seeds when
    /// none is given). Returns the players who must decide.
    #[pyo3(signature = (seed = None))]
    fn reset(&self, seed: Option<u64>) -> PyResult<Vec<usize>> {
        let mut next = lock(&self.next_seed);
        let s = seed.unwrap_or(*next);
        let g = start_game(&self.players, self.hands, s)?;
        *next = s.saturating_add(self.hands as u64);
        let mut game = lock(&self.game);
        *game = g;
        Ok(game.waiting())
    }

    /// Players who must decide now.
    fn to_act(&self) -> Vec<usize> {
        lock(&self.game).waiting()
    }

    /// The seat (0 East … 3 North) of a player in the hand in play.
    fn seat_of(&self, player: i64) -> PyResult<usize> {
        Ok(lock(&self.game).seat_of(self::player(player)?).index())
    }

    /// Hands finished so far.
    #[getter]
    fn played(&self) -> usize {
        lock(&self.game).game().played()
    }

    /// A player's feature planes in the hand in play, shape (PLANES, 34).
    fn observe<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let p = self::player(player)?;
        planes_array(py, &lock(&self.game).view(p))
    }

    /// A player's legal actions as a boolean mask of length 235.
    fn legal_mask<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let p = self::player(player)?;
        Ok(mask_array(py, &lock(&self.game).view(p)))
    }

    /// A player's legal action indices, ascending.
    fn legal_actions(&self, player: i64) -> PyResult<Vec<usize>> {
        let p = self::player(player)?;
        Ok(legal_list(&lock(&self.game).view(p)))
    }

    /// One action per deciding player (a list of 4 by player, -1 for the others, or a
    /// dict). Returns (each player's score change from the hands that ended, done).
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, bool)> {
        let a = actions_of(actions)?;
        let mut g = lock(&self.game);
        let change = g.step(&a).map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, change.iter().map(|&c| c as f32).collect()),
            g.is_over(),
        ))
    }

    /// Whether every hand has been played.
    #[getter]
    fn done(&self) -> bool {
        lock(&self.game).is_over()
    }

    /// The game's scores by player.
    fn scores(&self) -> [i64; 4] {
        lock(&self.game).game().scores()
    }

    /// Table points by player (4, 2, 1, 0 by rank, ties sharing).
    fn table_points(&self) -> [f64; 4] {
        lock(&self.game).game().table_points()
    }

    /// The game's log as JSON text, once it is over.
    fn log(&self) -> PyResult<String> {
        let log = lock(&self.game).log().ok_or_else(|| {
            value_error("log: the game is still in play (it would show hidden tiles)")
        })?;
        serde_json::to_string(&log).map_err(|e| value_error(e.to_string()))
    }
}
