//! The table page's queue over HTTP (in process): every sitting's form on the table's page,
//! the check of an entry that saves nothing, and the save under the phone's key — sent
//! again after a lost answer it is recorded once; a late copy after a correction changes
//! nothing; another phone's different entry is a conflict for the director.

mod common;

use common::{csrf_of, http};
use serde_json::Value;
use server::App;
use store::Role;

/// A phone logged in as table `t`: its Cookie header and cross-site token.
fn phone(a: &App, t: u32) -> (String, String) {
    let (s, _) =
        server::auth::start_session(a.store.as_ref(), Role::Table { event: 1, table: t }).unwrap();
    let cookie = format!("{}={}", server::auth::COOKIE, s.token);
    let csrf = csrf_of(a, &cookie);
    (cookie, csrf)
}

async fn post(a: &App, path: &str, cookie: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let (status, _, body) = http(a, "POST", path, Some(cookie), form).await;
    let v = serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    (status, v)
}

/// The check of South's self-drawn `value`: status and answer.
async fn check(a: &App, (cookie, csrf): &(String, String), value: &str) -> (u16, Value) {
    let form = [
        ("csrf", csrf.as_str()),
        ("kind", "self"),
        ("winner", "S"),
        ("value", value),
    ];
    post(a, "/events/1/table/1/deal/1-1/1/check.json", cookie, &form).await
}

const SEND: &str = "/events/1/table/1/deal/1-1/1/send.json";

/// South self-draws `value`, sent under `key` on `version`.
async fn send(
    a: &App,
    (cookie, csrf): &(String, String),
    key: &str,
    value: &str,
    version: &str,
) -> (u16, Value) {
    post(
        a,
        SEND,
        cookie,
        &[
            ("csrf", csrf),
            ("key", key),
            ("version", version),
            ("kind", "self"),
            ("winner", "S"),
            ("value", value),
        ],
    )
    .await
}

#[tokio::test]
async fn an_entry_sent_again_is_recorded_once_and_a_check_saves_nothing() {
    let a = common::app(None);
    common::live_event(&a, 16);
    let one = phone(&a, 1);

    // The table's page holds every sitting's form of the open round (the first) and the
    // script that queues them.
    let (status, _, page) = http(&a, "GET", "/events/1/table/1", Some(&one.0), &[]).await;
    assert_eq!(status, 200);
    let e = a.store.event(1).unwrap();
    let sittings: Vec<(String, u32)> = e
        .movement
        .rounds
        .iter()
        .filter(|r| r.round == 1)
        .flat_map(|r| r.hands.iter())
        .flat_map(|h| {
            h.tables
                .iter()
                .filter(|x| x.table == 1)
                .map(move |x| (x.deal.clone(), h.hand))
        })
        .collect();
    assert!(sittings.len() >= 4, "{sittings:?}");
    for (deal, hand) in &sittings {
        let section = format!("<section class=\"sitting\" data-sitting=\"{deal}/{hand}\"");
        assert!(page.contains(&section), "{section} in {page}");
        let form = format!("action=\"/events/1/table/1/deal/{deal}/{hand}\"");
        assert!(page.contains(&form), "{form}");
    }
    assert!(page.contains("/assets/venue.js"));

    // The check (spec §4, duplicate): S self-draws 12 — S 12 + 24 = 36, the others
    // −(⌈12/3⌉ + 8) = −12 each; nothing saved.
    let (status, v) = check(&a, &one, "12").await;
    assert_eq!(status, 200, "{v}");
    let points: Vec<i64> = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_i64().unwrap())
        .collect();
    assert_eq!(points, [-12, 36, -12, -12]);
    assert!(a.store.results(1).unwrap().is_empty());
    let (status, v) = check(&a, &one, "x").await;
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("value 'x'"), "{v}");

    // Sent, its answer lost, sent again: one result, one audit line.
    let audit = a.store.audit(1).unwrap().len();
    let (status, v) = send(&a, &one, "phone-one-0001", "12", "0").await;
    assert_eq!(
        (status, v["state"].as_str(), v["version"].as_u64()),
        (200, Some("recorded"), Some(1))
    );
    let (status, again) = send(&a, &one, "phone-one-0001", "12", "0").await;
    assert_eq!((status, &again), (200, &v));
    assert_eq!(a.store.audit(1).unwrap().len(), audit + 1);

    // Corrected to 16 on version 1 (S 16 + 24 = 40, the others −(⌈16/3⌉ + 8) = −14); then a
    // late copy of the first arrives: it changes nothing.
    let (status, v) = send(&a, &one, "phone-one-0002", "16", "1").await;
    assert_eq!((status, v["version"].as_u64()), (200, Some(2)));
    let (status, v) = send(&a, &one, "phone-one-0001", "12", "0").await;
    assert_eq!((status, v["version"].as_u64()), (200, Some(1)));
    let r = a.store.results(1).unwrap();
    assert_eq!(
        (r.len(), r[0].version, r[0].points),
        (1, 2, [-14, 40, -14, -14])
    );
    assert!(a.store.conflicts(1).unwrap().is_empty());

    // A second phone of the same table, on the empty form, enters something else: a
    // conflict for the director, once however often it is sent.
    let two = phone(&a, 1);
    for _ in 0..2 {
        let (status, v) = send(&a, &two, "phone-two-0001", "20", "0").await;
        assert_eq!(
            (status, v["state"].as_str()),
            (409, Some("conflict")),
            "{v}"
        );
    }
    assert_eq!(a.store.conflicts(1).unwrap().len(), 1);
    assert_eq!(a.store.audit(1).unwrap().len(), audit + 3);

    // Refused, each naming what is wrong: no key, a key that is not one, a stale token,
    // another table's phone, a sitting that is not one.
    let (status, v) = post(
        &a,
        SEND,
        &one.0,
        &[("csrf", &one.1), ("version", "2"), ("kind", "draw")],
    )
    .await;
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("key"), "{v}");
    let (status, v) = send(&a, &one, "bad key!", "12", "2").await;
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("key:"), "{v}");
    let stale = (one.0.clone(), "not-the-token".to_string());
    let (status, _) = send(&a, &stale, "phone-one-0003", "12", "2").await;
    assert_eq!(status, 403);
    let three = phone(&a, 3);
    let (status, v) = send(&a, &three, "phone-three-01", "12", "0").await;
    assert_eq!(status, 403);
    assert!(v["error"].as_str().unwrap().contains("table 3"), "{v}");
    // A sitting the movement does not have: table 1 plays deal 1-1 in round 1, not 1-2.
    let (status, v) = post(
        &a,
        "/events/1/table/1/deal/1-2/1/send.json",
        &one.0,
        &[
            ("csrf", &one.1),
            ("key", "phone-one-0004"),
            ("version", "0"),
            ("kind", "draw"),
        ],
    )
    .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(
        v["error"].as_str().unwrap(),
        "deal 1-2 is not played at table 1 in hand 1",
        "{v}"
    );
    assert_eq!(
        a.store.audit(1).unwrap().len(),
        audit + 3,
        "nothing written"
    );
}
