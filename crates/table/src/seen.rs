//! The hand as one seat saw it happen: the table's events with everything hidden from
//! that seat taken out (other players' drawn tiles and concealed kongs).
//!
//! Agents that follow a hand event by event (Botzone bots) get these, never the raw
//! events, which carry every tile.

use mcr::{Tile, Wind};
use serde::{Deserialize, Serialize};

use crate::engine::Table;
use crate::log::Event;
use crate::wall::Bonus;

/// Which kind of kong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KongKind {
    /// Declared from the hand, its tile hidden from others.
    Concealed,
    /// Claimed from a discard.
    Melded,
    /// Promoted from a claimed pung.
    Promoted,
}

/// One event as a given seat saw it; as JSON, tagged by `event` (what the site sends a bot
/// account's connection, see `docs/bots.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SeenEvent {
    /// The start: the seat, the prevalent wind, the seat's 13 tiles and the bonus tiles
    /// every seat set aside during the deal.
    Dealt {
        /// The seat.
        seat: Wind,
        /// The prevalent wind.
        prevalent: Wind,
        /// Its 13 starting tiles.
        tiles: Vec<Tile>,
        /// Bonus tiles each seat set aside during the deal.
        bonus: [Vec<Bonus>; 4],
    },
    /// A seat drew a bonus tile (set aside, or discarded after [`SeenEvent::DiscardBonus`]).
    Bonus {
        /// Who.
        seat: Wind,
        /// The bonus tile.
        bonus: Bonus,
    },
    /// A seat discarded the bonus tile it drew; nobody may claim it.
    DiscardBonus {
        /// Who.
        seat: Wind,
        /// The bonus tile.
        bonus: Bonus,
    },
    /// `tile` is known only for the viewer's own draws.
    Draw {
        /// Who.
        seat: Wind,
        /// The tile, for the viewer's own draws.
        tile: Option<Tile>,
    },
    /// A seat discarded.
    Discard {
        /// Who.
        seat: Wind,
        /// The tile.
        tile: Tile,
    },
    /// A chow of the last discard `tile` into the run from `low`.
    Chow {
        /// Who.
        seat: Wind,
        /// The discard claimed.
        tile: Tile,
        /// The lowest tile of the run.
        low: Tile,
    },
    /// A seat punged the last discard.
    Pung {
        /// Who.
        seat: Wind,
        /// The tile.
        tile: Tile,
    },
    /// `tile` is hidden for another player's concealed kong.
    Kong {
        /// Who.
        seat: Wind,
        /// The tile, unless hidden.
        tile: Option<Tile>,
        /// Concealed, melded or promoted.
        kind: KongKind,
    },
}

/// What `viewer` saw of `event`; `None` for events that carry nothing for play (wins,
/// the end, the last-tile point, which every seat knows from the wall counts).
pub fn seen_by(event: &Event, viewer: Wind) -> Option<SeenEvent> {
    Some(match event {
        Event::Draw { seat, tile, .. } => SeenEvent::Draw {
            seat: *seat,
            tile: (*seat == viewer).then_some(*tile),
        },
        Event::Discard { seat, tile } => SeenEvent::Discard {
            seat: *seat,
            tile: *tile,
        },
        Event::Chow { seat, tile, low } => SeenEvent::Chow {
            seat: *seat,
            tile: *tile,
            low: *low,
        },
        Event::Pung { seat, tile } => SeenEvent::Pung {
            seat: *seat,
            tile: *tile,
        },
        Event::Kong { seat, tile, kind } => {
            let kind = match kind.as_ref() {
                "concealed" => KongKind::Concealed,
                "promoted" => KongKind::Promoted,
                _ => KongKind::Melded,
            };
            let hidden = kind == KongKind::Concealed && *seat != viewer;
            SeenEvent::Kong {
                seat: *seat,
                tile: (!hidden).then_some(*tile),
                kind,
            }
        }
        Event::Bonus { seat, bonus, .. } => SeenEvent::Bonus {
            seat: *seat,
            bonus: *bonus,
        },
        Event::DiscardBonus { seat, bonus } => SeenEvent::DiscardBonus {
            seat: *seat,
            bonus: *bonus,
        },
        Event::LastTilePoint { .. } | Event::Hu { .. } | Event::End { .. } => return None,
    })
}

/// The events `seat` has not been shown yet, as it saw them; the first call starts with
/// its starting tiles.
pub fn seen_since(table: &Table, seat: Wind, shown: &mut usize) -> Vec<SeenEvent> {
    let mut out = Vec::new();
    if *shown == 0 {
        // The deal's own events (bonus tiles replaced) are summed up in `Dealt`.
        *shown = table.dealt_events();
        out.push(SeenEvent::Dealt {
            seat,
            prevalent: table.setup().prevalent(),
            tiles: table.start_hand(seat).to_vec(),
            bonus: std::array::from_fn(|s| table.start_bonus(Wind::from_index(s)).to_vec()),
        });
    }
    let events = table.events();
    out.extend(events[*shown..].iter().filter_map(|e| seen_by(e, seat)));
    *shown = events.len();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        Tile::parse(s).unwrap()
    }

    #[test]
    fn others_draws_and_concealed_kongs_are_hidden() {
        let draw = Event::Draw {
            seat: Wind::South,
            tile: t("5p"),
            label: "B".into(),
            replacement: false,
            end: None,
        };
        assert_eq!(
            seen_by(&draw, Wind::East),
            Some(SeenEvent::Draw {
                seat: Wind::South,
                tile: None
            })
        );
        assert_eq!(
            seen_by(&draw, Wind::South),
            Some(SeenEvent::Draw {
                seat: Wind::South,
                tile: Some(t("5p"))
            })
        );
        let kong = |kind: &'static str| Event::Kong {
            seat: Wind::West,
            tile: t("E"),
            kind: kind.into(),
        };
        let seen = |e, v| match seen_by(&e, v) {
            Some(SeenEvent::Kong { tile, .. }) => tile,
            other => panic!("{other:?}"),
        };
        assert_eq!(seen(kong("concealed"), Wind::North), None);
        assert_eq!(seen(kong("concealed"), Wind::West), Some(t("E")));
        assert_eq!(seen(kong("promoted"), Wind::North), Some(t("E")));
        assert_eq!(seen(kong("melded"), Wind::North), Some(t("E")));
    }
}
