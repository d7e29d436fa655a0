//! # play — online play without HTTP
//!
//! Owns people and bots at tables of online play: each table in play is a [`room::Room`]
//! owned by one task ([`actor`]) that commands (a move, a seat taken, a connection opened
//! or closed, the clock) go into and states for each connection come out of; the journal
//! writer ([`writer`]); time-outs and stand-ins; challenges ([`challenge`]) and online
//! events' sittings ([`online`]); the sweeper that moves them on; the quick-match queue
//! ([`quick`]); the one rule of who may see which deal ([`secrecy`]); the names people play
//! under ([`names`]); training drills, their schedule and the problem of the day ([`drills`]). No HTTP, HTML or
//! cookie is known here: the web crate maps requests and WebSocket messages onto this.
//!
//! Each table in play is a [`room::Room`] owned by one task ([`actor`]): messages from the
//! connections and the clock go in, a fresh state for each connection comes out. Every
//! change is written to the table's journal before anyone is told of it (one transaction
//! for everything pending across tables, see [`writer`]), so a restarted server rebuilds
//! each table by replaying its journal. A table nobody is connected to and that is over
//! has no task and costs nothing; it is rebuilt from its journal when someone looks.

#![deny(missing_docs)]

pub mod actor;
pub mod challenge;
pub mod cluster;
pub mod drills;
mod error;
mod feed;
pub mod field;
pub mod history;
pub mod names;
pub mod online;
pub mod quick;
pub mod reviewer;
pub mod room;
pub mod secrecy;
pub mod snapshot;
pub mod spec;
pub mod text;
pub mod view;
pub mod when;
pub mod writer;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use store::Store;

/// A new secret key for a deal set (a table's, a challenge's, an event's).
pub fn new_key() -> table::set::SetKey {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the system has randomness");
    table::set::SetKey::from_bytes(b)
}
use tokio::sync::mpsc;

use actor::Cmd;
pub use cluster::{keeper, Located, LEASE};
pub use error::PlayError;
use room::Room;
use spec::TableSpec;
use store::now_ms;

/// Tables of the lobby a guest may have going at once.
pub const MAX_TABLES_GUEST: usize = 3;
/// Tables of the lobby an account may have going at once.
pub const MAX_TABLES_ACCOUNT: usize = 10;
/// Tables a bot account may have going at once.
pub const MAX_TABLES_BOT: usize = 4;

/// Settings of online play.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Pause between bot moves, so that people can follow them (zero in tests).
    pub pace: Duration,
    /// Challenges the server publishes on its own, one after another.
    pub schedule: Option<Schedule>,
    /// A table of the lobby with nobody at it for this long ends (its hands are not
    /// played out by bots).
    pub idle: Duration,
    /// `None`: the only node on its database, which takes back every table at start.
    /// `Some(name)`: one of several nodes sharing a database; each table in play is
    /// played by the node holding its lease ([`store::LeaseStore`]), and tables of a node
    /// that stopped renewing are taken over ([`keeper`]). See [`cluster`].
    pub shared_node: Option<String>,
    /// Where the other nodes reach this one (`http://host:port`); by default the address
    /// the server listens on.
    pub node_url: Option<String>,
    /// Threads reviewing finished hands ([`reviewer`]); 0: none on this node.
    pub review_threads: usize,
    /// The reviewer's budget a decision, in milliseconds of the expert's default search.
    pub review_ms: u32,
    /// How long the first of fewer than four people waits in the quick-match queue
    /// before bots fill the empty seats ([`quick`]).
    pub quick_wait: Duration,
}

/// A challenge published by the server whenever the last scheduled one has closed.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// Deals in each scheduled challenge.
    pub deals: usize,
    /// Copies of each deal (1: everyone plays the same deals).
    pub copies: usize,
    /// How long each stays open, in hours.
    pub hours: u32,
    /// The level of the bots at its tables (one of [`spec::BOT_LEVELS`]).
    pub level: String,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            pace: Duration::from_millis(700),
            schedule: None,
            idle: Duration::from_secs(10 * 60),
            shared_node: None,
            node_url: None,
            review_threads: 1,
            review_ms: agents::expert::THINK_MS,
            quick_wait: Duration::from_secs(20),
        }
    }
}

/// A table as the lobby lists it; kept in the database ([`store::PlayStore::lobby_lines`])
/// so that every node shows every node's tables.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LobbyLine {
    /// The table's id.
    pub id: i64,
    /// What it plays, in English (deals or a regular game).
    pub what: String,
    /// What it plays as a text with `{}` and its arguments, and whether it is practice,
    /// for a page to say in its own language ([`spec::TableSpec::describe_parts`]).
    pub what_parts: (String, Vec<String>, bool),
    /// Who sits at each place ("(open)" for a free one).
    pub names: [String; 4],
    /// Places still free.
    pub open: usize,
    /// `waiting`, `playing` or `over`.
    pub stage: String,
    /// The label of the hand in play, or "finished".
    pub hand: String,
    /// The people it counts against ([`Hall::open_tables_of`]): its opener and everyone
    /// seated.
    pub people: Vec<i64>,
}

/// How long the lobby still lists a table after it ended.
pub const ENDED_LISTED: Duration = Duration::from_secs(10 * 60);

/// Every table in play, by id.
pub struct Hall {
    /// Where tables, journals and hands are kept.
    pub store: Arc<dyn Store>,
    /// The settings online play was started with.
    pub config: PlayConfig,
    rooms: Mutex<HashMap<i64, mpsc::UnboundedSender<Cmd>>>,
    /// The fence this node writes each of its tables' journals under.
    leases: Mutex<HashMap<i64, u64>>,
    /// Each of this node's tables' lobby line as last written.
    lobby: Mutex<HashMap<i64, LobbyLine>>,
    /// Where the other nodes reach this one (set once the server listens).
    url: std::sync::OnceLock<String>,
    writer: writer::Writer,
    next_conn: AtomicU64,
    /// Wakes the [`sweeper`] when a challenge or event table is over.
    pub(crate) nudge: tokio::sync::Notify,
    /// Wakes the [`quick::matchmaker`] when someone joins the queue.
    pub(crate) quick_nudge: tokio::sync::Notify,
    /// Challenges whose par this node is playing in the background.
    pub(crate) pars: Mutex<std::collections::HashSet<i64>>,
    /// Tables' settings as the rating and the profiles read them, by table: what they ask
    /// of them (practice or not, duplicate or regular, the rules, the challenge) is fixed
    /// when a table is made, so a table is read once (the most kept is bounded).
    pub(crate) specs: Mutex<HashMap<i64, Arc<TableSpec>>>,
}

impl Hall {
    /// An empty hall over `store`; starts the journal writer's thread.
    pub fn new(store: Arc<dyn Store>, config: PlayConfig) -> Hall {
        Hall {
            writer: writer::Writer::start(store.clone()),
            store,
            config,
            rooms: Mutex::new(HashMap::new()),
            leases: Mutex::new(HashMap::new()),
            lobby: Mutex::new(HashMap::new()),
            url: std::sync::OnceLock::new(),
            next_conn: AtomicU64::new(1),
            nudge: tokio::sync::Notify::new(),
            quick_nudge: tokio::sync::Notify::new(),
            pars: Mutex::new(std::collections::HashSet::new()),
            specs: Mutex::new(HashMap::new()),
        }
    }

    /// Opens a new table (its opener sits at their place) and starts its task.
    pub fn open_table(
        self: &Arc<Self>,
        spec: TableSpec,
        owner_name: &str,
    ) -> Result<i64, PlayError> {
        let sitters = if spec.places.get(spec.owner_place) == Some(&spec::Place::Person) {
            vec![(spec.owner_place, spec.owner, owner_name.to_string())]
        } else {
            Vec::new()
        };
        self.open_seated(spec, &sitters)
    }

    /// Opens a new table with `sitters` (place, person, name) at their places, and starts
    /// its task; the first hand starts at once when no place is left open.
    pub fn open_seated(
        self: &Arc<Self>,
        spec: TableSpec,
        sitters: &[(usize, i64, String)],
    ) -> Result<i64, PlayError> {
        spec.check()?;
        // Checked before anything is stored: a table is not kept half made.
        let journal = Room::opening(&spec, sitters, &[])?;
        let json = serde_json::to_string(&spec)?;
        let id = self
            .store
            .create_play_table(&json, spec.challenge.is_none() && spec.sitting.is_none())?;
        self.writer.write_now(
            journal
                .into_iter()
                .enumerate()
                .map(|(i, e)| (id, i as u64, e)),
        )?;
        self.room(id)?;
        Ok(id)
    }

    /// The task of a table, rebuilding it from its journal when it has none.
    pub fn room(self: &Arc<Self>, id: i64) -> Result<mpsc::UnboundedSender<Cmd>, PlayError> {
        match self.locate(id)? {
            Located::Here(tx) => Ok(tx),
            Located::Elsewhere(node) => Err(PlayError::Elsewhere {
                table: id,
                node: node.name,
            }),
        }
    }

    /// Tells table `id`, where this node plays it, that its time is up: every person's
    /// remaining decisions are played at once by the time-out defaults.
    pub fn play_out(self: &Arc<Self>, id: i64) {
        if let Ok(tx) = self.room(id) {
            let _ = tx.send(Cmd::PlayOut);
        }
    }

    /// The name this node holds leases under.
    pub fn node(&self) -> &str {
        self.config.shared_node.as_deref().unwrap_or("local")
    }

    /// Where table `id` is played: by a task of this node (started, and the table rebuilt
    /// from its journal, when nobody plays it), or by another node that holds its lease.
    pub fn locate(self: &Arc<Self>, id: i64) -> Result<Located, PlayError> {
        if let Some(tx) = self.rooms.lock().unwrap().get(&id) {
            if !tx.is_closed() {
                return Ok(Located::Here(tx.clone()));
            }
        }
        let stored = self.store.play_table(id)?;
        // A table that is over is only shown: any node may rebuild it, nothing is written.
        let fence = if stored.finished {
            None
        } else {
            let single = self.config.shared_node.is_none();
            let claimed =
                self.store
                    .claim_table(id, self.node(), LEASE.as_millis() as u64, single)?;
            match claimed {
                Some(f) => Some(f),
                None => return self.owner_of(id).map(Located::Elsewhere),
            }
        };
        let spec: TableSpec = serde_json::from_str(&stored.spec).map_err(|e| {
            PlayError::Internal(format!("table {id}: its settings cannot be read: {e}"))
        })?;
        // Read after the lease is ours: nothing is appended by anyone else from here on.
        let journal = self.store.journal(id)?;
        let room = Room::restore(id, spec, self.config.pace, &journal)?;
        Ok(Located::Here(self.spawn(room, journal.len() as u64, fence)))
    }

    /// The node holding table `id`'s lease, as the other nodes reach it.
    fn owner_of(&self, id: i64) -> Result<store::NodeInfo, PlayError> {
        let owner = self
            .store
            .table_owner(id)?
            .ok_or_else(|| PlayError::NotFound(format!("table {id}: nobody holds it")))?;
        self.store.node(&owner.node)?.ok_or_else(|| {
            PlayError::NotFound(format!("table {id}: node {} is not known", owner.node))
        })
    }

    /// Says where the other nodes reach this one (once, when the server listens).
    pub fn set_url(&self, url: String) {
        let _ = self.url.set(url);
    }

    /// Where the other nodes reach this one.
    pub fn url(&self) -> &str {
        self.url.get().map_or("", String::as_str)
    }

    /// The fence this node writes table `id`'s journal under, if it plays it.
    pub(crate) fn fence(&self, id: i64) -> Option<u64> {
        self.leases.lock().unwrap().get(&id).copied()
    }

    fn spawn(
        self: &Arc<Self>,
        room: Room,
        journaled: u64,
        fence: Option<u64>,
    ) -> mpsc::UnboundedSender<Cmd> {
        let (tx, rx) = mpsc::unbounded_channel();
        let id = room.id;
        let mut rooms = self.rooms.lock().unwrap();
        // Two requests may rebuild the same table at once: the first one registered wins.
        if let Some(old) = rooms.get(&id) {
            if !old.is_closed() {
                return old.clone();
            }
        }
        rooms.insert(id, tx.clone());
        drop(rooms);
        if let Some(f) = fence {
            self.leases.lock().unwrap().insert(id, f);
        }
        if let Some(line) = self.line_change(&room) {
            if let Err(e) = self.store.set_lobby_line(id, &line) {
                tracing::warn!(table = id, "lobby line not written: {e}");
            }
        }
        tokio::spawn(actor::run(room, journaled, rx, self.clone()));
        tx
    }

    /// Rebuilds every table still in play (at start-up); on a shared database, this
    /// node's share of the tables nobody holds.
    pub fn resume_all(self: &Arc<Self>) -> Result<usize, PlayError> {
        if self.shared() {
            // Only the tables nobody holds, this node's share of them ([`Hall::keep`]).
            return Ok(self.keep());
        }
        let tables = self.store.play_tables(true, usize::MAX >> 1)?;
        let mut n = 0;
        for t in tables {
            if self.live(t.id) {
                continue;
            }
            match self.locate(t.id) {
                Ok(Located::Here(_)) => n += 1,
                Ok(Located::Elsewhere(_)) => {}
                Err(e) => eprintln!("table {} not resumed: {e}", t.id),
            }
        }
        Ok(n)
    }

    /// The table's lobby line as JSON when it differs from the one last written (then
    /// taken as written: a failed write stops the table anyway).
    pub(crate) fn line_change(&self, room: &Room) -> Option<String> {
        // Challenge and event tables are played without watchers: others play those deals.
        if room.spec.challenge.is_some() || room.spec.sitting.is_some() {
            return None;
        }
        let line = LobbyLine {
            id: room.id,
            what: room.spec.describe(),
            what_parts: {
                let (text, args) = room.spec.describe_parts();
                (text.to_string(), args, room.spec.practice.is_some())
            },
            names: std::array::from_fn(|p| room.name_of(p)),
            open: room.open_places().len(),
            stage: match room.stage {
                room::Stage::Waiting => "waiting",
                room::Stage::Playing | room::Stage::Between { .. } => "playing",
                room::Stage::Over => "over",
            }
            .to_string(),
            hand: if room.stage == room::Stage::Over {
                "finished".into()
            } else {
                room.label(room.hand_no)
            },
            people: room
                .seated
                .iter()
                .flatten()
                .map(|s| s.person)
                .chain(std::iter::once(room.spec.owner))
                .collect(),
        };
        let mut lines = self.lobby.lock().unwrap();
        if lines.get(&room.id) == Some(&line) {
            return None;
        }
        let json = serde_json::to_string(&line).ok()?;
        lines.insert(room.id, line);
        Some(json)
    }

    pub(crate) fn closed(&self, id: i64, over: bool) {
        self.rooms.lock().unwrap().remove(&id);
        if let Some(fence) = self.leases.lock().unwrap().remove(&id) {
            // Let the table go at once; if this fails the lease simply runs out.
            let _ = self.store.release_table(id, self.node(), fence);
        }
        self.lobby.lock().unwrap().remove(&id);
        if over {
            let _ = self.store.drop_lobby_line(id);
        }
    }

    /// The lobby: tables in play on every node, and those that ended in the last
    /// [`ENDED_LISTED`], newest first.
    pub fn lobby(&self) -> Vec<LobbyLine> {
        let since = now_ms() - ENDED_LISTED.as_millis() as i64;
        match self.store.lobby_lines(since) {
            Ok(lines) => lines
                .iter()
                .filter_map(|(_, l)| serde_json::from_str(l).ok())
                .collect(),
            Err(e) => {
                tracing::warn!("the lobby could not be read: {e}");
                Vec::new()
            }
        }
    }

    /// Tables of the lobby not yet over that `person` opened or sits at.
    pub fn open_tables_of(&self, person: i64) -> usize {
        self.lobby()
            .iter()
            .filter(|l| l.stage != "over" && l.people.contains(&person))
            .count()
    }

    /// Refuses a person who already has as many tables going as they may
    /// ([`MAX_TABLES_GUEST`], [`MAX_TABLES_ACCOUNT`]).
    pub fn check_table_limit(&self, person: &store::Person) -> Result<(), PlayError> {
        let most = if person.bot {
            MAX_TABLES_BOT
        } else if person.account {
            MAX_TABLES_ACCOUNT
        } else {
            MAX_TABLES_GUEST
        };
        let n = self.open_tables_of(person.id);
        if n >= most {
            return Err(PlayError::TooManyTables {
                going: n,
                account: person.account,
                idle_minutes: self.config.idle.as_secs() / 60,
            });
        }
        Ok(())
    }

    /// Whether table `id` has a task now.
    pub fn live(&self, id: i64) -> bool {
        self.rooms
            .lock()
            .unwrap()
            .get(&id)
            .is_some_and(|tx| !tx.is_closed())
    }

    /// How many tables have a task now.
    pub fn live_tables(&self) -> usize {
        self.rooms.lock().unwrap().len()
    }

    /// A number for a new connection, unique while the server runs.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn writer(&self) -> &writer::Writer {
        &self.writer
    }
}

/// What the server does on its own: every few seconds, and at once when a challenge or
/// event table is over, it plays out the tables of closed challenges, publishes scheduled
/// challenges, enters online events' results and opens their next tables. Of several
/// nodes, each plays out its own tables and the one holding the `sweeper` duty does the
/// rest (so a table that ends on another node is seen within one round, 5 s).
pub async fn sweeper(hall: Arc<Hall>) {
    loop {
        let h = hall.clone();
        let _ = tokio::task::spawn_blocking(move || {
            // Each node plays out its own tables; one node publishes and moves events on.
            let duty = h.holds_duty("sweeper");
            challenge::sweep(&h, duty);
            if duty {
                online::sweep(&h);
            }
        })
        .await;
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = hall.nudge.notified() => {}
        }
    }
}
