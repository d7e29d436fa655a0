//! A finished hand's review at `/play/t/<t>/hands/<n>/review.json`: queued when the hand
//! is kept, stored once a reviewer has done it, shown to whom the secrecy rule shows the
//! hand (seat by seat: the route keeps the seats of the viewer's views).

mod common;

use common::{account, alone, app, bot, duplicate, http, person, play_through, serve};
use serde_json::Value;
use server::play::spec::Place;

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

    // The director's page says how far behind the reviewers are.
    let boss = common::director(&app);
    let backlog = |app: server::App| {
        let boss = boss.clone();
        async move {
            let (_, _, page) = http(&app, "GET", "/director", Some(&boss), &[]).await;
            let p = page
                .split("id=\"review-backlog\">")
                .nth(1)
                .unwrap()
                .to_string();
            p[..p.find("</p>").unwrap()].to_string()
        }
    };
    let said = backlog(app.clone()).await;
    assert!(
        said.starts_with("1 hands waiting") && said.contains("0 reviewed"),
        "{said}"
    );

    // One reviewer (a small budget) does it; the player then sees their own seat.
    let store = app.hall.store.clone();
    let did = tokio::task::spawn_blocking(move || {
        server::play::reviewer::review_one(store.as_ref(), "test", 20).unwrap()
    })
    .await
    .unwrap();
    assert!(did);
    let said = backlog(app.clone()).await;
    assert!(
        said.starts_with("0 hands waiting for") && said.contains("1 reviewed"),
        "{said}"
    );
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

/// Two people play deal 5 at tables of their own (East, with different company): each
/// hand's field holds both, Rhea's at every one of her decisions, split by the moves made;
/// a regular game's hand has no field; a bad seat is named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_field_of_a_deal_holds_everyone_who_played_it() {
    let app = app(None);
    let (t1, rhea, addr) = alone(
        &app,
        "Rhea",
        5..6,
        [bot("strong"), bot("strong"), bot("strong")],
    )
    .await;
    play_through(addr, t1, &rhea).await;
    let (t2, quin, addr2) = alone(
        &app,
        "Quin",
        5..6,
        [bot("random"), bot("random"), bot("random")],
    )
    .await;
    play_through(addr2, t2, &quin).await;

    let url = format!("/play/t/{t1}/hands/1/field.json");
    let (st, _, body) = http(&app, "GET", &url, Some(&rhea), &[]).await;
    assert_eq!(st, 200, "{body}");
    let f: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(f["state"], "open");
    assert_eq!(f["seat"], "E");
    let holders = f["holders"].as_array().unwrap();
    let names: Vec<&str> = holders
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    // Each person's hand comes with its par (strong, with that person's company), as the
    // rating compares an open table's deal.
    assert_eq!(holders.len(), 4, "{names:?}");
    for n in ["Rhea (guest)", "Quin (guest)"] {
        assert_eq!(names.iter().filter(|&&x| x == n).count(), 1, "{names:?}");
    }
    assert_eq!(
        names.iter().filter(|&&x| x == "par (strong)").count(),
        2,
        "{names:?}"
    );
    let me = holders.iter().position(|h| h["me"] == true).unwrap();
    assert_eq!(holders[me]["name"], "Rhea (guest)");
    // IMP against the average of all four, as rules §5 gives them.
    let all: Vec<i32> = holders
        .iter()
        .map(|h| h["ms"].as_i64().unwrap() as i32)
        .collect();
    for h in holders {
        let ms = h["ms"].as_i64().unwrap() as i32;
        assert_eq!(
            h["imp"].as_i64().unwrap() as i32,
            common::imp_by_hand(ms, &all),
            "{h}"
        );
    }
    // Every decision of Rhea's is a moment; the first is both holders'.
    let (_, _, log) = http(
        &app,
        "GET",
        &format!("/play/t/{t1}/hands/1.json"),
        Some(&rhea),
        &[],
    )
    .await;
    let log: Value = serde_json::from_str(&log).unwrap();
    let east: Vec<usize> = log["actions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, a)| a["seat"] == "E")
        .map(|(i, _)| i + 1)
        .collect();
    let moments = f["moments"].as_array().unwrap();
    let indices: Vec<usize> = moments
        .iter()
        .map(|m| m["index"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(indices, east);
    let reached = |m: &Value| -> usize {
        m["branches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["holders"].as_array().unwrap().len())
            .sum()
    };
    assert_eq!(reached(&moments[0]), 2, "{}", moments[0]);
    for m in moments {
        let mine = m["branches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["holders"].as_array().unwrap().contains(&me.into()))
            .unwrap();
        assert_eq!(mine["action"], m["played"], "{m}");
    }

    // Bad input: a seat that is not one.
    let (st, _, body) = http(&app, "GET", &format!("{url}?seat=Q"), Some(&rhea), &[]).await;
    assert_eq!(st, 422, "{body}");
    assert!(
        body.contains("seat: &#39;Q&#39;") || body.contains("seat: 'Q'"),
        "{body}"
    );
}

/// An account's profile, once the reviewers have been through their hands: the month's
/// agreement and cost per hand as the stored reviews give them, the decisions by kind
/// adding up to the decisions weighed, each hand linked where the viewer may open it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_follows_the_players_reviews() {
    let app = app(None);
    let (me, cookie) = account(&app, "Rhea");
    let addr = serve(app.clone()).await;
    let mut tables = Vec::new();
    for seed in [5, 6] {
        let spec = duplicate(
            seed..seed + 1,
            [Place::Person, bot("strong"), bot("strong"), bot("strong")],
            me,
        );
        let t = app.hall.open_table(spec, "Rhea").unwrap();
        play_through(addr, t, &cookie).await;
        tables.push(t);
    }
    common::review_all(&app, 20).await;
    // What the stored reviews say, hand by hand.
    let mut agreements = Vec::new();
    let mut costs = Vec::new();
    let mut weighed = 0;
    for t in &tables {
        let url = format!("/play/t/{t}/hands/1/review.json");
        let (_, _, body) = http(&app, "GET", &url, Some(&cookie), &[]).await;
        let v: Value = serde_json::from_str(&body).unwrap();
        let seat = &v["seats"][0];
        agreements.push(seat["agreement"].as_f64().unwrap());
        costs.push(seat["review"]["expected_loss"].as_f64().unwrap());
        weighed += seat["review"]["decisions_weighed"]
            .as_array()
            .unwrap()
            .len();
    }
    let (_, other) = person(&app, "Quin");
    for viewer in [&cookie, &other] {
        let (st, _, page) = http(&app, "GET", "/play/p/Rhea", Some(viewer), &[]).await;
        assert_eq!(st, 200);
        assert!(page.contains("id=\"review-periods\""), "{page}");
        let cell = |id: &str, row: usize| -> Vec<String> {
            let table = page.split(&format!("id=\"{id}\"")).nth(1).unwrap();
            let table = table.split("</table>").next().unwrap();
            let tr = table.split("<tr>").nth(row + 1).unwrap_or("");
            tr.split("<td")
                .skip(1)
                .map(|c| {
                    let c = &c[c.find('>').unwrap() + 1..];
                    c[..c.find("</td>").unwrap()].to_string()
                })
                .collect()
        };
        let month = cell("review-periods", 1);
        assert_eq!(month[1], "2", "two hands this month: {month:?}");
        let mean = (agreements.iter().sum::<f64>() / 2.0 * 100.0).round();
        assert_eq!(month[2], format!("{mean}%"), "{month:?}");
        assert_eq!(month[3], format!("{:.2}", costs.iter().sum::<f64>() / 2.0));
        // The kinds' decisions add up to every decision weighed.
        let mut total = 0;
        for row in 1..=5 {
            let k = cell("review-kinds", row);
            if let Some(d) = k.get(1) {
                total += d.parse::<usize>().unwrap();
            }
        }
        assert_eq!(total, weighed);
        // The tables are over: anyone may open their hands, so each is linked.
        let recent = page.split("id=\"review-recent\"").nth(1).unwrap();
        let recent = recent.split("</table>").next().unwrap();
        for t in &tables {
            assert!(recent.contains(&format!("/play/t/{t}/hands/1")), "{recent}");
        }
    }
}
