//! Challenges end to end over HTTP and WebSockets: two people play a 4-deal challenge, their
//! results are compared with each other and with the par exactly as rules §5 says; while it is
//! open no route shows anyone a deal they have not played; once closed the reveal verifies
//! against the commitment published at the start. An abandoned hand is played out by the
//! time-out defaults when the window closes. A par that searches is played behind the
//! publishing page, and a par left unplayed is taken up by the sweeper.

mod common;

use std::collections::HashMap;

use common::{
    csrf_of, director, http, imp_by_hand, person, play_through, publish_monday, review_all, serve,
    take_up,
};
use server::play::challenge::{self, NewChallenge};
use server::play::room::HandSummary;
use table::set::{verify, SetReveal};
use tournament::challenge::Rotation;

fn new_challenge(deals: usize) -> NewChallenge {
    NewChallenge {
        name: "Test challenge".into(),
        deals,
        copies: 1,
        opens_in_h: 0,
        hours: 24,
        level: "strong".into(),
        par: "strong".into(),
        rotation: Rotation::Same,
        limit_s: 60,
        bank_s: 0,
        scheduled: false,
        bots: false,
    }
}

/// The name, `data-ms` and `data-imp` of every row of a results page.
fn rows(page: &str) -> Vec<(String, i32, i32)> {
    page.split("<tr class=\"")
        .skip(1)
        .map(|row| {
            let attr = |name: &str| -> i32 {
                let at = row.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                row[at..].split('"').next().unwrap().parse().unwrap()
            };
            let n = row.find("class=\"name\">").unwrap() + 13;
            let name = row[n..].split('<').next().unwrap().to_string();
            (name, attr("data-ms"), attr("data-imp"))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_a_par_and_a_commitment_that_verifies() {
    let app = common::app(None);
    let addr = serve(app.clone()).await;
    let dir = director(&app);
    // The director publishes through the form.
    publish_monday(&app, &dir).await;
    let ch = challenge::load(&app.hall, 1).unwrap();
    assert_eq!(ch.spec.par, "medium", "the par bot chosen on the form");
    let key = ch.spec.key.clone().expect("a new challenge has a deal set");
    let seeds: Vec<String> = (0..4).map(|i| ch.spec.deal_seed(i).to_string()).collect();
    let (_, _, page) = http(&app, "GET", "/play/c/1", None, &[]).await;
    let published = ch.spec.commitment.clone();
    assert!(page.contains(&published), "the commitment is on the page");

    let (alice, ca) = person(&app, "Alice");
    let (_bob, cb) = person(&app, "Bob");
    let (_carol, cc) = person(&app, "Carol");
    // Alice plays all four deals; Bob the first three for now.
    let mut tables = HashMap::new();
    for (who, cookie, deals) in [("Alice", &ca, 1..=4), ("Bob", &cb, 1..=3)] {
        for d in deals {
            let t = take_up(&app, cookie, d, who).await;
            let end = play_through(addr, t, cookie).await;
            assert_eq!(end["stage"], "over");
            tables.insert((who, d), t);
        }
    }
    // A deal-seat is played once per person.
    let (st, _, body) = http(
        &app,
        "POST",
        "/play/c/1/play",
        Some(&ca),
        &[("csrf", &csrf_of(&app, &ca)), ("deal", "2")],
    )
    .await;
    assert_eq!(st, 422);
    assert!(body.contains("already played"), "{body}");

    // Alice's comparison at deal d (seat d-1 under the "same" rotation): par, Alice and,
    // for deals 1–3, Bob; IMP as worked out from the stored points.
    for d in 1..=4usize {
        let (st, _, page) = http(&app, "GET", &format!("/play/c/1/deal/{d}"), Some(&ca), &[]).await;
        assert_eq!(st, 200, "{page}");
        let got = rows(&page);
        let seat = d - 1;
        let hands = app
            .store
            .hands_of_deal(&format!("chal:1:{}:{seat}", d - 1), 100)
            .unwrap();
        let points: Vec<(String, i32)> = hands
            .iter()
            .map(|h| {
                let s: HandSummary = serde_json::from_str(&h.summary).unwrap();
                let name = match s.persons[seat] {
                    Some(p) => format!("{} (guest)", app.store.person(p).unwrap().name),
                    None => s.names[seat].clone(),
                };
                (name, s.points[seat])
            })
            .collect();
        assert_eq!(points.len(), if d < 4 { 3 } else { 2 }, "deal {d}");
        assert!(
            points.iter().any(|(n, _)| n == "par (medium bot)"),
            "{points:?}"
        );
        let all: Vec<i32> = points.iter().map(|(_, m)| *m).collect();
        for (name, ms) in &points {
            let row = got
                .iter()
                .find(|r| &r.0 == name)
                .unwrap_or_else(|| panic!("deal {d}: no row for {name} in {got:?}"));
            assert_eq!(row.1, *ms, "deal {d} {name}");
            assert_eq!(row.2, imp_by_hand(*ms, &all), "deal {d} {name}: {all:?}");
        }
    }
    // Bob sees Alice's result at their shared deal-seats.
    let (_, _, page) = http(&app, "GET", "/play/c/1/deal/2", Some(&cb), &[]).await;
    assert!(rows(&page).iter().any(|r| r.0 == "Alice (guest)"));
    // Each result links to its replay with the review and to the field; Bob's own review,
    // stored by a reviewer, not worked out for the page: queued first, then in figures.
    assert!(page.contains("class=\"review-link\"") && page.contains("class=\"field-link\""));
    assert!(
        page.contains("id=\"my-review\"") && page.contains("being made"),
        "{page}"
    );
    review_all(&app, 10).await;
    let (_, _, page) = http(&app, "GET", "/play/c/1/deal/2", Some(&cb), &[]).await;
    let mine = page.split("id=\"my-review\">").nth(1).unwrap();
    assert!(
        mine.contains("agreement") && mine.contains("See each decision"),
        "{mine}"
    );

    // While it is open: every route, every role. Bob has not played deal 4, Carol nothing.
    let par = ch.spec.par_table;
    let mut routes: Vec<String> = vec![
        "/play/c".into(),
        "/play/c/1".into(),
        "/play/c/1/reveal.json".into(),
        "/play".into(),
    ];
    for d in 1..=4 {
        routes.push(format!("/play/c/1/deal/{d}"));
        routes.push(format!("/play/c/1/deal/{d}?seat=N"));
    }
    let mut all_tables: Vec<i64> = tables.values().copied().collect();
    all_tables.push(par);
    for t in &all_tables {
        routes.push(format!("/play/t/{t}"));
        for n in 1..=16 {
            routes.push(format!("/play/t/{t}/hands/{n}"));
            routes.push(format!("/play/t/{t}/hands/{n}.json"));
            for v in ["E", "S", "W", "N", "all"] {
                routes.push(format!("/play/t/{t}/hands/{n}/step?view={v}&at=3"));
            }
        }
    }
    let roles = [
        ("nobody", None),
        ("Alice", Some(ca.as_str())),
        ("Bob", Some(cb.as_str())),
        ("Carol", Some(cc.as_str())),
        ("director", Some(dir.as_str())),
    ];
    let mut shown = 0;
    // Who has played deal d to its end (the director owns them all).
    let played = |role: &str, d: usize| match role {
        "Alice" | "director" => true,
        "Bob" => d <= 3,
        _ => false,
    };
    for (role, cookie) in &roles {
        for r in &routes {
            let (st, _, body) = http(&app, "GET", r, *cookie, &[]).await;
            assert!(!body.contains(key.as_str()), "{role} {r}: the key is shown");
            for (i, seed) in seeds.iter().enumerate() {
                if !played(role, i + 1) {
                    assert!(
                        !body.contains(seed.as_str()),
                        "{role} {r}: deal {}'s seed",
                        i + 1
                    );
                }
            }
            if st != 200 {
                continue;
            }
            shown += 1;
            assert!(
                !r.contains("reveal.json"),
                "{role} {r}: shown while the challenge is open"
            );
            // A deal's hands are shown only to someone who has played that deal (then all
            // of it: the set is released to those who played) and to the director.
            let deal_of_route = |r: &str| -> Option<usize> {
                if let Some(d) = r.strip_prefix("/play/c/1/deal/") {
                    return d.split('?').next()?.parse().ok();
                }
                let t: i64 = r
                    .strip_prefix("/play/t/")?
                    .split('/')
                    .next()?
                    .parse()
                    .ok()?;
                if t == par {
                    let n: usize = r
                        .split("/hands/")
                        .nth(1)?
                        .split(['/', '.'])
                        .next()?
                        .parse()
                        .ok()?;
                    return Some((n - 1) / 4 + 1);
                }
                tables.iter().find(|(_, &x)| x == t).map(|((_, d), _)| *d)
            };
            if let Some(d) = deal_of_route(r) {
                assert!(
                    played(role, d),
                    "{role} {r}: deal {d} shown to someone who has not played it"
                );
            } else {
                assert!(!r.starts_with(&format!("/play/t/{par}/")), "{role} {r}");
            }
        }
    }
    assert!(shown > 50, "the allowed routes were tried too ({shown})");
    // Watching a challenge table over the socket is refused.
    let t = tables[&("Alice", 1)];
    let req = format!("ws://{addr}/play/t/{t}/ws");
    assert!(tokio_tungstenite::connect_async(req).await.is_err());

    // Bob plays deal 4; the director closes the window; the deals are revealed.
    let t = take_up(&app, &cb, 4, "Bob").await;
    play_through(addr, t, &cb).await;
    common::close_challenge(&app, &dir).await;
    let (st, _, json) = http(&app, "GET", "/play/c/1/reveal.json", None, &[]).await;
    assert_eq!(st, 200, "{json}");
    let r: SetReveal = serde_json::from_str(&json).unwrap();
    assert_eq!(r.key, key);
    assert_eq!(r.deals[3].seed.to_string(), seeds[3]);
    assert_eq!(verify(&r, Some(&published)), Ok(4));
    let mut changed = r.clone();
    changed.deals[0].deal["seats"]["E"]["hand"][0] = "J3".into();
    assert!(verify(&changed, Some(&published)).is_err());
    // Now the logs are public.
    let (st, _, _) = http(
        &app,
        "GET",
        &format!("/play/t/{par}/hands/1.json"),
        None,
        &[],
    )
    .await;
    assert_eq!(st, 200);
    // Standings: Alice and Bob played 4 hands each, the par 8 (once per person's deal-seat…
    // here the 4 deal-seats both played).
    let (_, _, page) = http(&app, "GET", "/play/c/1", Some(&ca), &[]).await;
    assert!(page.contains("revealed"), "{page}");
    let _ = alice;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_hand_is_played_out_by_the_defaults_at_the_close() {
    let app = common::app(None);
    let _addr = serve(app.clone()).await;
    let id = challenge::publish(&app.hall, &new_challenge(4)).unwrap();
    let (me, _cookie) = person(&app, "Dora");
    let t = challenge::take_up(&app.hall, id, me, "Dora", 0).unwrap();
    // Dora never makes a move. Her table waits on her clock (60 s) until the close.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!app.store.play_table(t).unwrap().finished);
    let hall = app.hall.clone();
    tokio::task::spawn_blocking(move || challenge::close_now(&hall, id))
        .await
        .unwrap()
        .unwrap();
    let start = std::time::Instant::now();
    while !app.store.play_table(t).unwrap().finished {
        assert!(
            start.elapsed().as_secs() < 30,
            "the hand was not played out"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let h = &app.store.hands_of_table(t).unwrap()[0];
    let s: HandSummary = serde_json::from_str(&h.summary).unwrap();
    assert!(s.stood_in[0], "East's moves were the server's");
    // Every move of East's was the time-out default: discard the tile just drawn, or pass.
    let log: table::log::HandLog = serde_json::from_str(&h.log).unwrap();
    let mut t2 = table::log::start_of(&log).unwrap();
    for d in &log.actions {
        if d.seat == mcr::Wind::East {
            assert_eq!(d.action, server::play::room::timeout_default(&t2, d.seat));
        }
        t2.apply(d.seat, d.action).unwrap();
    }
    let hall = app.hall.clone();
    tokio::task::spawn_blocking(move || challenge::sweep(&hall, true))
        .await
        .unwrap();
    let c = challenge::load(&app.hall, id).unwrap();
    assert_eq!(c.stage(challenge::now_s()), challenge::Stage::Revealed);
}

/// Waits (up to a minute) until challenge `id` has its par.
async fn par_in(app: &server::App, id: i64) -> challenge::Loaded {
    let start = std::time::Instant::now();
    loop {
        let c = challenge::load(&app.hall, id).unwrap();
        if c.spec.par_table != 0 {
            return c;
        }
        assert!(start.elapsed().as_secs() < 60, "the par was not played");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_searching_par_is_played_behind_the_page_and_the_challenge_opens_when_it_is_in() {
    let app = common::app(None);
    let _addr = serve(app.clone()).await;
    let dir = director(&app);
    // The form offers the expert as the par (not as the bots).
    let (_, _, form) = http(&app, "GET", "/play/c", Some(&dir), &[]).await;
    let par_select = form.split("name=\"par\"").nth(1).unwrap();
    let par_select = par_select.split("</select>").next().unwrap();
    assert!(par_select.contains("value=\"expert\""), "{par_select}");
    let bots_select = form.split("name=\"level\"").nth(1).unwrap();
    assert!(!bots_select
        .split("</select>")
        .next()
        .unwrap()
        .contains("expert"));
    let fields = |par: &'static str| {
        vec![
            ("name", "Deep"),
            ("deals", "4"),
            ("hours", "24"),
            ("level", "random"),
            ("par", par),
            ("rotation", "same"),
            ("limit", "60"),
            ("bank", "0"),
        ]
    };
    let csrf = csrf_of(&app, &dir);
    let mut f = fields("expert");
    f.push(("csrf", &csrf));
    let start = std::time::Instant::now();
    let (st, loc, body) = http(&app, "POST", "/play/c", Some(&dir), &f).await;
    let answered = start.elapsed();
    assert_eq!(st, 303, "{body}");
    assert_eq!(loc.as_deref(), Some("/play/c/1"));
    // The page answers before the par is in: the challenge is upcoming and says why.
    let c = challenge::load(&app.hall, 1).unwrap();
    assert_eq!(c.spec.par, "expert");
    if c.spec.par_table == 0 {
        assert_eq!(c.stage(challenge::now_s()), challenge::Stage::Upcoming);
        let (_, _, page) = http(&app, "GET", "/play/c/1", None, &[]).await;
        assert!(page.contains("id=\"par-pending\""), "{page}");
        assert!(
            page.contains("The par (expert bot) is being played"),
            "{page}"
        );
        // Nobody can take up a deal of it yet.
        let (_, cookie) = person(&app, "Eve");
        let (st, _, body) = http(
            &app,
            "POST",
            "/play/c/1/play",
            Some(&cookie),
            &[("csrf", &csrf_of(&app, &cookie)), ("deal", "1")],
        )
        .await;
        assert_ne!(st, 303, "a deal was taken up before the par was in: {body}");
    }
    assert!(
        answered.as_secs() < 10,
        "publishing waited on the expert's par: {answered:?}"
    );
    // A quick par is still played before the page answers.
    let mut f = fields("medium");
    f.push(("csrf", &csrf));
    let (st, loc, body) = http(&app, "POST", "/play/c", Some(&dir), &f).await;
    assert_eq!(st, 303, "{body}");
    assert_eq!(loc.as_deref(), Some("/play/c/2"));
    let c = challenge::load(&app.hall, 2).unwrap();
    assert_ne!(
        c.spec.par_table, 0,
        "a medium par is in when the page answers"
    );
    assert_eq!(c.stage(challenge::now_s()), challenge::Stage::Open);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_par_left_unplayed_is_taken_up_by_the_sweeper_after_the_grace() {
    let app = common::app(None);
    let _addr = serve(app.clone()).await;
    // Announced, and its node stopped before the par was in.
    let id = challenge::announce(&app.hall, &new_challenge(4)).unwrap();
    let sweep = |hall: std::sync::Arc<server::play::Hall>| async move {
        tokio::task::spawn_blocking(move || challenge::sweep(&hall, true))
            .await
            .unwrap()
    };
    let hall = app.hall.clone();
    // Within the grace another node may still be playing it: left alone.
    sweep(hall.clone()).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let c = challenge::load(&app.hall, id).unwrap();
    assert_eq!(c.spec.par_table, 0);
    assert_eq!(c.stage(challenge::now_s()), challenge::Stage::Upcoming);
    // Past the grace the sweeper plays it, once.
    let mut spec = c.spec.clone();
    spec.announced -= challenge::PAR_GRACE_S + 1;
    app.store
        .update_challenge(id, &serde_json::to_string(&spec).unwrap())
        .unwrap();
    sweep(hall.clone()).await;
    sweep(hall.clone()).await;
    let c = par_in(&app, id).await;
    assert_eq!(c.stage(challenge::now_s()), challenge::Stage::Open);
    // Every deal-seat has one par hand, and the par is the same as publishing at once
    // would have played (the bots are seeded by the deal set's key).
    let hands = app.store.hands_of_table(c.spec.par_table).unwrap();
    assert_eq!(hands.len(), 16);
    sweep(hall).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        challenge::load(&app.hall, id).unwrap().spec.par_table,
        c.spec.par_table,
        "the par was stored once"
    );
}
