//! `dupmj demo`: a complete 16-player event whose 20 hands are played by bots through the
//! real table engine and recorded through the same path as score entry.

use agents::drive::play_table;
use agents::registry::builtin;
use store::{Entrant, EventId, Saved, Store};
use table::engine::HandResult;
use table::TableRules;
use tournament::entry::{Outcome, ScoreEntry};

use crate::service::{create_event, enter_result, AppError, AppResult};

/// The entry a table would make for this hand.
pub fn entry_of(r: &HandResult) -> ScoreEntry {
    let outcome = match (r.wins.as_slice(), r.discarder) {
        ([], _) => Outcome::Draw,
        ([w], None) => Outcome::SelfDrawn {
            winner: w.seat,
            value: w.value,
        },
        (ws, Some(d)) => Outcome::Discard {
            discarder: d,
            winners: ws.iter().map(|w| (w.seat, w.value)).collect(),
        },
        (ws, None) => Outcome::SelfDrawn {
            winner: ws[0].seat,
            value: ws[0].value,
        },
    };
    ScoreEntry {
        outcome,
        false_hu: vec![],
    }
}

const NAMES: [&str; 16] = [
    "Ada", "Bo", "Chen", "Dana", "Eli", "Fang", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lin", "Mia",
    "Nils", "Oto", "Pei",
];

/// Creates the demo event and plays it with the built-in bots `bots` (player p plays
/// `bots[p mod len]`, named after it when there are several); returns its id and the
/// number of results saved.
pub fn run(store: &dyn Store, bots: &[String]) -> AppResult<(EventId, usize)> {
    if bots.is_empty() {
        return Err(AppError::Invalid("name at least one bot".into()));
    }
    if let Some(b) = bots.iter().find(|b| builtin(b, 0).is_none()) {
        return Err(AppError::Invalid(format!(
            "'{b}' is not a built-in bot (use one of {})",
            agents::registry::BUILTIN.join(", ")
        )));
    }
    let bot_of = |p: usize| &bots[p % bots.len()];
    let entrants = NAMES
        .iter()
        .enumerate()
        .map(|(p, n)| Entrant {
            name: if bots.len() > 1 {
                format!("{n} ({})", bot_of(p))
            } else {
                n.to_string()
            },
            team: None,
        })
        .collect();
    let id = create_event(
        store,
        "Demo event (bots)",
        false,
        entrants,
        &demo_key(),
        None,
        "demo",
    )?;
    // Played by bots from start to end: its deals may be practised by anyone.
    store.release_deals(id, "demo")?;
    let e = store.event(id)?;
    let mut saved = 0;
    for (k, deal) in e.movement.deal_names().iter().enumerate() {
        let d = e
            .deal(deal)
            .ok_or_else(|| AppError::Internal(format!("deal {deal}")))?;
        for r in &e.movement.rounds {
            for h in &r.hands {
                for tp in h.tables.iter().filter(|t| &t.deal == deal) {
                    let players = tp.players_by_wind();
                    // Each player is its bot with its own seed, so tables differ.
                    let mut agents = players.map(|p| {
                        builtin(bot_of(p as usize - 1), p as u64 * 1000 + k as u64)
                            .expect("checked above")
                    });
                    let (table, _) = play_table(d.clone(), TableRules::seeds(), &mut agents);
                    let result = table
                        .result()
                        .ok_or_else(|| AppError::Internal("a hand did not finish".into()))?;
                    let entry = entry_of(result);
                    match enter_result(store, id, tp.table, deal, h.hand, &entry, 0, "demo")? {
                        Saved::Saved { .. } => saved += 1,
                        other => return Err(AppError::Internal(format!("demo save: {other:?}"))),
                    }
                }
            }
        }
    }
    Ok((id, saved))
}

/// The demo's deal set: fixed, so that every demo plays the same deals.
fn demo_key() -> table::set::SetKey {
    let mut b = [0u8; 32];
    b[..4].copy_from_slice(b"demo");
    b[28..].copy_from_slice(&2026u32.to_be_bytes());
    table::set::SetKey::from_bytes(b)
}
