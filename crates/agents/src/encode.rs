//! A seat's view as numbers, for learning bots: the 235-action layout that Botzone MCR
//! bots use, and feature planes of 34 columns (one per tile kind).
//!
//! Tile kinds are numbered as everywhere in dupmj, which is also Botzone's order:
//! characters 0–8 (W1–W9), bamboo 9–17 (T1–T9), dots 18–26 (B1–B9), winds 27–30
//! (F1–F4) and dragons 31–33 (J1–J3: red, green, white).
//!
//! Actions (235):
//!
//! | index | action |
//! |---|---|
//! | 0 | pass |
//! | 1 | hu |
//! | 2 + k | discard tile kind k |
//! | 36 + 21·suit + 3·(middle − 2) + (claimed − middle + 1) | chow: suit 0–2 (W, T, B), the run's middle rank 2–8, the claimed tile's place in it |
//! | 99 + k | pung the discard k |
//! | 133 + k | kong the discard k |
//! | 167 + k | concealed kong of k |
//! | 201 + k | promoted kong of k |
//!
//! Planes ([`PLANES`] rows of 34; "relative seat" r is the seat r places after the viewer,
//! so 0 is the viewer itself):
//!
//! | rows | content |
//! |---|---|
//! | 0–3 | own concealed tiles: count ≥ 1, ≥ 2, ≥ 3, = 4 |
//! | 4–19 | declared sets of relative seat r (rows 4+4r … 7+4r): count ≥ 1 … = 4 (a concealed kong of another seat shows nothing) |
//! | 20–35 | discards still on the table of relative seat r (rows 20+4r … 23+4r): count ≥ 1 … = 4 |
//! | 36 | own seat wind (one column set) |
//! | 37 | prevalent wind |
//! | 38 | the tile of the decision: drawn, discarded for a claim, or added to a kong to rob |
//! | 39–42 | tiles the viewer has not seen: ≥ 1, ≥ 2, ≥ 3, = 4 |
//! | 43 | every column: tiles left in the viewer's wall / 21 (personal walls) or in the shared wall / 144 |
//! | 44–47 | every column: concealed kongs of relative seat r / 4 |
//! | 48–50 | every column 1 when the decision is a turn, a claim, a kong to rob |
//! | 51 | every column 1 once the last tile has been reached |
//!
//! Everything comes from [`View`], which holds nothing another seat keeps hidden.

use mcr::{Suit, Tile, Wind};
use table::engine::{Action, Decision, SeenMeld, View};

/// Number of actions in the layout.
pub const ACTIONS: usize = 235;
/// Rows of the feature planes.
pub const PLANES: usize = 52;
/// Columns of the feature planes: one per tile kind.
pub const KINDS: usize = 34;

const DISCARD: usize = 2;
const CHOW: usize = 36;
const PUNG: usize = 99;
const KONG: usize = 133;
const CONCEALED_KONG: usize = 167;
const PROMOTED_KONG: usize = 201;

/// The layout index of a legal action, given the seat's decision; `None` for actions the
/// layout has no place for (bonus-tile choices and faults) or a claim without its tile.
pub fn action_index(action: Action, decision: Option<&Decision>) -> Option<usize> {
    let claimed = match decision {
        Some(Decision::Claim { tile, .. }) | Some(Decision::RobKong { tile, .. }) => Some(*tile),
        _ => None,
    };
    Some(match action {
        Action::Pass => 0,
        Action::Hu => 1,
        Action::Discard(t) => DISCARD + t.index(),
        Action::Chow(low) => {
            let c = claimed?;
            if !low.is_numbered() || c.suit() != low.suit() || c.rank() < low.rank() {
                return None;
            }
            let place = (c.rank() - low.rank()) as usize;
            // middle − 2 = low rank − 1 (ranks count from 1).
            CHOW + 21 * low.suit().index() + 3 * (low.rank() as usize - 1) + place
        }
        Action::Pung => PUNG + claimed?.index(),
        Action::Kong => KONG + claimed?.index(),
        Action::ConcealedKong(t) => CONCEALED_KONG + t.index(),
        Action::PromotedKong(t) => PROMOTED_KONG + t.index(),
        Action::Bonus | Action::DiscardBonus | Action::Fault => return None,
    })
}

/// What a layout index means, in words (`discard 5m`, `chow 3s-4s-5s claiming 4s` …).
pub fn describe(index: usize) -> Option<String> {
    let tile = |k: usize| Tile::from_index(k).map(|t| t.code().to_string());
    Some(match index {
        0 => "pass".into(),
        1 => "hu".into(),
        i if i < CHOW => format!("discard {}", tile(i - DISCARD)?),
        i if i < PUNG => {
            let j = i - CHOW;
            let suit = Suit::NUMBERED[j / 21];
            let low = Tile::numbered(suit, (j % 21 / 3) as u8 + 1)?;
            let claimed = low.offset((j % 3) as i8)?;
            let high = low.offset(2)?;
            format!(
                "chow {}-{} claiming {}",
                low.code(),
                high.code(),
                claimed.code()
            )
        }
        i if i < KONG => format!("pung {}", tile(i - PUNG)?),
        i if i < CONCEALED_KONG => format!("kong {}", tile(i - KONG)?),
        i if i < PROMOTED_KONG => format!("concealed kong {}", tile(i - CONCEALED_KONG)?),
        i if i < ACTIONS => format!("promoted kong {}", tile(i - PROMOTED_KONG)?),
        _ => return None,
    })
}

/// The legal actions of a view as layout indices, with the action each stands for.
pub fn legal_indices(view: &View) -> Vec<(usize, Action)> {
    view.legal
        .iter()
        .filter_map(|&a| action_index(a, view.decision.as_ref()).map(|i| (i, a)))
        .collect()
}

/// Writes the legal mask of a view into `mask` (length [`ACTIONS`]).
pub fn write_mask(view: &View, mask: &mut [bool]) {
    mask.fill(false);
    for (i, _) in legal_indices(view) {
        mask[i] = true;
    }
}

fn thermometer(rows: &mut [f32], counts: &[u8; KINDS]) {
    for (k, &n) in counts.iter().enumerate() {
        for (level, row) in rows.chunks_mut(KINDS).take(4).enumerate() {
            if n as usize > level {
                row[k] = 1.0;
            }
        }
    }
}

fn meld_counts(melds: &[SeenMeld]) -> ([u8; KINDS], usize) {
    let mut c = [0u8; KINDS];
    let mut hidden = 0;
    for m in melds {
        match m {
            SeenMeld::Open(m) => {
                for t in m.tiles() {
                    c[t.index()] += 1;
                }
            }
            SeenMeld::HiddenKong => hidden += 1,
        }
    }
    (c, hidden)
}

/// Writes the feature planes of a view into `out` (length [`PLANES`] × [`KINDS`], row by
/// row), overwriting all of it.
pub fn write_planes(view: &View, out: &mut [f32]) {
    assert_eq!(out.len(), PLANES * KINDS, "planes buffer of the wrong size");
    out.fill(0.0);
    let row = |r: usize| r * KINDS..(r + 1) * KINDS;
    let own: [u8; KINDS] = *view.hand.counts();
    thermometer(&mut out[row(0).start..row(4).start], &own);
    let mut seen = own;
    let shared_wall =
        view.wall_left.iter().all(|&w| w == view.wall_left[0]) && view.wall_left[0] > 21;
    for r in 0..4 {
        let seat = Wind::from_index((view.seat.index() + r) % 4);
        let (melded, hidden) = meld_counts(view.melds[seat.index()]);
        thermometer(
            &mut out[row(4 + 4 * r).start..row(8 + 4 * r).start],
            &melded,
        );
        let mut discarded = [0u8; KINDS];
        for t in view.discards[seat.index()] {
            discarded[t.index()] += 1;
        }
        thermometer(
            &mut out[row(20 + 4 * r).start..row(24 + 4 * r).start],
            &discarded,
        );
        for k in 0..KINDS {
            seen[k] = seen[k]
                .saturating_add(melded[k])
                .saturating_add(discarded[k]);
        }
        out[row(44 + r)].fill(hidden as f32 / 4.0);
    }
    out[row(36).start + view.seat.tile().index()] = 1.0;
    out[row(37).start + view.prevalent.tile().index()] = 1.0;
    let (decision_tile, kind) = match view.decision {
        Some(Decision::Turn { drew, .. }) => (drew, 48),
        Some(Decision::Claim { tile, .. }) => (Some(tile), 49),
        Some(Decision::RobKong { tile, .. }) => (Some(tile), 50),
        None => (None, 0),
    };
    if let Some(t) = decision_tile {
        out[row(38).start + t.index()] = 1.0;
    }
    if kind > 0 {
        out[row(kind)].fill(1.0);
    }
    let unseen: [u8; KINDS] = std::array::from_fn(|k| 4u8.saturating_sub(seen[k]));
    thermometer(&mut out[row(39).start..row(43).start], &unseen);
    let left = view.wall_left[view.seat.index()] as f32;
    out[row(43)].fill(if shared_wall {
        left / 144.0
    } else {
        left / 21.0
    });
    if view.last_tile_point {
        out[row(51)].fill(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcr::notation::parse_tiles;

    fn t(s: &str) -> Tile {
        parse_tiles(s).unwrap()[0]
    }

    #[test]
    fn the_layout_matches_botzone_numbering() {
        // Worked out by hand from the table above.
        let claim = |tile| Decision::Claim {
            from: Wind::North,
            tile,
        };
        assert_eq!(action_index(Action::Pass, None), Some(0));
        assert_eq!(action_index(Action::Hu, None), Some(1));
        assert_eq!(action_index(Action::Discard(t("1m")), None), Some(2));
        assert_eq!(action_index(Action::Discard(t("1s")), None), Some(11));
        assert_eq!(action_index(Action::Discard(t("1p")), None), Some(20));
        assert_eq!(action_index(Action::Discard(t("P")), None), Some(35));
        // Chow 1m-2m-3m claiming 1m: suit 0, middle 2, claimed first.
        assert_eq!(
            action_index(Action::Chow(t("1m")), Some(&claim(t("1m")))),
            Some(36)
        );
        // Chow 7p-8p-9p claiming 9p: 36 + 42 + 3·6 + 2 = 98, the last chow.
        assert_eq!(
            action_index(Action::Chow(t("7p")), Some(&claim(t("9p")))),
            Some(98)
        );
        // Chow 3s-4s-5s claiming 4s: 36 + 21 + 3·2 + 1 = 64.
        assert_eq!(
            action_index(Action::Chow(t("3s")), Some(&claim(t("4s")))),
            Some(64)
        );
        assert_eq!(
            action_index(Action::Pung, Some(&claim(t("E")))),
            Some(99 + 27)
        );
        assert_eq!(action_index(Action::Kong, Some(&claim(t("1m")))), Some(133));
        assert_eq!(action_index(Action::ConcealedKong(t("P")), None), Some(200));
        assert_eq!(action_index(Action::PromotedKong(t("P")), None), Some(234));
        assert_eq!(action_index(Action::Pung, None), None);
        assert_eq!(action_index(Action::Bonus, None), None);
    }

    #[test]
    fn every_index_has_a_distinct_meaning() {
        let words: Vec<String> = (0..ACTIONS).map(|i| describe(i).unwrap()).collect();
        let mut sorted = words.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ACTIONS);
        assert_eq!(words[64], "chow 3s-5s claiming 4s");
        assert_eq!(describe(ACTIONS), None);
    }
}
