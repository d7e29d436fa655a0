//! A table of online play driven through its task with commands, as the web crate does but
//! without HTTP: a person joins, plays a hand of a secret set against bots, the hand is
//! stored, and a watcher's states never open a concealed tile.

use std::sync::Arc;
use std::time::Duration;

use play::actor::{ClientMsg, Cmd};
use play::secrecy::Viewer;
use play::spec::{DealRef, Hands, Place, TableSpec};
use play::{Hall, PlayConfig};
use serde_json::Value;
use store::SqliteStore;
use tokio::sync::mpsc;

fn hall() -> Arc<Hall> {
    Arc::new(Hall::new(
        Arc::new(SqliteStore::in_memory().unwrap()),
        PlayConfig {
            pace: Duration::ZERO,
            schedule: None,
            idle: Duration::from_secs(600),
            ..Default::default()
        },
    ))
}

fn bot() -> Place {
    Place::Bot {
        level: "easy".into(),
    }
}

async fn next(rx: &mut mpsc::Receiver<String>) -> Value {
    let m = tokio::time::timeout(Duration::from_secs(20), rx.recv())
        .await
        .expect("a state within 20 s")
        .expect("the table answers");
    serde_json::from_str(&m).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_hand_through_the_tables_commands() {
    let h = hall();
    let ann = h.store.create_person("Ann", None).unwrap();
    let key = play::new_key();
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: vec![DealRef {
                seed: key.seed(0),
                label: "1".into(),
            }],
        },
        places: [Place::Person, bot(), bot(), bot()],
        owner: ann.id,
        owner_place: 0,
        limit_s: 600,
        bank_s: 0,
        challenge: None,
        sitting: None,
        deals_key: Some(key.hex()),
        practice: None,
        rules_version: None,
    };
    let id = h.open_table(spec, "Ann (guest)").unwrap();
    let room = h.room(id).unwrap();
    // Ann and a watcher connect.
    let (tx, mut rx) = mpsc::channel(64);
    let ann_conn = h.conn_id();
    room.send(Cmd::Join {
        conn: ann_conn,
        who: Some((ann.id, "Ann (guest)".into())),
        viewer: Viewer::Person(ann.id),
        tx,
        feed: false,
    })
    .unwrap();
    let (wtx, mut wrx) = mpsc::channel(1024);
    let watcher = h.conn_id();
    room.send(Cmd::Join {
        conn: watcher,
        who: None,
        viewer: Viewer::Anonymous,
        tx: wtx,
        feed: false,
    })
    .unwrap();
    loop {
        let s = next(&mut rx).await;
        if s["type"] != "state" {
            continue;
        }
        assert_eq!(s["table"], id);
        if s["stage"] == "over" {
            assert_eq!(s["final"]["abandoned"], false);
            break;
        }
        let legal = s["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            continue;
        }
        let pick = legal
            .iter()
            .find(|a| a["action"] == "hu")
            .or_else(|| legal.iter().find(|a| a["action"] == "pass"))
            .or_else(|| legal.iter().find(|a| a["action"] == "discard"))
            .unwrap_or(&legal[0]);
        let msg: ClientMsg = serde_json::from_value(serde_json::json!({
            "type": "act", "step": s["step"], "action": pick,
        }))
        .unwrap();
        room.send(Cmd::Client {
            conn: ann_conn,
            msg,
        })
        .unwrap();
    }
    // The hand is stored, and the table is over.
    let hands = h.store.hands_of_table(id).unwrap();
    assert_eq!(hands.len(), 1);
    assert!(h.store.play_table(id).unwrap().finished);
    // The watcher was never shown a concealed tile while the hand was played.
    while let Ok(m) = wrx.try_recv() {
        let v: Value = serde_json::from_str(&m).unwrap();
        if v["stage"] == "playing" {
            for seat in v["board"]["seats"].as_array().unwrap() {
                assert!(seat.get("hand").is_none(), "{v}");
            }
        }
    }
    room.send(Cmd::Leave { conn: watcher }).unwrap();
}
