//! Words for a scored hand: the reading, and which sets each fan uses.

use crate::combos::{self, Key};
use crate::fan::Fan;
use crate::hand::Hand;
use crate::notation::format_tiles;
use crate::score::{ReadSet, Reading, SetKind, Shape};
use crate::tile::Tile;

fn set_text(s: &ReadSet) -> String {
    let tiles: Vec<Tile> = match s.kind {
        SetKind::Chow => (0..3).filter_map(|i| s.tile.offset(i)).collect(),
        SetKind::Pung => vec![s.tile; 3],
        SetKind::Kong => vec![s.tile; 4],
    };
    let t = format_tiles(&tiles);
    if s.declared {
        format!("[{t}]")
    } else {
        t
    }
}

/// The reading in words: declared sets in brackets, then concealed sets and the pair.
pub fn reading_text(r: &Reading) -> String {
    let mut parts: Vec<String> = Vec::new();
    let name = match r.shape {
        Shape::Regular => None,
        Shape::SevenPairs => Some("seven pairs"),
        Shape::SevenShiftedPairs => Some("seven shifted pairs"),
        Shape::ThirteenOrphans => Some("thirteen orphans"),
        Shape::HonorsAndKnitted => Some("honours and knitted tiles"),
        Shape::KnittedStraight => Some("knitted straight"),
        Shape::NineGates => Some("nine gates"),
    };
    if let Some(n) = name {
        parts.push(format!("{n}:"));
    }
    if let Some(k) = r.knitted {
        if r.shape == Shape::KnittedStraight {
            parts.push(format_tiles(&k));
        }
    }
    for s in &r.sets {
        parts.push(set_text(s));
    }
    match r.shape {
        Shape::SevenPairs | Shape::SevenShiftedPairs => {
            for pair in r.tiles.chunks(2) {
                parts.push(format_tiles(pair));
            }
        }
        Shape::ThirteenOrphans | Shape::HonorsAndKnitted => parts.push(format_tiles(&r.tiles)),
        _ => {}
    }
    if let Some(p) = r.pair {
        if !r.sets.is_empty() || r.shape == Shape::KnittedStraight {
            parts.push(format!("pair {}", format_tiles(&[p, p])));
        }
    }
    parts.join(" ")
}

fn key(t: Tile) -> Key {
    Key {
        suit: t.suit().index() as u8,
        rank: t.rank(),
    }
}

/// Which part of the hand a fan rests on, in words.
pub fn uses(r: &Reading, fan: Fan, hand: &Hand) -> String {
    use Fan::*;
    let pungs = |pred: &dyn Fn(Tile) -> bool| -> String {
        let v: Vec<String> = r
            .sets
            .iter()
            .filter(|s| s.kind != SetKind::Chow && pred(s.tile))
            .map(set_text)
            .collect();
        v.join(" ")
    };
    let chows_in = |want: Fan, size: usize| -> String {
        let ch: Vec<&ReadSet> = r.sets.iter().filter(|s| s.kind == SetKind::Chow).collect();
        let mut used = vec![false; ch.len()];
        for i in 0..ch.len() {
            for j in i + 1..ch.len() {
                if size == 2 && combos::chow_pair(key(ch[i].tile), key(ch[j].tile)) == Some(want) {
                    used[i] = true;
                    used[j] = true;
                }
                for k in j + 1..ch.len() {
                    if size == 3
                        && combos::chow_triple(key(ch[i].tile), key(ch[j].tile), key(ch[k].tile))
                            == Some(want)
                    {
                        used[i] = true;
                        used[j] = true;
                        used[k] = true;
                    }
                }
            }
        }
        if size == 4 {
            return ch.iter().map(|s| set_text(s)).collect::<Vec<_>>().join(" ");
        }
        ch.iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(s, _)| set_text(s))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let pungs_in = |want: Fan, size: usize| -> String {
        let p: Vec<&ReadSet> = r
            .sets
            .iter()
            .filter(|s| s.kind != SetKind::Chow && s.tile.is_numbered())
            .collect();
        let mut used = vec![false; p.len()];
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                if size == 2 && combos::pung_pair(key(p[i].tile), key(p[j].tile)) == Some(want) {
                    used[i] = true;
                    used[j] = true;
                }
                for k in j + 1..p.len() {
                    if size == 3
                        && combos::pung_triple(key(p[i].tile), key(p[j].tile), key(p[k].tile))
                            == Some(want)
                    {
                        used[i] = true;
                        used[j] = true;
                        used[k] = true;
                    }
                }
            }
        }
        if size == 4 {
            return p.iter().map(|s| set_text(s)).collect::<Vec<_>>().join(" ");
        }
        p.iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(s, _)| set_text(s))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let seat = hand.ctx.seat_wind.tile();
    let prev = hand.ctx.prevalent_wind.tile();
    let win = hand.win_tile();
    let text = match fan {
        BigFourWinds | BigThreeWinds | LittleFourWinds => pungs(&|t| t.is_wind()),
        BigThreeDragons | LittleThreeDragons | TwoDragonsPungs | DragonPung => {
            pungs(&|t| t.is_dragon())
        }
        SeatWind => pungs(&|t| t == seat),
        PrevalentWind => pungs(&|t| t == prev),
        PungOfTerminalsOrHonors => pungs(&|t| t.is_terminal() || t.is_wind()),
        QuadrupleChow | FourPureShiftedChows | PureTerminalChows | ThreeSuitedTerminalChows => {
            chows_in(fan, 4)
        }
        PureTripleChow | PureShiftedChows | PureStraight | MixedStraight | MixedTripleChow
        | MixedShiftedChows => chows_in(fan, 3),
        PureDoubleChow | MixedDoubleChow | ShortStraight | TwoTerminalChows => chows_in(fan, 2),
        FourPureShiftedPungs => pungs_in(fan, 4),
        PureShiftedPungs | TriplePung | MixedShiftedPungs => pungs_in(fan, 3),
        DoublePung => pungs_in(fan, 2),
        FourKongs
        | ThreeKongs
        | TwoConcealedKongs
        | TwoMeldedKongs
        | ConcealedKongAndMeldedKong
        | ConcealedKong
        | MeldedKong => r
            .sets
            .iter()
            .filter(|s| s.kind == SetKind::Kong)
            .map(set_text)
            .collect::<Vec<_>>()
            .join(" "),
        FourConcealedPungs | ThreeConcealedPungs | TwoConcealedPungs => r
            .sets
            .iter()
            .filter(|s| s.kind != SetKind::Chow && s.concealed)
            .map(set_text)
            .collect::<Vec<_>>()
            .join(" "),
        TileHog => {
            let all = hand.all_counts();
            let v: Vec<String> = Tile::all()
                .filter(|t| {
                    all[t.index()] == 4
                        && !r
                            .sets
                            .iter()
                            .any(|s| s.kind == SetKind::Kong && s.tile == *t)
                })
                .map(|t| format_tiles(&[t; 4]))
                .collect();
            v.join(" ")
        }
        SingleWait => format!("pair {}", format_tiles(&[win, win])),
        EdgeWait
        | ClosedWait
        | LastTile
        | LastTileDraw
        | LastTileClaim
        | OutWithReplacementTile
        | RobbingTheKong
        | SelfDrawn => format!("winning tile {win}"),
        FlowerTiles => "flowers".into(),
        KnittedStraight => r.knitted.map(|k| format_tiles(&k)).unwrap_or_default(),
        _ => "whole hand".into(),
    };
    if text.is_empty() {
        "whole hand".into()
    } else {
        text
    }
}
