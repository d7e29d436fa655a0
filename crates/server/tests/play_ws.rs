//! Online play over real WebSockets: refused moves, time-outs, a player who leaves and comes
//! back, reconnecting, two people at one table, and a restart of the server mid-hand.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use server::play::spec::Place;

fn first_discard(s: &Value) -> Value {
    s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["action"] == "discard")
        .cloned()
        .expect("a discard is legal")
}

/// Hu when possible, else pass, else the first discard offered.
fn pick(s: &Value) -> Value {
    let legal = s["legal"].as_array().unwrap();
    legal
        .iter()
        .find(|x| x["action"] == "hu")
        .or_else(|| legal.iter().find(|x| x["action"] == "pass"))
        .cloned()
        .unwrap_or_else(|| first_discard(s))
}

/// Reads messages for `secs` and returns them (to check that nothing changed).
async fn drain(c: &mut Client, secs: f64) -> Vec<Value> {
    let mut v = Vec::new();
    while let Some(m) = c.next_within(secs).await {
        v.push(m);
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_out_of_turn_twice_or_illegal_are_refused_and_change_nothing() {
    let app = common::app(None);
    let (me, cookie) = person(&app, "Ann");
    let (other, other_cookie) = person(&app, "Bob");
    let _ = other;
    let spec = duplicate(
        5..6,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        me,
    );
    let id = app.hall.open_table(spec, "Ann").unwrap();
    let addr = serve(app.clone()).await;
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let s = c.until(my_move).await;
    assert_eq!(s["you"], 0);
    assert_eq!(s["board"]["turn"], "E");
    let step = s["step"].as_u64().unwrap();
    let hand: Vec<String> = s["board"]["seats"][0]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    // A tile East does not hold.
    let missing = [
        "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "E", "C",
    ]
    .into_iter()
    .find(|t| !hand.iter().any(|h| h == t) && s["board"]["seats"][0]["drew"] != *t)
    .unwrap();
    let refused = [
        (
            json!({"action": "discard", "tile": missing}),
            step,
            "not allowed",
        ),
        (json!({"action": "pung"}), step, "not allowed"),
        (first_discard(&s), step + 7, "not asked yet"),
        (first_discard(&s), step - 1, "earlier decision"),
    ];
    for (action, st, why) in refused {
        c.act(st, action).await;
        let m = c.next().await;
        assert_eq!(m["type"], "error", "{m}");
        assert!(m["message"].as_str().unwrap().contains(why), "{m}");
    }
    // Nonsense is refused with a message too.
    c.send(json!({"type": "fly"})).await;
    let m = c.next().await;
    assert!(
        m["message"].as_str().unwrap().contains("not understood"),
        "{m}"
    );
    // Nobody else may act for East: a watcher, or a signed-in person not at the table.
    let mut watcher = Client::connect(addr, id, None).await;
    let w = watcher.until(|_| true).await;
    assert!(w["you"].is_null() && w.get("legal").is_none(), "{w}");
    watcher.act(step, first_discard(&s)).await;
    assert!(watcher.next().await["message"]
        .as_str()
        .unwrap()
        .contains("sign in"));
    let mut bob = Client::connect(addr, id, Some(&other_cookie)).await;
    bob.until(|_| true).await;
    bob.act(step, first_discard(&s)).await;
    assert!(bob.next().await["message"]
        .as_str()
        .unwrap()
        .contains("do not sit"));
    // None of that changed anything: no new state reached East.
    let quiet = drain(&mut c, 0.5).await;
    assert!(quiet.iter().all(|m| m["type"] != "state"), "{quiet:?}");
    // The real move is taken; sending it again is refused.
    let d = first_discard(&s);
    c.act(step, d.clone()).await;
    let after = c.until(|_| true).await;
    assert_eq!(
        after["board"]["seats"][0]["discards"][0], d["tile"],
        "{after}"
    );
    c.act(step, d).await;
    let again = loop {
        let m = c.next().await;
        if m["type"] == "error" {
            break m;
        }
    };
    assert!(
        again["message"]
            .as_str()
            .unwrap()
            .contains("earlier decision")
            || again["message"].as_str().unwrap().contains("not your turn"),
        "{again}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_out_plays_the_safe_default_and_a_leaver_gets_a_stand_in_until_they_return() {
    let app = common::app(None);
    let (me, cookie) = person(&app, "Cat");
    let mut spec = duplicate(
        9..11,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        me,
    );
    spec.limit_s = 1;
    let id = app.hall.open_table(spec, "Cat").unwrap();
    let addr = serve(app.clone()).await;
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let s = c.until(my_move).await;
    let drew = s["board"]["seats"][0]["drew"].clone();
    assert!(s["clock"]["left_ms"].as_u64().unwrap() <= 1000, "{s}");
    // Connected but idle: the server discards the drawn tile and says so.
    let t = c.until(|m| m["notice"].is_object()).await;
    // In words, with the tile: the drawn tile was discarded, and nobody stands in.
    assert_eq!(
        t["notice"]["text"], "Time ran out: you discarded {}.",
        "{t}"
    );
    assert_eq!(t["notice"]["args"][0], drew, "{t}");
    assert!(t["notice"]["then"].is_null(), "{t}");
    assert_eq!(t["board"]["seats"][0]["discards"][0], drew, "{t}");
    assert_eq!(t["places"][0]["away"], false);
    // Gone: after the next time-out a bot plays for Cat.
    c.close().await;
    let mut w = Client::connect(addr, id, None).await;
    let away = w
        .until(|m| {
            eprintln!("W {} {} {}", m["places"][0], m["stage"], m["board"]["turn"]);
            m["places"][0]["away"] == true
        })
        .await;
    assert_eq!(away["places"][0]["connected"], false);
    // The stand-in keeps the hand going: East's discards grow without anyone connected.
    let n0 = away["board"]["seats"][0]["discards"]
        .as_array()
        .unwrap()
        .len();
    w.until(|m| {
        m["board"]["seats"][0]["discards"].as_array().unwrap().len() > n0 + 1
            || m["stage"] != "playing"
    })
    .await;
    // Cat comes back and has the place again.
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let back = c.until(|m| m["places"][0]["away"] == false).await;
    assert_eq!(
        back["notice"]["text"], "Welcome back: you play your place again.",
        "{back}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_resumes_where_the_table_was() {
    let app = common::app(None);
    let (id, cookie, addr) = alone(
        &app,
        "Dan",
        21..22,
        [bot("easy"), bot("random"), bot("easy")],
    )
    .await;
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let mut s = c.until(my_move).await;
    for _ in 0..3 {
        let step = s["step"].as_u64().unwrap();
        c.act(step, pick(&s)).await;
        s = c.until(|m| my_move(m) || m["stage"] != "playing").await;
        if s["stage"] != "playing" {
            break;
        }
    }
    c.close().await;
    let mut again = Client::connect(addr, id, Some(&cookie)).await;
    let r = again.until(|_| true).await;
    assert_eq!(r["board"], s["board"]);
    assert_eq!(r["legal"], s["legal"]);
    assert_eq!(r["step"], s["step"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_share_a_table_and_each_acts_only_for_their_own_seat() {
    let app = common::app(None);
    let (ann, ann_cookie) = person(&app, "Ann");
    let (_, bob_cookie) = person(&app, "Bob");
    let spec = duplicate(
        3..4,
        [Place::Person, Place::Person, bot("easy"), bot("easy")],
        ann,
    );
    let id = app.hall.open_table(spec, "Ann").unwrap();
    let addr = serve(app.clone()).await;
    let mut a = Client::connect(addr, id, Some(&ann_cookie)).await;
    let w = a.until(|_| true).await;
    assert_eq!(w["stage"], "waiting");
    assert_eq!(w["places"][1]["open"], true);
    let mut b = Client::connect(addr, id, Some(&bob_cookie)).await;
    b.until(|_| true).await;
    b.send(json!({"type": "sit", "place": 3})).await;
    assert!(b.next().await["message"]
        .as_str()
        .unwrap()
        .contains("not for a person"));
    b.send(json!({"type": "sit", "place": 1})).await;
    let sb = b.until(|m| m["stage"] == "playing").await;
    assert_eq!(sb["you"], 1);
    assert!(sb["board"]["seats"][1]["hand"].is_array());
    assert!(sb["board"]["seats"][0].get("hand").is_none());
    // Play on until the hand ends: each answers only their own decisions.
    let mut hands_over = 0;
    let (mut sa, mut sb) = (a.until(|_| true).await, sb);
    for _ in 0..400 {
        for (c, s) in [(&mut a, &mut sa), (&mut b, &mut sb)] {
            if s["stage"] != "playing" {
                continue;
            }
            if my_move(s) {
                c.act(s["step"].as_u64().unwrap(), pick(s)).await;
            }
            if let Some(m) = c.next_within(0.3).await {
                if m["type"] == "state" {
                    *s = m;
                }
            }
        }
        if sa["stage"] != "playing" && sb["stage"] != "playing" {
            hands_over += 1;
            break;
        }
    }
    assert_eq!(hands_over, 1, "the hand finished: {sa}");
    assert_eq!(sa["result"], sb["result"]);
    let stored = app.store.hands_of_table(id).unwrap();
    assert_eq!(stored.len(), 1);
    let log: table::log::HandLog = serde_json::from_str(&stored[0].log).unwrap();
    assert!(log.result.is_some());
}

#[test]
fn a_restarted_server_rebuilds_the_table_from_its_journal() {
    let dir = std::env::temp_dir().join(format!("dupmj-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("play.sqlite");
    std::fs::remove_file(&db).ok();
    let before;
    let cookie;
    let id;
    {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let app = common::app(Some(&db));
        let (me, c0) = person(&app, "Eve");
        cookie = c0;
        let spec = duplicate(
            40..42,
            [Place::Person, bot("easy"), bot("medium"), bot("random")],
            me,
        );
        id = rt.block_on(async { app.hall.open_table(spec, "Eve").unwrap() });
        before = rt.block_on(async {
            let addr = serve(app.clone()).await;
            let mut c = Client::connect(addr, id, Some(&cookie)).await;
            let mut s = c.until(my_move).await;
            for _ in 0..4 {
                c.act(s["step"].as_u64().unwrap(), pick(&s)).await;
                s = c.until(|m| my_move(m) || m["stage"] != "playing").await;
            }
            s
        });
        // The process ends: every task and connection goes with the runtime.
        drop(rt);
    }
    assert_eq!(before["stage"], "playing", "{before}");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let app = common::app(Some(&db));
        assert_eq!(app.hall.resume_all().unwrap(), 1);
        let addr = serve(app.clone()).await;
        let mut c = Client::connect(addr, id, Some(&cookie)).await;
        let after = c.until(|_| true).await;
        assert_eq!(after["board"], before["board"]);
        assert_eq!(after["legal"], before["legal"]);
        assert_eq!(after["step"], before["step"]);
        assert_eq!(after["places"], before["places"]);
        // And play goes on from there.
        c.act(after["step"].as_u64().unwrap(), pick(&after)).await;
        let next = c.until(|m| m["board"] != after["board"]).await;
        assert_eq!(next["stage"], "playing");
    });
    drop(rt);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_table_without_connections_has_no_task() {
    let app = common::app(None);
    let (id, cookie, addr) =
        alone(&app, "Fay", 7..8, [bot("easy"), bot("easy"), bot("easy")]).await;
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    loop {
        let s = c.until(|m| my_move(m) || m["stage"] == "over").await;
        if s["stage"] == "over" {
            assert!(s["final"]["scores"].is_array());
            break;
        }
        c.act(s["step"].as_u64().unwrap(), pick(&s)).await;
    }
    assert_eq!(app.hall.live_tables(), 1);
    c.close().await;
    let start = std::time::Instant::now();
    while app.hall.live_tables() > 0 && start.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(app.hall.live_tables(), 0);
    // Looking again rebuilds it from the store, finished.
    let mut again = Client::connect(addr, id, Some(&cookie)).await;
    let s = again.until(|_| true).await;
    assert_eq!(s["stage"], "over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hints_panel_gives_shanten_and_the_best_discards_of_the_own_hand() {
    let app = common::app(None);
    // Hints only at a practice table (it counts nowhere).
    let (me, cookie) = person(&app, "Ida");
    let mut spec = duplicate(
        61..62,
        [Place::Person, bot("easy"), bot("easy"), bot("easy")],
        me,
    );
    spec.practice = Some(server::play::spec::Practice::Hints);
    let id = app.hall.open_table(spec, "Ida").unwrap();
    let addr = serve(app.clone()).await;
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let s = c.until(my_move).await;
    assert_eq!(s["hints_allowed"], true);
    assert!(s.get("hints").is_none(), "hints only when asked");
    c.send(json!({"type": "hints", "on": true})).await;
    let s = c.until(|m| m["hints"].is_object()).await;
    let me_seat = &s["board"]["seats"][0];
    let mut held: Vec<mcr::Tile> = me_seat["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| mcr::Tile::parse(t.as_str().unwrap()).unwrap())
        .collect();
    held.push(mcr::Tile::parse(me_seat["drew"].as_str().unwrap()).unwrap());
    // Worked out here from the tiles shown: the best shanten over every discard.
    let best = held
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let mut rest = held.clone();
            rest.remove(i);
            mcr::shanten(&rest, &[]).min()
        })
        .min()
        .unwrap();
    assert_eq!(s["hints"]["shanten"], best, "{}", s["hints"]);
    let top = &s["hints"]["discards"][0];
    assert_eq!(top["shanten"], best);
    let d = mcr::Tile::parse(top["discard"].as_str().unwrap()).unwrap();
    let mut rest = held.clone();
    rest.remove(rest.iter().position(|&t| t == d).unwrap());
    // Every tile it names lowers the shanten of what is left.
    for u in top["useful"].as_array().unwrap() {
        let mut r = rest.clone();
        r.push(mcr::Tile::parse(u.as_str().unwrap()).unwrap());
        let after = (0..r.len())
            .map(|i| {
                let mut x = r.clone();
                x.remove(i);
                mcr::shanten(&x, &[]).min()
            })
            .min()
            .unwrap();
        assert!(after < best, "{u} does not help after discarding {d}");
    }
}

/// Fair play: at a table whose result is compared and rated, the server refuses the hints
/// panel, whatever the page asks, and says why; no state carries hints.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_are_refused_at_a_rated_table() {
    let app = common::app(None);
    let (id, cookie, addr) =
        alone(&app, "Ira", 61..62, [bot("easy"), bot("easy"), bot("easy")]).await;
    let mut c = Client::connect(addr, id, Some(&cookie)).await;
    let s = c.until(my_move).await;
    assert_eq!(s["hints_allowed"], false);
    c.send(json!({"type": "hints", "on": true})).await;
    let e = c.until_any(|m| m["type"] == "error").await;
    assert_eq!(
        e["message"],
        server::play::room::Refusal::HintsOff.to_string(),
        "{e}"
    );
    // Play the hand out: no state ever carries hints.
    c.act(s["step"].as_u64().unwrap(), pick(&s)).await;
    loop {
        let Some(s) = c.next_within(20.0).await else {
            panic!("the table went quiet")
        };
        assert!(s.get("hints").is_none(), "hints at a rated table: {s}");
        if s["stage"] == "between" || s["stage"] == "over" {
            break;
        }
        if my_move(&s) {
            c.act(s["step"].as_u64().unwrap(), pick(&s)).await;
        }
    }
}

/// The lobby's form: "practice" opens a practice table (hints allowed, counts nowhere),
/// "rated" or nothing a rated one, anything else is refused naming the field, with no
/// table made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_form_opens_rated_or_practice_tables_and_refuses_other_modes() {
    let app = common::app(None);
    // An account: a guest may have only 3 tables going.
    let (_, cookie) = account(&app, "Mo");
    let csrf = csrf_of(&app, &cookie);
    let open = |mode: &'static str| {
        let (app, cookie, csrf) = (app.clone(), cookie.clone(), csrf.clone());
        async move {
            let mut f = vec![("csrf", csrf.as_str()), ("deals", "1")];
            if !mode.is_empty() {
                f.push(("mode", mode));
            }
            http(&app, "POST", "/play/tables", Some(&cookie), &f).await
        }
    };
    let spec_of = |location: Option<String>| {
        let id: i64 = location
            .unwrap()
            .trim_start_matches("/play/t/")
            .parse()
            .unwrap();
        let t = app.store.play_table(id).unwrap();
        serde_json::from_str::<server::play::spec::TableSpec>(&t.spec).unwrap()
    };
    let (st, at, _) = open("").await;
    assert_eq!(st, 303);
    assert!(spec_of(at).counts());
    let (_, at, _) = open("rated").await;
    assert!(!spec_of(at).hints_allowed());
    let (_, at, _) = open("practice").await;
    let s = spec_of(at);
    assert_eq!(s.practice, Some(server::play::spec::Practice::Hints));
    assert!(s.hints_allowed() && !s.counts());
    let tables = app.store.play_tables(true, 100).unwrap().len();
    let (st, _, body) = open("ranked").await;
    assert_eq!(st, 422, "{body}");
    assert!(
        body.contains("mode: 'ranked' is neither rated nor practice"),
        "{body}"
    );
    assert_eq!(app.store.play_tables(true, 100).unwrap().len(), tables);
}
