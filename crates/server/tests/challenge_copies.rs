//! A challenge of three copies end to end over HTTP and WebSockets: twelve people play its
//! four deals, each given one copy of each at random among those given least (four in each);
//! each copy is compared within itself with its own par, the standings add them and the
//! page ranks each copy alone, as worked out here from the stored points by rules §5; a
//! copy stays hidden from a player given another until the reveal, which publishes every
//! copy under the one commitment.

mod common;

use std::collections::HashMap;

use common::{director, http, imp_by_hand, person, play_through, publish_form, serve, take_up};
use server::play::challenge;
use server::play::room::HandSummary;
use table::set::{verify, SetReveal};

/// The name of every row of a deal's results page.
fn names(page: &str) -> Vec<String> {
    page.split("<tr class=\"")
        .skip(1)
        .map(|row| {
            let n = row.find("class=\"name\">").unwrap() + 13;
            row[n..].split('<').next().unwrap().to_string()
        })
        .collect()
}

/// `(name, hands, imp)` of every line of the first standings table in `html`.
fn standings_rows(html: &str) -> Vec<(String, usize, i64)> {
    let table = html
        .split("<table class=\"list standings\">")
        .nth(1)
        .expect("a standings table")
        .split("</table>")
        .next()
        .unwrap();
    table
        .split("<tr")
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row
                .split("<td>")
                .skip(1)
                .map(|c| c.split("</td>").next().unwrap())
                .collect();
            (
                cells[1].to_string(),
                cells[2].parse().unwrap(),
                cells[3].parse().unwrap(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_copies_twelve_players_each_copy_compared_alone_and_all_revealed() {
    let app = common::app(None);
    let addr = serve(app.clone()).await;
    let dir = director(&app);
    let (st, _, body) = publish_form(
        &app,
        &dir,
        &[
            ("name", "Three copies"),
            ("deals", "4"),
            ("copies", "3"),
            ("hours", "24"),
            ("level", "easy"),
            ("par", "medium"),
            ("rotation", "staggered"),
            ("limit", "60"),
            ("bank", "0"),
        ],
    )
    .await;
    assert_eq!(st, 303, "{body}");
    // Five copies are refused, naming the field.
    let (st, _, body) = publish_form(
        &app,
        &dir,
        &[("name", "Too many"), ("deals", "4"), ("copies", "5")],
    )
    .await;
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("copies"), "{body}");

    let ch = challenge::load(&app.hall, 1).unwrap();
    assert_eq!(
        (ch.spec.deals, ch.spec.copies, ch.spec.set_len()),
        (4, 3, 12)
    );
    let published = ch.spec.commitment.clone();
    // The par: every copy of every deal-seat, one hand each.
    assert_eq!(
        app.store.hands_of_table(ch.spec.par_table).unwrap().len(),
        48
    );

    // Twelve people play the four deals.
    let mut people = Vec::new();
    for n in 1..=12 {
        let name = format!("P{n:02}");
        let (id, cookie) = person(&app, &name);
        for d in 1..=4 {
            let t = take_up(&app, &cookie, d, &name).await;
            assert_eq!(play_through(addr, t, &cookie).await["stage"], "over");
        }
        people.push((id, format!("{name} (guest)"), cookie));
    }
    let ch = challenge::load(&app.hall, 1).unwrap();
    // Each slot's copies were given evenly: four people each.
    for slot in 0..4 {
        assert_eq!(ch.taken(slot), vec![4, 4, 4], "slot {}", slot + 1);
    }
    // Each table plays the seed of the copy it was given.
    for p in &ch.plays {
        let at = ch.spec.set_index(p.deal_index as usize, ch.copy_of(p));
        let spec: server::play::spec::TableSpec =
            serde_json::from_str(&app.store.play_table(p.play_table).unwrap().spec).unwrap();
        let server::play::spec::Hands::Duplicate { deals } = &spec.hands else {
            panic!("a challenge table plays duplicate deals");
        };
        assert_eq!(deals[0].seed, ch.spec.deal_seed(at));
        assert_eq!(deals[0].label, ch.spec.label(at));
    }

    // Each copy's standings, worked out from the stored points with the rules' IMP scale:
    // a deal-seat of a copy holds the par and the people given that copy.
    let name_of = |id: i64| people.iter().find(|p| p.0 == id).unwrap().1.clone();
    let mut total: HashMap<String, (usize, i64)> = HashMap::new();
    let mut by_copy: Vec<HashMap<String, (usize, i64)>> = vec![HashMap::new(); 3];
    for at in 0..12 {
        let copy = at % 3;
        for seat in 0..4 {
            let hands = app
                .store
                .hands_of_deal(&format!("chal:1:{at}:{seat}"), 100)
                .unwrap();
            let results: Vec<(String, i32)> = hands
                .iter()
                .map(|h| {
                    let s: HandSummary = serde_json::from_str(&h.summary).unwrap();
                    let who = s.persons[seat].map_or("par (medium bot)".to_string(), name_of);
                    (who, s.points[seat])
                })
                .collect();
            if results.len() < 2 {
                continue;
            }
            // Nobody given another copy of this slot is compared here.
            for (who, _) in &results {
                if let Some(p) = people.iter().find(|p| &p.1 == who) {
                    assert_eq!(ch.given(p.0, at / 3), Some(at), "{who} at deal {at}");
                }
            }
            let all: Vec<i32> = results.iter().map(|r| r.1).collect();
            for (who, ms) in &results {
                let imp = imp_by_hand(*ms, &all) as i64;
                for into in [&mut total, &mut by_copy[copy]] {
                    let e = into.entry(who.clone()).or_default();
                    e.0 += 1;
                    e.1 += imp;
                }
            }
        }
    }
    let (_, _, page) = http(&app, "GET", "/play/c/1", Some(&people[0].2), &[]).await;
    assert!(page.contains("id=\"copies-note\""), "{page}");
    let check = |html: &str, want: &HashMap<String, (usize, i64)>, what: &str| {
        let got = standings_rows(html);
        assert_eq!(got.len(), want.len(), "{what}: {got:?}");
        for (name, hands, imp) in &got {
            assert_eq!(
                want.get(name),
                Some(&(*hands, *imp)),
                "{what}: {name} has {hands} hands and {imp} IMP"
            );
        }
        // Ranked by IMP.
        assert!(got.windows(2).all(|w| w[0].2 >= w[1].2), "{what}: {got:?}");
    };
    check(&page, &total, "the whole challenge");
    for (copy, want) in by_copy.iter().enumerate() {
        let letter = ["a", "b", "c"][copy];
        let part = page
            .split(&format!("id=\"copy-{letter}\""))
            .nth(1)
            .unwrap_or_else(|| panic!("no standings of copy {letter}"));
        check(part, want, &format!("copy {letter}"));
        println!("copy {letter}: {:?}", standings_rows(part));
    }
    // Every person played four hands; the par holds one line of its own.
    for p in &people {
        assert_eq!(total[&p.1].0, 4, "{}", p.1);
    }

    // P01's results at slot 1 show her copy at her seat: the par and whoever was given the
    // same copy and sat the same seat (the rotation is staggered). Another copy of the same
    // slot stays hidden until the reveal.
    let mine = ch.given(people[0].0, 0).unwrap();
    let letter = ["a", "b", "c"][mine % 3];
    let other = ["a", "b", "c"][(mine + 1) % 3];
    let (st, _, deal_page) = http(&app, "GET", "/play/c/1/deal/1", Some(&people[0].2), &[]).await;
    assert_eq!(st, 200, "{deal_page}");
    assert!(
        deal_page.contains(&format!("1{letter}")),
        "the label of her copy"
    );
    let seat = ch.seat_for(people[0].0, 0);
    let mut want: Vec<String> = people
        .iter()
        .filter(|p| ch.given(p.0, 0) == Some(mine) && ch.seat_for(p.0, 0) == seat)
        .map(|p| p.1.clone())
        .collect();
    want.push("par (medium bot)".into());
    want.sort();
    let mut got = names(&deal_page);
    got.sort();
    assert_eq!(got, want);
    let (st, _, body) = http(
        &app,
        "GET",
        &format!("/play/c/1/deal/1?copy={other}"),
        Some(&people[0].2),
        &[],
    )
    .await;
    assert_eq!(st, 403, "another copy before the reveal: {body}");
    let (st, _, body) = http(
        &app,
        "GET",
        "/play/c/1/deal/1?copy=z",
        Some(&people[0].2),
        &[],
    )
    .await;
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("copy: 'z'"), "{body}");

    // The reveal publishes every copy, and all of them verify against the one commitment.
    common::close_challenge(&app, &dir).await;
    let (st, _, json) = http(&app, "GET", "/play/c/1/reveal.json", None, &[]).await;
    assert_eq!(st, 200, "{json}");
    let r: SetReveal = serde_json::from_str(&json).unwrap();
    let labels: Vec<&str> = r.deals.iter().map(|d| d.label.as_str()).collect();
    assert_eq!(
        labels,
        ["1a", "1b", "1c", "2a", "2b", "2c", "3a", "3b", "3c", "4a", "4b", "4c"]
    );
    assert_eq!(verify(&r, Some(&published)), Ok(12));
    for (i, d) in r.deals.iter().enumerate() {
        assert_eq!(d.seed, ch.spec.deal_seed(i), "deal {}", d.label);
    }
    let mut changed = r.clone();
    changed.deals[7].deal["seats"]["N"]["hand"][0] = "J3".into();
    let e = verify(&changed, Some(&published)).unwrap_err();
    assert!(
        matches!(e, table::reveal::RevealError::WrongDeal { index: 7, ref label, .. } if label == "3b"),
        "{e}"
    );
    // Now every copy is open to everyone.
    let (st, _, _) = http(
        &app,
        "GET",
        &format!("/play/c/1/deal/1?copy={other}"),
        None,
        &[],
    )
    .await;
    assert_eq!(st, 200);
    std::fs::create_dir_all(env!("CARGO_TARGET_TMPDIR")).unwrap();
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("three-copies-reveal.json"),
        &json,
    )
    .unwrap();
}
