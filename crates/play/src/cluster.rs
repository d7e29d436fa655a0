//! Several nodes on one database (PostgreSQL): who plays which table, and what happens
//! when a node dies. The design is written out in `docs/cluster.md`.
//!
//! Each table in play has one task on one node: the node holding its lease
//! ([`store::LeaseStore`]). A request for a table that another node plays is answered by
//! that node (the web layer forwards its WebSocket there, [`Located::Elsewhere`]). The
//! [`keeper`] renews this node's leases and says the node is alive; a task whose lease was
//! taken over stops at once, writing nothing (its writes would be refused anyway: every
//! journal write is checked against the table's fence). Tables whose lease ran out — their
//! node died — are taken over by whichever node's keeper sees them first, rebuilt from
//! their journals. Jobs done once for all nodes (publishing scheduled challenges, moving
//! online events on) are a duty one node holds at a time ([`Hall::holds_duty`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use store::now_ms;

use super::actor::Cmd;
use super::Hall;
use crate::PlayError;

/// How long a node's lease on a table lasts unless renewed; the [`keeper`] renews it every
/// [`KEEP_EVERY`]. A table of a node that died is taken over within about this long.
pub const LEASE: Duration = Duration::from_secs(5);

/// How often the [`keeper`] runs.
pub const KEEP_EVERY: Duration = Duration::from_secs(1);

/// How long a duty lasts unless its holder renews it.
pub const DUTY: Duration = Duration::from_secs(15);

/// Where a table is played.
pub enum Located {
    /// By a task of this node: its commands go here.
    Here(mpsc::UnboundedSender<Cmd>),
    /// By another node, which holds its lease.
    Elsewhere(store::NodeInfo),
}

/// Renews this node's leases every [`KEEP_EVERY`], stops the tasks of tables another node
/// has taken over, and on a shared database says this node is alive and takes over the
/// tables in play that no live node holds.
pub async fn keeper(hall: Arc<Hall>) {
    loop {
        tokio::time::sleep(KEEP_EVERY).await;
        let h = hall.clone();
        let _ = tokio::task::spawn_blocking(move || h.keep()).await;
    }
}

impl Hall {
    /// Whether this node is one of several on a shared database.
    pub fn shared(&self) -> bool {
        self.config.shared_node.is_some()
    }

    /// One round of the [`keeper`]; the number of tables taken over.
    pub fn keep(self: &Arc<Self>) -> usize {
        if self.shared() {
            if let Err(e) = self.store.node_alive(self.node(), self.url()) {
                tracing::warn!("this node could not say it is alive: {e}");
            }
        }
        let held: Vec<(i64, u64)> = self
            .leases
            .lock()
            .unwrap()
            .iter()
            .map(|(&t, &f)| (t, f))
            .collect();
        if !held.is_empty() {
            match self
                .store
                .renew_tables(self.node(), &held, LEASE.as_millis() as u64)
            {
                Ok(lost) => {
                    for t in lost {
                        self.lost(t);
                    }
                }
                Err(e) => tracing::warn!("leases not renewed: {e}"),
            }
        }
        if !self.shared() {
            return 0;
        }
        let unheld = match self.store.unheld_tables() {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!("tables not taken over: {e}");
                return 0;
            }
        };
        // A fair share only, so that a dead node's tables spread over the live nodes: each
        // live node's keeper takes its share in a round, the rest in the next rounds.
        let live = self
            .store
            .nodes()
            .map(|all| {
                let since = now_ms() - LEASE.as_millis() as i64;
                all.iter().filter(|n| n.seen > since).count()
            })
            .unwrap_or(1)
            .max(1);
        let share = unheld.len().div_ceil(live);
        let mut n = 0;
        for id in unheld {
            if n >= share {
                break;
            }
            if self.live(id) {
                continue;
            }
            match self.locate(id) {
                Ok(super::Located::Here(_)) => {
                    tracing::info!(table = id, node = self.node(), "table taken over");
                    n += 1;
                }
                Ok(super::Located::Elsewhere(_)) => {}
                Err(e) => tracing::warn!(table = id, "table not taken over: {e}"),
            }
        }
        n
    }

    /// Lets every table this node plays go (it is stopping): the other nodes take them at
    /// their next keeper round instead of after the lease; this node's tasks can write
    /// nothing more to them once taken.
    pub fn let_go_all(&self) -> usize {
        let held: Vec<(i64, u64)> = self.leases.lock().unwrap().drain().collect();
        for &(t, fence) in &held {
            if let Err(e) = self.store.release_table(t, self.node(), fence) {
                tracing::warn!(table = t, "not let go: {e}");
            }
        }
        held.len()
    }

    /// Table `id` is played by another node now: its task here stops, writing nothing.
    fn lost(&self, id: i64) {
        tracing::warn!(table = id, "lease lost: another node plays the table now");
        self.leases.lock().unwrap().remove(&id);
        self.lobby.lock().unwrap().remove(&id);
        if let Some(tx) = self.rooms.lock().unwrap().remove(&id) {
            let _ = tx.send(Cmd::Lost);
        }
    }

    /// Whether another node holds table `id`'s lease now (this node's write was refused).
    pub fn taken_from_us(&self, id: i64) -> bool {
        self.store
            .table_owner(id)
            .ok()
            .flatten()
            .is_some_and(|o| o.node != self.node() || Some(o.fence) != self.fence(id))
    }

    /// Whether this node does the jobs done once for all nodes (`duty`) now: always for
    /// the only node; on a shared database the node holding the duty, which it keeps by
    /// asking again within [`DUTY`].
    pub fn holds_duty(&self, duty: &str) -> bool {
        if !self.shared() {
            return true;
        }
        match self
            .store
            .hold_duty(duty, self.node(), DUTY.as_millis() as u64)
        {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!(duty, "duty not held: {e}");
                false
            }
        }
    }

    /// Waits up to `within` for this node to be the one playing table `id` (its owner's
    /// lease runs out when that node is gone); `None` if another node still plays it then.
    pub async fn wait_for_table(
        self: &Arc<Self>,
        id: i64,
        within: Duration,
    ) -> Result<Option<mpsc::UnboundedSender<Cmd>>, PlayError> {
        let until = Instant::now() + within;
        loop {
            let h = self.clone();
            let located = tokio::task::spawn_blocking(move || h.locate(id))
                .await
                .map_err(|e| PlayError::Internal(format!("table {id}: {e}")))??;
            if let super::Located::Here(tx) = located {
                return Ok(Some(tx));
            }
            if Instant::now() >= until {
                return Ok(None);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Waits, at start-up on a shared database, until no live node goes by this node's
    /// name (a node restarted under its name waits for its earlier self's heartbeat to
    /// lapse); refuses after twice [`LEASE`], when another running node has the name.
    pub fn claim_name(&self) -> Result<(), PlayError> {
        if !self.shared() {
            return Ok(());
        }
        let started = Instant::now();
        loop {
            let seen = self.store.node(self.node())?.map(|n| n.seen);
            let fresh = seen.is_some_and(|s| now_ms() - s < LEASE.as_millis() as i64);
            if !fresh {
                return self
                    .store
                    .node_alive(self.node(), self.url())
                    .map_err(PlayError::from);
            }
            if started.elapsed() > 2 * LEASE {
                return Err(PlayError::Invalid(format!(
                    "node name '{}' is in use by a running node: give each node its own --node",
                    self.node()
                )));
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}
