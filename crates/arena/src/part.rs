//! Sharded runs: shard I of N plays deals I−1, I−1+N, I−1+2N, … and writes a partial
//! result; `merge` puts the parts' deals back in order and computes the report exactly as
//! the run in one piece does (same deals, same bots' seeds, same order of sums).

use serde::{Deserialize, Serialize};

use crate::report::{self, DealOutcome, Meta, Report, Tally};

/// Partial result format tag.
pub const FORMAT: &str = "dupmj-arena-part/1";

/// One shard's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(expecting = "a partial arena result written by `dupmj arena --shard I/N`")]
pub struct Part {
    /// The format tag, so that another file is refused.
    pub format: String,
    /// The run this shard belongs to.
    pub meta: Meta,
    /// This shard's number (1-based) and the number of shards.
    pub shard: (u64, u64),
    /// False when the shard was stopped before its last deal.
    pub complete: bool,
    /// Errors and time-outs of each entrant in this shard.
    pub tallies: Vec<Tally>,
    /// Each deal played, with its index in the run.
    pub outcomes: Vec<(u64, DealOutcome)>,
}

/// Why parts do not make one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError(pub String);

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MergeError {}

/// Brings every shard of one run together into its report. `names` says where each part
/// came from, for the messages.
pub fn merge(parts: &[(String, Part)]) -> Result<Report, MergeError> {
    let err = |s: String| Err(MergeError(s));
    let Some((first_name, first)) = parts.first() else {
        return err("no parts given".into());
    };
    let count = first.shard.1;
    for (name, p) in parts {
        if p.format != FORMAT {
            return err(format!("{name}: format '{}' is not {FORMAT}", p.format));
        }
        if p.meta != first.meta {
            return err(format!(
                "{name}: another run than {first_name} (mode, rules, seed or deals differ)"
            ));
        }
        let names = |t: &[Tally]| t.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
        if names(&p.tallies) != names(&first.tallies) {
            return err(format!("{name}: other bots than {first_name}"));
        }
        if p.shard.1 != count || p.shard.0 == 0 || p.shard.0 > count {
            return err(format!(
                "{name}: shard {}/{}, the others are of {count}",
                p.shard.0, p.shard.1
            ));
        }
    }
    for i in 1..=count {
        let n = parts.iter().filter(|(_, p)| p.shard.0 == i).count();
        if n != 1 {
            return err(format!(
                "shard {i}/{count} is given {n} times; every shard must be given once"
            ));
        }
    }
    let mut all: Vec<&(u64, DealOutcome)> = parts.iter().flat_map(|(_, p)| &p.outcomes).collect();
    all.sort_by_key(|(i, _)| *i);
    // A stopped shard leaves a gap: keep the deals before the first one missing, as a run
    // stopped early covers the first k deals.
    let k = all
        .iter()
        .enumerate()
        .take_while(|(n, (i, _))| *i == *n as u64)
        .count();
    let outcomes: Vec<DealOutcome> = all[..k].iter().map(|(_, o)| o.clone()).collect();
    let tallies: Vec<Tally> = first
        .tallies
        .iter()
        .enumerate()
        .map(|(e, t)| Tally {
            name: t.name.clone(),
            errors: parts.iter().map(|(_, p)| p.tallies[e].errors).sum(),
            timeouts: parts.iter().map(|(_, p)| p.tallies[e].timeouts).sum(),
        })
        .collect();
    let complete = k as u64 == first.meta.deals && parts.iter().all(|(_, p)| p.complete);
    Ok(report::build(&first.meta, &tallies, &outcomes, complete))
}
