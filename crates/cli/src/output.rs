//! Writing to standard output: a closed pipe (`dupmj … | head`) is not an error.

use std::io::Write;

pub fn emit(text: &str) -> Result<(), String> {
    let mut o = std::io::stdout().lock();
    match o.write_all(text.as_bytes()).and_then(|_| o.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing output: {e}")),
        _ => Ok(()),
    }
}

/// Output for people or for programs: `--format text|json`, the form every subcommand
/// with both takes (`--json` is kept as an older spelling of `--format json`).
#[derive(clap::Args)]
pub struct TextOrJson {
    /// Output form: text (for people) or json (for programs).
    #[arg(long, value_enum, default_value = "text", value_name = "FORM")]
    format: Form,
    /// The same as --format json (an older spelling).
    #[arg(long, hide = true)]
    json: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Form {
    Text,
    Json,
}

impl TextOrJson {
    /// Whether JSON was asked for, in either spelling.
    pub fn json(&self) -> bool {
        self.json || self.format == Form::Json
    }
}
