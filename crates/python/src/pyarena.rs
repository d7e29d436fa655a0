//! The duplicate arena with a Python policy: the policy plays entrant 0's seats at every
//! table, called with a batch of every waiting decision of up to `batch` deals' tables
//! (observations and masks stacked, as a neural network wants); the built-in bots play
//! the rest. The report is the command line's (`dupmj arena`), computed by the same code.

use agents::encode::{legal_indices, write_mask, write_planes, ACTIONS, KINDS, PLANES};
use agents::env::TableEnv;
use arena::{seatings, tally_deal, Meta, Mode, Tally};
use mcr::Wind;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use table::wall::Setup;

use crate::{table_rules, value_error};

const OBS: usize = PLANES * KINDS;

/// Most deals one call plays.
const MAX_DEALS: u64 = 1_000_000;

/// Plays `deals` deals with the policy as entrant 0; returns the report as JSON text and as
/// the command line prints it.
#[pyfunction]
#[pyo3(signature = (policy, opponents = None, *, deals = 64, seed = 1, mode = "rotate",
    rules = "seeds", name = "policy", batch = 64))]
#[allow(clippy::too_many_arguments)]
fn arena_run(
    py: Python<'_>,
    policy: &Bound<'_, PyAny>,
    opponents: Option<&Bound<'_, PyAny>>,
    deals: u64,
    seed: u64,
    mode: &str,
    rules: &str,
    name: &str,
    batch: usize,
) -> PyResult<(String, String)> {
    let rules = table_rules(rules)?;
    if deals == 0 || deals > MAX_DEALS {
        return Err(value_error(format!("deals: 1 to {MAX_DEALS}, not {deals}")));
    }
    seed.checked_add(deals)
        .ok_or_else(|| value_error("seed: too large for that many deals"))?;
    if batch == 0 {
        return Err(value_error("batch: at least 1 deal"));
    }
    if !policy.is_callable() {
        return Err(value_error(
            "policy: a callable taking (observations, masks)",
        ));
    }
    let (mode, others): (Mode, Vec<String>) = match mode {
        "rotate" => {
            let o: String = match opponents {
                None => "strong".into(),
                Some(o) => o
                    .extract()
                    .map_err(|_| value_error("opponents: one bot name in rotate mode"))?,
            };
            (Mode::Rotate, vec![o])
        }
        "permute" => {
            let o: Vec<String> = opponents
                .ok_or_else(|| value_error("opponents: three bot names in permute mode"))?
                .extract()
                .map_err(|_| value_error("opponents: three bot names in permute mode"))?;
            if o.len() != 3 {
                return Err(value_error(format!(
                    "opponents: {} names, permute mode takes three",
                    o.len()
                )));
            }
            (Mode::Permute, o)
        }
        m => {
            return Err(value_error(format!(
                "mode: '{m}' (choose rotate or permute)"
            )))
        }
    };
    for o in &others {
        if agents::registry::builtin(o, 0).is_none() {
            return Err(value_error(format!(
                "opponents: no built-in bot called '{o}' (choose {})",
                agents::registry::BUILTIN.join(", ")
            )));
        }
    }
    let entrants = 1 + others.len();
    let mut outcomes = Vec::new();
    let all: Vec<u64> = (0..deals).collect();
    for chunk in all.chunks(batch) {
        // Every table of the chunk's deals: (deal, seating, env).
        let mut tables: Vec<(u64, [usize; 4], TableEnv)> = Vec::new();
        for &d in chunk {
            let setup = Setup::generate(rules.wall, seed + d);
            for (t, seating) in seatings(&mode, entrants, d).into_iter().enumerate() {
                let names = seating.map(|e| (e > 0).then(|| others[e - 1].clone()));
                let bot_seed = (seed ^ d.rotate_left(20)) ^ ((t as u64) << 8);
                let env = TableEnv::new(rules.clone(), names, None, setup.clone(), bot_seed)
                    .map_err(value_error)?;
                tables.push((d, seating, env));
            }
        }
        loop {
            let waiting: Vec<(usize, Wind)> = tables
                .iter()
                .enumerate()
                .flat_map(|(i, (_, _, e))| e.waiting().into_iter().map(move |w| (i, w)))
                .collect();
            if waiting.is_empty() {
                break;
            }
            let k = waiting.len();
            let mut obs = vec![0f32; k * OBS];
            let mut mask = vec![false; k * ACTIONS];
            for ((o, m), &(i, w)) in obs
                .chunks_mut(OBS)
                .zip(mask.chunks_mut(ACTIONS))
                .zip(&waiting)
            {
                let view = tables[i].2.view(w);
                write_planes(&view, o);
                write_mask(&view, m);
            }
            let obs = PyArray1::from_vec(py, obs).reshape([k, PLANES, KINDS])?;
            let mask = PyArray1::from_vec(py, mask).reshape([k, ACTIONS])?;
            let answer = policy.call1((obs, mask))?;
            let np = py.import("numpy")?;
            let answer = np
                .call_method1("asarray", (answer,))?
                .call_method1("astype", ("int64",))?;
            let answer = answer.cast_into::<PyArray1<i64>>().map_err(|_| {
                value_error(format!(
                    "policy: must return one action index per row ({k})"
                ))
            })?;
            if answer.len() != k {
                return Err(value_error(format!(
                    "policy: returned {} actions for {k} decisions",
                    answer.len()
                )));
            }
            let answer: Vec<i64> = answer.to_vec()?;
            let mut per_table: Vec<[i64; 4]> = vec![[-1; 4]; tables.len()];
            for (row, &(i, w)) in waiting.iter().enumerate() {
                per_table[i][w.index()] = answer[row];
            }
            let mut checked = Vec::with_capacity(tables.len());
            for (i, (_, _, e)) in tables.iter().enumerate() {
                let c = e.check(&per_table[i]).map_err(|m| {
                    let row = waiting.iter().position(|&(t, _)| t == i).unwrap_or(0);
                    let legal: Vec<usize> = waiting
                        .get(row)
                        .map(|&(_, w)| legal_indices(&e.view(w)).into_iter().map(|x| x.0).collect())
                        .unwrap_or_default();
                    value_error(format!("policy: row {row}: {m} (legal: {legal:?})"))
                })?;
                checked.push(c);
            }
            py.detach(|| {
                tables
                    .par_iter_mut()
                    .zip(checked)
                    .for_each(|((_, _, e), c)| e.apply(c))
            });
        }
        for &d in chunk {
            let results: Vec<([usize; 4], table::HandResult)> = tables
                .iter()
                .filter(|(deal, _, _)| *deal == d)
                .map(|(_, seating, e)| {
                    (
                        *seating,
                        e.table().result().cloned().expect("every table finished"),
                    )
                })
                .collect();
            outcomes.push(tally_deal(&results, entrants, Vec::new()));
        }
    }
    let meta = Meta {
        mode: arena::mode_name(&mode).into(),
        rules: rules.name.into(),
        seed,
        deals,
    };
    let tallies: Vec<Tally> = std::iter::once(name.to_string())
        .chain(others)
        .map(|n| Tally {
            name: n,
            errors: 0,
            timeouts: 0,
        })
        .collect();
    let report = arena::report::build(&meta, &tallies, &outcomes, true);
    let json = serde_json::to_string(&report).map_err(|e| value_error(e.to_string()))?;
    Ok((json, report.text()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arena_run, m)?)?;
    Ok(())
}
