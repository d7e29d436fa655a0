//! `dupmj serve` nodes as processes of their own for the benchmarks of several nodes: started
//! on free ports of this machine over one PostgreSQL database, killed with SIGKILL,
//! restarted; and the CPU time each process (and the database's) has used.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One node process.
pub struct NodeProcess {
    /// Its name (`--node`).
    pub name: String,
    /// Where it listens.
    pub addr: SocketAddr,
    exe: PathBuf,
    db: String,
    pace_ms: u64,
    log: PathBuf,
    child: Option<Child>,
}

/// A free port on the loopback.
fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(l.local_addr().map_err(|e| e.to_string())?.port())
}

impl NodeProcess {
    /// Starts `exe serve` as node `name` on database `db`, its log in `logs`; returns once
    /// it answers.
    pub fn start(
        exe: &Path,
        db: &str,
        name: &str,
        pace_ms: u64,
        logs: &Path,
    ) -> Result<NodeProcess, String> {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?)
            .parse()
            .map_err(|e| format!("{e}"))?;
        let mut n = NodeProcess {
            name: name.to_string(),
            addr,
            exe: exe.to_path_buf(),
            db: db.to_string(),
            pace_ms,
            log: logs.join(format!("node-{name}.log")),
            child: None,
        };
        n.restart()?;
        Ok(n)
    }

    /// Starts the process again (after [`NodeProcess::kill`]), on the same address.
    pub fn restart(&mut self) -> Result<(), String> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("{}: {e}", self.log.display()))?;
        let mut cmd = Command::new(&self.exe);
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // A node dies with the benchmark, however the benchmark ends.
            // SAFETY: prctl is async-signal-safe and touches only the child.
            unsafe {
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
        }
        let child = cmd
            .args(["serve", "--db", &self.db, "--node", &self.name])
            .args(["--addr", &self.addr.to_string()])
            .args(["--bot-pace-ms", &self.pace_ms.to_string()])
            .args(["--review-threads", "0"])
            .args(["--log-level", "warn"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("{}: {e}", self.exe.display()))?;
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(self.addr).is_err() {
            if Instant::now() > until {
                return Err(format!(
                    "node {} did not answer within 30 s (see {})",
                    self.name,
                    self.log.display()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    /// SIGKILL: the process dies at once, with nothing let go.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Where its log goes.
    pub fn log(&self) -> &Path {
        &self.log
    }
}

impl Drop for NodeProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// CPU seconds (user and system) a process has used, from `/proc`; 0 when it is gone.
pub fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    // The command may hold spaces: the fields that follow it come after its last ')'.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command.
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| f.get(i).and_then(|v| v.parse::<f64>().ok()))
        .sum();
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    ticks / hz.max(1.0)
}

/// CPU seconds used by every PostgreSQL server process on this machine.
pub fn postgres_cpu_seconds() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "postgres")
        })
        .map(cpu_seconds)
        .sum()
}

/// A small HTTP/1.1 client for the benchmarks: one request per connection.
pub mod http {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An answer: status, `Set-Cookie` values, `Location`, body.
    pub struct Answer {
        /// The status code.
        pub status: u16,
        /// Every `Set-Cookie` (name=value only).
        pub cookies: Vec<String>,
        /// The `Location` header.
        pub location: Option<String>,
        /// The body.
        pub body: String,
    }

    /// Sends one request to `addr`: a GET, or a POST of a form when `form` is given.
    pub async fn request(
        addr: std::net::SocketAddr,
        method: &str,
        path: &str,
        headers: &[(&str, String)],
        form: Option<&[(&str, String)]>,
    ) -> Result<Answer, String> {
        let mut s = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| format!("{addr}: {e}"))?;
        let body = form
            .map(|f| {
                f.iter()
                    .map(|(k, v)| format!("{k}={}", encode(v)))
                    .collect::<Vec<_>>()
                    .join("&")
            })
            .unwrap_or_default();
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        if form.is_some() {
            req.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        }
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        s.write_all(req.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&raw);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("{addr}{path}: no status line"))?;
        let mut cookies = Vec::new();
        let mut location = None;
        for l in lines {
            let Some((k, v)) = l.split_once(':') else {
                continue;
            };
            match k.trim().to_ascii_lowercase().as_str() {
                "set-cookie" => cookies.push(v.trim().split(';').next().unwrap_or("").to_string()),
                "location" => location = Some(v.trim().to_string()),
                _ => {}
            }
        }
        Ok(Answer {
            status,
            cookies,
            location,
            body: body.to_string(),
        })
    }

    fn encode(s: &str) -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    }
}
