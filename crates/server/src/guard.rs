//! Defences for a server that anyone in the venue can reach: headers on every response,
//! limits on failed passwords and table codes, and the client's address they are counted by.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use store::{now_ms, Store};

use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Paths whose pages show table codes, sessions' forms or results being entered: never
/// kept by a browser's or a proxy's cache.
fn private_path(path: &str) -> bool {
    path.starts_with("/director")
        || path == "/login"
        || path == "/setup"
        || (path.starts_with("/events/") && path.contains("/table"))
        || path.starts_with("/play")
}

/// Whether the request came over HTTPS, as a reverse proxy in front says with
/// `X-Forwarded-Proto: https`.
pub fn over_https(h: &axum::http::HeaderMap) -> bool {
    h.get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// Adds the security headers to every response: no sniffing, no framing by other sites,
/// no caching of private pages, and the `Secure` flag on cookies when the request came
/// over HTTPS (a reverse proxy in front says so with `X-Forwarded-Proto: https`).
pub async fn headers(req: Request, next: Next) -> Response {
    let private = private_path(req.uri().path());
    let https = over_https(req.headers());
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if private {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if https {
        let cookies: Vec<HeaderValue> = h
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| HeaderValue::from_str(&format!("{v}; Secure")).ok())
            .collect();
        if !cookies.is_empty() {
            h.remove(header::SET_COOKIE);
            for c in cookies {
                h.append(header::SET_COOKIE, c);
            }
        }
    }
    res
}

/// Longest a request may take to be read and answered (a body sent a byte at a time
/// included); a WebSocket's life after its upgrade is not counted.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(30);

/// Answers 408 to a request not handled within [`REQUEST_DEADLINE`].
pub async fn deadline(req: Request, next: Next) -> Response {
    match tokio::time::timeout(REQUEST_DEADLINE, next.run(req)).await {
        Ok(res) => res,
        Err(_) => {
            tracing::warn!("request timed out");
            (
                axum::http::StatusCode::REQUEST_TIMEOUT,
                "the request took too long",
            )
                .into_response()
        }
    }
}

/// The address a request came from: the peer, or for a reverse proxy on this machine the
/// last address of its `X-Forwarded-For`; "local" when the server was not told (in tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client(pub String);

impl FromRequestParts<crate::App> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &crate::App,
    ) -> Result<Client, Self::Rejection> {
        let Some(peer) = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
        else {
            return Ok(Client("local".into()));
        };
        // A reverse proxy on this machine, or one named by --trust-proxy, says who its
        // client was; nobody else is believed.
        let trusted = app.guards.proxies.get().is_some_and(|p| p.contains(&peer));
        if peer.is_loopback() || trusted {
            let forwarded = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<std::net::IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return Ok(Client(ip.to_string()));
            }
        }
        Ok(Client(peer.to_string()))
    }
}

/// Failed attempts by key (a client, a table) in a sliding window: once `most` have failed
/// within `window`, the key is refused until the oldest of them is older than that. The
/// failures are kept in the database, so that a limit holds across every node serving it.
pub struct Limiter {
    most: usize,
    window: Duration,
    store: Arc<dyn Store>,
}

/// Failures older than this are forgotten (longer than any limiter's window).
const FORGET: Duration = Duration::from_secs(3600);

impl Limiter {
    /// At most `most` failures per `window`, counted in `store`.
    pub fn new(most: usize, window: Duration, store: Arc<dyn Store>) -> Limiter {
        Limiter {
            most,
            window,
            store,
        }
    }

    /// `Err(seconds)` to wait when `key` has used up its failures.
    pub fn check(&self, key: &str) -> Result<(), u64> {
        self.check_at(key, now_ms())
    }

    fn check_at(&self, key: &str, now: i64) -> Result<(), u64> {
        let window = self.window.as_millis() as i64;
        let times = match self.store.attempts(key, now - window) {
            Ok(t) => t,
            Err(e) => {
                // Refused rather than unlimited while the failures cannot be read.
                tracing::warn!(key, "failed attempts not read: {e}");
                return Err(self.window.as_secs().max(1));
            }
        };
        if times.len() < self.most {
            return Ok(());
        }
        // The `most` latest failures refuse the key until the first of them leaves.
        let oldest = times[times.len() - self.most];
        Err(((oldest + window - now).max(0) as u64 / 1000).max(1))
    }

    /// Counts a failure of `key`.
    pub fn fail(&self, key: &str) {
        self.fail_at(key, now_ms());
    }

    fn fail_at(&self, key: &str, now: i64) {
        let forget = now - FORGET.as_millis() as i64;
        if let Err(e) = self.store.add_attempt(key, now, forget) {
            tracing::warn!(key, "failed attempt not counted: {e}");
        }
    }
}

/// The limits the server applies.
pub struct Guards {
    /// Failed director or player passwords per client.
    pub password: Limiter,
    /// Wrong table codes per client.
    pub code_client: Limiter,
    /// Wrong table codes per table of an event, from anywhere.
    pub code_table: Limiter,
    /// New guests and accounts per client ([`NEW_PEOPLE`] a minute).
    pub newcomers: Limiter,
    /// Password checks running at once (each takes a core for a while).
    pub hashing: tokio::sync::Semaphore,
    /// Password checks running or waiting.
    pub queued: std::sync::atomic::AtomicUsize,
    /// The address the server listens on: a request from it comes from this machine.
    pub server_ip: std::sync::OnceLock<std::net::IpAddr>,
    /// Reverse proxies on other machines believed about their clients' addresses (a load
    /// balancer in front of several nodes), set once at start.
    pub proxies: std::sync::OnceLock<Vec<std::net::IpAddr>>,
}

/// Password checks allowed to run at once; more wait, and past [`HASH_QUEUE`] waiting
/// the request is refused as busy.
pub const HASHES_AT_ONCE: usize = 2;
/// Password checks allowed to wait.
pub const HASH_QUEUE: usize = 16;
/// New guests and accounts one client address may make in a minute.
pub const NEW_PEOPLE: usize = 5;

impl Guards {
    /// The limits, their failures counted in `store`.
    pub fn new(store: Arc<dyn Store>) -> Guards {
        let ten_minutes = Duration::from_secs(600);
        Guards {
            password: Limiter::new(10, ten_minutes, store.clone()),
            code_client: Limiter::new(20, ten_minutes, store.clone()),
            code_table: Limiter::new(30, ten_minutes, store.clone()),
            newcomers: Limiter::new(NEW_PEOPLE, Duration::from_secs(60), store),
            hashing: tokio::sync::Semaphore::new(HASHES_AT_ONCE),
            queued: std::sync::atomic::AtomicUsize::new(0),
            server_ip: std::sync::OnceLock::new(),
            proxies: std::sync::OnceLock::new(),
        }
    }
}

impl Guards {
    /// Whether a request came from the server's own machine: the loopback, or the address
    /// the server listens on (tests, which pass no address, count as such).
    pub fn is_local(&self, client: &Client) -> bool {
        if client.0 == "local" {
            return true;
        }
        client.0.parse::<std::net::IpAddr>().is_ok_and(|ip| {
            ip.is_loopback()
                || self
                    .server_ip
                    .get()
                    .is_some_and(|s| *s == ip && !s.is_unspecified())
        })
    }

    /// Counts one new guest or account made from `client`, or says how long to wait. A
    /// request without an address (made inside the process, in tests) is not counted.
    pub fn newcomer(&self, client: &Client) -> Result<(), crate::service::AppError> {
        if client.0 == "local" {
            return Ok(());
        }
        let key = format!("new:{}", client.0);
        if let Err(wait) = self.newcomers.check(&key) {
            tracing::warn!(client = %client.0, "new player refused: too many from this address");
            return Err(crate::service::AppError::Limited(format!(
                "too many new players from this address ({NEW_PEOPLE} a minute): try again in {wait} s"
            )));
        }
        self.newcomers.fail(&key);
        Ok(())
    }

    /// Runs a password hash or check on a blocking thread, never more than
    /// [`HASHES_AT_ONCE`] at a time, so that a flood of logins cannot take the cores that
    /// serve the standings; refused as busy past [`HASH_QUEUE`] waiting.
    pub async fn hash_job<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, crate::service::AppError> {
        use crate::service::AppError;
        use std::sync::atomic::Ordering;
        let before = self.queued.fetch_add(1, Ordering::SeqCst);
        let result = async {
            if before >= HASHES_AT_ONCE + HASH_QUEUE {
                tracing::warn!("password checks: queue full, a login refused as busy");
                return Err(AppError::Limited(
                    "the server is busy checking passwords: try again in a few seconds".into(),
                ));
            }
            let _permit = self
                .hashing
                .acquire()
                .await
                .map_err(|e| AppError::Internal(e.to_string()))?;
            tokio::task::spawn_blocking(job)
                .await
                .map_err(|e| AppError::Internal(e.to_string()))
        }
        .await;
        self.queued.fetch_sub(1, Ordering::SeqCst);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_forwarded_address_is_believed_from_the_loopback_and_trusted_proxies_only() {
        let app = crate::App::new(
            Arc::new(store::SqliteStore::in_memory().unwrap()),
            play::PlayConfig::default(),
        );
        let _ = app.guards.proxies.set(vec!["192.0.2.1".parse().unwrap()]);
        let client = |peer: &str| {
            let app = app.clone();
            let peer: SocketAddr = peer.parse().unwrap();
            async move {
                let req = axum::http::Request::builder()
                    .header("x-forwarded-for", "203.0.113.9, 198.51.100.4")
                    .extension(ConnectInfo(peer))
                    .body(())
                    .unwrap();
                let (mut parts, _) = req.into_parts();
                Client::from_request_parts(&mut parts, &app)
                    .await
                    .unwrap()
                    .0
            }
        };
        assert_eq!(client("127.0.0.1:5000").await, "198.51.100.4");
        assert_eq!(client("192.0.2.1:5000").await, "198.51.100.4");
        assert_eq!(client("192.0.2.2:5000").await, "192.0.2.2");
    }

    #[test]
    fn a_key_is_refused_after_its_failures_until_the_window_passes() {
        let store: Arc<dyn Store> = Arc::new(store::SqliteStore::in_memory().unwrap());
        let l = Limiter::new(3, Duration::from_secs(60), store.clone());
        let t0 = 1_000_000;
        for i in 0..3 {
            assert_eq!(l.check_at("a", t0 + i * 1000), Ok(()));
            l.fail_at("a", t0 + i * 1000);
        }
        // The oldest failure (at 0 s) leaves the window at 60 s.
        assert_eq!(l.check_at("a", t0 + 10_000), Err(50));
        assert_eq!(l.check_at("b", t0 + 10_000), Ok(()));
        assert_eq!(l.check_at("a", t0 + 61_000), Ok(()));
        // Another node on the same database sees the same failures.
        let other = Limiter::new(3, Duration::from_secs(60), store);
        assert_eq!(other.check_at("a", t0 + 10_000), Err(50));
    }
}
