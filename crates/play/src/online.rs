//! Online duplicate events: an event of the director's app played at tables of online play
//! instead of with score entry. Players link their seat with a personal link; from the start
//! time the movement's sittings are opened hand by hand (every table of a hand at once, the
//! next hand when all of them are over); each finished hand goes into the event's results as
//! an entry, so the standings, per-deal tables and exports are the live event's. A seat
//! nobody linked is played by the event's bot from the start, a player who does not show is
//! stood in for when their clock runs out; both are counted and shown.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use store::{Event, EventId, OnlineSitting, StoreError};
use table::engine::Outcome as Ended;
use table::log::HandLog;
use tournament::entry::{Outcome, ScoreEntry};
use tournament::movement::{HandPlay, TablePlay};

use super::room::{HandSummary, Held};
use super::spec::{DealRef, Hands, Place, SittingRef, TableSpec, BOT_LEVELS};
use super::when::now_s;
use super::Hall;
use crate::PlayError;

/// An event's online settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineSettings {
    /// When the first hand starts, in seconds since 1970 (UTC).
    pub start: i64,
    /// Seconds per decision.
    pub limit_s: u32,
    /// Extra seconds each player may draw on over their table.
    pub bank_s: u32,
    /// Plays unlinked seats and stands in for players who do not show.
    pub bot: String,
    /// Player n's personal link token is `tokens[n - 1]`.
    pub tokens: Vec<String>,
}

/// Who the results of an online sitting are entered by.
pub const ENTERED_BY: &str = "online play";

fn token() -> String {
    let mut b = [0u8; 12];
    getrandom::fill(&mut b).expect("the system has randomness");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Turns an event into an online one (or changes its clock and start); links already made
/// stay valid.
pub fn enable(
    hall: &Hall,
    event: EventId,
    start_in_min: u32,
    limit_s: u32,
    bank_s: u32,
    bot: &str,
    who: &str,
) -> Result<OnlineSettings, PlayError> {
    if !BOT_LEVELS.contains(&bot) {
        return Err(PlayError::Invalid(format!(
            "bot: no bot called '{bot}' (choose {})",
            BOT_LEVELS.join(", ")
        )));
    }
    let e = hall.store.event(event)?;
    let old = settings(hall, event)?;
    if old.as_ref().is_some_and(|o| o.start <= now_s()) {
        return Err(PlayError::Invalid(format!(
            "event {event} has started online play already"
        )));
    }
    let s = OnlineSettings {
        start: now_s() + start_in_min as i64 * 60,
        limit_s,
        bank_s,
        bot: bot.to_string(),
        tokens: old
            .map(|o| o.tokens)
            .unwrap_or_else(|| (0..e.players.len()).map(|_| token()).collect()),
    };
    let json = serde_json::to_string(&s)?;
    hall.store.set_online(event, &json, who)?;
    Ok(s)
}

/// An event's online settings, if it is played online.
pub fn settings(hall: &Hall, event: EventId) -> Result<Option<OnlineSettings>, StoreError> {
    match hall.store.online(event)? {
        None => Ok(None),
        Some(s) => serde_json::from_str(&s)
            .map(Some)
            .map_err(|e| StoreError::Backend(format!("event {event}: online settings: {e}"))),
    }
}

/// Links the player whose personal link this is to a person. Returns the player's number.
pub fn join(hall: &Hall, event: EventId, token: &str, person: i64) -> Result<u32, PlayError> {
    let s = settings(hall, event)?
        .ok_or_else(|| PlayError::NotFound(format!("event {event} is not played online")))?;
    let slot = s.tokens.iter().position(|t| t == token).ok_or_else(|| {
        PlayError::Invalid("this link is not a player's link of this event".into())
    })? as u32
        + 1;
    let people = hall.store.event_people(event)?;
    if let Some((other, _)) = people.iter().find(|(sl, p)| *p == person && *sl != slot) {
        return Err(PlayError::Invalid(format!(
            "you already play as player {other} of this event; one person plays one seat"
        )));
    }
    hall.store.bind_person(event, slot, person)?;
    Ok(slot)
}

/// The hands of the movement in play order: (round, hand).
fn order(e: &Event) -> Vec<(u32, &HandPlay)> {
    e.movement
        .rounds
        .iter()
        .flat_map(|r| r.hands.iter().map(move |h| (r.round, h)))
        .collect()
}

/// Where an online event stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Before the start time.
    NotStarted,
    /// This round and hand is being played.
    Playing {
        /// The round (1-based).
        round: u32,
        /// The hand within the round (1-based).
        hand: u32,
    },
    /// Every sitting is over.
    Over,
}

/// An online event as loaded: its settings, its tables so far and who linked which seat.
pub struct State {
    /// The event.
    pub event: Event,
    /// How it is played online.
    pub settings: OnlineSettings,
    /// Tables opened so far, one per sitting.
    pub sittings: Vec<OnlineSitting>,
    /// Tables of `sittings` that are over.
    pub over: std::collections::HashSet<i64>,
    /// Linked seats: (player number, person id).
    pub people: Vec<(u32, i64)>,
}

impl State {
    fn sitting(&self, round: u32, hand: u32, table: u32) -> Option<&OnlineSitting> {
        self.sittings
            .iter()
            .find(|s| s.round == round && s.hand == hand && s.table == table)
    }

    fn done(&self, round: u32, h: &HandPlay) -> bool {
        h.tables.iter().all(|t| {
            self.sitting(round, h.hand, t.table)
                .is_some_and(|s| self.over.contains(&s.play_table))
        })
    }

    /// Where the event stands at `now`: the first sitting not yet over.
    pub fn progress(&self, now: i64) -> Progress {
        if now < self.settings.start {
            return Progress::NotStarted;
        }
        match order(&self.event)
            .into_iter()
            .find(|(r, h)| !self.done(*r, h))
        {
            Some((round, h)) => Progress::Playing {
                round,
                hand: h.hand,
            },
            None => Progress::Over,
        }
    }

    /// Whether every sitting of a deal is over (its hands may then be shown to anyone).
    pub fn deal_done(&self, deal: &str) -> bool {
        order(&self.event).into_iter().all(|(r, h)| {
            h.tables.iter().filter(|t| t.deal == deal).all(|t| {
                self.sitting(r, h.hand, t.table)
                    .is_some_and(|s| self.over.contains(&s.play_table))
            })
        })
    }

    /// The person who linked player number `player`, if any.
    pub fn person_of(&self, player: u32) -> Option<i64> {
        self.people
            .iter()
            .find(|(s, _)| *s == player)
            .map(|(_, p)| *p)
    }

    /// The table a person plays now (an open sitting of theirs), if any.
    pub fn table_of(&self, person: i64) -> Option<i64> {
        let slot = self.people.iter().find(|(_, p)| *p == person)?.0;
        let Progress::Playing { round, hand } = self.progress(now_s()) else {
            return None;
        };
        let r = self
            .event
            .movement
            .rounds
            .iter()
            .find(|r| r.round == round)?;
        let h = r.hands.iter().find(|h| h.hand == hand)?;
        let t = h
            .tables
            .iter()
            .find(|t| t.seats.iter().any(|s| s.player == slot))?;
        self.sitting(round, hand, t.table).map(|s| s.play_table)
    }
}

/// Reads an event's online state; none if it is not played online.
pub fn load(hall: &Hall, event: EventId) -> Result<Option<State>, StoreError> {
    let Some(settings) = settings(hall, event)? else {
        return Ok(None);
    };
    let sittings = hall.store.online_sittings(event)?;
    let mut over = std::collections::HashSet::new();
    for s in &sittings {
        if hall.store.play_table(s.play_table)?.finished {
            over.insert(s.play_table);
        }
    }
    Ok(Some(State {
        event: hall.store.event(event)?,
        settings,
        sittings,
        over,
        people: hall.store.event_people(event)?,
    }))
}

/// What a table reports, from the hand as played.
pub fn entry_of(log: &HandLog) -> Result<ScoreEntry, PlayError> {
    let r = log
        .result
        .as_ref()
        .ok_or_else(|| PlayError::Internal("the hand has no result".into()))?;
    let outcome = match r.kind {
        Ended::Draw => Outcome::Draw,
        Ended::SelfDrawn => {
            let w = r
                .wins
                .first()
                .ok_or_else(|| PlayError::Internal("a self-drawn win without a winner".into()))?;
            Outcome::SelfDrawn {
                winner: w.seat,
                value: w.value,
            }
        }
        Ended::Discard => Outcome::Discard {
            discarder: r.discarder.ok_or_else(|| {
                PlayError::Internal("a win on a discard without a discarder".into())
            })?,
            winners: r.wins.iter().map(|w| (w.seat, w.value)).collect(),
        },
        // Online tables play the seeds rules, which never end a hand on a bot's error.
        Ended::Fault => {
            return Err(PlayError::Internal(
                "a hand ended by a bot's error has no score sheet".into(),
            ))
        }
    };
    let entry = ScoreEntry {
        outcome,
        false_hu: Vec::new(),
    };
    let points = entry
        .match_points()
        .map_err(|e| PlayError::Internal(e.to_string()))?;
    if points != r.points {
        return Err(PlayError::Internal(format!(
            "the entry gives {points:?}, the table {:?}",
            r.points
        )));
    }
    Ok(entry)
}

/// One round of the event's work: enters the results of finished sittings and opens the
/// next hand's tables when the last hand is over. Returns what it did, for the log.
pub fn advance(hall: &Arc<Hall>, event: EventId) -> Result<Vec<String>, PlayError> {
    let mut did = Vec::new();
    let Some(st) = load(hall, event)? else {
        return Ok(did);
    };
    let stored = hall.store.results(event)?;
    for (round, h) in order(&st.event) {
        for t in &h.tables {
            let Some(s) = st.sitting(round, h.hand, t.table) else {
                continue;
            };
            if !st.over.contains(&s.play_table)
                || stored
                    .iter()
                    .any(|r| r.deal == t.deal && r.table == t.table && r.hand == h.hand)
            {
                continue;
            }
            let hands = hall.store.hands_of_table(s.play_table)?;
            let hand = hands
                .first()
                .ok_or_else(|| PlayError::Internal("a finished table without a hand".into()))?;
            let log: HandLog = serde_json::from_str(&hand.log)?;
            let entry = entry_of(&log)
                .map_err(|e| PlayError::Internal(format!("table {}: {e}", s.play_table)))?;
            hall.store.save_result(
                event,
                &t.deal,
                t.table,
                h.hand,
                &entry,
                0,
                &format!("{ENTERED_BY} (table {})", s.play_table),
            )?;
            did.push(format!("deal {} table {} entered", t.deal, t.table));
        }
    }
    if let Progress::Playing { round, hand } = st.progress(now_s()) {
        let r = st.event.movement.rounds.iter().find(|r| r.round == round);
        if let Some(h) = r.and_then(|r| r.hands.iter().find(|h| h.hand == hand)) {
            for t in &h.tables {
                if st.sitting(round, hand, t.table).is_none() {
                    open_sitting(hall, &st, round, hand, t)?;
                    did.push(format!(
                        "round {round} hand {hand} table {} opened",
                        t.table
                    ));
                }
            }
        }
    }
    Ok(did)
}

fn open_sitting(
    hall: &Arc<Hall>,
    st: &State,
    round: u32,
    hand: u32,
    t: &TablePlay,
) -> Result<(), PlayError> {
    let e = &st.event;
    let index = e
        .movement
        .deal_names()
        .iter()
        .position(|d| *d == t.deal)
        .ok_or_else(|| PlayError::Internal(format!("deal {} is not in the movement", t.deal)))?;
    let players = t.players_by_wind();
    let persons: [Option<i64>; 4] = players.map(|p| st.person_of(p));
    let places: [Place; 4] = persons.map(|p| match p {
        Some(_) => Place::Person,
        None => Place::Bot {
            level: st.settings.bot.clone(),
        },
    });
    let first = persons.iter().position(Option::is_some);
    let spec = TableSpec {
        hands: Hands::Duplicate {
            deals: vec![DealRef {
                seed: e.deal_seed(index),
                label: t.deal.clone(),
            }],
        },
        places,
        owner: first.and_then(|p| persons[p]).unwrap_or(0),
        owner_place: first.unwrap_or(0),
        limit_s: st.settings.limit_s,
        bank_s: st.settings.bank_s,
        challenge: None,
        sitting: Some(SittingRef {
            event: e.id,
            round,
            hand,
            table: t.table,
            deal: t.deal.clone(),
            players,
            bot: st.settings.bot.clone(),
        }),
        deals_key: None,
        practice: None,
        rules_version: None,
    };
    spec.check()?;
    let json = serde_json::to_string(&spec)?;
    let mut sitters = Vec::new();
    let mut away = Vec::new();
    for (w, p) in persons.iter().enumerate() {
        if let Some(p) = p {
            let name = crate::names::shown(&hall.store.person(*p)?);
            sitters.push((w, *p, name));
            if absent_last_time(hall, st, players[w])? {
                away.push(w);
            }
        }
    }
    let journal = super::room::Room::opening(&spec, &sitters, &away)?;
    let id = hall
        .store
        .open_sitting_table(e.id, round, hand, t.table, &json, &journal)?;
    hall.room(id)?;
    Ok(())
}

/// Whether the bot had to play for this player in their last finished hand: a player who
/// did not show then starts the next hand with the bot in their seat (until they connect),
/// rather than making the table wait for their clock again.
fn absent_last_time(hall: &Hall, st: &State, player: u32) -> Result<bool, StoreError> {
    for s in st.sittings.iter().rev() {
        if !st.over.contains(&s.play_table) {
            continue;
        }
        let stored = hall.store.play_table(s.play_table)?;
        let Ok(spec) = serde_json::from_str::<TableSpec>(&stored.spec) else {
            continue;
        };
        let Some(w) = spec
            .sitting
            .as_ref()
            .and_then(|x| x.players.iter().position(|&p| p == player))
        else {
            continue;
        };
        let hands = hall.store.hands_of_table(s.play_table)?;
        return Ok(hands.first().is_some_and(|h| {
            serde_json::from_str::<HandSummary>(&h.summary).is_ok_and(|x| match x.held {
                Some(_) => matches!(x.held(w), Held::Unseen { .. }),
                None => x.stood_in[w],
            })
        }));
    }
    Ok(false)
}

/// Works through every online event that has started.
pub fn sweep(hall: &Arc<Hall>) {
    let Ok(list) = hall.store.online_events() else {
        return;
    };
    let now = now_s();
    for (event, s) in list {
        let Ok(s) = serde_json::from_str::<OnlineSettings>(&s) else {
            continue;
        };
        if s.start > now {
            continue;
        }
        if let Err(e) = advance(hall, event) {
            eprintln!("online event {event}: {e}");
        }
    }
}

/// By player: how many hands the bot played for them (their seat unlinked, or a stand-in
/// chose moves for them; a time-out is the player's own move).
pub fn bot_hands(hall: &Hall, event: EventId) -> Result<BTreeMap<u32, u32>, StoreError> {
    let mut out = BTreeMap::new();
    for s in hall.store.online_sittings(event)? {
        let stored = hall.store.play_table(s.play_table)?;
        let Ok(spec) = serde_json::from_str::<TableSpec>(&stored.spec) else {
            continue;
        };
        let Some(sit) = &spec.sitting else { continue };
        for h in hall.store.hands_of_table(s.play_table)? {
            let Ok(sum) = serde_json::from_str::<HandSummary>(&h.summary) else {
                continue;
            };
            for w in 0..4 {
                if spec.places[w] != Place::Person || !sum.held(w).own_play() {
                    *out.entry(sit.players[w]).or_insert(0) += 1;
                }
            }
        }
    }
    Ok(out)
}
