//! # server — the web application: directing events and playing online
//!
//! Maps HTTP and WebSocket messages onto the crates below and answers with pages. The
//! routes are grouped by audience in [`web`]: the director (events, seating changes,
//! conflicts, penalties, printables, exports, audit trail), the tables at the venue (score
//! entry from phones), the public (standings, big screen) and the players online (lobby,
//! tables, replays, challenges, online events). Every page comes from a template with
//! automatic escaping ([`templates`], [`web::pages`]), in English or Chinese ([`i18n`]).
//!
//! What the director's pages do without HTTP is in [`service`], seasons and sign-ups in
//! [`season`]; sessions, passwords and
//! the cross-site check in [`auth`]; the printables in [`print`](mod@print); limits on failed logins and codes, and security
//! headers in [`guard`]; connection limits and deadlines in [`listen`]; the demo event
//! played by bots in [`demo`]; an outside bot playing on a site as a bot account in
//! [`connect`]. Online play itself — rooms, clocks, bots, challenges, deal
//! secrecy — is the [`play`] crate, which knows nothing of HTTP. Data lives behind
//! [`store::Store`].

#![deny(missing_docs)]

pub mod auth;
pub mod connect;
pub mod demo;
pub mod guard;
pub mod i18n;
pub mod listen;
pub mod print;
pub mod season;
pub mod service;
pub mod templates;
pub mod web;

use std::net::SocketAddr;
use std::path::Path;

use store::SqliteStore;

pub use play;

pub use web::{router, App};

/// Opens the database, a SQLite file (created on first start) or PostgreSQL.
pub fn open(db: &store::Location, config: play::PlayConfig) -> Result<App, String> {
    let store = store::open(db).map_err(|e| e.to_string())?;
    Ok(App::new(store, config))
}

/// Copies the database `db` to `out` through SQLite's online backup, safe while a server
/// is using it; `out` must not exist yet.
pub fn backup(db: &Path, out: &Path) -> Result<(), String> {
    if !db.exists() {
        return Err(format!("{}: no such database", db.display()));
    }
    let store = SqliteStore::open(db).map_err(|e| e.to_string())?;
    store.backup_to(out).map_err(|e| e.to_string())
}

/// Serves until Ctrl-C or SIGTERM; `ready` is told the address actually bound (port 0 picks
/// one). A node of several lets its tables go as it stops.
pub fn serve(app: App, addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("{addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        let _ = app.guards.server_ip.set(local.ip());
        start_node(&app, local).await?;
        let resumed = app.hall.resume_all().map_err(|e| e.to_string())?;
        if resumed > 0 {
            println!("{resumed} table(s) in play resumed from their journals");
        }
        // Sessions over but not rated (a database from before ratings were kept), in the
        // background: pages read the kept ratings meanwhile.
        let hall = app.hall.clone();
        tokio::task::spawn_blocking(move || match play::history::catch_up(&hall) {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} session(s) rated that were over but not rated"),
            Err(e) => tracing::error!("rating the sessions not rated yet failed: {e}"),
        });
        tokio::spawn(play::keeper(app.hall.clone()));
        tokio::spawn(play::sweeper(app.hall.clone()));
        tokio::spawn(play::quick::matchmaker(app.hall.clone()));
        play::reviewer::start(
            app.hall.store.clone(),
            app.hall.node().to_string(),
            app.hall.config.review_threads,
            app.hall.config.review_ms,
        );
        ready(listener.local_addr().map_err(|e| e.to_string())?);
        let limits = listen::raise_open_files()
            .map(listen::Limits::for_open_files)
            .unwrap_or_default();
        let hall = app.hall.clone();
        listen::serve(listener, router(app), limits, stopped()).await;
        if hall.shared() {
            // The other nodes take this node's tables at once rather than after the lease.
            let hall2 = hall.clone();
            let n = tokio::task::spawn_blocking(move || hall2.let_go_all())
                .await
                .unwrap_or(0);
            println!("{n} table(s) let go to the other nodes");
        }
        Ok(())
    })
}

/// Resolves on Ctrl-C or SIGTERM (systemd's stop).
async fn stopped() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Says where the other nodes reach this one and, on a shared database, waits until its
/// name is free (`docs/cluster.md`).
pub async fn start_node(app: &App, local: SocketAddr) -> Result<(), String> {
    let url = match &app.hall.config.node_url {
        Some(u) => u.clone(),
        None if app.hall.shared() && local.ip().is_unspecified() => {
            return Err(format!(
                "listening on {local}, every interface: give --node-url, the address the other nodes reach this one at (http://host:{})",
                local.port()
            ))
        }
        None => format!("http://{local}"),
    };
    app.hall.set_url(url);
    let hall = app.hall.clone();
    tokio::task::spawn_blocking(move || hall.claim_name())
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
}
