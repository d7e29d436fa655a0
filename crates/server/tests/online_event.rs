//! An online duplicate event of 16 players: two people play their seats over WebSockets, a
//! third links their seat and never shows, the rest are bots. The server opens every sitting
//! of the movement hand by hand and enters each result itself; the event ends with standings
//! and no manual entry, results equal to the hands played, and the bot's hands marked.

mod common;

use std::time::{Duration, Instant};

use common::{http, person, play_through, serve};
use server::play::online::{self, Progress};
use server::service::{create_event, parse_entrants};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_players_twenty_hands_from_start_to_standings() {
    let app = common::app(None);
    let addr = serve(app.clone()).await;
    let names: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    let event = create_event(
        app.store.as_ref(),
        "Online open",
        false,
        parse_entrants(&names).unwrap(),
        &table::set::SetKey::from_bytes([42; 32]),
        None,
        "test",
    )
    .unwrap();
    // Three seconds per decision and no bank: the player who does not show makes the first
    // table wait that long; from then on the bot sits in for them from the start.
    let s = online::enable(&app.hall, event, 0, 3, 0, "strong", "test").unwrap();
    let (ann, ca) = person(&app, "Ann");
    let (ben, cb) = person(&app, "Ben");
    let (_cy, cc) = person(&app, "Cy");
    // Each opens their personal link: Ann is player 1, Ben player 6, Cy player 11.
    for (cookie, slot) in [(&ca, 1), (&cb, 6), (&cc, 11)] {
        let link = format!("/play/e/{event}/join/{}", s.tokens[slot - 1]);
        let (st, loc, body) = http(&app, "GET", &link, Some(cookie), &[]).await;
        assert_eq!(st, 303, "{body}");
        assert_eq!(loc, Some(format!("/play/e/{event}")));
    }
    // A made-up link is refused.
    let (st, _, body) = http(
        &app,
        "GET",
        &format!("/play/e/{event}/join/nope"),
        Some(&ca),
        &[],
    )
    .await;
    assert_eq!(st, 422);
    assert!(body.contains("not a player's link"), "{body}");

    // Each person's browser: goes to the table the event page names and plays it, again
    // and again, while the server (the sweeper's work, run here) moves the event on.
    let mut people = Vec::new();
    for (p, cookie) in [(ann, ca.clone()), (ben, cb.clone())] {
        let app = app.clone();
        people.push(tokio::spawn(async move {
            let mut played = 0;
            let mut last = 0;
            loop {
                let st = online::load(&app.hall, event).unwrap().unwrap();
                if st.progress(server::play::challenge::now_s()) == Progress::Over {
                    return played;
                }
                match st.table_of(p) {
                    Some(t) if t != last => {
                        let (_, _, page) =
                            http(&app, "GET", &format!("/play/e/{event}"), Some(&cookie), &[])
                                .await;
                        assert!(page.contains(&format!("/play/t/{t}")), "{page}");
                        play_through(addr, t, &cookie).await;
                        played += 1;
                        last = t;
                    }
                    _ => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            }
        }));
    }
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the event did not end"
        );
        let hall = app.hall.clone();
        tokio::task::spawn_blocking(move || online::sweep(&hall))
            .await
            .unwrap();
        let st = online::load(&app.hall, event).unwrap().unwrap();
        if st.progress(server::play::challenge::now_s()) == Progress::Over {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Tables that ended after the last sweep read the state have their results entered by
    // the next one (the server's sweeper keeps running).
    let hall = app.hall.clone();
    tokio::task::spawn_blocking(move || online::sweep(&hall))
        .await
        .unwrap();
    let mut played = [0, 0];
    for (i, h) in people.into_iter().enumerate() {
        played[i] = h.await.unwrap();
    }
    assert_eq!(played, [20, 20], "each person played every hand of theirs");

    // 20 hands × 4 tables, every result entered by the server and equal to the hand played.
    let results = app.store.results(event).unwrap();
    assert_eq!(results.len(), 80);
    let sittings = app.store.online_sittings(event).unwrap();
    assert_eq!(sittings.len(), 80);
    for r in &results {
        assert!(r.by.starts_with(online::ENTERED_BY), "{}", r.by);
        let s = sittings
            .iter()
            .find(|s| {
                s.table == r.table && s.hand == r.hand && {
                    let spec: server::play::spec::TableSpec =
                        serde_json::from_str(&app.store.play_table(s.play_table).unwrap().spec)
                            .unwrap();
                    spec.sitting.unwrap().deal == r.deal
                }
            })
            .unwrap();
        let h = &app.store.hands_of_table(s.play_table).unwrap()[0];
        let log: table::log::HandLog = serde_json::from_str(&h.log).unwrap();
        assert_eq!(
            r.points,
            log.result.unwrap().points,
            "deal {} table {}",
            r.deal,
            r.table
        );
    }
    // Standings: everyone 20 hands; the bot's hands are marked (13 unlinked players and Cy,
    // who never showed); Ann and Ben have none.
    let bots = online::bot_hands(&app.hall, event).unwrap();
    for p in 1..=16u32 {
        let want = if p == 1 || p == 6 { None } else { Some(&20) };
        assert_eq!(bots.get(&p), want, "player {p}");
    }
    let (st, _, page) = http(
        &app,
        "GET",
        &format!("/events/{event}/standings"),
        None,
        &[],
    )
    .await;
    assert_eq!(st, 200);
    assert!(page.contains("80 of 80 table results entered"), "{page}");
    assert!(page.contains("(bot: 20 hands)"));
    let e = app.store.event(event).unwrap();
    let standings = server::service::results_of(app.store.as_ref(), &e, &results)
        .unwrap()
        .individual()
        .unwrap();
    assert_eq!(standings.lines.len(), 16);
    assert!(standings.lines.iter().all(|l| l.hands == 20));
    // Once over, every hand is public.
    let t = sittings[0].play_table;
    let (st, _, _) = http(&app, "GET", &format!("/play/t/{t}/hands/1.json"), None, &[]).await;
    assert_eq!(st, 200);
    let _ = cc;
}
