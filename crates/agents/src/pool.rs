//! One outside bot as the arena and the rooms hold it: its command, its protocol, its idle
//! processes, and the count of what went wrong. The agents it hands out are built in
//! [`crate::registry`], the one place that knows every kind of player.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use table::engine::{Action, Decision, View};

use crate::drive::safe_default;
use crate::process::BotProcess;

/// How requests and responses are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interaction {
    /// JSON interaction: the whole history as a JSON object.
    Json,
    /// Simple interaction: lines of text.
    Simple,
}

/// How an outside bot talks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Our JSON Lines protocol (this module).
    JsonLines,
    /// The Botzone protocol with JSON or simple interaction ([`crate::botzone`]).
    Botzone(Interaction),
}

impl Protocol {
    /// Reads a bot's SPEC as the arena and `dupmj connect` take it: `cmd:COMMAND` (our
    /// JSON Lines protocol), `botzone:COMMAND` (Botzone, JSON interaction) or
    /// `botzone-simple:COMMAND`; the protocol and the command.
    pub fn parse_spec(spec: &str) -> Result<(Protocol, &str), String> {
        let (protocol, cmd) = [
            ("cmd:", Protocol::JsonLines),
            ("botzone:", Protocol::Botzone(Interaction::Json)),
            ("botzone-simple:", Protocol::Botzone(Interaction::Simple)),
        ]
        .into_iter()
        .find_map(|(prefix, p)| spec.strip_prefix(prefix).map(|c| (p, c)))
        .ok_or_else(|| {
            "expected cmd:COMMAND, botzone:COMMAND or botzone-simple:COMMAND".to_string()
        })?;
        if cmd.trim().is_empty() {
            return Err("the command is empty".into());
        }
        Ok((protocol, cmd))
    }
}

/// One outside bot: its command, idle processes, and what went wrong.
pub struct BotPool {
    pub(crate) cmd: String,
    pub(crate) time_limit: Duration,
    pub(crate) protocol: Protocol,
    pub(crate) idle: Mutex<Vec<BotProcess>>,
    /// Answers that were unreadable, illegal or from a crashed process.
    pub errors: AtomicU64,
    /// Answers that came too late.
    pub timeouts: AtomicU64,
    /// Decisions asked and their total round trip (request written to answer checked).
    pub asked: AtomicU64,
    /// Their total round trip, in nanoseconds.
    pub round_trip_ns: AtomicU64,
    /// The first problems, with the bot's raw output.
    pub problems: Mutex<Vec<String>>,
    /// A Botzone bot's `globaldata`: kept from hand to hand, as Botzone keeps it from game
    /// to game (hands played in parallel see each other's latest).
    globaldata: Mutex<serde_json::Value>,
    /// Where a Botzone bot's requests and responses go, one JSON line per seat and hand.
    transcripts: Mutex<Option<std::fs::File>>,
}

impl BotPool {
    /// A bot speaking our JSON Lines protocol.
    pub fn new(cmd: &str, time_limit: Duration) -> Arc<BotPool> {
        BotPool::with_protocol(cmd, time_limit, Protocol::JsonLines)
    }

    /// A pool for the bot started by `cmd`, speaking `protocol`, with `time_limit` per decision.
    pub fn with_protocol(cmd: &str, time_limit: Duration, protocol: Protocol) -> Arc<BotPool> {
        Arc::new(BotPool {
            cmd: cmd.to_string(),
            time_limit,
            protocol,
            idle: Mutex::new(Vec::new()),
            errors: AtomicU64::new(0),
            timeouts: AtomicU64::new(0),
            asked: AtomicU64::new(0),
            round_trip_ns: AtomicU64::new(0),
            problems: Mutex::new(Vec::new()),
            globaldata: Mutex::new("".into()),
            transcripts: Mutex::new(None),
        })
    }

    /// Writes every hand's requests and responses of this (Botzone) bot to `file`.
    pub fn keep_transcripts(&self, file: std::fs::File) {
        if let Ok(mut t) = self.transcripts.lock() {
            *t = Some(file);
        }
    }

    /// Appends one transcript line.
    pub(crate) fn transcript(&self, line: &serde_json::Value) {
        if let Ok(mut t) = self.transcripts.lock() {
            if let Some(w) = t.as_mut() {
                // One write per line, so that pools sharing the file never interleave.
                let _ = w.write_all(format!("{line}\n").as_bytes());
            }
        }
    }

    pub(crate) fn globaldata(&self) -> serde_json::Value {
        self.globaldata
            .lock()
            .map(|g| g.clone())
            .unwrap_or_default()
    }

    pub(crate) fn set_globaldata(&self, v: serde_json::Value) {
        if let Ok(mut g) = self.globaldata.lock() {
            *g = v;
        }
    }

    /// Counts one decision's round trip.
    pub(crate) fn timed(&self, start: Instant) {
        self.asked.fetch_add(1, Ordering::Relaxed);
        self.round_trip_ns
            .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    /// Counts a failed decision and keeps its description.
    pub(crate) fn failed(&self, timeout: bool, what: String) {
        if timeout {
            self.timeouts.fetch_add(1, Ordering::Relaxed);
        } else {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        self.problem(what);
    }

    fn problem(&self, what: String) {
        if let Ok(mut p) = self.problems.lock() {
            if p.len() < 20 {
                p.push(what);
            }
        }
    }
}

/// The safe default: pass on a claim, discard the drawn tile on a turn.
pub(crate) fn fallback(view: &View) -> Action {
    if let Some(Decision::Turn { drew: Some(t), .. }) = view.decision {
        if view.legal.contains(&Action::Discard(t)) {
            return Action::Discard(t);
        }
    }
    safe_default(view.legal)
}
