//! Bots that speak the Botzone "Chinese Standard Mahjong" protocol (its wiki page and the judge's published source),
//! run as Botzone runs them, so contest bots play in the arena unchanged.
//!
//! The seat's history becomes Botzone requests (`0 seat quan`, `1 0 0 0 0 t1 … t13`, `2 T`,
//! `3 p DRAW`, `3 p PLAY T`, `3 p PENG T`, `3 p CHI mid T`, `3 p GANG`, `3 p BUGANG T`).
//! Like the judge, the arena asks the bot at every request, as it happens, from turn 0:
//! where the seat has no choice the answer must be `PASS`; where it has one, the answer
//! waits for the engine's question.
//!
//! - **Full history**: the bot is started for the request and reads the requests so far
//!   with its earlier responses, its saved `data` and the bot's `globaldata` — one JSON line
//!   `{"requests":[…],"responses":[…],"data":…,"globaldata":…,"time_limit":…}` (`botzone:`),
//!   or in simple interaction (`botzone-simple:`) the turn number, the request and response
//!   lines, a data line and a globaldata line. Stdin stays open; a bot that reads past its
//!   input before answering gets end of file (see [`crate::external`]).
//! - **Keep running**: a bot that prints `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` after its
//!   answer stays alive for the rest of the hand and gets every later request one per line
//!   — a JSON string (`"3 1 DRAW"`) with JSON interaction, the bare line with simple
//!   interaction. A new hand starts a new process.
//!
//! The answer is the bot's whole output up to the keep-running mark or its exit: the first
//! JSON value in it (however spread over lines; `response`, `data`, `globaldata`), or in
//! simple interaction its first line (then debug, data and globaldata lines).
//! `PENG T` and `CHI mid T` name the discard that follows the meld; the arena plays it on
//! the seat's next turn without asking again. An error (crash, time-out, unreadable or
//! illegal answer) is counted and handed to the engine, which ends the hand under rules with
//! an error penalty (the judge's −30/+10) and otherwise plays a safe default.

use std::sync::Arc;
use std::time::Instant;

use mcr::{Tile, Wind};

use crate::agent::Agent;
pub use crate::pool::Interaction;
use crate::pool::{fallback, BotPool};
use crate::process::{BotProcess, ReadError};
use table::engine::{Action, View};
use table::seen::{KongKind, SeenEvent};

/// The line a keep-running bot prints after each answer.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Turns the events one seat saw into Botzone requests.
#[derive(Default)]
pub struct Requests {
    /// A chow or pung waiting for its discard: Botzone announces both in one request.
    meld: Option<(Wind, String)>,
}

impl Requests {
    /// Appends the requests `event` makes (none for a meld until its discard).
    pub fn push(&mut self, event: &SeenEvent, out: &mut Vec<String>) {
        let p = |w: &Wind| w.index();
        match event {
            SeenEvent::Dealt {
                seat,
                prevalent,
                tiles,
                bonus,
            } => {
                out.push(format!("0 {} {}", p(seat), p(prevalent)));
                let mut line = "1".to_string();
                for b in bonus {
                    line.push_str(&format!(" {}", b.len()));
                }
                for t in tiles {
                    line.push(' ');
                    line.push_str(t.bot_code());
                }
                for b in bonus.iter().flatten() {
                    line.push(' ');
                    line.push_str(b.code());
                }
                out.push(line);
            }
            SeenEvent::Bonus { seat, bonus } => {
                out.push(format!("3 {} BUHUA {}", p(seat), bonus.code()))
            }
            // Not part of Botzone's game (a S2 rule option): nothing to tell.
            SeenEvent::DiscardBonus { .. } => {}
            SeenEvent::Draw { tile: Some(t), .. } => out.push(format!("2 {}", t.bot_code())),
            SeenEvent::Draw { seat, tile: None } => out.push(format!("3 {} DRAW", p(seat))),
            SeenEvent::Discard { seat, tile } => {
                let what = match self.meld.take() {
                    Some((w, m)) if w == *seat => m,
                    _ => "PLAY".to_string(),
                };
                out.push(format!("3 {} {what} {}", p(seat), tile.bot_code()));
            }
            SeenEvent::Pung { seat, .. } => self.meld = Some((*seat, "PENG".into())),
            SeenEvent::Chow { seat, low, .. } => {
                let mid = low.offset(1).unwrap_or(*low);
                self.meld = Some((*seat, format!("CHI {}", mid.bot_code())));
            }
            SeenEvent::Kong {
                seat,
                kind: KongKind::Promoted,
                tile: Some(t),
            } => out.push(format!("3 {} BUGANG {}", p(seat), t.bot_code())),
            SeenEvent::Kong { seat, .. } => out.push(format!("3 {} GANG", p(seat))),
        }
    }
}

/// A Botzone response read as an action, with the discard a `PENG` or `CHI` names.
/// `on_turn`: the request was the seat's own draw (`GANG T` is then a concealed kong).
pub fn parse_response(text: &str, on_turn: bool) -> Result<(Action, Option<Tile>), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let tile = |i: usize| -> Result<Tile, String> {
        let w = words
            .get(i)
            .ok_or_else(|| format!("{text:?}: a tile is missing"))?;
        Tile::from_bot_code(w).ok_or_else(|| format!("{text:?}: '{w}' is not a tile code"))
    };
    let arity = match words.first().copied() {
        Some("PASS" | "HU") => 1,
        Some("PLAY" | "BUGANG" | "PENG") => 2,
        Some("GANG") if on_turn => 2,
        Some("GANG") => 1,
        Some("CHI") => 3,
        _ => return Err(format!("{text:?}: not a Botzone response")),
    };
    if words.len() != arity {
        return Err(format!("{text:?}: expected {arity} words"));
    }
    Ok(match words[0] {
        "PASS" => (Action::Pass, None),
        "HU" => (Action::Hu, None),
        "PLAY" => (Action::Discard(tile(1)?), None),
        "BUGANG" => (Action::PromotedKong(tile(1)?), None),
        "GANG" if on_turn => (Action::ConcealedKong(tile(1)?), None),
        "GANG" => (Action::Kong, None),
        "PENG" => (Action::Pung, Some(tile(1)?)),
        _ => {
            let mid = tile(1)?;
            let low = mid
                .offset(-1)
                .filter(|l| l.is_numbered() && mid.rank() > 1)
                .ok_or_else(|| format!("{text:?}: no chow has {mid} in the middle"))?;
            (Action::Chow(low), Some(tile(2)?))
        }
    })
}

/// Why a decision failed: whether it was the time limit, and what happened.
type Failure = (bool, String);

/// The answer to a request on which the seat has a decision, until the engine asks for it.
struct Pending {
    /// What the bot said, as its history will show it.
    text: String,
    answer: Result<(Action, Option<Tile>), Failure>,
}

/// One seat played by a Botzone bot for one hand.
///
/// Like Botzone, it asks the bot at every request, as the request happens: the answer
/// must be `PASS` where the seat has no choice; where it has one, the answer is kept for
/// the engine's question that follows.
pub struct BotzoneAgent {
    pool: Arc<BotPool>,
    how: Interaction,
    translate: Requests,
    requests: Vec<String>,
    responses: Vec<String>,
    /// What the bot saved with its last answer (`data`), handed back at its next start.
    data: serde_json::Value,
    /// A keep-running process that has answered every request so far.
    live: Option<BotProcess>,
    pending: Option<Pending>,
    /// The discard named with the bot's last PENG or CHI.
    then_discard: Option<Tile>,
    /// An error since the engine last looked.
    fault: Option<String>,
}

impl BotzoneAgent {
    /// A seat played by a bot of `pool` speaking Botzone's protocol.
    pub fn new(pool: Arc<BotPool>, how: Interaction) -> BotzoneAgent {
        BotzoneAgent {
            pool,
            how,
            translate: Requests::default(),
            requests: Vec::new(),
            responses: Vec::new(),
            data: serde_json::Value::from(""),
            live: None,
            pending: None,
            then_discard: None,
            fault: None,
        }
    }

    /// The input of a new process asked request `i`: the requests up to it with the
    /// responses before it, the saved data and the global data.
    fn history(&self, i: usize) -> String {
        let requests = &self.requests[..=i];
        let global = self.pool.globaldata();
        match self.how {
            Interaction::Json => {
                let v = serde_json::json!({
                    "requests": requests,
                    "responses": self.responses,
                    "data": self.data,
                    "globaldata": global,
                    "time_limit": self.pool.time_limit.as_secs_f64(),
                });
                format!("{v}\n")
            }
            Interaction::Simple => {
                let mut s = format!("{}\n", requests.len());
                for (i, r) in requests.iter().enumerate() {
                    s.push_str(r);
                    s.push('\n');
                    if let Some(a) = self.responses.get(i) {
                        s.push_str(a);
                        s.push('\n');
                    }
                }
                for saved in [&self.data, &global] {
                    let line = match saved {
                        serde_json::Value::String(t) => t.clone(),
                        other => other.to_string(),
                    };
                    s.push_str(line.lines().next().unwrap_or(""));
                    s.push('\n');
                }
                s
            }
        }
    }

    /// The response in the bot's whole output, keeping its `data` and `globaldata`.
    fn take_output(&mut self, out: &str) -> Result<String, Failure> {
        match self.how {
            Interaction::Json => {
                // The first JSON value, however it is spread over lines.
                let first = serde_json::Deserializer::from_str(out)
                    .into_iter::<serde_json::Value>()
                    .next();
                let v = match first {
                    Some(Ok(v)) => v,
                    _ => return Err((false, format!("unreadable answer {:?}", clip(out)))),
                };
                let text = v["response"]
                    .as_str()
                    .ok_or_else(|| (false, format!("{:?} has no \"response\" string", clip(out))))?
                    .trim()
                    .to_string();
                self.data = v.get("data").cloned().unwrap_or_else(|| "".into());
                if let Some(g) = v.get("globaldata") {
                    self.pool.set_globaldata(g.clone());
                }
                Ok(text)
            }
            Interaction::Simple => {
                // response, debug, data, globaldata: one line each.
                let mut lines = out.lines().skip_while(|l| l.trim().is_empty());
                let text = lines.next().unwrap_or("").trim().to_string();
                if text.is_empty() {
                    return Err((false, "no answer line".into()));
                }
                let _debug = lines.next();
                self.data = lines.next().unwrap_or("").into();
                if let Some(g) = lines.next() {
                    self.pool.set_globaldata(g.into());
                }
                Ok(text)
            }
        }
    }

    /// The bot's answer to request `i`, the last so far (its earlier ones are all answered).
    fn ask(&mut self, i: usize) -> Result<String, Failure> {
        let deadline = Instant::now() + self.pool.time_limit;
        // A keep-running process gets the request alone; one that has closed its input, or
        // none, means a new process with the whole history.
        let line = match self.how {
            Interaction::Json => serde_json::Value::from(self.requests[i].as_str()).to_string(),
            Interaction::Simple => self.requests[i].clone(),
        };
        let live = self
            .live
            .take()
            .and_then(|mut p| p.send(format!("{line}\n").as_bytes()).is_ok().then_some(p));
        let first = live.is_none();
        let mut proc = match live {
            Some(p) => p,
            None => {
                let mut p = BotProcess::spawn(&self.pool.cmd)
                    .map_err(|e| (false, format!("cannot start: {e}")))?;
                p.send(self.history(i).as_bytes())
                    .map_err(|e| (false, format!("the process is gone ({e})")))?;
                p
            }
        };
        let (out, keep) = proc
            .read_until_mark(KEEP_RUNNING, deadline, first)
            .map_err(|e| match e {
                ReadError::Timeout => (true, "no answer in time".to_string()),
                ReadError::Closed => (false, "the process exited".to_string()),
            })?;
        let text = self.take_output(&out)?;
        if keep {
            self.live = Some(proc);
        }
        Ok(text)
    }

    /// Asks request `i` and times it; a failure drops the process (a process that failed
    /// once is not trusted with the rest of the hand).
    fn timed_ask(&mut self, i: usize) -> Result<String, Failure> {
        let start = Instant::now();
        let answer = self.ask(i);
        self.pool.timed(start);
        if answer.is_err() {
            self.live = None;
        }
        answer
    }

    /// Counts an error and keeps it for the engine.
    fn fail(&mut self, i: usize, (timeout, what): Failure) {
        let what = format!("{what} (request {i}, {:?})", self.requests[i]);
        self.pool.failed(timeout, what.clone());
        self.fault.get_or_insert(what);
    }
}

impl Drop for BotzoneAgent {
    fn drop(&mut self) {
        if self.requests.is_empty() {
            return;
        }
        if let Some(p) = self.pending.take() {
            self.responses.push(p.text);
        }
        self.pool.transcript(&serde_json::json!({
            "requests": self.requests,
            "responses": self.responses,
        }));
    }
}

/// At most 200 characters of a bot's output, for messages.
fn clip(s: &str) -> &str {
    match s.char_indices().nth(200) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

impl Agent for BotzoneAgent {
    fn name(&self) -> &str {
        &self.pool.cmd
    }

    fn follows_events(&self) -> bool {
        true
    }

    fn observe(&mut self, seen: &[SeenEvent], legal: &[Action]) {
        if let Some(p) = self.pending.take() {
            // Asked about a claim the engine settled without this seat: as the bot said.
            self.responses.push(p.text);
        }
        let before = self.requests.len();
        for e in seen {
            self.translate.push(e, &mut self.requests);
        }
        for i in before..self.requests.len() {
            if self.fault.is_some() {
                // The judge has stopped the hand; under the safe default the bot sees PASS.
                self.responses.push("PASS".into());
                continue;
            }
            let decides = i + 1 == self.requests.len() && !legal.is_empty();
            let answer = self.timed_ask(i);
            if decides {
                let on_turn = self.requests[i].starts_with("2 ");
                let text = answer.as_ref().map_or("PASS".into(), |t| t.clone());
                let answer = answer.and_then(|t| {
                    let (a, d) = parse_response(&t, on_turn).map_err(|e| (false, e))?;
                    if legal.contains(&a) {
                        Ok((a, d))
                    } else {
                        Err((false, format!("illegal answer {t:?}")))
                    }
                });
                self.pending = Some(Pending { text, answer });
                continue;
            }
            // The history keeps what the bot said (PASS when it said nothing readable).
            let said = match answer {
                Ok(t) if t == "PASS" => t,
                Ok(t) => {
                    self.fail(
                        i,
                        (false, format!("answered {t:?} where only PASS is allowed")),
                    );
                    t
                }
                Err(f) => {
                    self.fail(i, f);
                    "PASS".into()
                }
            };
            self.responses.push(said);
        }
    }

    fn act(&mut self, view: &View) -> Action {
        let Some(pending) = self.pending.take() else {
            if view.legal.contains(&Action::Bonus) {
                // Botzone bots always set bonus tiles aside; they are never asked.
                return Action::Bonus;
            }
            // The discard after our chow or pung was named with it.
            let named = self.then_discard.take().map(Action::Discard);
            return match named {
                Some(a) if view.legal.contains(&a) => a,
                _ => {
                    let what = format!("the discard named with the meld ({named:?}) is not legal");
                    self.fail(self.requests.len() - 1, (false, what));
                    fallback(view)
                }
            };
        };
        // The history keeps what the bot said, as the judge's log does, also when the
        // engine plays a safe move in its place.
        let action = match pending.answer {
            Ok((a, d)) if view.legal.contains(&a) => {
                self.then_discard = d;
                a
            }
            Ok(_) => {
                self.fail(
                    self.requests.len() - 1,
                    (false, format!("illegal answer {:?}", pending.text)),
                );
                fallback(view)
            }
            Err(f) => {
                self.fail(self.requests.len() - 1, f);
                fallback(view)
            }
        };
        self.responses.push(pending.text);
        action
    }

    fn take_fault(&mut self) -> Option<String> {
        self.fault.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        Tile::parse(s).unwrap()
    }

    #[test]
    fn requests_follow_the_judge() {
        let mut r = Requests::default();
        let mut out = Vec::new();
        let tiles: Vec<Tile> = mcr::notation::parse_tiles("123456789m123pE").unwrap();
        let events = [
            SeenEvent::Dealt {
                seat: Wind::South,
                prevalent: Wind::West,
                tiles,
                bonus: Default::default(),
            },
            SeenEvent::Draw {
                seat: Wind::East,
                tile: None,
            },
            SeenEvent::Discard {
                seat: Wind::East,
                tile: t("3m"),
            },
            SeenEvent::Chow {
                seat: Wind::South,
                tile: t("3m"),
                low: t("2m"),
            },
            SeenEvent::Discard {
                seat: Wind::South,
                tile: t("E"),
            },
            SeenEvent::Pung {
                seat: Wind::North,
                tile: t("E"),
            },
            SeenEvent::Discard {
                seat: Wind::North,
                tile: t("C"),
            },
            SeenEvent::Draw {
                seat: Wind::South,
                tile: Some(t("5s")),
            },
            SeenEvent::Kong {
                seat: Wind::South,
                tile: Some(t("5s")),
                kind: KongKind::Concealed,
            },
            SeenEvent::Kong {
                seat: Wind::West,
                tile: Some(t("9p")),
                kind: KongKind::Promoted,
            },
            SeenEvent::Kong {
                seat: Wind::North,
                tile: Some(t("F")),
                kind: KongKind::Melded,
            },
        ];
        for e in &events {
            r.push(e, &mut out);
        }
        assert_eq!(
            out,
            [
                "0 1 2",
                "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 F1",
                "3 0 DRAW",
                "3 0 PLAY W3",
                "3 1 CHI W3 F1",
                "3 3 PENG J1",
                "2 T5",
                "3 1 GANG",
                "3 2 BUGANG B9",
                "3 3 GANG",
            ]
        );
    }

    #[test]
    fn bonus_tiles_follow_the_botzone_wiki() {
        // Request 1 gives every seat's flower count, our 13 tiles, then the flowers seat by
        // seat; a flower drawn in play is "3 p BUHUA Hx" to everyone.
        let h = |n| table::Bonus::new(n).unwrap();
        let mut r = Requests::default();
        let mut out = Vec::new();
        let tiles: Vec<Tile> = mcr::notation::parse_tiles("123456789m123pE").unwrap();
        r.push(
            &SeenEvent::Dealt {
                seat: Wind::North,
                prevalent: Wind::East,
                tiles,
                bonus: [vec![h(1)], vec![], vec![h(3), h(5)], vec![]],
            },
            &mut out,
        );
        r.push(
            &SeenEvent::Bonus {
                seat: Wind::West,
                bonus: h(7),
            },
            &mut out,
        );
        assert_eq!(
            out,
            [
                "0 3 0",
                "1 1 0 2 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 F1 H1 H3 H5",
                "3 2 BUHUA H7",
            ]
        );
    }

    #[test]
    fn responses_become_actions() {
        let (turn, claim) = (true, false);
        assert_eq!(
            parse_response("PLAY W1", turn),
            Ok((Action::Discard(t("1m")), None))
        );
        assert_eq!(
            parse_response("GANG J1", turn),
            Ok((Action::ConcealedKong(t("C")), None))
        );
        assert_eq!(parse_response("GANG", claim), Ok((Action::Kong, None)));
        assert_eq!(
            parse_response("PENG T9", claim),
            Ok((Action::Pung, Some(t("9s"))))
        );
        assert_eq!(
            parse_response("CHI W4 B2", claim),
            Ok((Action::Chow(t("3m")), Some(t("2p"))))
        );
        assert_eq!(parse_response("HU", claim), Ok((Action::Hu, None)));
        for bad in [
            "",
            "PLAY",
            "PLAY X9",
            "CHI W1 B2",
            "CHI F2 B2",
            "PASS W1",
            "RON",
        ] {
            assert!(parse_response(bad, claim).is_err(), "{bad:?}");
        }
    }
}
