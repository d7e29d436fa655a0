//! Bots that speak the Botzone "Chinese Standard Mahjong" protocol (`shared/botzone.md`),
//! so contest bots play in the arena unchanged.
//!
//! The seat's history becomes Botzone requests (`0 seat quan`, `1 0 0 0 0 t1 … t13`, `2 T`,
//! `3 p DRAW`, `3 p PLAY T`, `3 p PENG T`, `3 p CHI mid T`, `3 p GANG`, `3 p BUGANG T`).
//! The bot is asked only when the engine has a decision for its seat:
//!
//! - **Full history** (the default): the bot is started for the decision and reads every
//!   request so far with its earlier responses — as one JSON line
//!   `{"requests":[…],"responses":[…]}` (`botzone:`), or in simple interaction (`botzone-simple:`)
//!   as the turn number followed by request and response lines. Requests it was not asked
//!   about get the response `PASS`, as a bot answering them would have given.
//! - **Keep running**: a bot that prints `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` after its
//!   answer stays alive for the rest of the hand and gets every later request one per line
//!   — a JSON string (`"3 1 DRAW"`) with JSON interaction, the bare line with simple
//!   interaction — answering each (`PASS` where it has no choice). A new hand starts a new
//!   process.
//!
//! The answer is the first output line: `{"response":"PLAY W1"}` or the bare `PLAY W1`.
//! `PENG T` and `CHI mid T` name the discard that follows the meld; the arena plays it on
//! the seat's next turn without asking again. Errors, time limits and the safe default are
//! those of [`crate::external`].

use std::sync::Arc;
use std::time::Instant;

use mcr::{Tile, Wind};

use crate::bots::Agent;
use crate::external::{fallback, BotPool, BotProcess, ReadError};
use table::engine::{Action, Decision, View};
use table::seen::{KongKind, SeenEvent};

/// The line a keep-running bot prints after each answer.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// How requests and responses are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interaction {
    Json,
    Simple,
}

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
            // Not part of Botzone's game (a seeds/002 rule option): nothing to tell.
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
pub fn parse_response(
    text: &str,
    decision: Option<Decision>,
) -> Result<(Action, Option<Tile>), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let tile = |i: usize| -> Result<Tile, String> {
        let w = words
            .get(i)
            .ok_or_else(|| format!("{text:?}: a tile is missing"))?;
        Tile::from_bot_code(w).ok_or_else(|| format!("{text:?}: '{w}' is not a tile code"))
    };
    let on_turn = matches!(decision, Some(Decision::Turn { .. }));
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

/// The Botzone response for the action taken (the bot's own, or the default that replaced
/// it), with the discard named for a chow or pung: what the bot's history records.
fn response_text(action: Action, then_discard: Option<Tile>) -> String {
    let d = then_discard.map_or("", |t| t.bot_code());
    match action {
        Action::Discard(t) => format!("PLAY {}", t.bot_code()),
        Action::Hu => "HU".into(),
        Action::ConcealedKong(t) => format!("GANG {}", t.bot_code()),
        Action::PromotedKong(t) => format!("BUGANG {}", t.bot_code()),
        Action::Kong => "GANG".into(),
        Action::Pung => format!("PENG {d}"),
        Action::Chow(low) => format!("CHI {} {d}", low.offset(1).map_or("", |m| m.bot_code())),
        Action::Pass | Action::Bonus | Action::DiscardBonus => "PASS".into(),
    }
}

/// One seat played by a Botzone bot for one hand.
pub struct BotzoneAgent {
    pool: Arc<BotPool>,
    how: Interaction,
    translate: Requests,
    requests: Vec<String>,
    responses: Vec<String>,
    /// A keep-running process and how many requests it has been given.
    live: Option<(BotProcess, usize)>,
    /// The discard named with the bot's last PENG or CHI.
    then_discard: Option<Tile>,
}

/// Why a decision failed: whether it was the time limit, and what happened.
type Failure = (bool, String);

impl BotzoneAgent {
    pub fn new(pool: Arc<BotPool>, how: Interaction) -> BotzoneAgent {
        BotzoneAgent {
            pool,
            how,
            translate: Requests::default(),
            requests: Vec::new(),
            responses: Vec::new(),
            live: None,
            then_discard: None,
        }
    }

    /// The full-history input for the first run of a process.
    fn history(&self) -> String {
        match self.how {
            Interaction::Json => {
                let v = serde_json::json!({
                    "requests": self.requests,
                    "responses": self.responses,
                });
                format!("{v}\n")
            }
            Interaction::Simple => {
                let mut s = format!("{}\n", self.requests.len());
                for (i, r) in self.requests.iter().enumerate() {
                    s.push_str(r);
                    s.push('\n');
                    if let Some(a) = self.responses.get(i) {
                        s.push_str(a);
                        s.push('\n');
                    }
                }
                s
            }
        }
    }

    /// Reads one answer: its first line, then lines up to the keep-running mark (true) or
    /// the end of output (false).
    fn answer(proc: &mut BotProcess, deadline: Instant) -> Result<(String, bool), Failure> {
        let left = || deadline.saturating_duration_since(Instant::now());
        let first = match proc.read_line(left()) {
            Ok(l) => l,
            Err(ReadError::Timeout) => return Err((true, "no answer in time".into())),
            Err(ReadError::Closed) => return Err((false, "the process exited".into())),
        };
        if first.trim() == KEEP_RUNNING {
            return Err((false, "the keep-running mark came before an answer".into()));
        }
        let text = if first.trim_start().starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(&first)
                .map_err(|e| (false, format!("unreadable answer {first:?}: {e}")))?;
            v["response"]
                .as_str()
                .ok_or_else(|| (false, format!("{first:?} has no \"response\" string")))?
                .to_string()
        } else {
            first.trim().to_string()
        };
        loop {
            match proc.read_line(left()) {
                Ok(l) if l.trim() == KEEP_RUNNING => return Ok((text, true)),
                Ok(_) => {} // debug lines
                Err(ReadError::Closed) => return Ok((text, false)),
                Err(ReadError::Timeout) => {
                    return Err((
                        true,
                        format!("answered {text:?} but neither exited nor kept running in time"),
                    ))
                }
            }
        }
    }

    /// The bot's answer to the last request.
    fn ask(&mut self) -> Result<String, Failure> {
        let limit = self.pool.time_limit;
        if let Some((mut proc, sent)) = self.live.take() {
            // Catch the process up: every request since its last answer, one per line.
            for i in sent..self.requests.len() {
                let line = match self.how {
                    Interaction::Json => {
                        serde_json::Value::from(self.requests[i].as_str()).to_string()
                    }
                    Interaction::Simple => self.requests[i].clone(),
                };
                proc.send(format!("{line}\n").as_bytes())
                    .map_err(|e| (false, format!("the process is gone ({e})")))?;
                let (text, keep) = Self::answer(&mut proc, Instant::now() + limit)?;
                let last = i + 1 == self.requests.len();
                if !last {
                    if text != "PASS" {
                        self.pool.failed(
                            false,
                            format!(
                                "answered {text:?} to {:?}, which needs PASS",
                                self.requests[i]
                            ),
                        );
                    }
                    self.responses.push("PASS".into());
                }
                if !keep {
                    return Err((false, "stopped keeping running".into()));
                }
                if last {
                    self.live = Some((proc, self.requests.len()));
                    return Ok(text);
                }
            }
            return Err((false, "no new request".into()));
        }
        let mut proc =
            BotProcess::spawn(&self.pool.cmd).map_err(|e| (false, format!("cannot start: {e}")))?;
        let deadline = Instant::now() + limit;
        proc.send(self.history().as_bytes())
            .map_err(|e| (false, format!("the process is gone ({e})")))?;
        let (text, keep) = Self::answer(&mut proc, deadline)?;
        if keep {
            self.live = Some((proc, self.requests.len()));
        }
        Ok(text)
    }

    fn decide(&mut self, view: &View) -> Result<Action, Failure> {
        let text = self.ask()?;
        let (action, discard) = parse_response(&text, view.decision).map_err(|e| (false, e))?;
        if !view.legal.contains(&action) {
            return Err((
                false,
                format!("illegal answer {text:?} to {:?}", self.requests.last()),
            ));
        }
        self.then_discard = discard;
        Ok(action)
    }
}

impl Agent for BotzoneAgent {
    fn name(&self) -> &str {
        &self.pool.cmd
    }

    fn follows_events(&self) -> bool {
        true
    }

    fn observe(&mut self, seen: &[SeenEvent]) {
        for e in seen {
            self.translate.push(e, &mut self.requests);
        }
    }

    fn act(&mut self, view: &View) -> Action {
        if view.legal.contains(&Action::Bonus) {
            // Botzone bots always set bonus tiles aside; they are never asked.
            return Action::Bonus;
        }
        if let Some(Decision::Turn { drew: None, .. }) = view.decision {
            // The discard after our chow or pung was named with it.
            match self.then_discard.take().map(Action::Discard) {
                Some(a) if view.legal.contains(&a) => return a,
                named => {
                    let what = format!("the discard named with the meld ({named:?}) is not legal");
                    self.pool.failed(false, what);
                    return fallback(view);
                }
            }
        }
        self.then_discard = None;
        // Full history: the requests the bot was not asked about were passed.
        if self.live.is_none() {
            while self.responses.len() + 1 < self.requests.len() {
                self.responses.push("PASS".into());
            }
        }
        let start = Instant::now();
        let answer = self.decide(view);
        self.pool.timed(start);
        let action = answer.unwrap_or_else(|(timeout, what)| {
            self.live = None; // a process that failed once is not trusted with the hand
            self.pool.failed(timeout, what);
            fallback(view)
        });
        self.responses
            .push(response_text(action, self.then_discard));
        action
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
        let turn = Some(Decision::Turn {
            drew: Some(t("1m")),
            bonus: None,
        });
        let claim = Some(Decision::Claim {
            from: Wind::East,
            tile: t("4m"),
        });
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
