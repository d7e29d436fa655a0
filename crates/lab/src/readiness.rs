//! `lab readiness`: strong's self-play measured for the belief ([`Readiness`]), written as
//! the data file the library reads, or checked against it.

use std::path::Path;

use agents::belief::{Readiness, AGES, SH, TIES, WALL};

/// The data file's text for `r`, measured on `hands` hands.
pub fn source(r: &Readiness, hands: u64) -> String {
    let mut s = String::new();
    s.push_str("//! Written by `lab readiness` from strong's self-play on ");
    s.push_str(&format!("{hands} hands: do not edit by hand.\n\n"));
    s.push_str("use super::{AGES, SH, TIES, WALL};\n\n");
    s.push_str("/// counts[wall][melds][shanten].\n#[rustfmt::skip]\n");
    s.push_str("pub(super) const COUNTS: [[[u32; SH]; 5]; WALL] = [\n");
    for wall in &r.counts {
        s.push_str("    [\n");
        for row in wall {
            s.push_str(&format!("        {},\n", list(row)));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n\n/// ties[age][tie].\n#[rustfmt::skip]\n");
    s.push_str("pub(super) const TIES_SEEN: [[u32; TIES]; AGES] = [\n");
    for row in &r.ties {
        s.push_str(&format!("    {},\n", list(row)));
    }
    s.push_str("];\n");
    debug_assert_eq!((r.counts.len(), r.ties.len()), (WALL, AGES));
    debug_assert_eq!((r.counts[0][0].len(), r.ties[0].len()), (SH, TIES));
    s
}

fn list(row: &[u32]) -> String {
    let items: Vec<String> = row.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// Measures `hands` hands; writes the data file to `write`, or says whether it agrees
/// with the data the library has.
pub fn run(hands: u64, write: Option<&Path>) -> Result<(), String> {
    let start = std::time::Instant::now();
    let r = Readiness::measure(hands);
    eprintln!(
        "{hands} hands of strong's self-play measured in {:.2?}",
        start.elapsed()
    );
    match write {
        Some(path) => {
            std::fs::write(path, source(&r, hands))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
        None => {
            let same = &r == Readiness::measured();
            println!(
                "{hands} hands {} the library's data ({} hands)",
                if same { "agree with" } else { "differ from" },
                agents::belief::HANDS
            );
        }
    }
    Ok(())
}
