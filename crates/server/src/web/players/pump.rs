//! One table's WebSocket pumped: the states the table's task sends go out, the moves the
//! browser sends go in. Both a socket this node serves and one relayed here end up here.

use super::{json, mpsc, ClientMsg, Cmd, Message, SinkExt, StreamExt, Viewer, WebSocket};

/// Pumps one WebSocket: states out, moves in.
pub(super) async fn connection(
    socket: WebSocket,
    room: mpsc::UnboundedSender<Cmd>,
    conn: u64,
    who: play::actor::Who,
    viewer: Viewer,
    feed: bool,
) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<String>(64);
    // Weak, so that the channel closes when the table lets go of this connection.
    let errors = tx.downgrade();
    if room
        .send(Cmd::Join {
            conn,
            who,
            viewer,
            tx,
            feed,
        })
        .is_err()
    {
        return;
    }
    // When the table drops this connection (too slow to keep up), the sending half ends
    // and the socket is closed, so that the browser reconnects and gets the whole state.
    let mut out = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.into())).await.is_err() {
                break;
            }
        }
    });
    loop {
        let m = tokio::select! {
            m = stream.next() => m,
            _ = &mut out => break,
        };
        let text = match m {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            Some(Ok(_)) => continue,
        };
        match serde_json::from_str::<ClientMsg>(&text) {
            Ok(msg) => {
                if room.send(Cmd::Client { conn, msg }).is_err() {
                    break;
                }
            }
            Err(e) => {
                if let Some(tx) = errors.upgrade() {
                    let _ = tx.try_send(
                        json!({"type": "error", "message": format!("message not understood: {e}")})
                            .to_string(),
                    );
                }
            }
        }
    }
    let _ = room.send(Cmd::Leave { conn });
    out.abort();
}
