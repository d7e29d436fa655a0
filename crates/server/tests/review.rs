//! A finished hand's review at `/play/t/<t>/hands/<n>/review.json`: queued when the hand
//! is kept, stored once a reviewer has done it, shown to whom the secrecy rule shows the
//! hand (seat by seat: the route keeps the seats of the viewer's views).

mod common;

use common::{alone, app, bot, http, person, play_through};
use serde_json::Value;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hands_review_is_queued_then_shown_to_its_player() {
    let app = app(None);
    let (t, cookie, addr) = alone(
        &app,
        "Rhea",
        5..6,
        [bot("strong"), bot("strong"), bot("strong")],
    )
    .await;
    play_through(addr, t, &cookie).await;
    let url = format!("/play/t/{t}/hands/1/review.json");
    let get = |c: Option<String>| {
        let app = app.clone();
        let url = url.clone();
        async move { http(&app, "GET", &url, c.as_deref(), &[]).await }
    };
    let (st, _, body) = get(Some(cookie.clone())).await;
    assert_eq!(st, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["state"], "queued", "{v}");

    // One reviewer (a small budget) does it; the player then sees their own seat.
    let store = app.hall.store.clone();
    let did = tokio::task::spawn_blocking(move || {
        server::play::reviewer::review_one(store.as_ref(), "test", 20).unwrap()
    })
    .await
    .unwrap();
    assert!(did);
    let (st, _, body) = get(Some(cookie.clone())).await;
    assert_eq!(st, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["state"], "done", "{v}");
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 1, "{v}");
    assert_eq!(seats[0]["seat"], "E");
    let weighed = seats[0]["review"]["decisions_weighed"].as_array().unwrap();
    assert!(!weighed.is_empty(), "{v}");
    for w in weighed {
        assert_eq!(w["candidates"][0]["action"], w["played"], "{w}");
    }

    // A lobby table's hand, once the table is over, is open to everyone (its log too):
    // a stranger and someone not signed in see the same review (of its one person's seat).
    let (_, other) = person(&app, "Quin");
    for viewer in [Some(other), None] {
        let log_url = format!("/play/t/{t}/hands/1.json");
        let (st, _, log) = http(&app, "GET", &log_url, viewer.as_deref(), &[]).await;
        assert_eq!(st, 200, "the log is open: {log}");
        let (st, _, seen) = get(viewer).await;
        assert_eq!(st, 200);
        assert_eq!(serde_json::from_str::<Value>(&seen).unwrap(), v);
    }
    // Bad input: a hand the table does not have, a hand number that is not one.
    for (n, says) in [("9", "no finished hand 9"), ("x", "no hand 'x'")] {
        let url = format!("/play/t/{t}/hands/{n}/review.json");
        let (st, _, body) = http(&app, "GET", &url, None, &[]).await;
        assert_eq!(st, 404, "{n}: {body}");
        assert!(body.contains(says), "{n}: {body}");
    }
}

#[tokio::test]
async fn a_hand_number_with_markup_is_shown_escaped() {
    let app = app(None);
    let (st, _, body) = http(
        &app,
        "GET",
        "/play/t/1/hands/%3Cscript%3E/review.json",
        None,
        &[],
    )
    .await;
    assert_eq!(st, 404, "{body}");
    assert!(
        !body.contains("<script>") && body.contains("&lt;script&gt;"),
        "{body}"
    );
}
