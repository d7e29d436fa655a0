//! Accepting connections so that a room full of hostile clients cannot lock the others
//! out: a cap on open connections (in all and per address), a deadline for a request's
//! headers, and one for its whole handling. Each connection gets its own task, so a slow
//! client stalls nobody else.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// What one server lets its clients hold.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Open connections in all (kept below the process's open-file limit, which
    /// [`raise_open_files`] lifts to its hard limit first).
    pub connections: usize,
    /// Open connections from one address (127.0.0.1 and ::1, where a reverse proxy connects
    /// from, are not counted).
    pub per_address: usize,
    /// Time a client has to send a request's headers once it connected or after its last
    /// request.
    pub headers: Duration,
}

/// Raises this process's open-file limit to its hard limit (at most 2^20) and returns the
/// soft limit now in force, so that a few hundred idle connections cannot use up the
/// files of a server started with the usual 1,024.
pub fn raise_open_files() -> Option<u64> {
    // SAFETY: getrlimit and setrlimit only read and write the struct passed to them.
    unsafe {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) != 0 {
            return None;
        }
        let want = r.rlim_max.min(1 << 20);
        if want > r.rlim_cur {
            let raised = libc::rlimit {
                rlim_cur: want,
                rlim_max: r.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                r.rlim_cur = want;
            }
        }
        // rlim_t is not u64 on every platform.
        #[allow(clippy::unnecessary_cast)]
        Some(r.rlim_cur as u64)
    }
}

impl Limits {
    /// Limits for a process that may open `files` files: connections leave 256 of them for
    /// the database, the journal and the rest.
    pub fn for_open_files(files: u64) -> Limits {
        Limits {
            connections: (files.saturating_sub(256) as usize).clamp(64, 100_000),
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 768,
            per_address: 64,
            headers: Duration::from_secs(10),
        }
    }
}

/// Where a reverse proxy on this machine connects from.
fn proxy(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4 == std::net::Ipv4Addr::LOCALHOST,
        IpAddr::V6(v6) => v6 == std::net::Ipv6Addr::LOCALHOST,
    }
}

/// Open connections by address.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

impl PerAddress {
    fn take(&self, ip: IpAddr, most: usize) -> bool {
        if proxy(ip) {
            return true;
        }
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(ip).or_insert(0);
        if *n >= most {
            return false;
        }
        *n += 1;
        true
    }

    fn give_back(&self, ip: IpAddr) {
        if proxy(ip) {
            return;
        }
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&ip);
            }
        }
    }
}

/// Serves `router` on `listener` within `limits` until `stop` completes.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.connections));
    let per = Arc::new(PerAddress::default());
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => p.expect("the semaphore is never closed"),
            _ = &mut stop => break,
        };
        let (stream, addr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was taken:
                    // wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        if !per.take(addr.ip(), limits.per_address) {
            tracing::warn!(client = %addr.ip(), "connection refused: too many open from this address");
            continue;
        }
        let per = per.clone();
        let service = router
            .clone()
            .layer(axum::Extension(ConnectInfo::<SocketAddr>(addr)));
        tokio::spawn(async move {
            let _permit = permit;
            let mut builder = Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.headers);
            let conn = builder.serve_connection_with_upgrades(
                TokioIo::new(stream),
                TowerToHyperService::new(service),
            );
            if let Err(e) = conn.await {
                tracing::debug!(client = %addr.ip(), error = %e, "connection ended");
            }
            per.give_back(addr.ip());
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_holds_at_most_its_share_and_a_local_proxy_is_not_counted() {
        let p = PerAddress::default();
        let a: IpAddr = "10.1.1.1".parse().unwrap();
        assert!(p.take(a, 2) && p.take(a, 2));
        assert!(!p.take(a, 2));
        p.give_back(a);
        assert!(p.take(a, 2));
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        assert!((0..100).all(|_| p.take(local, 2)));
        let other: IpAddr = "127.0.0.2".parse().unwrap();
        assert!(p.take(other, 1) && !p.take(other, 1));
    }
}
