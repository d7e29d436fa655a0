//! # dupmj-python — dupmj for Python (`import dupmj`)
//!
//! Owns the Python extension module `dupmj._dupmj`: the fan calculator, shanten and waits
//! ([`rules`]), a drop-in for the reference calculator's Python binding ([`compat`]), the
//! table engine as a multi-agent environment, one table or many stepped together
//! ([`env`](mod@env)), and the duplicate arena with a Python policy ([`pyarena`]). The Python side
//! (`python/dupmj`) re-exports these and adds the type stubs.

#![deny(missing_docs)]

pub mod compat;
pub mod env;
pub mod pyarena;
pub mod rules;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A `ValueError` with the message as given.
pub(crate) fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// Table rules by name, refusing those the action layout cannot express.
pub(crate) fn table_rules(name: &str) -> PyResult<table::TableRules> {
    let r = table::TableRules::by_name(name).ok_or_else(|| {
        value_error(format!(
            "rules: no table rules called '{name}' (choose seeds, botzone or regular)"
        ))
    })?;
    agents::env::check_rules(&r).map_err(value_error)?;
    Ok(r)
}

/// The extension module.
#[pymodule]
fn _dupmj(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ACTIONS", agents::encode::ACTIONS)?;
    m.add("PLANES", agents::encode::PLANES)?;
    m.add("BOTS", agents::registry::BUILTIN.to_vec())?;
    rules::register(m)?;
    compat::register(m)?;
    env::register(m)?;
    pyarena::register(m)?;
    Ok(())
}
