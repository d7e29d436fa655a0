//! `dupmj serve`, `dupmj demo` and `dupmj password`: the web site (online play, events, standings).

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

/// `--db`: a SQLite file, or a PostgreSQL URL for several nodes.
fn parse_db(s: &str) -> Result<store::Location, String> {
    if s.trim().is_empty() {
        return Err("give a SQLite file or a postgres:// URL".into());
    }
    Ok(store::Location::parse(s))
}

#[derive(Args)]
pub struct ServeArgs {
    /// The database: a SQLite file (created with its schema on first start) or a
    /// PostgreSQL URL, postgres://user:password@host:port/dbname, shared by several nodes.
    #[arg(long, env = "DUPMJ_DB", default_value = "dupmj.sqlite", value_parser = parse_db)]
    db: store::Location,
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    addr: SocketAddr,
    /// Online play: milliseconds between two bot moves, so that people can follow them.
    #[arg(long, default_value_t = 700)]
    bot_pace_ms: u64,
    /// Publish a challenge every this many hours, the next when the last one closes (0: none).
    #[arg(long, default_value_t = 0)]
    challenge_every_hours: u32,
    /// Deals of each scheduled challenge (a multiple of 4).
    #[arg(long, default_value_t = 8)]
    challenge_deals: usize,
    /// Copies of each deal of a scheduled challenge (1 to 4): each player is given one at
    /// random and compared within it, so a deal passed on by a player who finished it helps
    /// a friend only if the friend is given the same copy.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=server::play::challenge::MAX_COPIES as i64))]
    challenge_copies: u8,
    /// Bots of scheduled challenges: random, easy, medium or strong.
    #[arg(long, default_value = "strong")]
    challenge_bots: String,
    /// Online play: a table of the lobby with nobody at it for this many minutes ends.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1440))]
    idle_minutes: u64,
    /// With a PostgreSQL database: this node's name among the nodes sharing it (default: the
    /// machine's host name and the port). Each running node needs its own.
    #[arg(long, env = "DUPMJ_NODE")]
    node: Option<String>,
    /// With a PostgreSQL database: where the other nodes reach this one, http://HOST:PORT, to
    /// relay a table's WebSocket to the node that plays it (default: http:// and --addr;
    /// needed when --addr is 0.0.0.0).
    #[arg(long, env = "DUPMJ_NODE_URL", value_parser = parse_node_url)]
    node_url: Option<String>,
    /// Threads reviewing finished hands with the expert (0: no reviews on this node; the
    /// hands wait in the queue for a node that reviews).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=64))]
    review_threads: u64,
    /// The reviewer's budget a decision, in milliseconds of the expert's default search
    /// (its playouts in proportion, however long they take).
    #[arg(long, default_value_t = agents::expert::THINK_MS, value_parser = clap::value_parser!(u32).range(10..=60_000))]
    review_ms: u32,
    /// Quick match: seconds the first of fewer than four people waits before bots near
    /// their level fill the empty seats.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=600))]
    quick_wait: u64,
    /// A reverse proxy or load balancer on another machine whose X-Forwarded-For is
    /// believed (one on this machine always is), so that the limits per address count
    /// each client, not the proxy; several are separated by commas.
    #[arg(long, env = "DUPMJ_TRUST_PROXY", value_delimiter = ',')]
    trust_proxy: Vec<std::net::IpAddr>,
    /// What the log on standard error shows: error, warn, info (failed logins, refused
    /// codes, director actions, server errors) or debug.
    #[arg(long, default_value = "info", value_parser = ["error", "warn", "info", "debug"])]
    log_level: String,
}

/// HOST:PORT, the host a name (`localhost`) or an address; IPv4 preferred when a name has both.
fn parse_addr(s: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let bad = || {
        format!("'{s}' is not an address to listen on: give HOST:PORT, e.g. 127.0.0.1:8080, localhost:8080 or 0.0.0.0:8080 (every interface)")
    };
    let all: Vec<SocketAddr> = s.to_socket_addrs().map_err(|_| bad())?.collect();
    all.iter()
        .find(|a| a.is_ipv4())
        .or(all.first())
        .copied()
        .ok_or_else(bad)
}

impl ServeArgs {
    fn open(&self) -> Result<server::App, String> {
        let app = self.open_db()?;
        let _ = app.guards.proxies.set(self.trust_proxy.clone());
        Ok(app)
    }

    fn open_db(&self) -> Result<server::App, String> {
        server::open(
            &self.db,
            server::play::PlayConfig {
                pace: std::time::Duration::from_millis(self.bot_pace_ms),
                schedule: (self.challenge_every_hours > 0).then(|| server::play::Schedule {
                    deals: self.challenge_deals,
                    copies: self.challenge_copies as usize,
                    hours: self.challenge_every_hours,
                    level: self.challenge_bots.clone(),
                }),
                idle: std::time::Duration::from_secs(self.idle_minutes * 60),
                shared_node: match self.db {
                    store::Location::Postgres(_) => Some(self.node_name()),
                    store::Location::Sqlite(_) => None,
                },
                node_url: self.node_url.clone(),
                review_threads: self.review_threads as usize,
                review_ms: self.review_ms,
                quick_wait: std::time::Duration::from_secs(self.quick_wait),
            },
        )
    }

    /// `--node`, or the machine's host name and the port.
    fn node_name(&self) -> String {
        self.node.clone().unwrap_or_else(|| {
            let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "node".into());
            format!("{host}:{}", self.addr.port())
        })
    }
}

/// `--node-url`: http://HOST:PORT.
fn parse_node_url(s: &str) -> Result<String, String> {
    let rest = s.strip_prefix("http://").ok_or_else(|| {
        format!("'{s}': give http://HOST:PORT, where the other nodes reach this one")
    })?;
    let rest = rest.trim_end_matches('/');
    if rest.is_empty() || rest.contains('/') {
        return Err(format!("'{s}': give http://HOST:PORT, without a path"));
    }
    Ok(format!("http://{rest}"))
}

#[derive(Args)]
pub struct DemoArgs {
    #[command(flatten)]
    serve: ServeArgs,
    /// Create the demo event and exit instead of serving it.
    #[arg(long)]
    no_serve: bool,
    /// The bots playing the 16 players, in turn: e.g. strong,medium,easy,random.
    #[arg(long, default_value = "greedy-r")]
    bots: String,
}

#[derive(Args)]
pub struct PasswordArgs {
    /// The database: a SQLite file or a PostgreSQL URL.
    #[arg(long, env = "DUPMJ_DB", default_value = "dupmj.sqlite", value_parser = parse_db)]
    db: store::Location,
}

/// Starts the log on standard error at the level asked for.
fn start_log(level: &str) {
    use tracing_subscriber::filter::LevelFilter;
    let level = match level {
        "error" => LevelFilter::ERROR,
        "warn" => LevelFilter::WARN,
        "debug" => LevelFilter::DEBUG,
        _ => LevelFilter::INFO,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

#[derive(Args)]
pub struct BackupArgs {
    /// The SQLite database file to copy.
    #[arg(long, default_value = "dupmj.sqlite")]
    db: PathBuf,
    /// The copy: a new file (an existing one is refused).
    out: PathBuf,
}

pub fn backup(a: BackupArgs) -> Result<(), String> {
    server::backup(&a.db, &a.out)?;
    println!("{} copied to {}", a.db.display(), a.out.display());
    Ok(())
}

fn run_server(app: server::App, a: &ServeArgs) -> Result<(), String> {
    start_log(&a.log_level);
    let first_run = app
        .store
        .director_hash()
        .map_err(|e| e.to_string())?
        .is_none();
    server::serve(app, a.addr, |addr| {
        println!("dupmj serving {} on http://{addr}/", a.db);
        if first_run {
            println!("first run: set the director password from this machine at http://{addr}/setup (or with `dupmj password`)");
        }
        println!("Ctrl-C stops");
    })
}

pub fn serve(a: ServeArgs) -> Result<(), String> {
    let app = a.open()?;
    run_server(app, &a)
}

pub fn demo(a: DemoArgs) -> Result<(), String> {
    let bots: Vec<String> = a.bots.split(',').map(|b| b.trim().to_string()).collect();
    if let Some(b) = bots
        .iter()
        .find(|b| agents::registry::builtin(b, 0).is_none())
    {
        return Err(format!(
            "--bots: '{b}' is not a built-in bot (use one of {})",
            agents::registry::BUILTIN.join(", ")
        ));
    }
    if !a.no_serve {
        // Nothing is written when the server could not start afterwards.
        std::net::TcpListener::bind(a.serve.addr).map_err(|e| format!("{}: {e}", a.serve.addr))?;
    }
    let app = a.serve.open()?;
    let (id, saved) = server::demo::run(app.store.as_ref(), &bots).map_err(|e| e.to_string())?;
    println!(
        "demo event {id}: 16 players, {saved} table results played by bots and recorded; standings at /events/{id}/standings"
    );
    if a.no_serve {
        return Ok(());
    }
    run_server(app, &a.serve)
}

pub fn password(a: PasswordArgs) -> Result<(), String> {
    let app = server::open(&a.db, server::play::PlayConfig::default())?;
    eprintln!("new director password (one line on standard input):");
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let pw = line.trim_end_matches(['\r', '\n']);
    server::auth::set_director_password(app.store.as_ref(), pw, "command line")
        .map_err(|e| e.to_string())?;
    println!("director password set in {}", a.db);
    Ok(())
}

#[derive(Args)]
pub struct MigrateArgs {
    /// The SQLite file to move (it is only read).
    #[arg(long = "from", default_value = "dupmj.sqlite")]
    from: PathBuf,
    /// The PostgreSQL database to move it into: postgres://user:password@host:port/dbname
    /// (its schema is made; it must hold no data yet).
    #[arg(long = "to", env = "DUPMJ_DB")]
    to: String,
}

/// Moves a SQLite file into PostgreSQL, then checks it: rows per table, and every event's
/// standings computed from each side.
pub fn migrate(a: MigrateArgs) -> Result<(), String> {
    use store::EventStore;
    if !a.from.exists() {
        return Err(format!("--from: {} does not exist", a.from.display()));
    }
    let store::Location::Postgres(url) = store::Location::parse(&a.to) else {
        return Err(format!(
            "--to: '{}' is not a PostgreSQL URL (postgres://user:password@host:port/dbname)",
            a.to
        ));
    };
    let from = store::SqliteStore::open(&a.from).map_err(|e| e.to_string())?;
    let to = store::PgStore::connect(&url).map_err(|e| e.to_string())?;
    let moved = store::migrate::sqlite_to_postgres(&from, &to).map_err(|e| e.to_string())?;
    println!("{:<18} {:>8} {:>10}", "table", "sqlite", "postgres");
    let mut bad = Vec::new();
    for m in &moved {
        println!("{:<18} {:>8} {:>10}", m.table, m.sqlite, m.postgres);
        if m.sqlite != m.postgres {
            bad.push(m.table);
        }
    }
    let mut events = 0;
    for (id, name) in from.events().map_err(|e| e.to_string())? {
        let before = server::service::standings_text(&from, id).map_err(|e| e.to_string())?;
        let after = server::service::standings_text(&to, id).map_err(|e| e.to_string())?;
        if before != after {
            bad.push("standings");
            eprintln!("event {id} ({name}): standings differ after the move");
        }
        events += 1;
    }
    if !bad.is_empty() {
        return Err(format!("the move does not check out: {}", bad.join(", ")));
    }
    println!(
        "moved {} into {}: every table's rows and the standings of {events} event(s) are the same on both",
        a.from.display(),
        store::Location::Postgres(url)
    );
    Ok(())
}
