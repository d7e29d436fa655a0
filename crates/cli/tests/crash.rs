//! Crash safety: SIGKILL `dupmj serve` in the middle of a burst of score entries, restart
//! it, and check that every acknowledged entry is there and nothing is half-written.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use store::prelude::*;

use store::SqliteStore;

/// One HTTP/1.1 request; the status, the Set-Cookie pair and the body.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    form: &str,
) -> std::io::Result<(u16, Option<String>, String)> {
    let mut s = TcpStream::connect(addr)?;
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{cookie}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    )?;
    let mut text = String::new();
    s.read_to_string(&mut text)?;
    let status = text
        .get(9..12)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status"))?;
    let set_cookie = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(|c| c.split(';').next().unwrap().to_string());
    let body = text
        .split_once("\r\n\r\n")
        .map(|x| x.1.to_string())
        .unwrap_or_default();
    Ok((status, set_cookie, body))
}

/// An acknowledged save: deal, table, hand and the value entered.
type Acked = (String, u32, u32, u32);

#[test]
fn acknowledged_entries_survive_sigkill() {
    let db = common::fresh_db("crash");
    let codes = {
        let s = SqliteStore::open(&db).unwrap();
        let players = server::service::parse_entrants(
            &(1..=16).map(|i| format!("P{i}\n")).collect::<String>(),
        )
        .unwrap();
        server::service::create_event(
            &s,
            "Crash",
            false,
            players,
            &table::set::SetKey::from_bytes([1; 32]),
            None,
            "test",
        )
        .unwrap();
        // Every round open: the phones below enter all five.
        for round in 2..=5 {
            s.set_round(1, round, true, "test").unwrap();
        }
        s.event(1).unwrap().table_codes
    };
    let (mut child, addr) = common::serve(&db);
    // Four phones, one per table, each saving its 20 sittings as fast as it can.
    let acked: Arc<Mutex<Vec<Acked>>> = Arc::default();
    let count = Arc::new(AtomicUsize::new(0));
    let mut phones = Vec::new();
    for t in 1..=4u32 {
        let code = codes[t as usize - 1].clone();
        let (acked, count) = (acked.clone(), count.clone());
        phones.push(std::thread::spawn(move || {
            let (_, form_cookie, login) = http(addr, "GET", "/events/1/table", None, "").unwrap();
            let at = login.find("name=\"form\" value=\"").unwrap() + 19;
            let form = login[at..].split('"').next().unwrap().to_string();
            let (_, cookie, _) = http(
                addr,
                "POST",
                "/events/1/table",
                form_cookie.as_deref(),
                &format!("form={form}&table={t}&code={code}"),
            )
            .unwrap();
            let cookie = cookie.unwrap();
            let (_, _, page) = http(
                addr,
                "GET",
                &format!("/events/1/table/{t}/deal/1-{t}/1"),
                Some(&cookie),
                "",
            )
            .unwrap();
            let at = page.find("name=\"csrf\" value=\"").unwrap() + 19;
            let csrf = page[at..].split('"').next().unwrap().to_string();
            for round in 1..=5 {
                for hand in 1..=4u32 {
                    let deal = format!("{round}-{t}");
                    let value = 8 + round * 4 + hand;
                    let form =
                        format!("csrf={csrf}&version=0&step=save&kind=self&winner=S&value={value}");
                    match http(
                        addr,
                        "POST",
                        &format!("/events/1/table/{t}/deal/{deal}/{hand}"),
                        Some(&cookie),
                        &form,
                    ) {
                        Ok((200, _, _)) => {
                            acked.lock().unwrap().push((deal, t, hand, value));
                            count.fetch_add(1, Ordering::SeqCst);
                        }
                        Ok((status, _, body)) => panic!("{status}: {body}"),
                        Err(_) => return, // the server is gone
                    }
                }
            }
        }));
    }
    while count.load(Ordering::SeqCst) < 30 {
        std::thread::yield_now();
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    for p in phones {
        p.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 30 && acked.len() < 80,
        "killed mid-burst: {} acknowledged",
        acked.len()
    );

    // Restarted, the server shows every acknowledged entry.
    let (mut child, addr) = common::serve(&db);
    let (status, _, _) = http(addr, "GET", "/events/1/standings", None, "").unwrap();
    assert_eq!(status, 200);
    child.kill().unwrap();
    child.wait().unwrap();
    let s = SqliteStore::open(&db).unwrap();
    let stored = s.results(1).unwrap();
    for (deal, t, hand, value) in &acked {
        let r = stored
            .iter()
            .find(|r| &r.deal == deal && r.table == *t && r.hand == *hand)
            .unwrap_or_else(|| panic!("acknowledged {deal} table {t} hand {hand} is lost"));
        assert_eq!(r.points[1], *value as i32 + 24);
    }
    // Nothing half-written: each stored result is whole and has its audit line.
    assert!(stored.len() >= acked.len() && stored.len() <= acked.len() + 4);
    for r in &stored {
        assert_eq!(r.entry.match_points().unwrap(), r.points);
    }
    let audited = s
        .audit(1)
        .unwrap()
        .iter()
        .filter(|l| l.what.starts_with("result of deal"))
        .count();
    assert_eq!(audited, stored.len());
    println!(
        "{} entries acknowledged before SIGKILL, {} stored after restart",
        acked.len(),
        stored.len()
    );
    std::fs::remove_dir_all(db.parent().unwrap()).ok();
}
