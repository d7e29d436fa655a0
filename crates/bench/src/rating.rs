//! The kept rating at scale: a generated history of many stored hands and players, then
//! the update after one finished session, a profile page, the leaderboard page (each as
//! a median and a 99th percentile) and the full rebuild.
//!
//! The history: players (accounts) each open tables of four duplicate deals against three
//! bots; half the tables play deals of their own (compared with the par, kept as the live
//! server keeps it), half play deals from a common pool, each held by many players (as a
//! challenge's are). Match points are drawn from each player's skill, so that the ratings
//! have something to find. Every session is rated as it would have been, once.

use std::sync::Arc;
use std::time::Instant;

use play::room::{HandSummary, Held};
use play::spec::{DealRef, Hands, Place, TableSpec};
use store::prelude::*;
use store::{NewHand, PlayWrite};
use table::engine::Outcome;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use server::App;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Stored hands in all (four per table).
    pub hands: usize,
    /// Players (accounts).
    pub players: usize,
    /// Deals in the common pool.
    pub pool: usize,
    /// Timed repetitions of each page and of the update.
    pub samples: usize,
    /// The generator's seed.
    pub seed: u64,
    /// Also rebuild with every earlier holder in each deal-seat's field (as before the
    /// field was bounded), to compare.
    pub unbounded: bool,
}

/// What was measured, in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Measured {
    /// Seconds to generate and store the history.
    pub generate_s: f64,
    /// Seconds to rate every session of it as the live server would have.
    pub rate_all_s: f64,
    /// Rating one more finished session: median, 99th percentile.
    pub update_ms: (f64, f64),
    /// A profile page.
    pub profile_ms: (f64, f64),
    /// The leaderboard page.
    pub board_ms: (f64, f64),
    /// The full rebuild, in seconds, and whether it found the kept ratings.
    pub rebuild_s: f64,
    /// Differences the rebuild reported.
    pub differences: usize,
    /// Stored hands and rated people at the end.
    pub stored_hands: i64,
    /// People with a kept rating.
    pub rated_people: usize,
    /// Kendall's tau between the rebuilt ratings and the skills the players were generated
    /// with (how well the rating orders them).
    pub tau: f64,
    /// With [`Plan::unbounded`]: the rebuild with every holder in the field, in seconds, and
    /// its tau.
    pub unbounded: Option<(f64, f64)>,
}

const HANDS_PER_TABLE: usize = 4;

/// The generator's randomness (SplitMix64: small, and the same history for the same seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn summary(hand_no: usize, person: i64, name: &str, points: [i32; 4]) -> HandSummary {
    HandSummary {
        hand_no,
        label: format!("deal {hand_no} ({hand_no} of {HANDS_PER_TABLE})"),
        names: [
            name.to_string(),
            "bot (medium)".into(),
            "bot (medium)".into(),
            "bot (medium)".into(),
        ],
        persons: [Some(person), None, None, None],
        places: [0, 1, 2, 3],
        points,
        outcome: Outcome::Discard,
        stood_in: [false; 4],
        bot_moves: Default::default(),
        held: Some(std::array::from_fn(|_| Held::Own)),
    }
}

/// The key of a par of the generated tables' company: the person's seat (East) and three
/// `medium` bots.
fn par_key(rules: &str) -> String {
    play::history::par_key(
        rules,
        &["strong", "medium", "medium", "medium"].map(String::from),
    )
}

/// Match points of a hand: a winner takes 8–40 from the discarder, or nothing happens;
/// seat 0's chances lean on the player's skill.
fn points(rng: &mut Rng, skill: f64) -> [i32; 4] {
    let r = rng.unit();
    let value = 8 + rng.below(33) as i32;
    let mut p = [0; 4];
    let win = 0.22 + 0.05 * skill;
    let lose = 0.18 - 0.05 * skill;
    if r < win {
        p[0] = 3 * value;
        p[1..].iter_mut().for_each(|x| *x = -value);
    } else if r < win + lose {
        p[0] = -value;
        p[1] = value;
    }
    p
}

/// A duplicate table of `person` (at East) over `seeds`, with three bots of `level`.
pub fn spec(person: i64, seeds: &[u64], level: &str) -> TableSpec {
    let bot = || Place::Bot {
        level: level.into(),
    };
    TableSpec {
        hands: Hands::Duplicate {
            deals: seeds
                .iter()
                .enumerate()
                .map(|(i, &seed)| DealRef {
                    seed,
                    label: (i + 1).to_string(),
                })
                .collect(),
        },
        places: [Place::Person, bot(), bot(), bot()],
        owner: person,
        owner_place: 0,
        limit_s: 20,
        bank_s: 60,
        challenge: None,
        sitting: None,
        deals_key: None,
        practice: None,
        rules_version: None,
    }
}

/// Stores one finished table of `person` over `seeds`; its id.
fn store_table(
    store: &Arc<dyn Store>,
    rng: &mut Rng,
    person: (i64, &str, f64),
    seeds: &[u64],
) -> Result<i64, String> {
    let (id, name, skill) = person;
    let spec = spec(id, seeds, "medium");
    let text = serde_json::to_string(&spec).map_err(|e| e.to_string())?;
    let table = store
        .create_play_table(&text, false)
        .map_err(|e| e.to_string())?;
    let mut w = PlayWrite::default();
    for (i, &seed) in seeds.iter().enumerate() {
        let s = summary(i + 1, id, name, points(rng, skill));
        w.hands.push(NewHand {
            table,
            hand_no: (i + 1) as u32,
            deal_key: Some(format!("dup:{seed}")),
            summary: serde_json::to_string(&s).map_err(|e| e.to_string())?,
            log: "{}".into(),
        });
    }
    w.finished.push((table, text));
    store.write_play(&w).map_err(|e| e.to_string())?;
    Ok(table)
}

/// Median and 99th percentile of `ms`.
fn spread(mut ms: Vec<f64>) -> (f64, f64) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// One GET of `path` from the server at `addr`, as a browser makes it; milliseconds.
async fn get(addr: std::net::SocketAddr, path: &str) -> Result<f64, String> {
    let started = Instant::now();
    let mut c = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    c.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .map_err(|e| e.to_string())?;
    let mut body = Vec::new();
    c.read_to_end(&mut body).await.map_err(|e| e.to_string())?;
    let head = String::from_utf8_lossy(&body[..body.len().min(20)]).to_string();
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("{path}: {head}"));
    }
    Ok(started.elapsed().as_secs_f64() * 1000.0)
}

/// A generated history: its players (id, name, skill), its tables in the order stored,
/// and where the generator stands.
pub struct History {
    /// Players: id, name, skill (IMP per hand against medium).
    pub people: Vec<(i64, String, f64)>,
    /// The tables stored, oldest first (none rated yet).
    pub tables: Vec<i64>,
    rng: Rng,
    own_seed: u64,
}

impl History {
    /// Four deals for a new table: from the pool every other table, else its own (their
    /// pars kept, as the live server keeps them).
    fn deals(&mut self, store: &Arc<dyn Store>, plan: &Plan, t: usize) -> Result<Vec<u64>, String> {
        if t.is_multiple_of(2) {
            return Ok((0..HANDS_PER_TABLE)
                .map(|_| self.rng.below(plan.pool as u64))
                .collect());
        }
        let rules = table::rules::TableRules::seeds();
        let key = par_key(rules.name);
        let mut seeds = Vec::new();
        for _ in 0..HANDS_PER_TABLE {
            self.own_seed += 1;
            store
                .save_par(self.own_seed, &key, points(&mut self.rng, 0.2))
                .map_err(|e| e.to_string())?;
            seeds.push(self.own_seed);
        }
        Ok(seeds)
    }

    /// Stores one more finished table of a player drawn at random; its id.
    pub fn table(&mut self, store: &Arc<dyn Store>, plan: &Plan) -> Result<i64, String> {
        let t = self.tables.len();
        let seeds = self.deals(store, plan, t)?;
        let (id, name, skill) =
            self.people[self.rng.below(self.people.len() as u64) as usize].clone();
        let table = store_table(store, &mut self.rng, (id, &name, skill), &seeds)?;
        self.tables.push(table);
        Ok(table)
    }
}

/// Generates the history of `plan` into `store` (empty), rating nothing.
pub fn generate(
    store: &Arc<dyn Store>,
    plan: &Plan,
    progress: &dyn Fn(&str),
) -> Result<History, String> {
    let mut rng = Rng(plan.seed);
    let mut people = Vec::with_capacity(plan.players);
    for i in 0..plan.players {
        let name = format!("Player {i:05}");
        let p = store
            .create_person(&name, Some("not a password"))
            .map_err(|e| e.to_string())?;
        let skill = -2.0 + 3.0 * rng.unit();
        people.push((p.id, name, skill));
    }
    let rules = table::rules::TableRules::seeds();
    for seed in 0..plan.pool as u64 {
        store
            .save_par(seed, &par_key(rules.name), points(&mut rng, 0.2))
            .map_err(|e| e.to_string())?;
    }
    let mut h = History {
        people,
        tables: Vec::new(),
        rng,
        own_seed: 1_000_000_000,
    };
    let tables = plan.hands / HANDS_PER_TABLE;
    for t in 0..tables {
        h.table(store, plan)?;
        if t % 10_000 == 0 && t > 0 {
            progress(&format!("{t} tables of {tables} stored"));
        }
    }
    Ok(h)
}

/// Generates the history of `plan` into `app`'s (empty) store and measures.
pub fn run(app: &App, plan: &Plan, progress: &dyn Fn(&str)) -> Result<Measured, String> {
    let store = app.store.clone();
    let mut m = Measured::default();
    let started = Instant::now();
    let mut history = generate(&store, plan, progress)?;
    m.generate_s = started.elapsed().as_secs_f64();
    progress("rating every session as it finished");
    let started = Instant::now();
    let r = play::history::rebuild(&app.hall).map_err(|e| e.to_string())?;
    store
        .replace_ratings(&r.rows, &r.hands, &r.newly)
        .map_err(|e| e.to_string())?;
    m.rate_all_s = started.elapsed().as_secs_f64();

    // One more finished session, rated: the update.
    progress("timing the update, the pages and the rebuild");
    let mut update = Vec::new();
    for _ in 0..plan.samples {
        let table = history.table(&store, plan)?;
        let t = Instant::now();
        play::history::table_over(&app.hall, table).map_err(|e| e.to_string())?;
        update.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    m.update_ms = spread(update);
    // The pages, from a server on this process's runtime (as `dupmj serve` runs).
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let served = app.clone();
    let addr = rt.block_on(async move {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = l.local_addr()?;
        tokio::spawn(async move { axum::serve(l, server::router(served)).await });
        Ok::<_, std::io::Error>(addr)
    });
    let addr = addr.map_err(|e| e.to_string())?;
    let mut profile = Vec::new();
    let mut board = Vec::new();
    for _ in 0..plan.samples {
        let (_, name, _) = &history.people[history.rng.below(history.people.len() as u64) as usize];
        let path = format!("/play/p/{}", name.replace(' ', "%20"));
        profile.push(rt.block_on(get(addr, &path))?);
        board.push(rt.block_on(get(addr, "/play/leaderboard"))?);
    }
    m.profile_ms = spread(profile);
    m.board_ms = spread(board);
    let started = Instant::now();
    let r = play::history::rebuild(&app.hall).map_err(|e| e.to_string())?;
    m.rebuild_s = started.elapsed().as_secs_f64();
    m.differences = r.differences.len();
    m.stored_hands = store.last_hand_id().map_err(|e| e.to_string())?;
    m.rated_people = r.people;
    m.tau = tau_of(&r.rows, &history.people)?;
    if plan.unbounded {
        progress("rebuilding with every holder in the field");
        let started = Instant::now();
        let r =
            play::history::rebuild_with_field(&app.hall, usize::MAX).map_err(|e| e.to_string())?;
        m.unbounded = Some((
            started.elapsed().as_secs_f64(),
            tau_of(&r.rows, &history.people)?,
        ));
    }
    Ok(m)
}

/// Kendall's tau between the rated means of `rows` and the players' generated skills.
fn tau_of(rows: &[store::RatingRow], people: &[(i64, String, f64)]) -> Result<f64, String> {
    let skill: std::collections::HashMap<i64, f64> =
        people.iter().map(|(id, _, s)| (*id, *s)).collect();
    let mut rated = Vec::new();
    let mut truth = Vec::new();
    for r in rows {
        let Some(&s) = skill.get(&r.person) else {
            continue;
        };
        let state: tournament::rating::Skill =
            serde_json::from_str(&r.state).map_err(|e| e.to_string())?;
        rated.push(state.mean);
        truth.push(s);
    }
    Ok(tournament::rating::kendall_tau(&rated, &truth))
}
