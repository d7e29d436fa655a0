//! `dupmj connect`: an outside bot playing on a dupmj site as a bot account. It signs in
//! with the account's API token, gets a table (the quick-match queue, a table of its own,
//! an invitation's table, a challenge's next deal) through the bot routes, and plays it
//! over the table's WebSocket as a browser does, its moves chosen by the agent the arena
//! would run ([`agents::site`]). The protocol is in `docs/bots.md`.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use agents::site::{MakeAgent, SeatMsg, SiteSeat};

/// Where the bot's tables come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The quick-match queue (people who let bot accounts play them).
    Quick,
    /// A table of its own against the site's bots of this level.
    Open(String),
    /// A table it was invited to: it takes an open place.
    Table(i64),
    /// The next deal of a challenge that lets bot accounts play.
    Challenge(i64),
}

/// A table played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The table.
    pub table: i64,
    /// Hands played there.
    pub hands: u64,
    /// The bot's score there (match points).
    pub score: i64,
    /// Decisions the bot answered.
    pub moves: u64,
    /// Decisions where it failed and the safe default went instead.
    pub faults: u64,
    /// Times the socket dropped and was opened again.
    pub reconnects: u32,
}

/// How often a dropped socket is opened again before the table is given up (the site's
/// stand-in plays on meanwhile).
const RECONNECTS: u32 = 20;

/// A site, as `http://HOST:PORT`, and the token the bot signs in with.
pub struct Site {
    host: String,
    token: String,
}

impl Site {
    /// Reads `--server`: plain `http://` (a site behind TLS is reached through a local
    /// proxy or tunnel).
    pub fn new(server: &str, token: &str) -> Result<Site, String> {
        let host = server
            .strip_prefix("http://")
            .ok_or_else(|| {
                format!("--server {server}: give http://HOST:PORT (https:// is not spoken here: reach a TLS site through a local tunnel)")
            })?
            .trim_end_matches('/');
        if host.is_empty() || host.contains('/') {
            return Err(format!("--server {server}: give http://HOST:PORT, no path"));
        }
        if token.trim().is_empty() {
            return Err("--token: the bot account's API token is empty".into());
        }
        Ok(Site {
            host: host.to_string(),
            token: token.trim().to_string(),
        })
    }

    /// One request to a bot route; its JSON, or the site's `error` in words.
    pub async fn call(&self, method: &str, path: &str, form: &str) -> Result<Value, String> {
        let mut s = tokio::time::timeout(
            Duration::from_secs(10),
            tokio::net::TcpStream::connect(&self.host),
        )
        .await
        .map_err(|_| format!("{}: no answer within 10 s", self.host))?
        .map_err(|e| format!("{}: {e}", self.host))?;
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
            self.host,
            self.token,
            form.len()
        );
        s.write_all(req.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut raw = Vec::new();
        tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut raw))
            .await
            .map_err(|_| format!("{path}: no answer within 30 s"))?
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&raw);
        let (head, body) = text
            .split_once("\r\n\r\n")
            .ok_or_else(|| format!("{path}: not an HTTP answer"))?;
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{path}: not an HTTP answer"))?;
        let v: Value = serde_json::from_str(body)
            .map_err(|_| format!("{path}: {status}, not JSON (is this a dupmj site?)"))?;
        if status != 200 {
            let why = v["error"].as_str().unwrap_or("refused");
            return Err(format!("{path}: {status}: {why}"));
        }
        Ok(v)
    }

    /// The table `from` gives, waiting in the queue as long as it takes.
    pub async fn table_from(&self, from: &Source) -> Result<i64, String> {
        let table = |v: &Value| v["table"].as_i64();
        match from {
            Source::Table(id) => Ok(*id),
            Source::Open(level) => {
                let form = format!("deals=4&p1={level}&p2={level}&p3={level}");
                let v = self.call("POST", "/api/bot/tables", &form).await?;
                table(&v).ok_or_else(|| format!("no table in {v}"))
            }
            Source::Challenge(id) => {
                let v = self
                    .call("POST", &format!("/api/bot/challenges/{id}/play"), "")
                    .await?;
                table(&v).ok_or_else(|| format!("no table in {v}"))
            }
            Source::Quick => {
                let mut v = self.call("POST", "/api/bot/quick", "").await?;
                loop {
                    if let Some(t) = table(&v) {
                        return Ok(t);
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    v = self.call("GET", "/api/bot/quick", "").await?;
                    if v["queued"] == false {
                        v = self.call("POST", "/api/bot/quick", "").await?;
                    }
                }
            }
        }
    }

    /// Plays table `id` to its end with agents `make` makes (a fresh one each hand).
    pub async fn play(&self, id: i64, make: MakeAgent) -> Result<Played, String> {
        let mut seat = Some(SiteSeat::new(make));
        let mut played = Played {
            table: id,
            hands: 0,
            score: 0,
            moves: 0,
            faults: 0,
            reconnects: 0,
        };
        loop {
            match self.play_socket(id, &mut seat, &mut played).await {
                Ok(true) => break,
                // The agent's own thread failed: nothing to play on with.
                Err(e) if seat.is_none() => return Err(format!("table {id}: {e}")),
                Ok(false) | Err(_) if played.reconnects < RECONNECTS => {
                    played.reconnects += 1;
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                Ok(false) => return Err(format!("table {id}: the socket kept closing")),
                Err(e) => return Err(format!("table {id}: {e}")),
            }
        }
        if let Some(s) = seat {
            (played.moves, played.faults) = (s.moves, s.faults);
        }
        Ok(played)
    }

    /// One socket's life at table `id`: true once the table is over.
    async fn play_socket(
        &self,
        id: i64,
        seat: &mut Option<SiteSeat>,
        played: &mut Played,
    ) -> Result<bool, String> {
        let mut req = format!("ws://{}/play/t/{id}/ws", self.host)
            .into_client_request()
            .map_err(|e| e.to_string())?;
        let auth = format!("Bearer {}", self.token)
            .parse()
            .map_err(|_| "the token is not a header's text".to_string())?;
        req.headers_mut().insert("authorization", auth);
        let (mut ws, _) = tokio_tungstenite::connect_async(req)
            .await
            .map_err(|e| e.to_string())?;
        while let Some(m) = ws.next().await {
            let Ok(Message::Text(text)) = m else {
                if m.is_err() {
                    return Ok(false);
                }
                continue;
            };
            let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let reply = match v["type"].as_str() {
                Some("seat") => {
                    let msg: SeatMsg = serde_json::from_value(v).map_err(|e| e.to_string())?;
                    let Some(mut s) = seat.take() else {
                        return Err("the bot's agent is gone".into());
                    };
                    let (s, answer) = tokio::task::spawn_blocking(move || {
                        let a = s.take(msg);
                        (s, a)
                    })
                    .await
                    .map_err(|e| e.to_string())?;
                    *seat = Some(s);
                    answer.map(
                        |(step, action)| json!({"type": "act", "step": step, "action": action}),
                    )
                }
                Some("state") => {
                    let (over, reply) = on_state(&v, played);
                    if over {
                        let _ = ws.close(None).await;
                        return Ok(true);
                    }
                    reply
                }
                Some("error") => {
                    eprintln!("table {id}: {}", v["message"].as_str().unwrap_or(""));
                    None
                }
                _ => None,
            };
            if let Some(r) = reply {
                if ws.send(Message::Text(r.to_string().into())).await.is_err() {
                    return Ok(false);
                }
            }
        }
        Ok(false)
    }
}

/// Plays `rounds` tables from `from` one after another (one for an invitation's table) on
/// its own runtime, telling `say` what happens; the agents come from `pool`.
pub fn run(
    site: &Site,
    from: &Source,
    rounds: u32,
    pool: std::sync::Arc<agents::pool::BotPool>,
    mut say: impl FnMut(&str),
) -> Result<Vec<Played>, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let me = site.call("GET", "/api/bot/me", "").await?;
        say(&format!(
            "signed in as {}",
            me["shown"].as_str().unwrap_or("?")
        ));
        let rounds = if matches!(from, Source::Table(_)) { 1 } else { rounds };
        let mut all = Vec::new();
        for _ in 0..rounds {
            let table = site.table_from(from).await?;
            say(&format!("table {table}: playing"));
            let p = pool.clone();
            let played = site.play(table, Box::new(move || p.agent())).await?;
            say(&format!(
                "table {}: {} hands, score {:+}, {} moves, {} by the safe default, {} reconnections",
                played.table, played.hands, played.score, played.moves, played.faults, played.reconnects
            ));
            all.push(played);
        }
        Ok(all)
    })
}

/// What a state asks of the bot besides its moves: its place when invited (the first open
/// one), the next hand when the last is over. Whether the table is over, and the reply.
fn on_state(v: &Value, played: &mut Played) -> (bool, Option<Value>) {
    let you = v["you"].as_u64().map(|p| p as usize);
    let places = v["places"].as_array().cloned().unwrap_or_default();
    if let Some(p) = you {
        played.score = places.get(p).and_then(|x| x["score"].as_i64()).unwrap_or(0);
    }
    played.hands = match v["stage"].as_str() {
        Some("over") | Some("between") => v["hand_no"].as_u64().unwrap_or(0),
        _ => v["hand_no"].as_u64().unwrap_or(1).saturating_sub(1),
    };
    match (v["stage"].as_str(), you) {
        (Some("over"), _) => (true, None),
        (_, None) => {
            let open = places.iter().position(|p| p["open"] == true);
            (false, open.map(|p| json!({"type": "sit", "place": p})))
        }
        (Some("between"), Some(p)) if places.get(p).is_some_and(|x| x["ready"] != true) => {
            (false, Some(json!({"type": "next"})))
        }
        _ => (false, None),
    }
}
