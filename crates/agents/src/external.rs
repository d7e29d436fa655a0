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
//! An answer that is late (over the time limit), unreadable or illegal is replaced by a
//! safe default — pass on a claim, discard the drawn tile on a turn — and counted; the raw
//! answer is kept for the report. A process that hangs is killed, one that exits is
//! restarted at the next decision. Processes never outlive their pool.

use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::bots::Agent;
use crate::botzone::{BotzoneAgent, Interaction};
use crate::play::safe_default;
use table::engine::{Action, Decision, View};

/// A running bot process.
pub(crate) struct BotProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Bytes read but not yet used (the start of the next line).
    pending: Vec<u8>,
}

/// Why no answer line came.
pub(crate) enum ReadError {
    Timeout,
    Closed,
}

/// `sh -c cmd` in a process group of its own, so that everything the command starts can
/// be ended together.
fn shell(cmd: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new("sh");
    c.arg("-c").arg(cmd).process_group(0);
    c
}

impl BotProcess {
    pub(crate) fn spawn(cmd: &str) -> std::io::Result<BotProcess> {
        let mut child = shell(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        Ok(BotProcess {
            child,
            stdin,
            stdout,
            pending: Vec::with_capacity(256),
        })
    }

    /// The next line of output, waiting at most `limit` (poll(2) on the pipe, so no thread
    /// sits between the bot and the arena).
    pub(crate) fn read_line(&mut self, limit: Duration) -> Result<String, ReadError> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=i).collect();
                return Ok(String::from_utf8_lossy(&line[..i]).into_owned());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ReadError::Timeout);
            }
            let mut fds = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd for the duration of the call.
            let ready = unsafe { libc::poll(&mut fds, 1, ms) };
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(ReadError::Closed);
            }
            if ready == 0 {
                continue; // the deadline check above ends it
            }
            let mut buf = [0u8; 4096];
            match self.stdout.read(&mut buf) {
                Ok(0) | Err(_) => return Err(ReadError::Closed),
                Ok(n) => {
                    if self.pending.len() + n > 1 << 20 {
                        return Err(ReadError::Closed); // a line of over a megabyte: garbage
                    }
                    self.pending.extend_from_slice(&buf[..n]);
                }
            }
        }
    }
}

impl BotProcess {
    /// Writes `bytes` and flushes.
    pub(crate) fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stdin.write_all(bytes)?;
        self.stdin.flush()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // SAFETY: signals the process group this process leads; no memory is touched.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks that a bot command can start at all: run with no input, a shell that cannot
/// find or execute the command exits with 127 or 126 at once. Anything else (answering,
/// waiting for input, failing later) passes; the process is ended either way.
pub fn probe(cmd: &str) -> Result<(), String> {
    let mut child = shell(cmd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    let deadline = Instant::now() + Duration::from_millis(1500);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => break None,
        }
    };
    let said = |child: &mut Child| {
        let mut e = String::new();
        if let Some(mut err) = child.stderr.take() {
            let _ = err.read_to_string(&mut e);
        }
        e.lines().next().unwrap_or("").trim().to_string()
    };
    match status.and_then(|s| s.code()) {
        Some(code @ (126 | 127)) => Err(format!(
            "the command cannot be started (exit {code}): {}",
            said(&mut child)
        )),
        _ => {
            // SAFETY: signals the process group this child leads; no memory is touched.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.kill();
            let _ = child.wait();
            Ok(())
        }
    }
}

/// How an outside bot talks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Our JSON Lines protocol (this module).
    JsonLines,
    /// The Botzone protocol with JSON or simple interaction ([`crate::botzone`]).
    Botzone(Interaction),
}

/// One outside bot: its command, idle processes, and what went wrong.
pub struct BotPool {
    pub(crate) cmd: String,
    pub(crate) time_limit: Duration,
    protocol: Protocol,
    idle: Mutex<Vec<BotProcess>>,
    pub errors: AtomicU64,
    pub timeouts: AtomicU64,
    /// Decisions asked and their total round trip (request written to answer checked).
    pub asked: AtomicU64,
    pub round_trip_ns: AtomicU64,
    /// The first problems, with the bot's raw output.
    pub problems: Mutex<Vec<String>>,
}

impl BotPool {
    /// A bot speaking our JSON Lines protocol.
    pub fn new(cmd: &str, time_limit: Duration) -> Arc<BotPool> {
        BotPool::with_protocol(cmd, time_limit, Protocol::JsonLines)
    }

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
        })
    }

    /// An agent for one hand. A JSON Lines bot reuses an idle process when there is one;
    /// a Botzone bot starts afresh every hand, as on Botzone.
    pub fn agent(self: &Arc<BotPool>) -> Box<dyn Agent + Send> {
        match self.protocol {
            Protocol::JsonLines => {
                let proc = self.idle.lock().ok().and_then(|mut v| v.pop());
                Box::new(ExternalAgent {
                    pool: self.clone(),
                    proc,
                })
            }
            Protocol::Botzone(how) => Box::new(BotzoneAgent::new(self.clone(), how)),
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

/// A seat played by an outside process.
pub struct ExternalAgent {
    pool: Arc<BotPool>,
    proc: Option<BotProcess>,
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
                self.pool.failed(timeout, what);
                fallback(view)
            }
        }
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
