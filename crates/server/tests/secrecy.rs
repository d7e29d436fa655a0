//! Deal secrecy over every route and every WebSocket message, for every role and every
//! kind of table (docs/secrecy.md).
//!
//! (Long on purpose: one server with every kind of table, asked by every role, so that no
//! route is left out between files.)
//!
//! The test sets up, in one server: a person alone with bots over three deals of a secret
//! set (hand 1 over, hand 2 in play), two people at one table, a regular game, a table
//! practising a live event's released deals (and the event's own deals refused before
//! that), an online event's sittings, and a challenge. It then asks every page, log,
//! replay step, set file and socket as nobody, a guest at no table, each player, a player
//! who has played the same deal elsewhere, and the director, and fails if a response holds
//! a concealed tile, a wall or a seed the rule keeps from that role. What each role may
//! see is worked out here from the rule's words, not from the server's code.
//!
//! Longer than most files: one scene is set up once and then looked at from every
//! viewer's side; splitting it would set it up again in each part.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;

use common::*;
use mcr::Wind;
use serde_json::{json, Value};
use server::play::challenge::{self, NewChallenge};
use server::play::online;
use server::play::spec::{DealRef, Hands, Place, TableSpec};
use server::service::{create_event, parse_entrants};
use server::App;
use table::deal::Deal;
use table::engine::{Decision, Table};
use table::rules::TableRules;
use table::set::SetKey;
use table::wall::{RegularWall, Setup};
use tournament::challenge::Rotation;

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    Nobody,
    /// A guest at no table.
    Gil,
    /// Plays at most tables.
    Ann,
    /// The second person at the two-person table.
    Bo,
    /// Has played the challenge's and the online event's deal at another table.
    Cy,
    Director,
}

const ROLES: [Role; 6] = [
    Role::Nobody,
    Role::Gil,
    Role::Ann,
    Role::Bo,
    Role::Cy,
    Role::Director,
];

/// What a role may have of one hand, by the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
enum May {
    All,
    /// Its own seat's tiles and the public facts.
    Seat(Wind),
    /// The public facts (discards, melds) of a hand in play at a table one may watch.
    Watch,
    Nothing,
}

/// One hand of a table the test knows: its seed, the starting hands and walls.
struct KnownHand {
    seed: u64,
    /// Fingerprints by seat: its starting tiles as the board shows them, as a deal file
    /// writes them, and its wall as a deal file writes it.
    prints: [Vec<String>; 4],
    /// Fingerprints of the shared wall (regular games).
    wall: Vec<String>,
    /// Fingerprints of what was discarded at this table: each seat's discards.
    discards: Vec<Vec<String>>,
}

fn quoted(tiles: &[mcr::Tile]) -> String {
    tiles
        .iter()
        .map(|t| format!("\"{}\"", t.code()))
        .collect::<Vec<_>>()
        .join(",")
}

/// The hands of a challenge's par table: hand h is deal h / 4 of its set, one per seat.
fn par_hands(spec: &challenge::ChallengeSpec) -> Vec<KnownHand> {
    (0..spec.set_len() * 4)
        .map(|h| {
            let seed = spec.deal_seed(h / 4);
            known(
                Setup::Duplicate(Deal::generate(seed)),
                TableRules::seeds(),
                seed,
            )
        })
        .collect()
}

fn known(setup: Setup, rules: TableRules, seed: u64) -> KnownHand {
    let deal = match &setup {
        Setup::Duplicate(d) => Some(d.clone()),
        Setup::Regular(_) => None,
    };
    let wall = match &setup {
        Setup::Regular(w) => vec![format!(
            "\"wall\":[{}",
            w.tiles[..12]
                .iter()
                .map(|t| format!("\"{}\"", t.code()))
                .collect::<Vec<_>>()
                .join(",")
        )],
        Setup::Duplicate(_) => vec![],
    };
    let t = Table::start(setup, rules).unwrap();
    let prints = std::array::from_fn(|s| {
        let w = Wind::from_index(s);
        let mut hand = t.concealed(w);
        hand.sort();
        if let Some(Decision::Turn { drew: Some(d), .. }) = t.view(w).decision {
            let i = hand.iter().rposition(|&x| x == d).unwrap();
            hand.remove(i);
        }
        let mut p = vec![format!("\"hand\":[{}]", quoted(&hand))];
        if let Some(d) = &deal {
            p.push(format!("\"hand\":[{}]", quoted(&d.hands[s])));
            p.push(format!("\"wall\":[{}", quoted(&d.walls[s][..6])));
        }
        p
    });
    KnownHand {
        seed,
        prints,
        wall,
        discards: vec![],
    }
}

/// Each seat's discards at `t` (when it has any), and every earlier moment of them, as a
/// board writes them: the last of each seat's list is the whole.
fn discard_prints(t: &Table) -> Vec<Vec<String>> {
    Wind::ALL
        .iter()
        .filter_map(|&w| {
            let d = t.view(w).discards[w.index()];
            (!d.is_empty()).then(|| {
                (1..=d.len())
                    .map(|n| format!("\"discards\":[{}]", quoted(&d[..n])))
                    .collect()
            })
        })
        .collect()
}

/// A table the test looks at.
struct Known {
    name: &'static str,
    id: i64,
    hands: Vec<KnownHand>,
    /// Hands over (the next one, if any, is in play).
    finished: usize,
    /// What each role may have of hand h (0-based).
    may: Box<dyn Fn(Role, usize) -> May>,
    /// The seat each role holds in hand h, if they sit at the table.
    seat: Box<dyn Fn(Role, usize) -> Option<Wind>>,
    /// Its set's key, when it must not be shown, and to whom it may be.
    key: Option<(String, Vec<Role>)>,
}

fn known_table(app: &App, name: &'static str, id: i64, finished: usize) -> Known {
    let spec: TableSpec = serde_json::from_str(&app.store.play_table(id).unwrap().spec).unwrap();
    let mut hands: Vec<KnownHand> = (0..spec.hand_count().min(finished + 1))
        .map(|h| match &spec.hands {
            Hands::Duplicate { deals } => known(
                Setup::Duplicate(Deal::generate(deals[h].seed)),
                TableRules::seeds(),
                deals[h].seed,
            ),
            Hands::Regular { .. } => {
                let seed = spec.wall_seed(h);
                let mut w = RegularWall::generate(seed);
                w.prevalent = table::game::prevalent_of(h);
                known(Setup::Regular(w), TableRules::regular(), seed)
            }
        })
        .collect();
    // What each hand's seats discarded: the stored log of a finished hand, the journal of
    // the hand in play.
    for stored in app.store.hands_of_table(id).unwrap() {
        let log: table::log::HandLog = serde_json::from_str(&stored.log).unwrap();
        let t = table::log::replay(&log).unwrap();
        if let Some(k) = hands.get_mut(stored.hand_no as usize - 1) {
            k.discards = discard_prints(&t);
        }
    }
    let journal = app.store.journal(id).unwrap();
    if let Ok(room) =
        server::play::room::Room::restore(id, spec.clone(), std::time::Duration::ZERO, &journal)
    {
        if let (Some(t), Some(k)) = (room.table(), hands.get_mut(room.hand_no)) {
            if room.stage == server::play::room::Stage::Playing {
                k.discards = discard_prints(t);
            }
        }
    }
    Known {
        name,
        id,
        hands,
        finished,
        may: Box::new(|_, _| May::Nothing),
        seat: Box::new(|_, _| None),
        key: spec.deals_key.clone().map(|k| (k, vec![])),
    }
}

/// Plays `cookie`'s seat at `table` (Hu, else pass, else the first discard; "next" between
/// hands) until `hands` hands are over and the next one waits on this seat — or the table
/// is over, or another seat must move and this one has nothing to do.
async fn play_hands(addr: SocketAddr, table: i64, cookie: &str, hands: u64) -> Value {
    let mut c = Client::connect(addr, table, Some(cookie)).await;
    loop {
        let Some(s) = c.next_within(3.0).await else {
            // Quiet: the table waits on someone else.
            c.close().await;
            return Value::Null;
        };
        if s["type"] != "state" {
            continue;
        }
        let done = s["hand_no"].as_u64().unwrap_or(0) > hands && s["stage"] == "playing";
        if s["stage"] == "over" || (done && my_move(&s)) {
            c.close().await;
            return s;
        }
        if s["stage"] == "between" {
            c.send(json!({"type": "next"})).await;
            continue;
        }
        if my_move(&s) {
            let legal = s["legal"].as_array().unwrap();
            let a = legal
                .iter()
                .find(|x| x["action"] == "hu")
                .or_else(|| legal.iter().find(|x| x["action"] == "pass"))
                .or_else(|| legal.iter().find(|x| x["action"] == "discard"))
                .unwrap_or(&legal[0])
                .clone();
            c.act(s["step"].as_u64().unwrap(), a).await;
        }
    }
}

/// Every object in a JSON value with the path to it.
fn objects<'a>(v: &'a Value, out: &mut Vec<&'a serde_json::Map<String, Value>>) {
    match v {
        Value::Object(m) => {
            out.push(m);
            for x in m.values() {
                objects(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| objects(x, out)),
        _ => {}
    }
}

/// The seats of boards in a JSON body whose concealed tiles it shows.
fn open_seats(body: &Value) -> BTreeSet<usize> {
    let mut all = Vec::new();
    objects(body, &mut all);
    let mut out = BTreeSet::new();
    for o in all {
        // A field shows what every holder of the deal did: the whole deal.
        if o.contains_key("holders") && o.contains_key("moments") {
            out.extend(0..4);
        }
        if let Some(seats) = o.get("seats").and_then(|s| s.as_array()) {
            for (i, s) in seats.iter().enumerate() {
                if s.get("hand").is_some() || s.get("drew").is_some() {
                    out.insert(i);
                }
                // A review's seat, named by its wind.
                let reviewed = s.get("review").and(s.get("seat")).and_then(|w| w.as_str());
                if let Some(i) = reviewed.and_then(|w| "ESWN".find(w)) {
                    out.insert(i);
                }
            }
        }
    }
    out
}

struct World {
    app: App,
    addr: SocketAddr,
    cookies: BTreeMap<Role, String>,
    tables: Vec<Known>,
    /// Seeds of deals no table has started: nobody may see them.
    unplayed: Vec<String>,
    /// Keys and seeds only the director may see (events' and challenges' sets, which the
    /// director owns: the label sheets show every deal's seed).
    director_keys: Vec<String>,
    /// Names of the scene's players, for the routes that take one.
    names: Vec<String>,
}

impl World {
    fn cookie(&self, r: Role) -> Option<&str> {
        self.cookies.get(&r).map(String::as_str)
    }

    /// Every GET the walk makes: each path the router was given (`server::web::route_paths`,
    /// not a list kept here), with every value of its parts that the scene has, and the
    /// query strings of the routes that read one. A part the walk has no values for fails
    /// the test, so that a new route cannot go unwalked.
    fn urls(&self) -> Vec<String> {
        let mut out = Vec::new();
        for path in server::web::route_paths() {
            self.expand(path, &mut out);
        }
        let mut queried = Vec::new();
        for u in &out {
            if u.ends_with("/step") {
                for v in ["E", "S", "W", "N", "all"] {
                    for at in [0, 5, 999] {
                        queried.push(format!("{u}?view={v}&at={at}"));
                    }
                }
            }
            if u.starts_with("/play/c/") && u.contains("/deal/") {
                for seat in ["E", "S", "W", "N"] {
                    queried.push(format!("{u}?seat={seat}"));
                }
            }
            if u == "/play" {
                queried.push("/play?page=1".into());
            }
            // A drill from any hand of the scene, at a few of its moves, and the drills
            // that need no history.
            if u == "/play/drills/question.json" {
                for t in &self.tables {
                    for h in 1..=t.hands.len() {
                        for at in [0, 5, 20] {
                            queried.push(format!("{u}?key=play:{}:{h}:{at}", t.id));
                        }
                    }
                }
                let day = server::play::drills::daily::today();
                for k in ["fan:1".to_string(), "route:1".into(), format!("day:{day}")] {
                    queried.push(format!("{u}?key={k}"));
                }
            }
        }
        out.extend(queried);
        assert!(out.len() > 100, "{} urls", out.len());
        out
    }

    /// `path` with its first `{part}` filled in every way the scene allows, recursively.
    fn expand(&self, path: String, out: &mut Vec<String>) {
        let Some(open) = path.find('{') else {
            out.push(path);
            return;
        };
        let close = open + path[open..].find('}').unwrap();
        let (before, part) = (&path[..open], &path[open + 1..close]);
        let nums = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>();
        let values: Vec<String> = match (part, before) {
            ("id", "/play/t/") => self.tables.iter().map(|t| t.id.to_string()).collect(),
            ("id", "/play/c/" | "/api/bot/challenges/") => nums(1),
            ("id", "/play/me/tokens/") => nums(1),
            ("id", "/play/e/") => nums(2),
            ("id", "/events/" | "/director/events/") => nums(2),
            ("id", "/seasons/") => nums(1),
            ("n", b) if b.starts_with("/play/t/") => {
                let id: i64 = b["/play/t/".len()..]
                    .trim_end_matches("/hands/")
                    .parse()
                    .unwrap();
                let t = self.tables.iter().find(|t| t.id == id).unwrap();
                let n = nums(t.hands.len().max(1) + 1);
                let json = n.iter().map(|x| format!("{x}.json")).collect::<Vec<_>>();
                n.into_iter().chain(json).collect()
            }
            ("n", b) if b.starts_with("/play/c/") => nums(4),
            ("name", "/play/p/") => self.names.clone(),
            ("name", "/assets/") => vec!["play.js".into()],
            ("what", _) => ["labels", "guides", "tables", "sheets", "slips", "standings"]
                .map(String::from)
                .to_vec(),
            ("fmt", _) => ["csv", "json", "html"].map(String::from).to_vec(),
            ("code", _) => vec!["zh".into()],
            ("token", _) => vec!["not-a-token".into()],
            ("t" | "deal" | "hand" | "sid" | "cid" | "pid" | "player" | "round", _) => nums(1),
            _ => panic!("route {path}: the walk has no values for {{{part}}}: add them"),
        };
        for v in values {
            self.expand(format!("{before}{v}{}", &path[close + 1..]), out);
        }
    }

    /// What `role` may have of hand `h` of `t`: a hand in play is never open, whatever its
    /// deal.
    fn may(&self, t: &Known, role: Role, h: usize) -> May {
        match (t.may)(role, h) {
            May::All if h >= t.finished => May::Watch,
            m => m,
        }
    }

    /// What `body` (from `what`, asked by `role`) may not hold, checked.
    fn check(&self, role: Role, what: &str, body: &str) -> usize {
        let mut checks = 0;
        let json: Option<Value> = serde_json::from_str(body).ok();
        for s in &self.unplayed {
            assert!(
                !body.contains(s.as_str()),
                "{role:?} {what}: an unplayed deal's secret"
            );
            checks += 1;
        }
        if role != Role::Director {
            for k in &self.director_keys {
                assert!(
                    !body.contains(k.as_str()),
                    "{role:?} {what}: a secret of an event or a challenge (the director's)"
                );
            }
        }
        // What the role may have, deal by deal: the same deal can be at several tables
        // (a challenge's at every player's and the par's), and what one of them grants
        // holds for all.
        let mut open_seeds = BTreeSet::new();
        let mut open_seats = BTreeSet::new();
        let mut seen_discards = BTreeSet::new();
        for t in &self.tables {
            for (h, k) in t.hands.iter().enumerate() {
                let may = self.may(t, role, h);
                match may {
                    May::All => {
                        open_seeds.insert(k.seed);
                    }
                    May::Seat(w) => {
                        open_seats.insert((k.seed, w.index()));
                    }
                    May::Watch | May::Nothing => {}
                }
                if may != May::Nothing {
                    seen_discards.extend(k.discards.iter().flatten().cloned());
                }
            }
        }
        for t in &self.tables {
            if let Some((key, allowed)) = &t.key {
                if !allowed.contains(&role) {
                    assert!(
                        !body.contains(key.as_str()),
                        "{role:?} {what}: {}'s key",
                        t.name
                    );
                }
            }
            for (h, k) in t.hands.iter().enumerate() {
                // Even its discards are the deal's tiles: none to someone who may not watch.
                if self.may(t, role, h) == May::Nothing {
                    // A list of one or two tiles is too short to tell one hand from another
                    // (another table's seat may have discarded the same first tile).
                    let whole = k.discards.iter().filter_map(|d| d.last());
                    let telling = whole.filter(|p| p.matches(',').count() >= 2);
                    for p in telling.filter(|p| !seen_discards.contains(*p)) {
                        assert!(
                            !body.contains(p.as_str()),
                            "{role:?} {what}: {} hand {}'s discards {p}",
                            t.name,
                            h + 1
                        );
                        checks += 1;
                    }
                }
                if open_seeds.contains(&k.seed) {
                    continue;
                }
                // The director owns the deals of events and challenges (the label sheets
                // show them), even while they are played.
                if role == Role::Director && self.director_keys.contains(&k.seed.to_string()) {
                    continue;
                }
                assert!(
                    !body.contains(&k.seed.to_string()),
                    "{role:?} {what}: the seed of {} hand {}",
                    t.name,
                    h + 1
                );
                for p in &k.wall {
                    assert!(
                        !body.contains(p.as_str()),
                        "{role:?} {what}: {} hand {}'s wall",
                        t.name,
                        h + 1
                    );
                }
                for (s, prints) in k.prints.iter().enumerate() {
                    if open_seats.contains(&(k.seed, s)) {
                        continue;
                    }
                    for p in prints {
                        assert!(
                            !body.contains(p.as_str()),
                            "{role:?} {what}: {} hand {} seat {s}: {p}",
                            t.name,
                            h + 1
                        );
                        checks += 1;
                    }
                }
            }
        }
        let _ = json;
        checks
    }
}

/// The board seats a message of table `t`'s socket may show `role`: their own seat, if
/// they sit there (a hand in play is never open), and all four once the hand is over and
/// the deal is open to them.
fn socket_seats(t: &Known, role: Role, hand: usize) -> BTreeSet<usize> {
    if hand < t.finished && (t.may)(role, hand) == May::All {
        return (0..4).collect();
    }
    (t.seat)(role, hand)
        .map(|w| w.index())
        .into_iter()
        .collect()
}

async fn build() -> World {
    let app = common::app(None);
    let addr = serve(app.clone()).await;
    let mut cookies = BTreeMap::new();
    let mut ids = BTreeMap::new();
    for (r, name) in [
        (Role::Gil, "Gil"),
        (Role::Ann, "Ann"),
        (Role::Bo, "Bo"),
        (Role::Cy, "Cy"),
    ] {
        // Ann is an account: she has more tables going than a guest may.
        let (id, c) = if r == Role::Ann {
            account(&app, name)
        } else {
            person(&app, name)
        };
        ids.insert(r, id);
        cookies.insert(r, c);
    }
    cookies.insert(Role::Director, director(&app));
    let ann = ids[&Role::Ann];
    let key = |b: u8| SetKey::from_bytes([b; 32]);
    let mut tables = Vec::new();
    let mut unplayed = Vec::new();

    // 1. Ann and three bots over three deals of a secret set: hand 1 over, hand 2 in play.
    let k1 = key(1);
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: (0..3)
                .map(|i| DealRef {
                    seed: k1.seed(i),
                    label: (i + 1).to_string(),
                })
                .collect(),
        },
        places: [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        owner: ann,
        owner_place: 0,
        limit_s: 600,
        bank_s: 0,
        challenge: None,
        sitting: None,
        deals_key: Some(k1.hex()),
        practice: None,
        rules_version: None,
    };
    let t1 = app.hall.open_table(spec, "Ann").unwrap();
    play_hands(addr, t1, &cookies[&Role::Ann], 1).await;
    unplayed.push(k1.seed(2).to_string());
    let mut t = known_table(&app, "bot table", t1, 1);
    // Deal 1 was played at its only table: public. Deal 2 is Ann's, in play.
    t.may = Box::new(|r, h| match (h, r) {
        (0, _) => May::All,
        (_, Role::Ann) => May::Seat(Wind::East),
        _ => May::Watch,
    });
    t.seat = Box::new(|r, _| (r == Role::Ann).then_some(Wind::East));
    tables.push(t);

    // 2. Ann (East) and Bo (South) at one table, two deals: hand 1 over, hand 2 in play.
    let k2 = key(2);
    let mut spec2 = common::duplicate(
        0..2,
        [Place::Person, Place::Person, bot("easy"), bot("easy")],
        ann,
    );
    spec2.hands = Hands::Duplicate {
        deals: (0..2)
            .map(|i| DealRef {
                seed: k2.seed(i),
                label: (i + 1).to_string(),
            })
            .collect(),
    };
    spec2.limit_s = 600;
    spec2.deals_key = Some(k2.hex());
    let t2 = app.hall.open_table(spec2, "Ann").unwrap();
    {
        // Bo takes South over the socket, then both play the first hand.
        let mut b = Client::connect(addr, t2, Some(&cookies[&Role::Bo])).await;
        b.until(|_| true).await;
        b.send(json!({"type": "sit", "place": 1})).await;
        b.until(|s| s["you"] == 1).await;
        b.close().await;
        let a = tokio::spawn(play_hands(addr, t2, cookies[&Role::Ann].clone().leak(), 1));
        let bo = tokio::spawn(play_hands(addr, t2, cookies[&Role::Bo].clone().leak(), 1));
        a.await.unwrap();
        bo.await.unwrap();
    }
    let mut t = known_table(&app, "two people", t2, 1);
    t.may = Box::new(|r, h| match (h, r) {
        (0, _) => May::All,
        (_, Role::Ann) => May::Seat(Wind::East),
        (_, Role::Bo) => May::Seat(Wind::South),
        _ => May::Watch,
    });
    t.seat = Box::new(|r, _| match r {
        Role::Ann => Some(Wind::East),
        Role::Bo => Some(Wind::South),
        _ => None,
    });
    tables.push(t);

    // 3. A regular game of two hands on the walls of a secret set.
    let k3 = key(3);
    let mut spec3 = common::duplicate(
        0..1,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        ann,
    );
    spec3.hands = Hands::Regular {
        seed: k3.seed(0),
        hands: 2,
    };
    spec3.limit_s = 600;
    spec3.deals_key = Some(k3.hex());
    spec3.rules_version = TableSpec::current_rules_version(&spec3.hands);
    let t3 = app.hall.open_table(spec3, "Ann").unwrap();
    play_hands(addr, t3, &cookies[&Role::Ann], 1).await;
    let mut t = known_table(&app, "regular game", t3, 1);
    // Ann is East in hand 1, North in hand 2 (the seats rotate).
    t.may = Box::new(|r, h| match (h, r) {
        (0, _) => May::All,
        (_, Role::Ann) => May::Seat(Wind::North),
        _ => May::Watch,
    });
    t.seat = Box::new(|r, h| (r == Role::Ann).then_some(table::game::seat_of(0, h)));
    tables.push(t);

    // 4. A live event: its deals are refused for practice until released.
    let names: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    let live_key = key(4);
    let live = create_event(
        app.store.as_ref(),
        "Live",
        false,
        parse_entrants(&names).unwrap(),
        &live_key,
        None,
        "test",
    )
    .unwrap();
    let csrf = csrf_of(&app, &cookies[&Role::Ann]);
    for form in [vec![("event", "1")], vec![("practice", "event:1")]] {
        let mut f = vec![
            ("csrf", csrf.as_str()),
            ("kind", "duplicate"),
            ("deals", "2"),
        ];
        f.extend(form);
        let (st, _, body) =
            http(&app, "POST", "/play/tables", Some(&cookies[&Role::Ann]), &f).await;
        assert_eq!(st, 403, "{body}");
        assert!(body.contains("not released"), "{body}");
    }
    let e = app.store.event(live).unwrap();
    let mut director_keys = vec![live_key.hex()];
    for i in 0..e.movement.deal_names().len() {
        director_keys.push(e.deal_seed(i).to_string());
    }
    // 5. An online event: in hand 1 Ann plays deal 1-1 and Cy deal 1-4; in hand 2 Cy plays
    // deal 1-1 at another table (so he has played Ann's deal elsewhere) and Ann's table of
    // deal 1-2 is in play. Deal 1-1 still has tables to go.
    let online_key = key(5);
    let ev = create_event(
        app.store.as_ref(),
        "Online",
        false,
        parse_entrants(&names).unwrap(),
        &online_key,
        None,
        "test",
    )
    .unwrap();
    let oe = app.store.event(ev).unwrap();
    let r1 = &oe.movement.rounds[0];
    let seat_in = |hand: usize, player: u32| {
        r1.hands[hand]
            .tables
            .iter()
            .find_map(|t| {
                t.seats
                    .iter()
                    .find(|s| s.player == player)
                    .map(|s| (t.deal.clone(), s.wind))
            })
            .unwrap()
    };
    let first = &r1.hands[0].tables[0];
    let d = first.deal.clone();
    let ann_slot = first
        .seats
        .iter()
        .find(|s| s.wind == Wind::East)
        .unwrap()
        .player;
    // Cy: the East of deal d at its table in hand 2.
    let later = r1.hands[1].tables.iter().find(|t| t.deal == d).unwrap();
    let cy_slot = later
        .seats
        .iter()
        .find(|s| s.wind == Wind::East)
        .unwrap()
        .player;
    let (cy_deal_1, cy_wind_1) = seat_in(0, cy_slot);
    let (ann_deal_2, ann_wind_2) = seat_in(1, ann_slot);
    assert!(cy_deal_1 != d && ann_deal_2 != d && cy_slot != ann_slot);
    // Bo: another seat at Ann's table of hand 1 (two people at a deal neither may see
    // whole yet). In hand 2 he sits with Ann again or at a table nobody plays; never at
    // Cy's (a movement never gives a player deal d twice).
    let (bo_slot, bo_wind) = first
        .seats
        .iter()
        .find(|s| s.wind != Wind::East && s.player != cy_slot)
        .map(|s| (s.player, s.wind))
        .expect("a seat for Bo");
    let (bo_deal_2, bo_wind_2) = seat_in(1, bo_slot);
    assert!(bo_deal_2 != d);
    let bo_with_ann_2 = (bo_deal_2 == ann_deal_2).then_some(bo_wind_2);
    let s = online::enable(&app.hall, ev, 0, 600, 0, "easy", "test").unwrap();
    online::join(&app.hall, ev, &s.tokens[ann_slot as usize - 1], ann).unwrap();
    online::join(
        &app.hall,
        ev,
        &s.tokens[cy_slot as usize - 1],
        ids[&Role::Cy],
    )
    .unwrap();
    online::join(
        &app.hall,
        ev,
        &s.tokens[bo_slot as usize - 1],
        ids[&Role::Bo],
    )
    .unwrap();
    online::advance(&app.hall, ev).unwrap();
    let table_of = |who: i64| online::load(&app.hall, ev).unwrap().unwrap().table_of(who);
    let ann_1 = table_of(ann).unwrap();
    assert_eq!(table_of(ids[&Role::Bo]), Some(ann_1));
    let cy_1 = table_of(ids[&Role::Cy]).unwrap();
    {
        let a = tokio::spawn(play_hands(
            addr,
            ann_1,
            cookies[&Role::Ann].clone().leak(),
            1,
        ));
        let bo = tokio::spawn(play_hands(
            addr,
            ann_1,
            cookies[&Role::Bo].clone().leak(),
            1,
        ));
        a.await.unwrap();
        bo.await.unwrap();
    }
    play_hands(addr, cy_1, &cookies[&Role::Cy], 1).await;
    // Hand 1 over everywhere (the other tables are bots'): hand 2 opens.
    let mut cy_2 = None;
    for _ in 0..200 {
        online::advance(&app.hall, ev).unwrap();
        cy_2 = table_of(ids[&Role::Cy]).filter(|&t| t != cy_1);
        if cy_2.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let cy_2 = cy_2.expect("Cy's sitting of hand 2");
    let ann_2 = table_of(ann).unwrap();
    play_hands(addr, cy_2, &cookies[&Role::Cy], 1).await;
    play_hands(addr, ann_2, &cookies[&Role::Ann], 0).await;
    let st = online::load(&app.hall, ev).unwrap().unwrap();
    assert!(!st.deal_done(&d), "deal {d} still has tables to go");
    let sitting = |name: &'static str, id: i64, who: Role, wind: Wind, finished: usize| {
        let mut t = known_table(&app, name, id, finished);
        t.may = Box::new(move |r, _| {
            if r == who {
                May::Seat(wind)
            } else if r == Role::Director {
                May::All
            } else {
                May::Nothing
            }
        });
        t.seat = Box::new(move |r, _| (r == who).then_some(wind));
        t
    };
    let mut t = known_table(&app, "online 1-1 (Ann and Bo)", ann_1, 1);
    t.may = Box::new(move |r, _| match r {
        Role::Ann => May::Seat(Wind::East),
        Role::Bo => May::Seat(bo_wind),
        Role::Director => May::All,
        _ => May::Nothing,
    });
    t.seat = Box::new(move |r, _| match r {
        Role::Ann => Some(Wind::East),
        Role::Bo => Some(bo_wind),
        _ => None,
    });
    tables.push(t);
    tables.push(sitting("online hand 1 (Cy)", cy_1, Role::Cy, cy_wind_1, 1));
    tables.push(sitting("online 1-1 (Cy)", cy_2, Role::Cy, Wind::East, 1));
    let mut t = sitting(
        "online hand 2 (Ann, in play)",
        ann_2,
        Role::Ann,
        ann_wind_2,
        0,
    );
    if let Some(bo_w) = bo_with_ann_2 {
        t.may = Box::new(move |r, _| match r {
            Role::Ann => May::Seat(ann_wind_2),
            Role::Bo => May::Seat(bo_w),
            Role::Director => May::All,
            _ => May::Nothing,
        });
        t.seat = Box::new(move |r, _| match r {
            Role::Ann => Some(ann_wind_2),
            Role::Bo => Some(bo_w),
            _ => None,
        });
    }
    tables.push(t);
    // Every deal of the online event is its director's until done everywhere.
    director_keys.push(online_key.hex());
    for i in 0..oe.movement.deal_names().len() {
        director_keys.push(oe.deal_seed(i).to_string());
    }

    // 6. A challenge of four deals: Ann and Cy play deal 1; Ann leaves deal 2 in play.
    let c = challenge::publish(
        &app.hall,
        &NewChallenge {
            name: "Secret Tuesday".into(),
            deals: 4,
            copies: 1,
            opens_in_h: 0,
            hours: 24,
            level: "easy".into(),
            par: "strong".into(),
            rotation: Rotation::Same,
            limit_s: 600,
            bank_s: 0,
            scheduled: false,
            bots: false,
        },
    )
    .unwrap();
    let chal = challenge::load(&app.hall, c).unwrap();
    let ck = chal.spec.key.clone().unwrap();
    let take = |who: Role, d: usize| {
        let hall = app.hall.clone();
        let id = ids[&who];
        move || challenge::take_up(&hall, c, id, "x", d).unwrap()
    };
    let a1 = take(Role::Ann, 0)();
    play_hands(addr, a1, &cookies[&Role::Ann], 1).await;
    let c1 = take(Role::Cy, 0)();
    play_hands(addr, c1, &cookies[&Role::Cy], 1).await;
    let a2 = take(Role::Ann, 1)();
    play_hands(addr, a2, &cookies[&Role::Ann], 0).await;
    // Deals 2 to 4: nobody has played them to the end; the par's table holds them for the
    // director.
    for i in 1..4 {
        director_keys.push(chal.spec.deal_seed(i).to_string());
    }
    let played_1 = |r: Role| matches!(r, Role::Ann | Role::Cy | Role::Director);
    let mut t = known_table(&app, "challenge deal 1 (Ann)", a1, 1);
    t.may = Box::new(move |r, _| if played_1(r) { May::All } else { May::Nothing });
    t.seat = Box::new(|r, _| (r == Role::Ann).then_some(Wind::East));
    t.key = Some((ck.clone(), vec![]));
    tables.push(t);
    let mut t = known_table(&app, "challenge deal 2 (Ann, in play)", a2, 0);
    t.may = Box::new(|r, _| match r {
        Role::Ann => May::Seat(Wind::South),
        Role::Director => May::Watch,
        _ => May::Nothing,
    });
    t.seat = Box::new(|r, _| (r == Role::Ann).then_some(Wind::South));
    t.key = Some((ck.clone(), vec![]));
    tables.push(t);
    // The par's table: hands 1–4 are deal 1's seats, the rest later deals.
    let par = chal.spec.par_table;
    let mut t = known_table(&app, "challenge par", par, 16);
    t.hands = par_hands(&chal.spec);
    t.may = Box::new(move |r, h| {
        if r == Role::Director || (h < 4 && played_1(r)) {
            May::All
        } else {
            May::Nothing
        }
    });
    tables.push(t);

    // 7. A challenge of two copies of four deals: Ann and Cy play slot 1 and are given
    // different copies (the second to sit down gets the copy given least). Each sees her
    // own copy only; the other copy of the same slot stays hidden from her.
    let c2 = challenge::publish(
        &app.hall,
        &NewChallenge {
            name: "Two copies".into(),
            deals: 4,
            copies: 2,
            opens_in_h: 0,
            hours: 24,
            level: "easy".into(),
            par: "easy".into(),
            rotation: Rotation::Same,
            limit_s: 600,
            bank_s: 0,
            scheduled: false,
            bots: false,
        },
    )
    .unwrap();
    let take2 = |who: Role| {
        let hall = app.hall.clone();
        let id = ids[&who];
        move || challenge::take_up(&hall, c2, id, "x", 0).unwrap()
    };
    let a = take2(Role::Ann)();
    play_hands(addr, a, &cookies[&Role::Ann], 1).await;
    let cy = take2(Role::Cy)();
    play_hands(addr, cy, &cookies[&Role::Cy], 1).await;
    let chal2 = challenge::load(&app.hall, c2).unwrap();
    let ck2 = chal2.spec.key.clone().unwrap();
    let copy_of = |who: Role| chal2.given(ids[&who], 0).unwrap();
    let (ann_at, cy_at) = (copy_of(Role::Ann), copy_of(Role::Cy));
    assert_ne!(ann_at, cy_at, "two players, two copies: one each");
    // The deals nobody but the director holds (the two played are checked table by table).
    for i in (0..chal2.spec.set_len()).filter(|&i| i != ann_at && i != cy_at) {
        director_keys.push(chal2.spec.deal_seed(i).to_string());
    }
    let holds = move |r: Role, at: usize| {
        r == Role::Director || (r == Role::Ann && at == ann_at) || (r == Role::Cy && at == cy_at)
    };
    for (name, table, at, who) in [
        ("two copies, slot 1 (Ann)", a, ann_at, Role::Ann),
        ("two copies, slot 1 (Cy)", cy, cy_at, Role::Cy),
    ] {
        let mut t = known_table(&app, name, table, 1);
        t.may = Box::new(move |r, _| if holds(r, at) { May::All } else { May::Nothing });
        t.seat = Box::new(move |r, _| (r == who).then_some(Wind::East));
        t.key = Some((ck2.clone(), vec![]));
        tables.push(t);
    }
    let n = chal2.spec.set_len() * 4;
    let mut t = known_table(&app, "two copies, par", chal2.spec.par_table, n);
    t.hands = par_hands(&chal2.spec);
    t.may = Box::new(move |r, h| {
        if holds(r, h / 4) {
            May::All
        } else {
            May::Nothing
        }
    });
    tables.push(t);

    // A season of both challenges and both events, and a sign-up: their pages show
    // standings and names, never a deal.
    app.store
        .create_season(
            &store::Season {
                id: 0,
                name: "Walk season".into(),
                rules: tournament::season::Rules {
                    best: 2,
                    measure: tournament::season::Measure::PerHand,
                },
                final_k: 0,
                parts: vec![
                    (store::PartKind::Challenge, c),
                    (store::PartKind::Challenge, c2),
                    (store::PartKind::Event, live),
                    (store::PartKind::Event, ev),
                ],
                final_event: None,
            },
            "test",
        )
        .unwrap();
    let su = app
        .store
        .create_signup(
            &store::NewSignUp {
                name: "Walk open".into(),
                kind: store::EventKind::Online,
                rules: tournament::signup::Rules {
                    cap: 16,
                    approval: true,
                },
                deadline: i64::MAX / 2,
                note: String::new(),
            },
            "test",
        )
        .unwrap();
    app.store
        .add_signup_act(
            su,
            &tournament::signup::Act::Join {
                who: ids[&Role::Ann],
                name: "Ann".into(),
            },
            0,
            "test",
        )
        .unwrap();
    World {
        app,
        addr,
        cookies,
        tables,
        unplayed,
        director_keys,
        names: ["Ann", "Bo", "Cy", "Gil", "me"].map(String::from).to_vec(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_route_or_message_shows_a_deal_to_anyone_the_rule_keeps_it_from() {
    let w = build().await;
    // Every hand with a person at it reviewed (a small budget), so that the reviews'
    // route shows what it would once the reviewers have been through the queue.
    let reviewed = review_all(&w.app, 10).await;
    assert!(reviewed > 0, "the scene has hands with people at them");
    let mut asked = 0;
    let mut shown = 0;
    let mut checks = 0;
    for role in ROLES {
        let cookie = w.cookie(role);
        // Every route of the router, with every value of its parts the scene has.
        for r in &w.urls() {
            let (st, _, body) = http(&w.app, "GET", r, cookie, &[]).await;
            asked += 1;
            checks += w.check(role, r, &body);
            if r.contains("print/labels") && role != Role::Director {
                assert_ne!(st, 200, "{role:?}: the label sheets");
            }
            if st != 200 {
                continue;
            }
            shown += 1;
            // A replay step shows the hands of exactly the seats the rule allows.
            let Some(rest) = r.strip_prefix("/play/t/") else {
                continue;
            };
            let id: i64 = rest.split('/').next().unwrap().parse().unwrap();
            let Some(t) = w.tables.iter().find(|t| t.id == id) else {
                continue;
            };
            if let Some(n) = r.split("/hands/").nth(1).and_then(|x| x.split('/').next()) {
                let h: usize = n.trim_end_matches(".json").parse().unwrap();
                let may = (t.may)(role, h - 1);
                if let Ok(v) = serde_json::from_str::<Value>(&body) {
                    let open = open_seats(&v);
                    match may {
                        May::All => {}
                        May::Seat(s) => assert!(
                            open.iter().all(|&x| x == s.index()),
                            "{role:?} {r}: seats {open:?}"
                        ),
                        May::Watch | May::Nothing => {
                            panic!("{role:?} {r}: shown ({})", t.name)
                        }
                    }
                }
            }
        }
        for t in &w.tables {
            let id = t.id;
            // The socket: every message it sends this role.
            let url = format!("ws://{}/play/t/{id}/ws", w.addr);
            let mut req =
                tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
                    .unwrap();
            if let Some(c) = cookie {
                req.headers_mut().insert("cookie", c.parse().unwrap());
            }
            let Ok((mut ws, _)) = tokio_tungstenite::connect_async(req).await else {
                continue;
            };
            use futures_util::{SinkExt, StreamExt};
            let _ = ws
                .send(tokio_tungstenite::tungstenite::Message::Text(
                    json!({"type": "hints", "on": true}).to_string().into(),
                ))
                .await;
            let mut got = 0;
            while let Ok(Some(Ok(m))) =
                tokio::time::timeout(std::time::Duration::from_millis(400), ws.next()).await
            {
                let tokio_tungstenite::tungstenite::Message::Text(text) = m else {
                    continue;
                };
                got += 1;
                checks += w.check(role, &format!("socket of {}", t.name), &text);
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["type"] != "state" || v.get("board").is_none() {
                    continue;
                }
                let h = v["hand_no"].as_u64().unwrap() as usize - 1;
                let open = open_seats(&v);
                let allowed = socket_seats(t, role, h);
                assert!(
                    open.is_subset(&allowed),
                    "{role:?} socket of {}: seats {open:?} open, {allowed:?} allowed: {v}",
                    t.name
                );
            }
            assert!(got > 0, "{role:?}: the socket of {} said nothing", t.name);
            let _ = ws.close(None).await;
        }
    }
    eprintln!("{asked} requests, {shown} answered 200, {checks} fingerprint checks");
    assert!(asked > 2000 && shown > 300, "{asked} asked, {shown} shown");
}

#[test]
fn sets_made_before_deal_sets_keep_their_seeds() {
    use server::play::challenge::ChallengeSpec;
    // An event stored without a key: deal i is its seed plus i, as before.
    let app = common::app(None);
    let names: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    let e = store::NewEvent {
        name: "Old".into(),
        team: false,
        players: parse_entrants(&names).unwrap(),
        deal_seed: 500,
        deal_key: None,
        movement: tournament::movement::individual(16, None, 1).unwrap(),
        table_codes: (1..=4).map(|i| format!("c{i}")).collect(),
    };
    let id = app.store.create_event(&e, "test").unwrap();
    let old = app.store.event(id).unwrap();
    assert_eq!(old.deal_seed(0), 500);
    assert_eq!(old.deal_seed(3), 503);
    // A challenge as stored before: a seed and a salt; its reveal is the old format and
    // verifies.
    let c: ChallengeSpec = serde_json::from_value(json!({
        "name": "Old Tuesday", "deals": 4, "opens": 0, "closes": 1, "level": "strong",
        "rotation": "same", "limit_s": 15, "bank_s": 30,
        "commitment": "", "seed": 9001, "salt": "c0ffee", "par_table": 1
    }))
    .unwrap();
    assert_eq!(c.deal_seed(2), 9003);
    let r: tournament::challenge::Reveal = serde_json::from_value(c.reveal().unwrap()).unwrap();
    assert_eq!(r.format, "dupmj-reveal/1");
    assert_eq!(r.seed, 9001);
    // A regular table opened before: its walls count up from its seed.
    let spec: TableSpec = serde_json::from_value(json!({
        "hands": {"kind": "regular", "seed": 50, "hands": 2},
        "places": [{"kind": "person"}, {"kind": "bot", "level": "easy"},
                   {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        "owner": 1, "owner_place": 0, "limit_s": 15, "bank_s": 30
    }))
    .unwrap();
    assert!(spec.deals_key.is_none() && spec.practice.is_none());
    assert_eq!(spec.wall_seed(1), 51);
    let room = server::play::room::Room::new(1, spec, std::time::Duration::ZERO);
    let Some(Setup::Regular(w)) = room.game().unwrap().next_setup() else {
        panic!("a regular wall");
    };
    assert_eq!(w.seed, Some(50));
}
