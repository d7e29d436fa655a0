//! Bots in other processes, speaking JSON Lines over stdin/stdout.
//!
//! # Protocol
//!
//! For every decision the arena writes one line, the seat's view with its legal actions:
//!
//! ```json
//! {"type":"decide","view":{"seat":"S","prevalent":"E","hand":["1m","2m",…],
//!   "melds":[[],["[555p2]"],[],["hidden_kong"]],"discards":[["9m"],[],[],[]],
//!   "wall_left":[20,21,21,21],"last_tile_point":false,
//!   "decision":{"kind":"claim","from":"E","tile":"9m"},
//!   "legal":[{"action":"pass"},{"action":"pung"},{"action":"chow","tile":"7m"}]}}
//! ```
//!
//! and reads one line back naming one of the legal actions, e.g. `{"action":"pass"}` or
//! `{"action":"discard","tile":"5p"}`. `decision.kind` is `turn` (with the tile just drawn,
//! or none after a chow or pung), `claim` or `rob_kong`. A bot process is kept from hand to
//! hand; it should exit when its input closes.
//!
//! An answer that is late (over the time limit), unreadable or illegal is counted, with the
//! raw answer kept for the report, and replaced by a safe default — pass on a claim,
//! discard the drawn tile on a turn — unless the table's rules end the hand on a bot's
//! error (`--bot-errors judge`, the default under the Botzone rules). A process that hangs is killed, one that exits is
//! restarted at the next decision. Processes never outlive their pool.

use std::sync::Arc;
use std::time::Instant;

use table::engine::{Action, View};

use crate::agent::Agent;
use crate::pool::{fallback, BotPool};
use crate::process::{BotProcess, ReadError};

/// A seat played by an outside process.
pub struct ExternalAgent {
    pub(crate) pool: Arc<BotPool>,
    pub(crate) proc: Option<BotProcess>,
    /// The last failed decision, for rules that end the hand on it.
    pub(crate) fault: Option<String>,
}

impl ExternalAgent {
    fn ask(&mut self, view: &View) -> Result<Action, (bool, String)> {
        if self.proc.is_none() {
            self.proc = Some(
                BotProcess::spawn(&self.pool.cmd)
                    .map_err(|e| (false, format!("cannot start: {e}")))?,
            );
        }
        let p = self.proc.as_mut().expect("started");
        #[derive(serde::Serialize)]
        struct Request<'a, 'b> {
            #[serde(rename = "type")]
            kind: &'static str,
            view: &'a View<'b>,
        }
        let mut line = serde_json::to_vec(&Request {
            kind: "decide",
            view,
        })
        .map_err(|e| (false, e.to_string()))?;
        line.push(b'\n');
        if let Err(e) = p.send(&line) {
            self.proc = None;
            return Err((false, format!("the process is gone ({e})")));
        }
        match p.read_line(self.pool.time_limit) {
            Ok(answer) => {
                let action: Action = serde_json::from_str(answer.trim())
                    .map_err(|e| (false, format!("unreadable answer {answer:?}: {e}")))?;
                if view.legal.contains(&action) {
                    Ok(action)
                } else {
                    Err((false, format!("illegal answer {answer:?}")))
                }
            }
            Err(ReadError::Timeout) => {
                self.proc = None; // killed on drop
                Err((true, format!("no answer within {:?}", self.pool.time_limit)))
            }
            Err(ReadError::Closed) => {
                self.proc = None;
                Err((false, "the process exited".into()))
            }
        }
    }
}

impl Agent for ExternalAgent {
    fn name(&self) -> &str {
        &self.pool.cmd
    }

    fn act(&mut self, view: &View) -> Action {
        let start = Instant::now();
        let answer = self.ask(view);
        self.pool.timed(start);
        match answer {
            Ok(a) => a,
            Err((timeout, what)) => {
                self.pool.failed(timeout, what.clone());
                self.fault = Some(what);
                fallback(view)
            }
        }
    }

    fn take_fault(&mut self) -> Option<String> {
        self.fault.take()
    }
}

impl Drop for ExternalAgent {
    fn drop(&mut self) {
        if let Some(p) = self.proc.take() {
            if let Ok(mut idle) = self.pool.idle.lock() {
                idle.push(p);
            }
        }
    }
}
