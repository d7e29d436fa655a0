//! Scoring one reading of four sets and a pair (or a knitted straight, a set and a
//! pair): the fans of the sets, of the pair and of how the hand was won.

use super::*;

pub(super) fn key(t: Tile) -> Key {
    Key {
        suit: t.suit().index() as u8,
        rank: t.rank(),
    }
}

/// Fans that depend only on how the hand was won (and its concealment).
/// `fully_concealed`: whether a concealed self-drawn win scores Fully Concealed Hand here
/// (otherwise Self-Drawn), which some profiles deny to some shapes.
pub(super) fn win_fans(f: &Facts, t: &mut Tally, fully_concealed: bool) {
    let ctx = &f.hand.ctx;
    if f.claimed == 0 {
        if ctx.self_drawn {
            if fully_concealed {
                add(t, Fan::FullyConcealedHand);
            } else {
                add(t, Fan::SelfDrawn);
            }
        } else {
            add(t, Fan::ConcealedHand);
        }
    } else if ctx.self_drawn {
        add(t, Fan::SelfDrawn);
    } else if f.claimed == 4 {
        add(t, Fan::MeldedHand);
    }
    if ctx.last_tile {
        add(
            t,
            if ctx.self_drawn {
                Fan::LastTileDraw
            } else {
                Fan::LastTileClaim
            },
        );
    }
    if ctx.kong {
        add(
            t,
            if ctx.self_drawn {
                Fan::OutWithReplacementTile
            } else {
                Fan::RobbingTheKong
            },
        );
    }
    if f.last_of_kind {
        add(t, Fan::LastTile);
    }
}

pub(super) fn finish(f: &Facts, t: &mut Tally) {
    apply_exclusions(t, f.rules);
    let flowers = f.hand.ctx.flowers;
    if t.mask() == 0 {
        add(t, Fan::ChickenHand);
    }
    t.set(Fan::FlowerTiles, flowers);
}

/// Scores one reading of four sets and a pair (or a knitted straight, a set and a pair).
pub(super) fn eval_sets(
    f: &Facts,
    sets: &mut [Set],
    pair: Tile,
    knit: Option<usize>,
    nine_gates: bool,
) -> Tally {
    let mut t = f.traits;
    let ctx = &f.hand.ctx;
    let win = f.win;

    // A won discard that completes a concealed pung makes it exposed, unless the tile
    // can be read into a concealed chow or the pair of this reading.
    if !ctx.self_drawn {
        let elsewhere = pair == win
            || sets.iter().any(|s| {
                !s.declared
                    && s.kind == SetKind::Chow
                    && win.index().wrapping_sub(s.tile.index()) < 3
            })
            || knit.is_some_and(|k| shape::knitted_tiles(k).contains(&win));
        if !elsewhere {
            for s in sets.iter_mut() {
                if !s.declared && s.kind == SetKind::Pung && s.tile == win {
                    s.concealed = false;
                }
            }
        }
    }

    let mut chows = [Key { suit: 0, rank: 0 }; 4];
    let mut nchow = 0;
    let mut pungs = [Key { suit: 0, rank: 0 }; 4];
    let mut npung_num = 0;
    let (mut npung, mut conc_pungs, mut ckong, mut mkong) = (0, 0, 0, 0);
    let (mut wind_mask, mut ndragon, mut term_pungs) = (0u8, 0, 0);
    let (mut outside, mut fives) = (knit.is_none(), knit.is_none());
    for s in sets.iter() {
        let tl = s.tile;
        match s.kind {
            SetKind::Chow => {
                chows[nchow] = key(tl);
                nchow += 1;
                outside &= tl.rank() == 1 || tl.rank() == 7;
                fives &= (3..=5).contains(&tl.rank());
            }
            SetKind::Pung | SetKind::Kong => {
                npung += 1;
                if s.concealed {
                    conc_pungs += 1;
                }
                if s.kind == SetKind::Kong {
                    if s.concealed {
                        ckong += 1;
                    } else {
                        mkong += 1;
                    }
                }
                outside &= tl.is_terminal_or_honor();
                fives &= tl.rank() == 5;
                if tl.is_numbered() {
                    pungs[npung_num] = key(tl);
                    npung_num += 1;
                    if tl.is_terminal() {
                        term_pungs += 1;
                    }
                } else if let Some(w) = tl.wind() {
                    wind_mask |= 1 << w.index();
                } else {
                    ndragon += 1;
                }
            }
        }
    }
    outside &= pair.is_terminal_or_honor();
    fives &= pair.rank() == 5;

    // Dragons and winds.
    match ndragon {
        3 => add(&mut t, Fan::BigThreeDragons),
        2 => {
            add(&mut t, Fan::TwoDragonsPungs);
            if pair.is_dragon() {
                add(&mut t, Fan::LittleThreeDragons);
            }
        }
        1 => add(&mut t, Fan::DragonPung),
        _ => {}
    }
    let nwind = wind_mask.count_ones();
    let mut wind_poth = nwind;
    match nwind {
        4 => {
            add(&mut t, Fan::BigFourWinds);
            wind_poth = 0;
        }
        3 => {
            // The three wind pungs are implied in Big Three Winds (and Little Four Winds).
            add(&mut t, Fan::BigThreeWinds);
            wind_poth = 0;
            if pair.is_wind() {
                add(&mut t, Fan::LittleFourWinds);
            }
        }
        _ => {}
    }
    let seat = ctx.seat_wind.index();
    let prev = ctx.prevalent_wind.index();
    let seat_p = wind_mask & (1 << seat) != 0;
    let prev_p = wind_mask & (1 << prev) != 0;
    if nwind < 4 {
        if seat_p {
            add(&mut t, Fan::SeatWind);
        }
        if prev_p {
            add(&mut t, Fan::PrevalentWind);
        }
        if !f.rules.wind_pung_also_terminal_pung && wind_poth > 0 {
            let mut named = wind_mask & ((1 << seat) | (1 << prev));
            while named != 0 && wind_poth > 0 {
                named &= named - 1;
                wind_poth -= 1;
            }
        }
    }
    let mut poth = term_pungs + wind_poth;
    if nine_gates && poth > 0 {
        poth = if f.rules.nine_gates_excludes_all_terminal_pungs {
            0
        } else {
            poth - 1
        };
    }
    t.set(Fan::PungOfTerminalsOrHonors, poth as u8);

    // Combinations of chows and of pungs.
    let value = |x: Fan| f.value(x);
    let pair_key = pair.is_numbered().then(|| key(pair));
    combos::chow_fans(&chows[..nchow], pair_key, &value, &mut |x| add(&mut t, x));
    combos::pung_fans(&pungs[..npung_num], &value, &mut |x| add(&mut t, x));

    if npung == 4 {
        add(&mut t, Fan::AllPungs);
    }
    let even = sets
        .iter()
        .all(|s| s.kind != SetKind::Chow && s.tile.is_numbered() && s.tile.rank() % 2 == 0);
    if npung == 4 && even && pair.is_numbered() && pair.rank().is_multiple_of(2) {
        add(&mut t, Fan::AllEvenPungs);
    }
    let knit_chows = if knit.is_some() { 3 } else { 0 };
    if nchow + knit_chows == 4 && pair.is_numbered() {
        add(&mut t, Fan::AllChows);
    }
    if outside {
        add(&mut t, Fan::OutsideHand);
    }
    if fives {
        add(&mut t, Fan::AllFive);
    }
    match conc_pungs {
        4 => add(&mut t, Fan::FourConcealedPungs),
        3 => add(&mut t, Fan::ThreeConcealedPungs),
        2 => add(&mut t, Fan::TwoConcealedPungs),
        _ => {}
    }
    match (ckong + mkong, ckong) {
        (4, _) => add(&mut t, Fan::FourKongs),
        (3, _) => add(&mut t, Fan::ThreeKongs),
        (2, 2) => add(&mut t, Fan::TwoConcealedKongs),
        (2, 0) => add(&mut t, Fan::TwoMeldedKongs),
        (2, _) => {
            if f.rules.concealed_and_melded_kong_fan {
                add(&mut t, Fan::ConcealedKongAndMeldedKong);
            } else {
                add(&mut t, Fan::ConcealedKong);
                add(&mut t, Fan::MeldedKong);
            }
        }
        (1, 1) => add(&mut t, Fan::ConcealedKong),
        (1, _) => add(&mut t, Fan::MeldedKong),
        _ => {}
    }
    // Tile Hog: four of a kind not declared as a kong.
    let mut hogs = 0;
    let mut quads = f.quads;
    while quads != 0 {
        let i = quads.trailing_zeros() as usize;
        quads &= quads - 1;
        if !sets
            .iter()
            .any(|s| s.kind == SetKind::Kong && s.tile.index() == i)
        {
            hogs += 1;
        }
    }
    t.set(Fan::TileHog, hogs);

    let fc = (!nine_gates || f.rules.special_shapes_fully_concealed)
        && (conc_pungs < 4 || f.rules.four_concealed_pungs_fully_concealed);
    win_fans(f, &mut t, fc);

    // Edge, closed or single wait: only when the hand waits on this tile alone.
    if !nine_gates {
        let no_single = t.has(Fan::MeldedHand) || t.has(Fan::FourKongs);
        let no_chow_wait = knit.is_some() && !f.rules.knitted_straight_edge_closed;
        let mut wait: Option<Fan> = None;
        if !no_chow_wait {
            for s in sets.iter() {
                if s.declared || s.kind != SetKind::Chow {
                    continue;
                }
                // A chow's tiles are its lowest and the next two of the same suit.
                let at = win.index().wrapping_sub(s.tile.index());
                if at == 1 {
                    wait = Some(Fan::ClosedWait);
                } else if (at == 0 && win.rank() == 7) || (at == 2 && win.rank() == 3) {
                    wait = wait.or(Some(Fan::EdgeWait));
                }
            }
        }
        if wait.is_none() && pair == win && !no_single {
            wait = Some(Fan::SingleWait);
        }
        if let Some(w) = wait {
            if f.unique_wait() {
                add(&mut t, w);
            }
        }
    }
    if nine_gates {
        add(&mut t, Fan::NineGates);
    }
    if knit.is_some() {
        add(&mut t, Fan::KnittedStraight);
    }
    finish(f, &mut t);
    t
}
