//! Score entry on bad venue Wi-Fi, in headless Chromium: three phones (two at table 1, one
//! at table 2) enter their round while their network is cut and restored at random (the
//! browser's offline emulation) and the server is stopped and started again in the middle.
//! Every entry is kept on its phone first and sent when it can be; at the end the counts
//! of entries made, recorded, recorded twice and lost are printed and checked: each made
//! entry recorded exactly once, the results the tables meant, one conflict for the
//! director. Pictures `docs/screenshots/venue-*.png` with `DUPMJ_SCREENSHOTS=1`.

mod common;
mod webdriver;

use std::time::{Duration, Instant};

use serde_json::json;
use store::prelude::*;
use tournament::entry::{Outcome, ScoreEntry};
use webdriver::{start_driver, Browser, Proc};

/// The event: 16 players, made in the file before the server starts.
fn make_event(db: &std::path::Path) -> Vec<String> {
    let s = store::SqliteStore::open(db).unwrap();
    server::auth::set_director_password(&s, "venue test pw", "test").unwrap();
    let names: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    server::service::create_event(
        &s,
        "Venue open",
        false,
        server::service::parse_entrants(&names).unwrap(),
        &table::set::SetKey::from_bytes([3; 32]),
        None,
        "test",
    )
    .unwrap();
    s.event(1).unwrap().table_codes
}

/// A phone logged in as table `t`, phone-sized.
fn phone(driver: std::net::SocketAddr, base: &str, t: usize, code: &str) -> Browser {
    let b = Browser::new(driver, base);
    b.go("/events/1/table");
    b.fill("input[name=table]", &t.to_string());
    b.fill("input[name=code]", code);
    b.click("form button");
    let h1 = format!("table {t}</h1>");
    b.wait(&[&h1]);
    b.resize(390, 844);
    b
}

/// Cuts or restores a phone's network (Chromium's offline emulation).
fn network(b: &Browser, on: bool) {
    b.call(
        "POST",
        "/chromium/network_conditions",
        Some(json!({"network_conditions": {
            "offline": !on, "latency": 0, "download_throughput": -1, "upload_throughput": -1}})),
    );
}

/// What a sitting gets: a draw, or South's self-drawn `value`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Result {
    Draw,
    South(u32),
}

/// Enters `result` for `sitting` ("deal/hand") on the table's page: the form, Check (the
/// server's points, or the offline notice), Save; back on the list.
fn enter(b: &Browser, sitting: &str, result: Result) {
    enter_shown(b, sitting, result, None);
}

/// [`enter`], with a picture `shot` of the check before Save.
fn enter_shown(b: &Browser, sitting: &str, result: Result, shot: Option<&str>) {
    b.click(&format!("tr[data-sitting='{sitting}'] a"));
    let sec = format!("section[data-sitting='{sitting}']");
    match result {
        Result::Draw => b.click(&format!("{sec} input[value=draw]")),
        Result::South(v) => {
            b.click(&format!("{sec} input[value=self]"));
            b.click(&format!("{sec} select[name=winner] option[value=S]"));
            b.fill(&format!("{sec} input[name=value]"), &v.to_string());
        }
    }
    b.click(&format!("{sec} form button"));
    let save = format!("{sec} button.save");
    let start = Instant::now();
    while !b.has(&save) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no Save for {sitting}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    if let Some(name) = shot {
        b.screenshot(name);
    }
    b.click(&save);
    let start = Instant::now();
    while !b.has("#sittings:not([hidden])") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no list after {sitting}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Entries this phone still holds unsent.
fn waiting(b: &Browser) -> u64 {
    let v = b.exec("const l = document.getElementById('queue-line'); return Number(l && l.dataset.waiting || 0)");
    v.as_u64().unwrap_or(0)
}

/// Waits until the phone has sent everything it holds.
fn drained(b: &Browser) {
    let start = Instant::now();
    while waiting(b) > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still {} waiting: {}",
            waiting(b),
            b.text("#queue-line")
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Each kept entry's state on a phone, from its own store.
fn states(b: &Browser) -> Vec<String> {
    let v = b.exec(
        "const k = Object.keys(localStorage).find((k) => k.startsWith('dupmj-entries-')); return JSON.parse(localStorage.getItem(k)).entries.map((e) => e.state)",
    );
    serde_json::from_value(v).unwrap()
}

/// A small deterministic coin for the cuts (xorshift).
struct Coin(u64);
impl Coin {
    fn flip(&mut self) -> bool {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) & 1 == 1
    }
}

/// What each sitting should end as: (table, sitting, result), the last word kept.
type Meant = Vec<(u32, String, Result)>;

fn mean(meant: &mut Meant, t: u32, s: &str, r: Result) {
    meant.retain(|(mt, ms, _)| !(*mt == t && ms == s));
    meant.push((t, s.to_string(), r));
}

/// Enters a result with the phone's network cut before it at random, and restored after
/// it at random (else it stays cut for a while).
/// Whether it was entered without a network.
fn put(phone: &Browser, meant: &mut Meant, t: u32, s: &str, r: Result, coin: &mut Coin) -> bool {
    let cut = coin.flip();
    if cut {
        network(phone, false);
    }
    enter(phone, s, r);
    if cut {
        // Kept on the phone: nothing can leave it now.
        assert!(waiting(phone) > 0, "{s} entered offline is not waiting");
    }
    if cut && coin.flip() {
        network(phone, true);
    }
    mean(meant, t, s, r);
    cut
}

#[test]
fn entries_survive_network_cuts_and_a_server_restart() {
    let db = common::fresh_db("venue");
    let codes = make_event(&db);
    let (child, addr) = common::serve(&db);
    let mut server = Some(Proc(child));
    let base = format!("http://{addr}");
    let (_driver, driver) = start_driver();

    // The sittings of round 1 at tables 1 and 2, in play order.
    let e = store::SqliteStore::open(&db).unwrap().event(1).unwrap();
    let sittings = |t: u32| -> Vec<String> {
        e.movement.rounds[0]
            .hands
            .iter()
            .flat_map(|h| {
                h.tables
                    .iter()
                    .filter(move |x| x.table == t)
                    .map(move |x| format!("{}/{}", x.deal, h.hand))
            })
            .collect()
    };
    let (one, two) = (sittings(1), sittings(2));
    assert_eq!((one.len(), two.len()), (4, 4));

    let a = phone(driver, &base, 1, &codes[0]);
    let b = phone(driver, &base, 1, &codes[0]); // a second phone at table 1
    let c = phone(driver, &base, 2, &codes[1]);
    let mut coin = Coin(2026);
    let mut made = 0;
    let mut offline = 0;
    // What each sitting should end as, and how many audit lines (saves and conflicts).
    let mut meant: Meant = vec![];
    let mut changes = 0;

    // Hands 1 and 2 at both tables, with cuts.
    for i in 0..2 {
        let r1 = if i == 0 {
            Result::Draw
        } else {
            Result::South(10)
        };
        offline += usize::from(put(&a, &mut meant, 1, &one[i], r1, &mut coin));
        offline += usize::from(put(
            &c,
            &mut meant,
            2,
            &two[i],
            Result::South(8 + 4 * i as u32),
            &mut coin,
        ));
        made += 2;
        changes += 2;
    }
    // Table 2 corrects hand 2 online: the server's check shows the points first.
    network(&c, true);
    drained(&c);
    enter_shown(&c, &two[1], Result::South(14), Some("venue-check-phone"));
    mean(&mut meant, 2, &two[1], Result::South(14));
    made += 1;
    changes += 1;
    drained(&c);
    // The server stops; hand 3 is entered at both tables meanwhile.
    drop(server.take());
    network(&a, true);
    network(&c, true);
    enter_shown(
        &a,
        &one[2],
        Result::South(20),
        Some("venue-offline-check-phone"),
    );
    mean(&mut meant, 1, &one[2], Result::South(20));
    enter(&c, &two[2], Result::Draw);
    mean(&mut meant, 2, &two[2], Result::Draw);
    made += 2;
    changes += 2;
    offline += 2;
    let line = a.text("#queue-line");
    assert!(line.contains("saved on this phone, not yet sent"), "{line}");
    a.screenshot("venue-waiting-phone");
    // Started again at the same address, on the same file: the phones send what they hold.
    let (child, _) = common::serve_on(&db, &addr.to_string(), &[]);
    server = Some(Proc(child));
    offline += usize::from(put(
        &a,
        &mut meant,
        1,
        &one[3],
        Result::South(12),
        &mut coin,
    ));
    offline += usize::from(put(&c, &mut meant, 2, &two[3], Result::Draw, &mut coin));
    made += 2;
    changes += 2;
    for p in [&a, &c] {
        network(p, true);
        drained(p);
    }
    // Table 1 corrects hand 2 (on the version its phone recorded), offline first.
    network(&a, false);
    enter(&a, &one[1], Result::South(16));
    offline += 1;
    mean(&mut meant, 1, &one[1], Result::South(16));
    made += 1;
    changes += 1;
    network(&a, true);
    drained(&a);
    // The second phone of table 1, whose page still shows the empty forms: the same draw
    // as the first phone's for hand 1 (recorded, nothing changes), and a different result
    // for hand 3: a conflict, kept aside for the director.
    enter(&b, &one[0], Result::Draw);
    enter(&b, &one[2], Result::South(8));
    made += 2;
    changes += 1;
    drained(&b);
    let text = b.text("#sittings");
    assert!(text.contains("kept aside for the director"), "{text}");
    b.screenshot("venue-conflict-phone");
    a.screenshot("venue-recorded-phone");
    c.go("/lang/zh?back=/events/1/table/2");
    let page = c.wait(&["本机录入的结果均已记录"]);
    assert!(page.contains("第 2 桌") || page.contains("2"), "{page}");
    c.screenshot("venue-recorded-phone-zh");
    c.resize(1100, 1000);
    c.go("/events/1/table/2");
    c.wait(&["本机"]);
    c.screenshot("venue-recorded-zh");

    // The phones' word on each entry, the server's results and audit trail.
    let mut on_phones = 0;
    let mut conflicts = 0;
    for p in [&a, &b, &c] {
        for s in states(p) {
            match s.as_str() {
                "recorded" => on_phones += 1,
                "conflict" => conflicts += 1,
                other => panic!("an entry left {other}"),
            }
        }
    }
    let st = store::SqliteStore::open(&db).unwrap();
    let results = st.results(1).unwrap();
    let lines = st
        .audit(1)
        .unwrap()
        .into_iter()
        .filter(|l| l.what.contains("result of deal"))
        .count();
    // Each phone lists its last entry of each sitting: each table's correction replaced its
    // first entry of hand 2 on the phone (that one was recorded before it).
    let listed = on_phones + conflicts;
    let recorded_twice = lines as i64 - changes as i64;
    let mut lost = 0;
    for (t, s, r) in &meant {
        let (deal, hand) = s.split_once('/').unwrap();
        let hand: u32 = hand.parse().unwrap();
        let got = results
            .iter()
            .find(|x| x.table == *t && x.deal == deal && x.hand == hand)
            .map(|x| x.entry.clone());
        let want = ScoreEntry {
            outcome: match r {
                Result::Draw => Outcome::Draw,
                Result::South(v) => Outcome::SelfDrawn {
                    winner: mcr::Wind::South,
                    value: *v,
                },
            },
            false_hu: vec![],
        };
        if got.as_ref() != Some(&want) {
            lost += 1;
            eprintln!("table {t} sitting {s}: {got:?}, meant {want:?}");
        }
    }
    println!(
        "entries made {made} ({offline} with no network or no server), listed on the phones {listed} ({conflicts} conflict), audit lines {lines} for {changes} changes: recorded twice {recorded_twice}, lost {lost}"
    );
    assert_eq!(lost, 0);
    assert_eq!(recorded_twice, 0);
    assert_eq!(conflicts, 1);
    assert_eq!(st.conflicts(1).unwrap().len(), 1);
    assert_eq!(results.len(), 8);
    // Every entry made is on a phone's list, but the two its corrections replaced.
    assert_eq!(listed, made - 2);
    drop(server);
}
