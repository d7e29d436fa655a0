//! A table's WebSocket that reached a node which does not play the table: relayed to the
//! node that does (several nodes on one database, `docs/cluster.md`).
//!
//! The browser's socket is upgraded here and a second socket is opened to the owner with
//! the browser's cookie (a bot's token), which the owner checks as it checks any; messages go
//! both ways unchanged. When the owner cannot be reached it has most likely died: this node
//! waits for its lease on the table to run out and plays the table itself. When the relay's
//! far end closes, the browser's socket is closed too and the browser reconnects, to
//! whichever node plays the table by then.

use super::pump::connection;
use std::time::Duration;

use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message as Up;

use super::{header, json, App, Message, SinkExt, StreamExt, Viewer, WebSocket};

/// Header of a relayed socket: the relaying node's name. A relayed socket is never relayed
/// again (the owner changed in between; the browser tries anew).
pub(super) const RELAYED_BY: &str = "x-dupmj-relayed-by";

/// How long connecting to the owner may take before it counts as gone.
const CONNECT: Duration = Duration::from_secs(2);

/// Serves a browser's (or a bot's) socket for table `id`, played by `owner`: `pass` the
/// headers that sign it in (cookie, token), with who that is here.
pub(super) async fn relay(
    socket: WebSocket,
    app: App,
    id: i64,
    owner: store::NodeInfo,
    pass: Vec<(header::HeaderName, String)>,
    (who, viewer, feed): (play::actor::Who, Viewer, bool),
) {
    match connect(&app, id, &owner, pass).await {
        Ok(up) => pump(socket, up).await,
        Err(e) => {
            tracing::warn!(table = id, node = %owner.name, "owner not reached: {e}; waiting for its lease");
            let within = play::LEASE + Duration::from_secs(2);
            match app.hall.wait_for_table(id, within).await {
                Ok(Some(room)) => {
                    let conn = app.hall.conn_id();
                    connection(socket, room, conn, who, viewer, feed).await
                }
                Ok(None) | Err(_) => goodbye(socket).await,
            }
        }
    }
}

type Upstream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(
    app: &App,
    id: i64,
    owner: &store::NodeInfo,
    pass: Vec<(header::HeaderName, String)>,
) -> Result<Upstream, String> {
    let base = owner.url.strip_prefix("http://").ok_or_else(|| {
        format!(
            "node {}: its address {} is not http://",
            owner.name, owner.url
        )
    })?;
    let mut req = format!("ws://{}/play/t/{id}/ws", base.trim_end_matches('/'))
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let h = req.headers_mut();
    for (name, value) in pass {
        if let Ok(v) = value.parse() {
            h.insert(name, v);
        }
    }
    if let Ok(me) = app.hall.node().parse() {
        h.insert(RELAYED_BY, me);
    }
    match tokio::time::timeout(CONNECT, tokio_tungstenite::connect_async(req)).await {
        Ok(Ok((up, _))) => Ok(up),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", CONNECT.as_secs())),
    }
}

/// Carries text messages both ways until either side closes.
async fn pump(socket: WebSocket, up: Upstream) {
    let (mut down_tx, mut down_rx) = socket.split();
    let (mut up_tx, mut up_rx) = up.split();
    let mut owner_left = false;
    loop {
        tokio::select! {
            m = down_rx.next() => match m {
                Some(Ok(Message::Text(t))) => {
                    if up_tx.send(Up::Text(t.as_str().into())).await.is_err() {
                        owner_left = true;
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            m = up_rx.next() => match m {
                Some(Ok(Up::Text(t))) => {
                    if down_tx.send(Message::Text(t.as_str().into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Up::Close(_))) | Some(Err(_)) | None => {
                    owner_left = true;
                    break;
                }
                Some(Ok(_)) => {}
            },
        }
    }
    let _ = up_tx.close().await;
    if owner_left {
        let _ = down_tx.send(Message::Text(moving().into())).await;
    }
    let _ = down_tx.close().await;
}

fn moving() -> String {
    json!({"type": "error", "message": play::actor::MOVED}).to_string()
}

/// Tells the browser the table is moving and closes, so that it reconnects.
async fn goodbye(mut socket: WebSocket) {
    let _ = socket.send(Message::Text(moving().into())).await;
    let _ = socket.close().await;
}
