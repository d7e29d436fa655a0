//! What a browser is sent about a hand: the board as one seat (or a watcher) may see it,
//! the seat's own choices with their hints, and the Hu preview. Live play and the replay
//! viewer both go through [`board`], so the replay shows exactly what the player saw.
//!
//! Built only from [`Table::view`] and public events; another seat's concealed tiles, the
//! walls and the deal's seed are never read here, except for [`Eye::Open`] on a hand that
//! is over.

use agents::strong::{self, Seat};
use mcr::tile::KINDS;
use mcr::{Meld, MeldKind, Tile, Wind};
use serde_json::{json, Value};
use table::engine::{Action, Decision, SeenMeld, Table, View};
use table::log::{Event, WinRecord};

/// Whose eyes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eye {
    /// A player at this seat.
    Seat(Wind),
    /// Someone watching: public information only.
    Watcher,
    /// Every hand open (only for a hand that is over).
    Open,
}

/// One meld for drawing: its tiles left to right, which one lies turned (the claimed
/// tile, pointing at whom it came from) and which lie face down.
fn meld_json(m: &SeenMeld) -> Value {
    match m {
        SeenMeld::HiddenKong => json!({"tiles": [], "hidden": 4}),
        SeenMeld::Open(m) => open_meld_json(m),
    }
}

pub(crate) fn open_meld_json(m: &Meld) -> Value {
    let t = m.tile;
    match m.kind {
        MeldKind::Chow => {
            // `from` is which tile of the run was claimed; it lies turned on the left,
            // towards the previous player it came from.
            let claimed = t.offset(m.from.max(1) as i8 - 1).unwrap_or(t);
            let mut rest: Vec<Tile> = m.tiles().collect();
            if let Some(i) = rest.iter().position(|&x| x == claimed) {
                rest.remove(i);
            }
            let tiles = [vec![claimed], rest].concat();
            json!({"tiles": tiles, "turned": 0})
        }
        MeldKind::ConcealedKong => json!({"tiles": [t, t, t, t], "down": [0, 3]}),
        MeldKind::Pung | MeldKind::MeldedKong | MeldKind::PromotedKong => {
            let n = if m.kind == MeldKind::Pung { 3 } else { 4 };
            // Left, across or right, as the tile came from the previous, opposite or next
            // player.
            let turned = match m.from {
                1 => 0,
                2 => 1,
                _ => n - 1,
            };
            json!({"tiles": vec![t; n], "turned": turned, "promoted": m.kind == MeldKind::PromotedKong})
        }
    }
}

/// The last thing that happened, in words, as `eye` may know it.
fn last_event(table: &Table, eye: Eye) -> Option<Value> {
    let sees = |seat: Wind| eye == Eye::Open || eye == Eye::Seat(seat);
    let e = table.events().iter().rev().find(|e| {
        !matches!(
            e,
            Event::LastTilePoint { .. } | Event::End { .. } | Event::Hu { .. }
        )
    })?;
    let (seat, text, tile) = match e {
        Event::Draw { seat, tile, .. } => (*seat, "draws", sees(*seat).then_some(tile.code())),
        Event::Discard { seat, tile } => (*seat, "discards", Some(tile.code())),
        Event::Chow { seat, tile, .. } => (*seat, "chows", Some(tile.code())),
        Event::Pung { seat, tile } => (*seat, "pungs", Some(tile.code())),
        Event::Kong { seat, tile, kind } => {
            let hidden = kind == "concealed" && !sees(*seat);
            (*seat, "kongs", (!hidden).then_some(tile.code()))
        }
        Event::Bonus { seat, bonus, .. } => (*seat, "sets aside", Some(bonus.code())),
        Event::DiscardBonus { seat, bonus } => (*seat, "discards", Some(bonus.code())),
        _ => return None,
    };
    Some(json!({"seat": seat, "text": text, "tile": tile}))
}

/// Each seat's pond: every tile it discarded, in order, the claimed ones included and
/// marked with who took them (`by`), a tile won on marked `won`. Public facts only: the
/// events read are discards, claims and wins on a discard.
fn ponds(table: &Table) -> [Vec<Value>; 4] {
    let mut ponds: [Vec<Value>; 4] = Default::default();
    // The seat whose discard is the latest and still lies in its pond.
    let mut open: Option<Wind> = None;
    for e in table.events() {
        match e {
            Event::Discard { seat, tile } => {
                ponds[seat.index()].push(json!({"tile": tile}));
                open = Some(*seat);
            }
            Event::DiscardBonus { seat, bonus } => {
                ponds[seat.index()].push(json!({"tile": bonus.code()}));
                open = None;
            }
            Event::Chow { seat, .. } | Event::Pung { seat, .. } => {
                if let Some(last) = open.take().and_then(|d| ponds[d.index()].last_mut()) {
                    last["by"] = json!(seat);
                }
            }
            Event::Kong { seat, kind, .. } if kind == "melded" => {
                if let Some(last) = open.take().and_then(|d| ponds[d.index()].last_mut()) {
                    last["by"] = json!(seat);
                }
            }
            Event::Hu { win } if !win.self_drawn => {
                if let Some(last) = open.and_then(|d| ponds[d.index()].last_mut()) {
                    last["won"] = json!(true);
                }
            }
            Event::Draw { .. } => open = None,
            _ => {}
        }
    }
    ponds
}

/// Whose turn it is (None while claims are being asked: who may claim is private).
fn turn_of(table: &Table) -> Option<Wind> {
    table
        .to_act()
        .into_iter()
        .find(|&w| matches!(table.view(w).decision, Some(Decision::Turn { .. })))
}

/// The board as `eye` sees it.
pub fn board(table: &Table, eye: Eye) -> Value {
    let mut ponds = ponds(table);
    let seats: Vec<Value> = Wind::ALL
        .into_iter()
        .map(|w| {
            let v = table.view(w);
            let mine = eye == Eye::Seat(w);
            let own = mine || eye == Eye::Open;
            // Another seat's melds as the public sees them (its concealed kongs hidden).
            let public = table.view(w.next());
            let melds: Vec<Value> = if own {
                v.melds[w.index()].iter().map(meld_json).collect()
            } else {
                public.melds[w.index()].iter().map(meld_json).collect()
            };
            let mut seat = json!({
                "wind": w,
                "discards": v.discards[w.index()],
                "pond": std::mem::take(&mut ponds[w.index()]),
                "melds": melds,
                "bonus": v.bonus[w.index()],
                "bonus_discards": v.bonus_discards[w.index()],
                "wall": v.wall_left[w.index()],
                "concealed": v.hand.counts().iter().map(|&c| c as usize).sum::<usize>(),
            });
            if own {
                let (hand, drew) = split_drawn(&v);
                seat["hand"] = json!(hand);
                seat["drew"] = json!(drew);
            }
            seat
        })
        .collect();
    json!({
        "prevalent": table.setup().prevalent(),
        "seats": seats,
        "turn": turn_of(table),
        "last": last_event(table, eye),
        "last_tile_point": table.last_tile_point(),
        "over": table.is_over(),
    })
}

/// A seat's concealed tiles sorted, with the tile just drawn taken out to lie apart.
fn split_drawn(v: &View) -> (Vec<Tile>, Option<Tile>) {
    let mut hand = v.hand.tiles();
    let drew = match v.decision {
        Some(Decision::Turn { drew: Some(t), .. }) => Some(t),
        _ => None,
    };
    if let Some(t) = drew {
        if let Some(i) = hand.iter().rposition(|&x| x == t) {
            hand.remove(i);
        }
    }
    (hand, drew)
}

/// A win as shown: the hand, its fans with English and Chinese names, its value.
pub fn win_json(w: &WinRecord) -> Value {
    let fans: Vec<Value> = w
        .fans
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "zh": mcr::Fan::from_number(f.no).map(|x| x.chinese()).unwrap_or(""),
                "points": f.points,
                "count": f.count,
            })
        })
        .collect();
    let mut out = json!({"seat": w.seat, "hand": w.hand, "self_drawn": w.self_drawn, "value": w.value, "fans": fans});
    // The hand laid out as tiles: declared sets, the concealed tiles sorted, the winning tile.
    if let Ok(h) = mcr::notation::parse_hand_text(&w.hand) {
        let mut concealed = h.concealed.clone();
        concealed.sort();
        out["waits"] = json!(mcr::winning_tiles(&concealed, &h.melds));
        out["melds"] = json!(h.melds.iter().map(open_meld_json).collect::<Vec<_>>());
        out["concealed"] = json!(concealed);
        out["win"] = json!(h.win);
    }
    out
}

/// The win `seat` would score by declaring Hu now: the table is copied, Hu applied, and
/// everyone else passes.
pub fn hu_preview(table: &Table, seat: Wind) -> Option<Value> {
    if !table.legal(seat).contains(&Action::Hu) {
        return None;
    }
    let mut t = table.clone();
    t.apply(seat, Action::Hu).ok()?;
    while let Some(w) = t.next_to_act() {
        let a = if t.legal(w).contains(&Action::Pass) {
            Action::Pass
        } else {
            break;
        };
        t.apply(w, a).ok()?;
    }
    let r = t.result()?;
    r.wins.iter().find(|w| w.seat == seat).map(win_json)
}

/// The hints panel: shanten, the discards that keep the most live winning tiles, and for a
/// ready hand every winning tile with its value.
pub fn hints(table: &Table, seat: Wind) -> Value {
    let v = table.view(seat);
    let s = Seat::of(&v);
    let rules = &table.rules().scoring;
    let melds = s.melds.len();
    let sh = |c: &[u8; KINDS]| -> i32 {
        let tiles: Vec<Tile> = counts_tiles(c);
        mcr::shanten(&tiles, &s.melds).min()
    };
    let held: usize = s.conc.iter().map(|&c| c as usize).sum();
    let standing = 13 - 3 * melds;
    let waits_of = |c: &[u8; KINDS]| -> Vec<Value> {
        strong::waits(&s, c, &s.melds, rules)
            .iter()
            .map(|w| {
                json!({
                    "tile": w.tile,
                    "live": s.live[w.tile.index()],
                    "self_drawn": w.self_drawn,
                    "discard": w.discard,
                    "self_drawn_ok": w.self_drawn_ok,
                    "discard_ok": w.discard_ok,
                })
            })
            .collect()
    };
    if held == standing + 1 {
        // Choosing a discard: rank each by shanten, then by live tiles that improve it.
        let mut options: Vec<(i32, u32, Tile, Vec<Tile>)> = Vec::new();
        for d in 0..KINDS {
            if s.conc[d] == 0 {
                continue;
            }
            let mut c = s.conc;
            c[d] -= 1;
            let base = sh(&c);
            let mut useful = Vec::new();
            let mut live = 0;
            for t in 0..KINDS {
                if s.live[t] == 0 || c[t] >= 4 {
                    continue;
                }
                c[t] += 1;
                if sh(&c) < base {
                    useful.push(tile(t));
                    live += s.live[t] as u32;
                }
                c[t] -= 1;
            }
            options.push((base, live, tile(d), useful));
        }
        options.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let best = options.first().map(|o| o.0).unwrap_or(8);
        let discards: Vec<Value> = options
            .iter()
            .take(5)
            .map(|(shanten, live, d, useful)| {
                let mut c = s.conc;
                c[d.index()] -= 1;
                let waits = if *shanten == 0 { waits_of(&c) } else { vec![] };
                json!({"discard": d, "shanten": shanten, "live": live, "useful": useful, "waits": waits})
            })
            .collect();
        json!({"shanten": best, "discards": discards})
    } else {
        let shanten = sh(&s.conc);
        let waits = if shanten == 0 {
            waits_of(&s.conc)
        } else {
            vec![]
        };
        json!({"shanten": shanten, "waits": waits})
    }
}

fn tile(i: usize) -> Tile {
    Tile::from_index(i).expect("a tile index")
}

fn counts_tiles(c: &[u8; KINDS]) -> Vec<Tile> {
    (0..KINDS)
        .flat_map(|i| std::iter::repeat_n(tile(i), c[i] as usize))
        .collect()
}
