//! Writing to standard output: a closed pipe (`dupmj … | head`) is not an error.

use std::io::Write;

pub fn emit(text: &str) -> Result<(), String> {
    let mut o = std::io::stdout().lock();
    match o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing output: {e}")),
        _ => Ok(()),
    }
}
