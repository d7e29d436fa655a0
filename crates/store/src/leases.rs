//! Several nodes on one database: which node plays a table (leases with fencing numbers),
//! where each node is reached, and jobs one node does for all (duties).
//!
//! A table in play is owned by one node at a time. The owner holds a lease that it renews
//! well before it expires; another node may claim the table only once the lease has
//! expired, and each new owner gets a larger fencing number. Every journal write names the
//! fence it was made under and is refused, in the same transaction, unless that fence is
//! still the table's ([`crate::PlayStore::write_play`]): a node that lost its table
//! (stalled past its lease, cut off from the database) can never append to it again,
//! whatever the clocks say. Clocks decide only when a lease is over, that is how soon a
//! table is taken over. Times are milliseconds since 1970 by the writing node's clock.

use crate::Result;

/// Now in milliseconds since 1970: the clock of leases, heartbeats, duties, lobby lines and
/// failed attempts, on every node.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Who holds a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableOwner {
    /// The node.
    pub node: String,
    /// Its fencing number.
    pub fence: u64,
    /// When the lease runs out unless renewed (milliseconds since 1970).
    pub expires: i64,
}

/// A node as the others find it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeInfo {
    /// Its name.
    pub name: String,
    /// Where the other nodes reach it (`http://host:port`).
    pub url: String,
    /// When it last said it was alive (milliseconds since 1970).
    pub seen: i64,
}

/// Tables' owners, the nodes, their duties.
pub trait LeaseStore {
    /// Claims `table` for `node` until `ttl_ms` from now: granted when nobody holds it, when
    /// its lease has expired, when `node` holds it already (renewed, same fence), or when
    /// `force` (a single node starting on its own file takes back every table). Returns the
    /// fence to write under, or `None` while another node holds a live lease.
    ///
    /// One transaction.
    fn claim_table(&self, table: i64, node: &str, ttl_ms: u64, force: bool) -> Result<Option<u64>>;

    /// Renews `node`'s leases on `tables` (table, fence) until `ttl_ms` from now; returns
    /// the tables it no longer holds (taken over by another node).
    ///
    /// One transaction.
    fn renew_tables(&self, node: &str, tables: &[(i64, u64)], ttl_ms: u64) -> Result<Vec<i64>>;

    /// Lets a table go (its task ended): another node may claim it at once.
    ///
    /// One transaction.
    fn release_table(&self, table: i64, node: &str, fence: u64) -> Result<()>;

    /// The lease on `table`, if one was ever taken.
    ///
    /// A read: it sees what committed transactions wrote.
    fn table_owner(&self, table: i64) -> Result<Option<TableOwner>>;

    /// Tables still in play that no node holds a live lease on (their node died, or
    /// nobody has opened them since a restart), oldest first.
    ///
    /// A read: it sees what committed transactions wrote.
    fn unheld_tables(&self) -> Result<Vec<i64>>;

    /// The fencing number each line of a table's journal was written under (`None` for
    /// lines written without a lease: a new table's first lines, a single node's older
    /// ones), in order.
    ///
    /// A read: it sees what committed transactions wrote.
    fn journal_fences(&self, table: i64) -> Result<Vec<Option<u64>>>;

    /// Says that node `name` is alive and reached at `url`.
    ///
    /// One transaction.
    fn node_alive(&self, name: &str, url: &str) -> Result<()>;

    /// A node by name.
    ///
    /// A read: it sees what committed transactions wrote.
    fn node(&self, name: &str) -> Result<Option<NodeInfo>>;

    /// Every node that was ever alive, by name.
    ///
    /// A read: it sees what committed transactions wrote.
    fn nodes(&self) -> Result<Vec<NodeInfo>>;

    /// Holds `duty` for `node` until `ttl_ms` from now, if nobody else holds it: whether
    /// `node` holds it now (a duty's holder renews it by holding it again).
    ///
    /// One transaction.
    fn hold_duty(&self, duty: &str, node: &str, ttl_ms: u64) -> Result<bool>;
}
