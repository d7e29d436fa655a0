//! The table engine as a multi-agent environment: [`Env`] is one table, [`VecEnv`] n tables
//! stepped together in Rust with the GIL released. Observations and masks are numpy arrays
//! of the layout in `agents::encode`; a seat only ever sees its own view.

mod game;

pub use game::GameEnv;

use std::sync::{Mutex, MutexGuard};

use agents::encode::{legal_indices, write_mask, write_planes, ACTIONS, KINDS, PLANES};
use agents::env::{GameEnv as Game, Seats, TableEnv};
use mcr::Wind;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use table::engine::View;
use table::wall::Setup;
use table::TableRules;

use crate::{table_rules, value_error};

const OBS: usize = PLANES * KINDS;

/// What a finished hand pays: match points, or IMP against the field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reward {
    Points,
    Imp,
}

/// Everything both environments are made from.
#[derive(Clone)]
struct Settings {
    rules: TableRules,
    seats: Seats,
    field: Option<String>,
    reward: Reward,
}

impl Settings {
    fn read(
        rules: &str,
        bots: Option<&Bound<'_, PyAny>>,
        field: Option<String>,
        reward: &str,
    ) -> PyResult<Settings> {
        let rules = table_rules(rules)?;
        let seats: Seats = match bots {
            None => Default::default(),
            Some(b) if b.is_none() => Default::default(),
            Some(b) => {
                if let Ok(name) = b.extract::<String>() {
                    [None, Some(name.clone()), Some(name.clone()), Some(name)]
                } else {
                    let v: Vec<Option<String>> = b.extract().map_err(|_| {
                        value_error("bots: a bot name (seats 1–3) or a list of 4 names or None")
                    })?;
                    v.try_into().map_err(|v: Vec<Option<String>>| {
                        value_error(format!(
                            "bots: {} entries, expected 4 (one per seat)",
                            v.len()
                        ))
                    })?
                }
            }
        };
        let reward = match reward {
            "points" => Reward::Points,
            "imp" if field.is_some() => Reward::Imp,
            "imp" => return Err(value_error(
                "reward: 'imp' compares with a field of bots: give field='strong' (or another bot)",
            )),
            r => return Err(value_error(format!("reward: '{r}' (choose points or imp)"))),
        };
        Ok(Settings {
            rules,
            seats,
            field,
            reward,
        })
    }

    fn table(&self, seed: u64) -> PyResult<TableEnv> {
        let setup = Setup::generate(self.rules.wall, seed);
        TableEnv::new(
            self.rules.clone(),
            self.seats.clone(),
            self.field.clone(),
            setup,
            seed,
        )
        .map_err(value_error)
    }

    fn rewards(&self, e: &TableEnv) -> [f32; 4] {
        if !e.is_over() {
            return [0.0; 4];
        }
        match self.reward {
            Reward::Points => e.points().map(|p| p as f32),
            Reward::Imp => e.imp().unwrap_or([0; 4]).map(|p| p as f32),
        }
    }
}

fn seat(s: i64) -> PyResult<Wind> {
    if (0..4).contains(&s) {
        Ok(Wind::from_index(s as usize))
    } else {
        Err(value_error(format!(
            "seat: {s} (0 East, 1 South, 2 West, 3 North)"
        )))
    }
}

/// Reads a sequence of 4 action indices (-1 or None: no action) or a {seat: index} dict.
fn actions_of(v: &Bound<'_, PyAny>) -> PyResult<[i64; 4]> {
    let mut out = [-1i64; 4];
    if let Ok(d) = v.cast::<PyDict>() {
        for (k, x) in d.iter() {
            let s: i64 = k
                .extract()
                .map_err(|_| value_error("actions: dict keys are seats 0–3"))?;
            out[seat(s)?.index()] = x
                .extract()
                .map_err(|_| value_error(format!("actions[{s}]: an integer action index")))?;
        }
        return Ok(out);
    }
    let list: Vec<Option<i64>> = v.extract().map_err(|_| {
        value_error(
            "actions: 4 integer action indices (-1 or None for no action) or a {seat: index} dict",
        )
    })?;
    if list.len() != 4 {
        return Err(value_error(format!(
            "actions: {} entries, expected 4 (one per seat)",
            list.len()
        )));
    }
    for (s, a) in list.into_iter().enumerate() {
        out[s] = a.unwrap_or(-1);
    }
    Ok(out)
}

/// A view's feature planes as a (PLANES, 34) array.
fn planes_array<'py>(py: Python<'py>, view: &View) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let mut v = vec![0f32; OBS];
    write_planes(view, &mut v);
    PyArray1::from_vec(py, v).reshape([PLANES, KINDS])
}

/// A view's legal mask as a (235,) array.
fn mask_array<'py>(py: Python<'py>, view: &View) -> Bound<'py, PyArray1<bool>> {
    let mut m = vec![false; ACTIONS];
    write_mask(view, &mut m);
    PyArray1::from_vec(py, m)
}

/// A view's legal action indices, ascending.
fn legal_list(view: &View) -> Vec<usize> {
    let mut v: Vec<usize> = legal_indices(view).into_iter().map(|(i, _)| i).collect();
    v.sort_unstable();
    v
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One table: `Env(rules="seeds", bots=None, field=None, reward="points", seed=0)`.
///
/// `bots`: None (every seat from Python), a bot name (it plays seats 1–3), or a list of four
/// names or None. `field`: a bot that replays the same tiles for the IMP reward.
#[pyclass(module = "dupmj._dupmj")]
pub struct Env {
    settings: Settings,
    table: Mutex<TableEnv>,
    next_seed: Mutex<u64>,
}

#[pymethods]
impl Env {
    #[new]
    #[pyo3(signature = (rules = "seeds", bots = None, field = None, reward = "points", seed = 0))]
    fn new(
        rules: &str,
        bots: Option<&Bound<'_, PyAny>>,
        field: Option<String>,
        reward: &str,
        seed: u64,
    ) -> PyResult<Env> {
        let settings = Settings::read(rules, bots, field, reward)?;
        let table = settings.table(seed)?;
        Ok(Env {
            settings,
            table: Mutex::new(table),
            next_seed: Mutex::new(seed.wrapping_add(1)),
        })
    }

    /// Starts a hand: the deal of `seed`, a deal given as JSON text (`dupmj deal --format
    /// json`), or the next seed. Returns the seats that must decide.
    #[pyo3(signature = (seed = None, deal = None))]
    fn reset(&self, seed: Option<u64>, deal: Option<&str>) -> PyResult<Vec<usize>> {
        let mut next = lock(&self.next_seed);
        let (setup, bot_seed) = match (seed, deal) {
            (Some(_), Some(_)) => return Err(value_error("give a seed or a deal, not both")),
            (_, Some(text)) => {
                let v: serde_json::Value = serde_json::from_str(text)
                    .map_err(|e| value_error(format!("deal: not JSON ({e})")))?;
                let s = Setup::from_json(self.settings.rules.wall, &v)
                    .map_err(|e| value_error(format!("deal: {e}")))?;
                let bot_seed = s.seed().unwrap_or(*next);
                (s, bot_seed)
            }
            (Some(s), None) => (Setup::generate(self.settings.rules.wall, s), s),
            (None, None) => (Setup::generate(self.settings.rules.wall, *next), *next),
        };
        *next = bot_seed.wrapping_add(1);
        let mut t = lock(&self.table);
        t.restart(Some(setup), bot_seed).map_err(value_error)?;
        Ok(t.waiting().iter().map(|w| w.index()).collect())
    }

    /// Seats that must decide now (those played from Python).
    fn to_act(&self) -> Vec<usize> {
        lock(&self.table)
            .waiting()
            .iter()
            .map(|w| w.index())
            .collect()
    }

    /// A seat's feature planes, shape (PLANES, 34), float32.
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let w = self::seat(seat)?;
        planes_array(py, &lock(&self.table).view(w))
    }

    /// A seat's legal actions as a boolean mask of length 235.
    fn legal_mask<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let w = self::seat(seat)?;
        Ok(mask_array(py, &lock(&self.table).view(w)))
    }

    /// A seat's legal action indices, ascending.
    fn legal_actions(&self, seat: i64) -> PyResult<Vec<usize>> {
        let w = self::seat(seat)?;
        Ok(legal_list(&lock(&self.table).view(w)))
    }

    /// Plays one action per deciding seat (a list of 4 with -1 for the others, or a dict),
    /// then the bots' moves. Nothing is played if any action is wrong. Returns (rewards,
    /// done): rewards are 0 until the hand is over.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, bool)> {
        let a = actions_of(actions)?;
        let mut t = lock(&self.table);
        if t.is_over() {
            return Err(value_error("the hand is over: call reset() first"));
        }
        t.step(&a).map_err(value_error)?;
        let r = self.settings.rewards(&t);
        Ok((PyArray1::from_vec(py, r.to_vec()), t.is_over()))
    }

    /// Whether the hand is over.
    #[getter]
    fn done(&self) -> bool {
        lock(&self.table).is_over()
    }

    /// Match points by seat (zeros until the hand is over).
    fn points(&self) -> [i32; 4] {
        lock(&self.table).points()
    }

    /// IMP by seat against the field, once the hand is over (None without a field).
    fn imp(&self) -> Option<[i32; 4]> {
        lock(&self.table).imp()
    }

    /// The field's match points, table by table (None before the end or without a field).
    fn field_points(&self) -> Option<Vec<[i32; 4]>> {
        lock(&self.table).field_points().map(|f| f.to_vec())
    }

    /// The hand's log as JSON text, once it is over (it shows every seat's tiles, so it is
    /// refused while the hand is in play).
    fn log(&self) -> PyResult<String> {
        let t = lock(&self.table);
        let log = t.log().ok_or_else(|| {
            value_error("log: the hand is still in play (it would show hidden tiles)")
        })?;
        serde_json::to_string(&log).map_err(|e| value_error(e.to_string()))
    }

    /// What an action index means, in words.
    #[staticmethod]
    fn describe(index: usize) -> PyResult<String> {
        agents::encode::describe(index)
            .ok_or_else(|| value_error(format!("index: {index} is not an action index (0–234)")))
    }
}

/// n tables stepped together: `VecEnv(n, rules="seeds", bots=None, field=None,
/// reward="points", seed=0)`. Table i starts on the deal of `seed + i`; a finished table
/// starts again on the next seed of the stream.
#[pyclass(module = "dupmj._dupmj")]
pub struct VecEnv {
    settings: Settings,
    tables: Mutex<Vec<TableEnv>>,
    next_seed: Mutex<u64>,
}

/// What `VecEnv.step` returns: rewards (n, 4) and done (n,).
type Stepped<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>);

/// Most tables one VecEnv steps.
const MAX_TABLES: usize = 1 << 16;

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (n, rules = "seeds", bots = None, field = None, reward = "points", seed = 0))]
    fn new(
        py: Python<'_>,
        n: usize,
        rules: &str,
        bots: Option<&Bound<'_, PyAny>>,
        field: Option<String>,
        reward: &str,
        seed: u64,
    ) -> PyResult<VecEnv> {
        if n == 0 || n > MAX_TABLES {
            return Err(value_error(format!("n: 1 to {MAX_TABLES} tables, not {n}")));
        }
        seed.checked_add(n as u64)
            .ok_or_else(|| value_error("seed: too large for n tables"))?;
        let settings = Settings::read(rules, bots, field, reward)?;
        let s = settings.clone();
        let tables = py.detach(|| {
            (0..n as u64)
                .into_par_iter()
                .map(|i| s.table(seed + i))
                .collect::<PyResult<Vec<_>>>()
        })?;
        Ok(VecEnv {
            settings,
            tables: Mutex::new(tables),
            next_seed: Mutex::new(seed + n as u64),
        })
    }

    /// Number of tables.
    fn __len__(&self) -> usize {
        lock(&self.tables).len()
    }

    /// Which seats must decide, shape (n, 4), bool.
    fn to_act<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let t = lock(&self.tables);
        let mut v = vec![false; t.len() * 4];
        for (i, e) in t.iter().enumerate() {
            for w in e.waiting() {
                v[i * 4 + w.index()] = true;
            }
        }
        PyArray1::from_vec(py, v).reshape([t.len(), 4])
    }

    /// Feature planes, shape (n, 4, PLANES, 34), float32: the seats that must decide (every
    /// seat with `all_seats`; the others are zeros). Written into `out` when given (an array
    /// of that shape), which saves allocating one per step.
    #[pyo3(signature = (out = None, all_seats = false))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, numpy::PyArray4<f32>>>,
        all_seats: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray4<f32>>> {
        let mut guard = lock(&self.tables);
        let t: &mut Vec<TableEnv> = &mut guard;
        let n = t.len();
        let arr = match out {
            Some(a) => {
                if a.shape() != [n, 4, PLANES, KINDS] {
                    return Err(value_error(format!(
                        "out: shape {:?}, expected ({n}, 4, {PLANES}, {KINDS})",
                        a.shape()
                    )));
                }
                a
            }
            None => numpy::PyArray4::zeros(py, [n, 4, PLANES, KINDS], false),
        };
        {
            let mut rw = arr
                .try_readwrite()
                .map_err(|e| value_error(format!("out: {e}")))?;
            let buf = rw
                .as_slice_mut()
                .map_err(|_| value_error("out: must be a contiguous array"))?;
            py.detach(|| {
                t.par_iter_mut()
                    .zip(buf.par_chunks_mut(4 * OBS))
                    .for_each(|(e, chunk)| {
                        let waiting = e.waiting();
                        for (s, o) in chunk.chunks_mut(OBS).enumerate() {
                            let w = Wind::from_index(s);
                            if all_seats || waiting.contains(&w) {
                                write_planes(&e.view(w), o);
                            } else {
                                o.fill(0.0);
                            }
                        }
                    })
            });
        }
        Ok(arr)
    }

    /// Every seat's legal mask, shape (n, 4, 235), bool.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<bool>>> {
        let mut guard = lock(&self.tables);
        let t: &mut Vec<TableEnv> = &mut guard;
        let n = t.len();
        let mut v = vec![false; n * 4 * ACTIONS];
        py.detach(|| {
            t.par_iter_mut()
                .zip(v.par_chunks_mut(4 * ACTIONS))
                .for_each(|(e, chunk)| {
                    // Only the seats that must decide have legal actions.
                    for w in e.waiting() {
                        let m = &mut chunk[w.index() * ACTIONS..(w.index() + 1) * ACTIONS];
                        write_mask(&e.view(w), m);
                    }
                })
        });
        PyArray1::from_vec(py, v).reshape([n, 4, ACTIONS])
    }

    /// Plays actions of shape (n, 4) (-1 where a seat has no decision), then the bots'
    /// moves. Nothing is played if any action is wrong. Returns (rewards (n, 4) float32,
    /// done (n,) bool); a table that is done starts its next deal at once.
    fn step<'py>(&self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Stepped<'py>> {
        let arr: PyReadonlyArray2<i64> = actions.extract().map_err(|_| {
            let dtype = actions
                .getattr("dtype")
                .map(|d| d.to_string())
                .unwrap_or_else(|_| "not an array".into());
            value_error(format!(
                "actions: an integer array of shape (n, 4) expected ({dtype} given; use .astype(numpy.int64))"
            ))
        })?;
        let mut guard = lock(&self.tables);
        let t: &mut Vec<TableEnv> = &mut guard;
        let n = t.len();
        if arr.shape() != [n, 4] {
            return Err(value_error(format!(
                "actions: shape {:?}, expected ({n}, 4)",
                arr.shape()
            )));
        }
        let a: Vec<[i64; 4]> = arr
            .as_array()
            .rows()
            .into_iter()
            .map(|r| [r[0], r[1], r[2], r[3]])
            .collect();
        let settings = &self.settings;
        let mut next_guard = lock(&self.next_seed);
        let next: &mut u64 = &mut next_guard;
        let (rewards, done) = py
            .detach(|| -> Result<(Vec<f32>, Vec<bool>), String> {
                // Every table checked, then the first error in table order: a parallel
                // collect into a Result would report whichever failing table came first.
                let results: Vec<Result<_, String>> = t
                    .par_iter_mut()
                    .zip(a.par_iter())
                    .enumerate()
                    .map(|(i, (e, a))| e.check(a).map_err(|m| format!("table {i}: {m}")))
                    .collect();
                let checked = results.into_iter().collect::<Result<Vec<_>, String>>()?;
                let out: Vec<([f32; 4], bool)> = t
                    .par_iter_mut()
                    .zip(checked)
                    .map(|(e, c)| {
                        e.apply(c);
                        (settings.rewards(e), e.is_over())
                    })
                    .collect();
                // Finished tables take the next seeds of the stream, in table order.
                let mut seeds = Vec::new();
                for (i, (_, over)) in out.iter().enumerate() {
                    if *over {
                        seeds.push((i, *next));
                        *next = next.wrapping_add(1);
                    }
                }
                let restarts: Vec<(usize, u64)> = seeds;
                let rules_wall = settings.rules.wall;
                let mut slots: Vec<Option<&mut TableEnv>> = t.iter_mut().map(Some).collect();
                let jobs: Vec<(&mut TableEnv, u64)> = restarts
                    .iter()
                    .map(|&(i, s)| (slots[i].take().expect("each table once"), s))
                    .collect();
                jobs.into_par_iter()
                    .try_for_each(|(e, s)| e.restart(Some(Setup::generate(rules_wall, s)), s))?;
                Ok((
                    out.iter().flat_map(|(r, _)| *r).collect(),
                    out.iter().map(|(_, d)| *d).collect(),
                ))
            })
            .map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, rewards).reshape([n, 4])?,
            PyArray1::from_vec(py, done),
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Env>()?;
    m.add_class::<VecEnv>()?;
    m.add_class::<GameEnv>()?;
    Ok(())
}
