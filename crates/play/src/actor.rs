//! The task that owns one table: it reads messages from the table's connections, runs the
//! clock and the bots, writes the journal, and sends every connection its own state.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{json, Value};
use store::{NewHand, PlayWrite};
use table::engine::Action;
use tokio::sync::mpsc;

use super::room::{Refusal, Room, Stage, Thinking};
use super::secrecy::{hand_sight, Sight, Viewer};
use super::Hall;
use crate::PlayError;

/// What a browser may send.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// A move, for the decision that began at `step`.
    Act {
        /// The number of the decision answered (stale answers are refused).
        step: u64,
        /// The move.
        action: Action,
    },
    /// Take an open place.
    Sit {
        /// The place (0–3).
        place: usize,
    },
    /// Ready for the next hand.
    Next,
    /// Switch the hints panel on or off.
    Hints {
        /// On or off.
        on: bool,
    },
    /// A stamp from the set ([`super::room::stamps::STAMPS`]) to show beside one's seat.
    Stamp {
        /// Its id.
        stamp: String,
    },
    /// Answered at once with a pong (for latency measurements).
    Ping {
        /// Echoed in the pong.
        id: u64,
    },
}

/// What a table's connections are told when another node has taken the table over (they
/// close, and browsers reconnect).
pub const MOVED: &str = "this table moved to another server; reconnecting";

/// Who is connected: a signed-in person (id and name) or an anonymous watcher.
pub type Who = Option<(i64, String)>;

/// What a table's task is told: by its connections, and by the server's clock.
pub enum Cmd {
    /// A connection opens: `tx` receives the states meant for `who`.
    Join {
        /// The connection's number (from [`super::Hall`]).
        conn: u64,
        /// Who is behind it.
        who: Who,
        /// Who they are to the secrecy rule.
        viewer: Viewer,
        /// Where its messages go (JSON text).
        tx: mpsc::Sender<String>,
        /// A bot account's program: it is also sent its seat's events and decisions
        /// (`play::feed`).
        feed: bool,
    },
    /// A connection closed.
    Leave {
        /// The connection's number.
        conn: u64,
    },
    /// A message a connection sent.
    Client {
        /// The connection's number.
        conn: u64,
        /// What it sent.
        msg: ClientMsg,
    },
    /// The time is up (a challenge's window closed): every person's remaining decisions
    /// are the time-out defaults, played at once.
    PlayOut,
    /// Another node has taken the table over: this task stops at once, writing nothing,
    /// and its connections are closed (browsers reconnect, to the node that plays it).
    Lost,
}

struct Conn {
    who: Who,
    viewer: Viewer,
    /// The last finished hand and what the secrecy rule lets this connection see of it.
    /// lets them see it.
    finished: Option<(usize, Finished)>,
    tx: mpsc::Sender<String>,
    hints: bool,
    /// The version of the room last looked at, and the last state sent without its clock:
    /// a state is sent only when it differs, so that nobody learns from a message that
    /// something happened which they may not see.
    seen: u64,
    sent: String,
    /// A bot account's program's feed of its seat.
    feed: Option<super::feed::Feed>,
}

/// Runs a table until it is over and nobody is connected, or until its last sender is gone.
pub async fn run(
    mut room: Room,
    mut journaled: u64,
    mut rx: mpsc::UnboundedReceiver<Cmd>,
    hall: Arc<Hall>,
) {
    let mut conns: HashMap<u64, Conn> = HashMap::new();
    // The other results on this table's latest deal, by seat (asked once per hand).
    let mut others: [Vec<Value>; 4] = Default::default();
    // Since when nobody has been at the table (a table of the lobby ends after a while).
    let mut alone_since: Option<Instant> = Some(Instant::now());
    let mut reported_over = room.stage == Stage::Over;
    // A bot's move being thought out on a blocking thread (a search takes a tenth of a
    // second or more), so that the table's messages are answered meanwhile.
    let mut thinking: Option<tokio::task::JoinHandle<(Thinking, Action)>> = None;
    loop {
        if thinking.is_none() {
            if let Some(mut job) = room.start_thinking(Instant::now()) {
                thinking = Some(tokio::task::spawn_blocking(move || {
                    let action = job.bot.act(&job.table.view(job.seat));
                    (job, action)
                }));
            }
        }
        let now = Instant::now();
        let mut wake = room
            .next_wake(now)
            .unwrap_or(now + Duration::from_secs(3600));
        if let Some(since) = alone_since.filter(|_| room.ends_when_left()) {
            wake = wake.min(since + hall.config.idle);
        }
        tokio::select! {
            done = async {
                match thinking.as_mut() {
                    Some(h) => h.await,
                    None => std::future::pending().await,
                }
            } => {
                thinking = None;
                match done {
                    Ok((job, action)) => room.answer(job, action),
                    Err(e) => {
                        tracing::error!(table = room.id, "a bot's move failed: {e}");
                        room.thought_lost();
                    }
                }
            }
            cmd = rx.recv() => match cmd {
                None => break,
                Some(Cmd::Lost) => {
                    let msg = json!({"type": "error", "message": MOVED});
                    for c in conns.values() {
                        let _ = c.tx.try_send(msg.to_string());
                    }
                    return;
                }
                Some(c) => handle(&mut room, &mut conns, c, &hall),
            },
            _ = tokio::time::sleep_until(wake.into()) => {
                let now = Instant::now();
                match alone_since {
                    Some(since) if room.ends_when_left() && now >= since + hall.config.idle => {
                        tracing::info!(table = room.id, "table ended: nobody at it");
                        let _ = room.abandon();
                    }
                    _ => {
                        room.tick(now);
                    }
                }
            }
        }
        // Whoever is connected at their place now sees their tiles of the hand in play.
        room.note_shown();
        alone_since = if present(&room, &conns) {
            None
        } else {
            alone_since.or(Some(Instant::now()))
        };
        if !room.finished.is_empty() {
            others = other_results(&hall, &room);
        }
        let ended = !room.finished.is_empty();
        let over_now = room.stage == Stage::Over && !reported_over;
        if let Err(e) = persist(&mut room, &mut journaled, over_now, &hall).await {
            // Nothing more can be kept: stop the table rather than play on unrecorded. When
            // another node has taken the table over, the browsers reconnect to it.
            let msg = if hall.taken_from_us(room.id) {
                json!({"type": "error", "message": MOVED})
            } else {
                json!({"type": "error", "message": format!("the table stopped: {e}")})
            };
            for c in conns.values() {
                let _ = c.tx.try_send(msg.to_string());
            }
            break;
        }
        reported_over |= over_now;
        if over_now {
            // The table's session is rated now (an online event's deal once its last
            // table is over), away from the table's task.
            let (h, id) = (hall.clone(), room.id);
            match tokio::task::spawn_blocking(move || super::history::table_over(&h, id)).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::error!(table = id, "rating the table failed: {e}"),
                Err(e) => tracing::error!(table = id, "rating the table failed: {e}"),
            }
        }
        if ended && (room.spec.challenge.is_some() || room.spec.sitting.is_some()) {
            hall.nudge.notify_one();
        }
        judge_finished(&hall, &room, &mut conns);
        broadcast(&mut room, &mut conns, &others);
        if room.stage == Stage::Over && conns.is_empty() {
            break;
        }
    }
    hall.closed(room.id, room.stage == Stage::Over);
}

fn handle(room: &mut Room, conns: &mut HashMap<u64, Conn>, cmd: Cmd, hall: &Hall) {
    match cmd {
        Cmd::Join {
            conn,
            who,
            viewer,
            tx,
            feed,
        } => {
            if let Some(p) = who.as_ref().and_then(|(id, _)| room.place_of(*id)) {
                room.connected[p] += 1;
                room.came_back(p);
            }
            conns.insert(
                conn,
                Conn {
                    who,
                    viewer,
                    finished: None,
                    tx,
                    hints: false,
                    // Never a version: the first state always goes out.
                    seen: u64::MAX,
                    sent: String::new(),
                    feed: feed.then(super::feed::Feed::default),
                },
            );
        }
        Cmd::Leave { conn } => drop_conn(room, conns, conn),
        Cmd::PlayOut => room.play_out(),
        Cmd::Lost => {}
        Cmd::Client { conn, msg } => {
            let Some(c) = conns.get_mut(&conn) else {
                return;
            };
            let result = match (&msg, &c.who) {
                (ClientMsg::Ping { id }, _) => {
                    let _ = c.tx.try_send(json!({"type": "pong", "id": id}).to_string());
                    Ok(())
                }
                (ClientMsg::Hints { on: true }, _) if !room.spec.hints_allowed() => {
                    Err(Refusal::HintsOff.into())
                }
                (ClientMsg::Hints { on }, _) => {
                    c.hints = *on;
                    c.seen = u64::MAX;
                    Ok(())
                }
                (_, None) => Err(Refusal::Watching.into()),
                (ClientMsg::Act { step, action }, Some((id, _))) => {
                    room.act(*id, *step, *action).map_err(PlayError::from)
                }
                (ClientMsg::Next, Some((id, _))) => room.next_hand(*id).map_err(PlayError::from),
                (ClientMsg::Stamp { stamp }, Some((id, _))) => room
                    .stamp(*id, stamp, Instant::now())
                    .map_err(PlayError::from),
                (ClientMsg::Sit { place }, Some((id, name))) => {
                    let r =
                        sit_limit(hall, room, *id).and_then(|()| Ok(room.sit(*id, name, *place)?));
                    if r.is_ok() {
                        room.connected[*place] += 1;
                    }
                    r
                }
            };
            if let Err(message) = result {
                let _ = c
                    .tx
                    .try_send(json!({"type": "error", "message": message.to_string()}).to_string());
            }
        }
    }
}

/// Whether anyone is at the table: a person connected at their place, or for a table of
/// bots anyone watching it.
fn present(room: &Room, conns: &HashMap<u64, Conn>) -> bool {
    let has_people = room.spec.places.contains(&super::spec::Place::Person);
    if !has_people {
        return !conns.is_empty();
    }
    room.connected.iter().any(|&n| n > 0)
}

/// Refuses a seat at a table of the lobby to someone who has as many tables going as they
/// may.
fn sit_limit(hall: &Hall, room: &Room, person: i64) -> Result<(), PlayError> {
    if !room.ends_when_left() {
        return Ok(());
    }
    let p = hall.store.person(person)?;
    hall.check_table_limit(&p)
}

/// Writes what changed (journal lines, finished hands, the end of the table, its lobby
/// line) under this node's fence and waits for the commit; `over_now`: the table has just
/// ended.
async fn persist(
    room: &mut Room,
    journaled: &mut u64,
    over_now: bool,
    hall: &Hall,
) -> Result<(), PlayError> {
    let mut w = PlayWrite::default();
    for e in room.pending.drain(..) {
        let line = serde_json::to_string(&e)?;
        w.entries.push((room.id, *journaled, line));
        *journaled += 1;
    }
    for h in room.finished.drain(..) {
        w.hands.push(NewHand {
            table: room.id,
            hand_no: h.summary.hand_no as u32,
            deal_key: h.deal_key.clone(),
            summary: serde_json::to_string(&h.summary)?,
            log: serde_json::to_string(&h.log)?,
        });
    }
    if over_now {
        let spec = serde_json::to_string(&room.spec)?;
        w.finished.push((room.id, spec));
    }
    if let Some(line) = hall.line_change(room) {
        w.lobby.push((room.id, line));
    }
    if w.is_empty() {
        return Ok(());
    }
    w.fences.extend(hall.fence(room.id).map(|f| (room.id, f)));
    hall.writer().write(room.id, w).await
}

/// What a connection may see of the hand just finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Its board at all (someone without a place may not, while the deal is secret).
    pub shown: bool,
    /// Every seat's tiles (the deal is open to this viewer).
    pub open: bool,
}

/// Asks the secrecy rule, once per finished hand, what each connection may see of the hand
/// just finished: the players at the table too, who see all four hands only when the deal
/// is open to them.
fn judge_finished(hall: &Hall, room: &Room, conns: &mut HashMap<u64, Conn>) {
    let Some(last) = room.summaries.last().map(|s| s.hand_no) else {
        return;
    };
    if room.stage == Stage::Playing {
        return;
    }
    for c in conns.values_mut() {
        if c.finished.is_some_and(|(h, _)| h == last) {
            continue;
        }
        let sight = hand_sight(hall, room.id, &room.spec, last, c.viewer);
        let seen = Finished {
            shown: sight.as_ref().is_ok_and(|s| s.shown()),
            open: sight.as_ref().is_ok_and(|s| *s == Sight::Open),
        };
        c.finished = Some((last, seen));
        c.seen = u64::MAX;
    }
}

/// Sends each connection its state when it changed; a connection too slow to keep up is
/// dropped (its browser reconnects and gets the whole state).
fn broadcast(room: &mut Room, conns: &mut HashMap<u64, Conn>, others: &[Vec<Value>; 4]) {
    let mut slow = Vec::new();
    for (id, c) in conns.iter_mut() {
        if c.seen == room.version {
            continue;
        }
        c.seen = room.version;
        let person = c.who.as_ref().map(|(p, _)| *p);
        let finished = c.finished.map(|(_, f)| f).unwrap_or(Finished {
            shown: false,
            open: false,
        });
        let mut state = room.snapshot(person, c.hints, finished, Instant::now());
        if let Some(place) = person.and_then(|p| room.place_of(p)) {
            let seat = room
                .summaries
                .last()
                .map(|s| s.places.iter().position(|&x| x == place).unwrap_or(place));
            if let Some(seat) = seat {
                state["others"] = json!(others[seat]);
            }
        }
        let clock = state
            .as_object_mut()
            .and_then(|o| o.remove("clock"))
            .unwrap_or(Value::Null);
        let seat_msg = match (&mut c.feed, person) {
            (Some(f), Some(p)) => f.next(room, p),
            _ => None,
        };
        let same = state.to_string();
        if same != c.sent {
            state["clock"] = clock;
            if c.tx.try_send(state.to_string()).is_err() {
                slow.push(*id);
                continue;
            }
            c.sent = same;
        }
        if let Some(m) = seat_msg {
            if c.tx.try_send(m.to_string()).is_err() {
                slow.push(*id);
            }
        }
    }
    for id in slow {
        drop_conn(room, conns, id);
    }
}

fn drop_conn(room: &mut Room, conns: &mut HashMap<u64, Conn>, conn: u64) {
    if let Some(c) = conns.remove(&conn) {
        if let Some(p) = c.who.as_ref().and_then(|(id, _)| room.place_of(*id)) {
            room.connected[p] = room.connected[p].saturating_sub(1);
        }
    }
}

/// Results of other tables on the deal just finished, by seat: table, player, points.
fn other_results(hall: &Hall, room: &Room) -> [Vec<Value>; 4] {
    let Some(key) = room.finished.last().and_then(|h| h.deal_key.clone()) else {
        return Default::default();
    };
    let hands = hall.store.hands_of_deal(&key, 200).unwrap_or_default();
    std::array::from_fn(|seat| {
        hands
            .iter()
            .filter(|h| h.play_table != room.id)
            .filter_map(|h| {
                let s: super::room::HandSummary = serde_json::from_str(&h.summary).ok()?;
                Some(json!({
                    "table": h.play_table,
                    "name": s.names[seat],
                    "points": s.points[seat],
                }))
            })
            .collect()
    })
}
