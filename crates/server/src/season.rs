//! Seasons and sign-ups as the pages need them, without HTTP.
//!
//! A season's standings come from its parts' own standings: a challenge's by person, an
//! online event's by the person linked to each seat, a live event's by name (matched to the
//! account of that name where there is one, so one person is one line). What does not count:
//! the par of a challenge, a stand-in's line, and an online result in which the event's bot
//! played any of the person's hands (a bot's moves are never a person's). The final is an
//! event made from the top K, seeded in order; an event from a sign-up takes the players in.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Value};
use store::{EventId, EventKind, PartKind, Season};
use tournament::season::{standings, Line, Result as SeasonResult};
use tournament::signup::{standing, Line as SignUpLine, Place, Standing};

use crate::service::{compute, create_event, new_key, AppError, AppResult};
use play::Hall;

/// Who a season line is: a person, or a name from a live event with no account of it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Who {
    /// A person.
    Person(i64),
    /// A name only.
    Name(String),
}

/// One part of a season as shown.
#[derive(Clone, Debug)]
pub struct Part {
    /// Challenge or event.
    pub kind: PartKind,
    /// Its number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Where its own standings are.
    pub link: String,
    /// Results set aside because the bot played for the person, by person.
    pub set_aside: Vec<String>,
    /// Its standings are hidden (from this viewer): it adds nothing yet.
    pub hidden: bool,
}

/// A season with its standings.
pub struct SeasonView {
    /// The season as kept.
    pub season: Season,
    /// Its parts in order.
    pub parts: Vec<Part>,
    /// Its standings, best first.
    pub lines: Vec<Line<Who>>,
    /// Each line's name.
    pub names: HashMap<Who, String>,
}

/// The parts, everyone's results and their names.
type Gathered = (
    Vec<Part>,
    BTreeMap<Who, Vec<SeasonResult>>,
    HashMap<Who, String>,
);

/// Every part's results, by who; an event whose standings are hidden adds nothing unless
/// `director` asks.
fn gather(hall: &Hall, season: &Season, director: bool) -> AppResult<Gathered> {
    let mut parts = Vec::new();
    let mut by: BTreeMap<Who, Vec<SeasonResult>> = BTreeMap::new();
    let mut names: HashMap<Who, String> = HashMap::new();
    for (i, &(kind, id)) in season.parts.iter().enumerate() {
        let mut put = |who: Who, name: String, imp: i64, ms: i64, hands: u32| {
            names.entry(who.clone()).or_insert(name);
            by.entry(who).or_default().push(SeasonResult {
                part: i,
                imp,
                ms,
                hands,
            });
        };
        let mut set_aside = Vec::new();
        let (name, link) = match kind {
            PartKind::Challenge => {
                let c = play::challenge::load(hall, id)?;
                let mut people = HashMap::new();
                let seats = play::challenge::deal_seats(hall, &c, &mut people)?;
                for l in tournament::challenge::standings(&seats) {
                    if let play::challenge::Who::Person(p) = l.who {
                        let name = people.get(&p).cloned().unwrap_or_default();
                        put(Who::Person(p), name, l.imp, l.ms, l.hands as u32);
                    }
                }
                (c.spec.name.clone(), format!("/play/c/{id}"))
            }
            PartKind::Event => {
                let c = compute(hall, id)?;
                if c.event.hide_standings && !director {
                    set_aside.push("—".to_string());
                    parts.push(Part {
                        kind,
                        id,
                        name: c.event.name.clone(),
                        link: format!("/events/{id}/standings"),
                        set_aside,
                        hidden: true,
                    });
                    continue;
                }
                let linked: HashMap<u32, i64> = hall.store.event_people(id)?.into_iter().collect();
                let online = hall.store.online(id)?.is_some();
                for l in c
                    .individual
                    .lines
                    .iter()
                    .filter(|l| l.stands_in_for.is_none())
                {
                    let who = match linked.get(&l.player) {
                        Some(&p) => Who::Person(p),
                        None if online => continue, // the bot's seat
                        None => match hall.store.account(&l.name)? {
                            Some((p, _)) => Who::Person(p.id),
                            None => Who::Name(store::name_key(&l.name)),
                        },
                    };
                    if c.bot_hands.get(&l.player).is_some_and(|&n| n > 0) {
                        set_aside.push(l.name.clone());
                        continue;
                    }
                    put(who, l.name.clone(), l.imp, l.ms, l.hands);
                }
                (c.event.name.clone(), format!("/events/{id}/standings"))
            }
        };
        parts.push(Part {
            kind,
            id,
            name,
            link,
            set_aside,
            hidden: false,
        });
    }
    Ok((parts, by, names))
}

/// A season and its standings (`director`: with the events whose standings are hidden).
pub fn season_view(hall: &Hall, id: i64, director: bool) -> AppResult<SeasonView> {
    let season = hall.store.season(id)?;
    let (parts, by, names) = gather(hall, &season, director)?;
    let players: Vec<(Who, Vec<SeasonResult>)> = by.into_iter().collect();
    let lines = standings(&season.rules, &players);
    Ok(SeasonView {
        season,
        parts,
        lines,
        names,
    })
}

impl SeasonView {
    /// The standings as the page, the CSV and the printable show them.
    pub fn json(&self) -> Value {
        let per_hand = self.season.rules.measure == tournament::season::Measure::PerHand;
        let lines: Vec<Value> = self
            .lines
            .iter()
            .map(|l| {
                let cells: Vec<Value> = (0..self.parts.len())
                    .map(|p| match l.results.iter().find(|r| r.part == p) {
                        None => json!({"shown": "—", "counted": false}),
                        Some(r) => json!({
                            "shown": if per_hand {
                                format!("{:.2}", r.measured(self.season.rules.measure).value())
                            } else {
                                r.imp.to_string()
                            },
                            "counted": l.counted.contains(&p),
                        }),
                    })
                    .collect();
                json!({
                    "rank": l.rank,
                    "name": self.names.get(&l.who).cloned().unwrap_or_default(),
                    "value": if per_hand { format!("{:.2}", l.value.value()) } else { format!("{}", l.value.value()) },
                    "ms": l.ms,
                    "events": l.results.len(),
                    "cells": cells,
                    "seed": (l.rank > 0 && self.seeded().iter().any(|s| s.who == l.who)).then(|| self.seeded().iter().position(|s| s.who == l.who).unwrap_or(0) + 1),
                })
            })
            .collect();
        let parts: Vec<Value> = self
            .parts
            .iter()
            .map(|p| json!({"kind": p.kind.as_str(), "id": p.id, "name": p.name, "link": p.link, "set_aside": if p.hidden { vec![] } else { p.set_aside.clone() }, "hidden": p.hidden}))
            .collect();
        json!({
            "id": self.season.id,
            "name": self.season.name,
            "best": self.season.rules.best,
            "of": self.parts.len(),
            "per_hand": per_hand,
            "final_k": self.season.final_k,
            "final_event": self.season.final_event,
            "parts": parts,
            "lines": lines,
        })
    }

    /// When the final's cut falls inside a tie (the K-th and the next share a rank): that
    /// rank and the names of everyone holding it. The final would take them in the order
    /// listed; rules §5 gives them one rank and says nothing of a cut.
    pub fn cut_tie(&self) -> Option<(usize, Vec<String>)> {
        let k = self.season.final_k as usize;
        let (last, next) = (self.lines.get(k.checked_sub(1)?)?, self.lines.get(k)?);
        if last.rank == 0 || last.rank != next.rank {
            return None;
        }
        let names = self
            .lines
            .iter()
            .filter(|l| l.rank == last.rank)
            .map(|l| self.names.get(&l.who).cloned().unwrap_or_default())
            .collect();
        Some((last.rank, names))
    }

    /// The top K in order: the final's players, seed 1 first.
    pub fn seeded(&self) -> Vec<&Line<Who>> {
        self.lines
            .iter()
            .take(self.season.final_k as usize)
            .collect()
    }

    /// The standings as CSV: rank, name, the season's figure, match points, each part.
    pub fn csv(&self) -> String {
        let v = self.json();
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = vec![
            "rank".to_string(),
            "name".into(),
            "season".into(),
            "ms".into(),
        ];
        head.extend(self.parts.iter().map(|p| p.name.clone()));
        w.write_record(&head).expect("CSV to memory");
        for l in v["lines"].as_array().into_iter().flatten() {
            let mut row = vec![
                l["rank"].to_string(),
                l["name"].as_str().unwrap_or("").to_string(),
                l["value"].as_str().unwrap_or("").to_string(),
                l["ms"].to_string(),
            ];
            for c in l["cells"].as_array().into_iter().flatten() {
                let shown = c["shown"].as_str().unwrap_or("");
                row.push(if c["counted"] == true {
                    format!("{shown}*")
                } else {
                    shown.to_string()
                });
            }
            w.write_record(&row).expect("CSV to memory");
        }
        String::from_utf8(w.into_inner().expect("CSV to memory")).expect("CSV is UTF-8")
    }
}

/// Makes the season's final: an event of its top K in seed order (player n is seed n),
/// linked to their accounts; `kind` online makes it online at once, as a sign-up's event.
pub fn make_final(
    hall: &Hall,
    id: i64,
    rounds: Option<u32>,
    kind: EventKind,
    who: &str,
) -> AppResult<EventId> {
    let v = season_view(hall, id, true)?;
    if let Some(e) = v.season.final_event {
        return Err(AppError::Invalid(format!(
            "season {id} has its final already: event {e}"
        )));
    }
    let seeded = v.seeded();
    if seeded.len() < v.season.final_k as usize {
        return Err(AppError::Invalid(format!(
            "season {id}: {} players have results, the final needs {}",
            seeded.len(),
            v.season.final_k
        )));
    }
    let players: Vec<(Option<i64>, String)> = seeded
        .iter()
        .map(|l| {
            let person = match l.who {
                Who::Person(p) => Some(p),
                Who::Name(_) => None,
            };
            (person, v.names.get(&l.who).cloned().unwrap_or_default())
        })
        .collect();
    let event = make_event(
        hall,
        &format!("{} final", v.season.name),
        &players,
        rounds,
        who,
    )?;
    if kind == EventKind::Online {
        go_online(hall, event, who)?;
    }
    hall.store.set_season_final(id, event, who)?;
    Ok(event)
}

/// Makes a new event online: starting in a day (the director sets the start on its page),
/// a minute a decision and five in the bank, `strong` standing in for anyone away.
fn go_online(hall: &Hall, event: EventId, who: &str) -> AppResult<()> {
    play::online::enable(hall, event, 24 * 60, 60, 300, "strong", who)?;
    Ok(())
}

/// Makes an individual event of `players` in order (player n is the n-th), each person
/// linked to their seat.
fn make_event(
    hall: &Hall,
    name: &str,
    players: &[(Option<i64>, String)],
    rounds: Option<u32>,
    who: &str,
) -> AppResult<EventId> {
    let entrants = players
        .iter()
        .map(|(_, n)| store::Entrant {
            name: n.clone(),
            team: None,
        })
        .collect();
    let key = new_key();
    let event = create_event(
        hall.store.as_ref(),
        name,
        false,
        entrants,
        &key,
        rounds,
        who,
    )?;
    for (slot, (person, _)) in players.iter().enumerate() {
        if let Some(p) = person {
            hall.store.bind_person(event, slot as u32 + 1, *p)?;
        }
    }
    Ok(event)
}

/// A sign-up's list now.
pub fn signup_lines(hall: &Hall, id: i64) -> AppResult<(store::SignUp, Vec<SignUpLine>)> {
    let (s, st) = signup_standing(hall, id)?;
    Ok((s, st.lines))
}

/// A sign-up's list now, and who moved up from its waitlist.
pub fn signup_standing(hall: &Hall, id: i64) -> AppResult<(store::SignUp, Standing)> {
    let s = hall.store.signup(id)?;
    let st = standing_of(&s, &hall.store.signup_acts(id)?)?;
    Ok((s, st))
}

/// The standing of sign-up `s` after `acts` (its own, as stored).
pub fn standing_of(s: &store::SignUp, acts: &[tournament::signup::Act]) -> AppResult<Standing> {
    standing(&s.spec.rules, acts).map_err(|e| AppError::Internal(format!("sign-up {}: {e}", s.id)))
}

/// Makes the event of a sign-up from the players in, in order; an online one is made
/// online with each seat linked to its person (the director sets its start on its page).
pub fn make_signup_event(
    hall: &Hall,
    id: i64,
    rounds: Option<u32>,
    who: &str,
) -> AppResult<EventId> {
    let (s, lines) = signup_lines(hall, id)?;
    let players: Vec<(Option<i64>, String)> = lines
        .iter()
        .filter(|l| matches!(l.place, Place::In(_)))
        .map(|l| (Some(l.who), l.name.clone()))
        .collect();
    let n = players.len() as u32;
    if n < 8 || !n.is_multiple_of(4) || n > tournament::movement::MAX_PLAYERS {
        let below = n / 4 * 4;
        let above = below + 4;
        return Err(AppError::Invalid(format!(
            "{n} players are in: a movement needs a multiple of 4 from 8 to {}; withdraw {} or seat {} from the waitlist or the substitutes (or change the cap)",
            tournament::movement::MAX_PLAYERS,
            n - below,
            above - n
        )));
    }
    let event = make_event(hall, &s.spec.name, &players, rounds, who)?;
    if s.spec.kind == EventKind::Online {
        go_online(hall, event, who)?;
    }
    hall.store.signup_made(id, event, who)?;
    Ok(event)
}

/// `YYYY-MM-DDTHH:MM` (a date-time field, read as UTC) in seconds since 1970.
pub fn utc_seconds(s: &str) -> Option<i64> {
    let (date, time) = s.trim().split_once(['T', ' '])?;
    let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|x| x.parse::<i64>().ok());
    let (h, min) = (t.next()??, t.next()??);
    if !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || !(0..24).contains(&h)
        || !(0..60).contains(&min)
    {
        return None;
    }
    // Days from 1970-01-01 to the date (the civil calendar, March-based years).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + min * 60)
}

/// Seconds since 1970 as `YYYY-MM-DD HH:MM` UTC.
pub fn utc_text(s: i64) -> String {
    let (y, m, d) = store::civil_date(s.div_euclid(86_400));
    let r = s.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", r / 3600, r % 3600 / 60)
}

/// The lines of a sign-up as its pages show them.
pub fn lines_json(lines: &[tournament::signup::Line]) -> Value {
    let pick = |f: fn(&Place) -> bool| -> Vec<Value> {
        lines
            .iter()
            .filter(|l| f(&l.place))
            .map(|l| {
                let n = match l.place {
                    Place::In(n) | Place::Waiting(n) => Some(n),
                    _ => None,
                };
                json!({"who": l.who, "name": l.name, "n": n})
            })
            .collect()
    };
    json!({
        "in": pick(|p| matches!(p, Place::In(_))),
        "waiting": pick(|p| matches!(p, Place::Waiting(_))),
        "pending": pick(|p| *p == Place::Pending),
        "substitutes": pick(|p| *p == Place::Substitute),
        "withdrawn": pick(|p| *p == Place::Withdrawn),
        "refused": pick(|p| *p == Place::Refused),
    })
}
