//! A bot's process: started in a process group of its own, fed lines on stdin, read with a
//! deadline, and killed with its group when dropped. Both outside protocols
//! ([`crate::external`], [`crate::botzone`]) run their bots through it.

use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A running bot process.
pub(crate) struct BotProcess {
    child: Child,
    /// None once closed: the bot then reads end of file after what it was given.
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Readable when the process has exited (Linux pidfd), if the kernel offers one.
    exit_fd: Option<OwnedFd>,
    /// The inode of the stdin pipe, to recognise the bot waiting on it.
    stdin_pipe: u64,
    /// Bytes read but not yet used.
    pending: Vec<u8>,
}

/// Why no answer came.
pub(crate) enum ReadError {
    Timeout,
    Closed,
}

/// What one wait for output brought.
enum Fill {
    More,
    /// The output ended: end of file, or the process itself exited (a child it left
    /// behind may still hold the pipe open; what the process wrote is all it said).
    Ended,
    Timeout,
}

/// Output beyond this is garbage; the bot is treated as gone.
const MAX_OUTPUT: usize = 1 << 20;

/// `sh -c cmd` in a process group of its own, so that everything the command starts can
/// be ended together.
fn shell(cmd: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new("sh");
    c.arg("-c").arg(cmd).process_group(0);
    c
}

/// poll(2) on `fds`, at most `ms` milliseconds; interrupted calls count as nothing ready.
fn poll(fds: &mut [libc::pollfd], ms: i32) -> bool {
    // SAFETY: a valid array of pollfd for the duration of the call.
    let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
    ready > 0
}

impl BotProcess {
    pub(crate) fn spawn(cmd: &str) -> std::io::Result<BotProcess> {
        use std::os::fd::FromRawFd;
        let mut child = shell(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id() as libc::c_int, 0) };
        // SAFETY: a descriptor just returned by the kernel, owned by nobody else.
        let exit_fd = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) });
        let stdin_pipe = stdin.as_fd().try_clone_to_owned().ok().map_or(0, |fd| {
            std::fs::File::from(fd)
                .metadata()
                .map_or(0, |m| std::os::unix::fs::MetadataExt::ino(&m))
        });
        Ok(BotProcess {
            child,
            stdin: Some(stdin),
            stdout,
            exit_fd,
            stdin_pipe,
            pending: Vec::with_capacity(256),
        })
    }

    /// Writes `bytes` and flushes.
    pub(crate) fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Whether the bot has taken everything written to its stdin.
    fn stdin_drained(&self) -> bool {
        let Some(stdin) = &self.stdin else {
            return true;
        };
        let mut n: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int, the bytes waiting in the pipe.
        let ok = unsafe { libc::ioctl(stdin.as_raw_fd(), libc::FIONREAD, &mut n) } == 0;
        ok && n == 0
    }

    /// Waits up to `deadline` for more output. With `eof_when_waiting`, a bot that has
    /// read all its input and waits for more before answering gets end of file, as on
    /// Botzone, where only a bot that has answered and asked to keep running is sent more.
    fn fill(&mut self, deadline: Instant, eof_when_waiting: bool) -> Fill {
        let mut slice = Duration::from_millis(1);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Fill::Timeout;
            }
            let wait = if eof_when_waiting && self.stdin.is_some() {
                left.min(slice)
            } else {
                left
            };
            let mut fds = [
                libc::pollfd {
                    fd: self.stdout.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.exit_fd.as_ref().map_or(-1, |f| f.as_raw_fd()),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            let ms = wait.as_millis().clamp(1, i32::MAX as u128) as i32;
            if poll(&mut fds, ms) {
                if fds[0].revents != 0 {
                    return self.read_some();
                }
                if fds[1].revents != 0 {
                    // The process is gone: take what it left in the pipe, then stop.
                    while poll(&mut fds[..1], 0) {
                        if let Fill::Ended = self.read_some() {
                            break;
                        }
                    }
                    return Fill::Ended;
                }
            } else if eof_when_waiting
                && self.stdin_drained()
                && waits_on_pipe(self.child.id(), self.stdin_pipe)
            {
                // Blocked on input, the process has written all it wrote before the read:
                // an answer that came in after the poll above is read, not cut off by an
                // end of file (which would end a keep-running bot that had answered).
                if poll(&mut fds[..1], 0) && fds[0].revents != 0 {
                    return self.read_some();
                }
                self.stdin = None;
            }
            slice = (slice * 2).min(Duration::from_millis(16));
        }
    }

    fn read_some(&mut self) -> Fill {
        let mut buf = [0u8; 4096];
        match self.stdout.read(&mut buf) {
            Ok(0) | Err(_) => Fill::Ended,
            Ok(_) if self.pending.len() > MAX_OUTPUT => Fill::Ended,
            Ok(n) => {
                self.pending.extend_from_slice(&buf[..n]);
                Fill::More
            }
        }
    }

    /// The next line of output, waiting at most `limit`. A last line without a newline
    /// counts once the output ends.
    pub(crate) fn read_line(&mut self, limit: Duration) -> Result<String, ReadError> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=i).collect();
                return Ok(String::from_utf8_lossy(&line[..i]).into_owned());
            }
            match self.fill(deadline, false) {
                Fill::More => {}
                Fill::Timeout => return Err(ReadError::Timeout),
                Fill::Ended if self.pending.is_empty() => return Err(ReadError::Closed),
                Fill::Ended => {
                    let line = std::mem::take(&mut self.pending);
                    return Ok(String::from_utf8_lossy(&line).into_owned());
                }
            }
        }
    }

    /// Everything the bot writes up to the line `mark` (then `true`, and the process is
    /// kept) or to the end of its output (`false`). `first_run`: the input was just
    /// written to a new process, which gets end of file if it reads past it.
    pub(crate) fn read_until_mark(
        &mut self,
        mark: &str,
        deadline: Instant,
        first_run: bool,
    ) -> Result<(String, bool), ReadError> {
        let mut searched = 0;
        loop {
            // A complete line equal to the mark (a carriage return before the newline allowed).
            while let Some(i) = self.pending[searched..].iter().position(|&b| b == b'\n') {
                let end = searched + i;
                let line = &self.pending[searched..end];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if line == mark.as_bytes() {
                    let text = String::from_utf8_lossy(&self.pending[..searched]).into_owned();
                    self.pending.drain(..=end);
                    return Ok((text, true));
                }
                searched = end + 1;
            }
            match self.fill(deadline, first_run) {
                Fill::More => {}
                Fill::Timeout => return Err(ReadError::Timeout),
                Fill::Ended => {
                    let text = String::from_utf8_lossy(&self.pending).into_owned();
                    self.pending.clear();
                    if text.trim_end() == mark {
                        return Ok((String::new(), true));
                    }
                    return Ok((text, false));
                }
            }
        }
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

/// Whether a process of group `group` is blocked reading the pipe with inode `pipe`
/// (Linux /proc: the system call a thread is in, or failing that its wait channel).
fn waits_on_pipe(group: u32, pipe: u64) -> bool {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return false;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (name) state ppid pgrp …": the name may hold spaces, so count after ')'.
        let pgrp = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().nth(2))
            .and_then(|g| g.parse::<u32>().ok());
        if pgrp != Some(group) {
            continue;
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            if thread_reads_pipe(pid, &task.path(), pipe) {
                return true;
            }
        }
    }
    false
}

fn thread_reads_pipe(pid: u32, task: &std::path::Path, pipe: u64) -> bool {
    let target = format!("pipe:[{pipe}]");
    let is_pipe = |fd: u64| {
        std::fs::read_link(format!("/proc/{pid}/fd/{fd}"))
            .is_ok_and(|p| p.as_os_str() == target.as_str())
    };
    if let Ok(s) = std::fs::read_to_string(task.join("syscall")) {
        let mut w = s.split_whitespace();
        let nr = w.next().and_then(|x| x.parse::<libc::c_long>().ok());
        let fd = w
            .next()
            .and_then(|x| u64::from_str_radix(x.trim_start_matches("0x"), 16).ok());
        match (nr, fd) {
            (Some(nr), Some(fd)) => {
                let reads = [
                    libc::SYS_read,
                    libc::SYS_readv,
                    libc::SYS_pread64,
                    libc::SYS_preadv,
                ];
                return reads.contains(&nr) && is_pipe(fd);
            }
            _ if s.starts_with("running") => return false,
            _ => {}
        }
    }
    std::fs::read_to_string(task.join("wchan"))
        .is_ok_and(|w| w.contains("pipe_read") || w.contains("pipe_wait"))
        && is_pipe(0)
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
