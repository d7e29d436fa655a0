//! Seasons over HTTP (in process). A season of three challenges and one online event, the
//! best 2 of 4 counting, against the same standings worked out here from the stored match
//! points with the IMP table of rules §5; a final of a season's top 8, made online. (Sign-ups:
//! `signup.rs`.)

mod common;

use std::collections::BTreeMap;

use common::{account, csrf_of, director, http, imp_by_hand, play_through, serve};
use server::play::challenge::{self, NewChallenge};
use server::play::room::HandSummary;
use server::service::{create_event, parse_entrants};
use tournament::challenge::Rotation;
use tournament::entry::{Outcome, ScoreEntry};

fn quick_challenge(name: &str) -> NewChallenge {
    NewChallenge {
        name: name.into(),
        deals: 4,
        copies: 1,
        opens_in_h: 0,
        hours: 24,
        level: "medium".into(),
        par: "easy".into(),
        rotation: Rotation::Same,
        limit_s: 60,
        bank_s: 0,
        scheduled: false,
        bots: false,
    }
}

/// (IMP, match points) of `person` at the deal-seat they played of a challenge (deal
/// `index`, seat `index` under the same-seat rotation), worked out from the stored hands:
/// everyone's points there, the par's included.
fn challenge_by_hand(app: &server::App, id: i64, index: usize, person: i64) -> (i64, i64) {
    let hands = app
        .store
        .hands_of_deal(&format!("chal:{id}:{index}:{index}"), 100)
        .unwrap();
    let points: Vec<(Option<i64>, i32)> = hands
        .iter()
        .map(|h| {
            let s: HandSummary = serde_json::from_str(&h.summary).unwrap();
            (s.persons[index], s.points[index])
        })
        .collect();
    let all: Vec<i32> = points.iter().map(|p| p.1).collect();
    let ms = points.iter().find(|p| p.0 == Some(person)).unwrap().1;
    (imp_by_hand(ms, &all) as i64, ms as i64)
}

/// A season "Club season" through the director's form: the best `best` results of `parts`
/// as total IMP, a final of the top `final_k`. Its number.
async fn new_season(app: &server::App, dir: &str, best: &str, final_k: &str, parts: &str) -> i64 {
    let (st, loc, body) = http(
        app,
        "POST",
        "/director/seasons",
        Some(dir),
        &[
            ("csrf", &csrf_of(app, dir)),
            ("name", "Club season"),
            ("best", best),
            ("measure", "total"),
            ("final_k", final_k),
            ("parts", parts),
        ],
    )
    .await;
    assert_eq!(st, 303, "{body}");
    loc.and_then(|l| l.strip_prefix("/director/seasons/")?.parse().ok())
        .unwrap_or_else(|| panic!("no season made: {body}"))
}

/// The season's CSV as (name, season figure, ms) rows.
async fn season_rows(
    app: &server::App,
    id: i64,
    cookie: Option<&str>,
) -> Vec<(String, String, i64)> {
    let (st, _, csv) = http(
        app,
        "GET",
        &format!("/seasons/{id}/standings.csv"),
        cookie,
        &[],
    )
    .await;
    assert_eq!(st, 200, "{csv}");
    csv.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[1].to_string(), c[2].to_string(), c[3].parse().unwrap())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_season_counts_the_best_two_of_four_as_worked_out_by_hand() {
    let app = common::app(None);
    let addr = serve(app.clone()).await;
    let dir = director(&app);
    let people: Vec<(i64, String, &str)> = ["Ann", "Bob", "Cat"]
        .iter()
        .map(|n| {
            let (id, cookie) = account(&app, n);
            (id, cookie, *n)
        })
        .collect();

    // Three challenges: each person plays one deal of each, a different one, beside the par.
    let mut by_part: Vec<BTreeMap<i64, (i64, i64)>> = vec![];
    for c in 1..=3usize {
        let id = challenge::publish(&app.hall, &quick_challenge(&format!("Week {c}"))).unwrap();
        let mut part = BTreeMap::new();
        for (k, (p, cookie, name)) in people.iter().enumerate() {
            let index = (c + k) % 4;
            let t = challenge::take_up(&app.hall, id, *p, name, index).unwrap();
            let end = play_through(addr, t, cookie).await;
            assert_eq!(end["stage"], "over");
            part.insert(*p, challenge_by_hand(&app, id, index, *p));
        }
        by_part.push(part);
    }

    // The online event: eight players, Ann, Bob and Cat linked to seats 1–3 (the others
    // are the event's bot); round 1's results as online play enters them.
    let names = "Ann\nBob\nCat\nP4\nP5\nP6\nP7\nP8\n";
    let ev = create_event(
        app.store.as_ref(),
        "Online cup",
        false,
        parse_entrants(names).unwrap(),
        &table::set::SetKey::from_bytes([5; 32]),
        Some(1),
        "test",
    )
    .unwrap();
    server::play::online::enable(&app.hall, ev, 0, 20, 60, "strong", "test").unwrap();
    for (slot, (p, _, _)) in people.iter().enumerate() {
        app.store.bind_person(ev, slot as u32 + 1, *p).unwrap();
    }
    let e = app.store.event(ev).unwrap();
    for h in &e.movement.rounds[0].hands {
        for tp in &h.tables {
            // A different result at each sitting: East self-draws 8 + 2·hand + 4·table.
            let entry = ScoreEntry {
                outcome: if (h.hand + tp.table) % 3 == 0 {
                    Outcome::Draw
                } else {
                    Outcome::SelfDrawn {
                        winner: mcr::Wind::ALL[(h.hand as usize + tp.table as usize) % 4],
                        value: 8 + 2 * h.hand + 4 * tp.table,
                    }
                },
                false_hu: vec![],
            };
            app.store
                .save_result(ev, &tp.deal, tp.table, h.hand, &entry, 0, "online play")
                .unwrap();
        }
    }
    let by_name = event_by_hand(&app, ev);
    let event_part: BTreeMap<i64, (i64, i64)> = people
        .iter()
        .map(|(p, _, name)| (*p, by_name[*name]))
        .collect();
    by_part.push(event_part);

    // The season, through the director's form: best 2 of 4, total IMP.
    new_season(
        &app,
        &dir,
        "2",
        "0",
        "challenge 1\nchallenge 2\nchallenge 3\nevent 1",
    )
    .await;

    // By hand: each person's two best IMP results (equal IMP: the more match points), the
    // season's order by that sum, then by the match points of those two.
    let mut expected: Vec<(String, i64, i64)> = people
        .iter()
        .map(|(p, _, name)| {
            let mut results: Vec<(i64, i64)> = by_part
                .iter()
                .filter_map(|part| part.get(p).copied())
                .collect();
            results.sort_by(|a, b| b.cmp(a));
            results.truncate(2);
            (
                name.to_string(),
                results.iter().map(|r| r.0).sum(),
                results.iter().map(|r| r.1).sum(),
            )
        })
        .collect();
    expected.sort_by(|a, b| (b.1, b.2, &a.0).cmp(&(a.1, a.2, &b.0)));
    let got = season_rows(&app, 1, None).await;
    let got_as: Vec<(String, i64, i64)> = got
        .iter()
        .map(|(n, v, ms)| (n.clone(), v.parse().unwrap(), *ms))
        .collect();
    assert_eq!(got_as, expected, "parts: {by_part:?}");
    println!("season best 2 of 4: {got_as:?} from {by_part:?}");

    // The public page and the printable show it; the event's hidden standings leave the
    // season for everyone but the director.
    let (st, _, page) = http(&app, "GET", "/seasons/1", None, &[]).await;
    assert_eq!(st, 200);
    assert!(
        page.contains("Week 2") && page.contains("Online cup"),
        "{page}"
    );
    let (st, _, print) = http(&app, "GET", "/seasons/1/print", None, &[]).await;
    assert_eq!(st, 200);
    assert!(print.contains("Club season"));
    app.store.set_hide_standings(ev, true, "test").unwrap();
    let hidden = season_rows(&app, 1, None).await;
    let seen = season_rows(&app, 1, Some(&dir)).await;
    assert_eq!(seen, got, "the director sees every part");
    let (_, _, page) = http(&app, "GET", "/seasons/1", None, &[]).await;
    assert!(page.contains("standings hidden"));
    for (name, value, _) in &hidden {
        let without: i64 = {
            let (p, _, _) = people.iter().find(|x| x.2 == name).unwrap();
            let mut r: Vec<(i64, i64)> = by_part[..3]
                .iter()
                .filter_map(|part| part.get(p).copied())
                .collect();
            r.sort_by(|a, b| b.cmp(a));
            r.iter().take(2).map(|x| x.0).sum()
        };
        assert_eq!(value.parse::<i64>().unwrap(), without, "{name}");
    }

    // Bad forms name the field.
    for (parts, status, said) in [
        ("challenge 1\nevent 99", 404, "event 99"),
        ("challenge one", 422, "parts, line 1"),
    ] {
        let form = [
            ("csrf", csrf_of(&app, &dir)),
            ("name", "Bad".into()),
            ("best", "2".into()),
            ("measure", "total".into()),
            ("final_k", "0".into()),
            ("parts", parts.into()),
        ];
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let (st, _, body) = http(&app, "POST", "/director/seasons", Some(&dir), &form).await;
        assert_eq!(st, status, "{body}");
        assert!(body.contains(said), "{body}");
    }
    common::all_links_lead_somewhere(
        &app,
        &dir,
        &people[0].1,
        &["/director/seasons/1", "/seasons/1"],
    )
    .await;
}

/// By hand: each player's (IMP, match points) in a live event of one round, from its stored
/// results — every deal-seat's holders compared with the IMP table of rules §5.
fn event_by_hand(app: &server::App, ev: i64) -> BTreeMap<String, (i64, i64)> {
    let e = app.store.event(ev).unwrap();
    let mut seats: BTreeMap<(String, usize), Vec<(u32, i32)>> = BTreeMap::new();
    for r in app.store.results(ev).unwrap() {
        let points = r.entry.match_points().unwrap();
        let tp = e.movement.rounds[0]
            .hands
            .iter()
            .find(|h| h.hand == r.hand)
            .and_then(|h| h.tables.iter().find(|t| t.table == r.table))
            .unwrap();
        for (w, player) in tp.players_by_wind().iter().enumerate() {
            seats
                .entry((r.deal.clone(), w))
                .or_default()
                .push((*player, points[w]));
        }
    }
    let mut out: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for list in seats.values() {
        let all: Vec<i32> = list.iter().map(|x| x.1).collect();
        for &(player, ms) in list {
            let name = e.players[player as usize - 1].name.clone();
            let x = out.entry(name).or_default();
            x.0 += imp_by_hand(ms, &all) as i64;
            x.1 += ms as i64;
        }
    }
    out
}

#[tokio::test]
async fn a_final_seats_the_top_eight_in_seed_order_and_goes_online() {
    let app = common::app(None);
    let dir = director(&app);
    // Two live events of sixteen, round 1 entered; players 1–4 have accounts, linked to
    // their seats in both.
    let accounts: Vec<i64> = (1..=4)
        .map(|i| account(&app, &format!("Player {i}")).0)
        .collect();
    let names: String = (1..=16).map(|i| format!("Player {i}\n")).collect();
    for n in 1..=2u32 {
        let ev = create_event(
            app.store.as_ref(),
            &format!("Club night {n}"),
            false,
            parse_entrants(&names).unwrap(),
            &table::set::SetKey::from_bytes([n as u8; 32]),
            Some(1),
            "test",
        )
        .unwrap();
        for (slot, p) in accounts.iter().enumerate() {
            app.store.bind_person(ev, slot as u32 + 1, *p).unwrap();
        }
        let e = app.store.event(ev).unwrap();
        for h in &e.movement.rounds[0].hands {
            for t in &h.tables {
                let k = t.table + h.hand * n;
                let entry = ScoreEntry {
                    outcome: if k % 5 == 0 {
                        Outcome::Draw
                    } else {
                        Outcome::SelfDrawn {
                            winner: mcr::Wind::ALL[(k as usize * 3 + n as usize) % 4],
                            value: 8 + 5 * t.table + 2 * h.hand * n,
                        }
                    },
                    false_hu: vec![],
                };
                app.store
                    .save_result(ev, &t.deal, t.table, h.hand, &entry, 0, "test")
                    .unwrap();
            }
        }
    }
    assert_eq!(
        new_season(&app, &dir, "1", "8", "event 1\nevent 2").await,
        1
    );

    // By hand: each player's better event (equal IMP: the more match points), in order.
    let parts = [event_by_hand(&app, 1), event_by_hand(&app, 2)];
    let mut expected: Vec<(String, i64, i64)> = parts[0]
        .keys()
        .map(|name| {
            let best = parts.iter().map(|p| p[name]).max().unwrap();
            (name.clone(), best.0, best.1)
        })
        .collect();
    expected.sort_by(|a, b| (b.1, b.2, &a.0).cmp(&(a.1, a.2, &b.0)));
    assert_eq!(expected.len(), 16);
    assert_ne!(
        (expected[7].1, expected[7].2),
        (expected[8].1, expected[8].2),
        "the 8th and 9th are apart: {expected:?}"
    );
    let got = season_rows(&app, 1, None).await;
    let got_as: Vec<(String, i64, i64)> = got
        .iter()
        .map(|(n, v, ms)| (n.clone(), v.parse().unwrap(), *ms))
        .collect();
    // Players equal in both share a rank; the page lists them in an order of its own.
    let mut sorted = got_as.clone();
    sorted.sort_by(|a, b| (b.1, b.2, &a.0).cmp(&(a.1, a.2, &b.0)));
    assert_eq!(sorted, expected);

    // A cut of 8 splits no tie; a cut of 5 would split the two sharing rank 5, and the
    // director is told so.
    let (_, _, page) = http(&app, "GET", "/director/seasons/1", Some(&dir), &[]).await;
    assert!(
        page.contains("Make the final") && !page.contains("cut-tie"),
        "{page}"
    );
    assert_eq!(
        (expected[4].1, expected[4].2),
        (expected[5].1, expected[5].2)
    );
    assert_ne!(
        (expected[3].1, expected[3].2),
        (expected[4].1, expected[4].2)
    );
    assert_ne!(
        (expected[5].1, expected[5].2),
        (expected[6].1, expected[6].2)
    );
    let five = new_season(&app, &dir, "1", "5", "event 1\nevent 2").await;
    let (_, _, page) = http(
        &app,
        "GET",
        &format!("/director/seasons/{five}"),
        Some(&dir),
        &[],
    )
    .await;
    let warning = page
        .split("id=\"cut-tie\">")
        .nth(1)
        .unwrap_or_else(|| panic!("no warning: {page}"))
        .split("</p>")
        .next()
        .unwrap();
    assert!(
        warning.starts_with("Rank 5 is shared across the cut of 5: "),
        "{warning}"
    );
    for (name, _, _) in &expected[4..6] {
        assert!(warning.contains(name.as_str()), "{name}: {warning}");
    }

    let final_form = |kind: &'static str| {
        let app = app.clone();
        let dir = dir.clone();
        async move {
            let csrf = csrf_of(&app, &dir);
            http(
                &app,
                "POST",
                "/director/seasons/1/final",
                Some(&dir),
                &[("csrf", &csrf), ("kind", kind), ("rounds", "1")],
            )
            .await
        }
    };
    let (st, _, body) = final_form("by post").await;
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("kind: 'by post' (live or online)"), "{body}");
    let (st, loc, body) = final_form("online").await;
    assert_eq!(
        (st, loc.as_deref()),
        (303, Some("/director/events/3")),
        "{body}"
    );
    let e = app.store.event(3).unwrap();
    assert_eq!(e.name, "Club season final");
    let seeded: Vec<String> = e.players.iter().map(|p| p.name.clone()).collect();
    let top: Vec<String> = got_as[..8].iter().map(|x| x.0.clone()).collect();
    assert_eq!(seeded, top, "seed order: the season's");
    let mut by_hand: Vec<String> = expected[..8].iter().map(|x| x.0.clone()).collect();
    let mut seeds = seeded.clone();
    by_hand.sort();
    seeds.sort();
    assert_eq!(seeds, by_hand, "the top eight worked out by hand");
    // Seeds with an account are linked to their seat in the final.
    let want: Vec<(u32, i64)> = top
        .iter()
        .enumerate()
        .filter_map(|(slot, name)| {
            let i: usize = name.strip_prefix("Player ")?.parse().ok()?;
            (i <= 4).then(|| (slot as u32 + 1, accounts[i - 1]))
        })
        .collect();
    let mut linked = app.store.event_people(3).unwrap();
    linked.sort();
    assert_eq!(linked, want);
    assert!(app.store.online(3).unwrap().is_some(), "made online");
    println!("final of the top 8, online: {seeded:?}, linked {linked:?}");
    let (st, _, body) = final_form("live").await;
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("has its final already"), "{body}");

    // Every link of the director's pages and of a player's leads somewhere.
    let player = account(&app, "Player 17").1;
    common::all_links_lead_somewhere(&app, &dir, &player, &["/director/seasons/1", "/seasons/1"])
        .await;
}
