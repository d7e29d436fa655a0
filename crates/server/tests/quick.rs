//! Quick match on one node: people who join the queue together sit at one table, one alone
//! gets bots near their level after the wait, leaving and a closed browser take one out of
//! the queue, and the front page's "Play now" goes through the queue too.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use server::play::spec::{Hands, Place, TableSpec};
use server::App;

fn spec_of(app: &App, id: i64) -> TableSpec {
    serde_json::from_str(&app.store.play_table(id).unwrap().spec).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_people_who_join_together_sit_at_one_table_at_once() {
    let app = app_waiting(Duration::from_secs(600));
    tokio::spawn(server::play::quick::matchmaker(app.hall.clone()));
    let people: Vec<(i64, String)> = ["Ada", "Bo", "Cy", "Di"]
        .iter()
        .map(|n| person(&app, n))
        .collect();
    for (_, c) in &people {
        join(&app, c, false).await;
    }
    let mut tables = Vec::new();
    for (_, c) in &people {
        tables.push(table_within(&app, c, 10).await);
    }
    tables.dedup();
    assert_eq!(tables.len(), 1, "{tables:?}");
    let spec = spec_of(&app, tables[0]);
    assert!(spec.places.iter().all(|p| *p == Place::Person), "{spec:?}");
    assert!(spec.rated() && spec.deals_key.is_some());
    let Hands::Duplicate { deals } = &spec.hands else {
        panic!("not duplicate")
    };
    assert_eq!(deals.len(), 4);
    // Every one of them is seated, at a place of their own, and the hand has begun.
    let addr = serve(app.clone()).await;
    let mut places = Vec::new();
    let mut sockets = Vec::new();
    for (_, c) in &people {
        let mut ws = Client::connect(addr, tables[0], Some(c)).await;
        let s = ws.until(|s| s["you"].is_u64()).await;
        assert_eq!(s["stage"], "playing", "{s}");
        places.push(s["you"].as_u64().unwrap());
        sockets.push(ws);
    }
    let mut sorted = places.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, vec![0, 1, 2, 3]);

    // A stamp from Ada shows at Ada's place for the others; no free text, no flood.
    sockets[0]
        .send(json!({"type": "stamp", "stamp": "hello"}))
        .await;
    let seen = sockets[1]
        .until(|s| s["stamps"].as_array().is_some_and(|a| !a.is_empty()))
        .await;
    assert_eq!(seen["stamps"][0]["place"], places[0]);
    assert_eq!(seen["stamps"][0]["stamp"], "hello");
    sockets[0]
        .send(json!({"type": "stamp", "stamp": "you are slow"}))
        .await;
    let e = sockets[0].until_any(|m| m["type"] == "error").await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("no stamp 'you are slow'"),
        "{e}"
    );
    sockets[0]
        .send(json!({"type": "stamp", "stamp": "gg"}))
        .await;
    let e = sockets[0].until_any(|m| m["type"] == "error").await;
    assert!(
        e["message"].as_str().unwrap().contains("the next in"),
        "{e}"
    );
    sockets[0]
        .send(json!({"type": "stamp", "stamp": "gg", "text": "hi"}))
        .await;
    let e = sockets[0].until_any(|m| m["type"] == "error").await;
    assert!(
        e["message"].as_str().unwrap().contains("not understood"),
        "{e}"
    );
    for ws in sockets {
        ws.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_alone_gets_bots_near_their_level_after_the_wait_and_two_sit_together() {
    let app = app_waiting(Duration::from_secs(2));
    tokio::spawn(server::play::quick::matchmaker(app.hall.clone()));
    let (_, ann) = person(&app, "Ann");
    join(&app, &ann, false).await;
    let s = state(&app, &ann).await;
    assert_eq!(
        (
            s["queued"].clone(),
            s["waiting"].clone(),
            s["wait_s"].clone()
        ),
        (true.into(), 1.into(), 2.into())
    );
    assert!(matches!(s["bots_in_s"].as_u64(), Some(1..=2)), "{s}");
    // Not before the wait.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(state(&app, &ann).await["table"], Value::Null);
    let t = table_within(&app, &ann, 10).await;
    let spec = spec_of(&app, t);
    // A newcomer's level is medium's: three medium bots.
    let bots: Vec<&Place> = spec
        .places
        .iter()
        .filter(|p| **p != Place::Person)
        .collect();
    assert_eq!(bots.len(), 3);
    for b in bots {
        assert_eq!(b, &bot("medium"));
    }
    // The waiting page goes to the table.
    let (status, to, _) = http(&app, "GET", "/play/quick", Some(&ann), &[]).await;
    assert_eq!((status, to), (303, Some(format!("/play/t/{t}"))));

    // Two who join within the wait sit at one table, with two bots.
    let (_, bo) = person(&app, "Bo");
    let (_, cy) = person(&app, "Cy");
    join(&app, &bo, false).await;
    join(&app, &cy, false).await;
    let (tb, tc) = (
        table_within(&app, &bo, 10).await,
        table_within(&app, &cy, 10).await,
    );
    assert_eq!(tb, tc);
    assert_ne!(tb, t);
    let spec = spec_of(&app, tb);
    assert_eq!(
        spec.places.iter().filter(|p| **p == Place::Person).count(),
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_and_a_closed_browser_take_one_out_of_the_queue() {
    let app = app_waiting(Duration::from_secs(600));
    let (_, ann) = person(&app, "Ann");
    join(&app, &ann, false).await;
    assert_eq!(state(&app, &ann).await["queued"], true);
    // The page's button: needs the form's token, then out.
    let (status, _, _) = http(&app, "POST", "/play/quick/leave", Some(&ann), &[]).await;
    assert_eq!(status, 403);
    let csrf = csrf_of(&app, &ann);
    let (status, to, _) = http(
        &app,
        "POST",
        "/play/quick/leave",
        Some(&ann),
        &[("csrf", &csrf)],
    )
    .await;
    assert_eq!((status, to.as_deref()), (303, Some("/play")));
    assert_eq!(state(&app, &ann).await["queued"], false);
    let (_, _, page) = http(&app, "GET", "/play/quick", Some(&ann), &[]).await;
    assert!(page.contains("You are not in the queue."), "{page}");

    // A browser that stopped asking: taken out at the next round, never seated.
    let (bo, _) = person(&app, "Bo");
    let old = store::now_ms() - 9_000;
    app.store
        .join_queue(&store::Queued {
            person: bo,
            name: "Bo".into(),
            rating_milli: 25_000,
            bot: false,
            bots_ok: false,
            joined_ms: old,
            seen_ms: old,
            table: None,
        })
        .unwrap();
    let hall = app.hall.clone();
    let opened = tokio::task::spawn_blocking(move || server::play::quick::round(&hall))
        .await
        .unwrap()
        .unwrap();
    assert!(opened.is_empty(), "{opened:?}");
    assert!(app.store.queue().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_makes_a_guest_who_waits_in_the_queue() {
    let app = app_waiting(Duration::ZERO);
    tokio::spawn(server::play::quick::matchmaker(app.hall.clone()));
    let (status, to, _) = http(&app, "POST", "/play/now", None, &[]).await;
    assert_eq!((status, to.as_deref()), (303, Some("/play/quick")));
    let q = app.store.queue().unwrap();
    assert_eq!(q.len(), 1);
    let guest = app.store.person(q[0].person).unwrap();
    assert!(
        guest.name.starts_with("Player ") && guest.name[7..].parse::<u16>().is_ok(),
        "{}",
        guest.name
    );
    // Someone signed in needs the form's token.
    let (_, quinn) = person(&app, "Quinn");
    let (status, _, _) = http(&app, "POST", "/play/now", Some(&quinn), &[]).await;
    assert_eq!(status, 403);
    // A form that says something else than yes or no about bot accounts is refused.
    let csrf = csrf_of(&app, &quinn);
    let (status, _, body) = http(
        &app,
        "POST",
        "/play/quick",
        Some(&quinn),
        &[("csrf", &csrf), ("bots", "maybe")],
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("bots: 'maybe'"), "{body}");
    // The lobby shows the button and who waits and plays.
    let (_, _, lobby) = http(&app, "GET", "/play", Some(&quinn), &[]).await;
    assert!(lobby.contains("action=\"/play/quick\""), "{lobby}");
    assert!(lobby.contains("id=\"crowd\""), "{lobby}");
}
