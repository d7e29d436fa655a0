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
    /// Open connections in all (below the usual 1,024 open files of a process).
    pub connections: usize,
    /// Open connections from one address (the loopback, where a reverse proxy connects
    /// from, is not counted).
    pub per_address: usize,
    /// Time a client has to send a request's headers once it connected or after its last
    /// request.
    pub headers: Duration,
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

/// Open connections by address.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

impl PerAddress {
    fn take(&self, ip: IpAddr, most: usize) -> bool {
        if ip.is_loopback() {
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
        if ip.is_loopback() {
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
    fn one_address_holds_at_most_its_share_and_the_loopback_is_not_counted() {
        let p = PerAddress::default();
        let a: IpAddr = "10.1.1.1".parse().unwrap();
        assert!(p.take(a, 2) && p.take(a, 2));
        assert!(!p.take(a, 2));
        p.give_back(a);
        assert!(p.take(a, 2));
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        assert!((0..100).all(|_| p.take(local, 2)));
    }
}
