//! A drop-in for the reference calculator's Python binding (`MahjongGB`): the same seven
//! functions, argument names and order, results and `TypeError` codes, scored under the
//! `reference` fan profile. `dupmj.mahjonggb` re-exports them, so bot code switches by
//! changing one import.

use mcr::tile::{Counts, KINDS};
use mcr::wait::{
    shanten_honors_knitted, shanten_knitted_straight, shanten_regular, shanten_seven_pairs,
    shanten_thirteen_orphans,
};
use mcr::{Fan, Hand, HandError, Meld, Rules, Tile, WinContext, Wind};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

fn type_error(code: &str) -> PyErr {
    PyTypeError::new_err(code.to_string())
}

/// Tile codes of the binding: W1–W9, T1–T9, B1–B9, F1–F4, J1–J3.
fn code(s: &str) -> PyResult<Tile> {
    // The binding's own spelling of this error code.
    Tile::from_bot_code(s).ok_or_else(|| type_error("ERROE_WRONG_TILE_CODE"))
}

fn hand_tiles(hand: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
    let t = hand
        .cast::<PyTuple>()
        .map_err(|_| type_error("Param `hand` must be a tuple!"))?;
    t.iter()
        .map(|x| {
            let s = x
                .cast::<PyString>()
                .map_err(|_| type_error("Param `hand` must be a tuple of strs!"))?;
            code(&s.to_cow()?)
        })
        .collect()
}

fn packs(pack: &Bound<'_, PyAny>) -> PyResult<Vec<Meld>> {
    let t = pack
        .cast::<PyTuple>()
        .map_err(|_| type_error("Param `pack` must be a tuple!"))?;
    let mut out = Vec::new();
    for p in t.iter() {
        if p.cast::<PyTuple>().is_err() {
            return Err(type_error("Param `pack` must be a tuple of tuples!"));
        }
        let (kind, tile, offer): (String, String, i64) = p.extract()?;
        let tile = code(&tile)?;
        if !(0..4).contains(&offer) {
            return Err(type_error("ERROE_WRONG_OFFER_CODE"));
        }
        let offer = offer as u8;
        let meld = match kind.as_str() {
            "PENG" => Meld::pung(tile, offer),
            "GANG" if offer == 0 => Meld::concealed_kong(tile),
            "GANG" => Meld::melded_kong(tile, offer),
            // The binding names a chow by its middle tile.
            "CHI" => tile
                .offset(-1)
                .and_then(|low| Meld::chow(low, offer))
                .ok_or_else(|| type_error("ERROR_WRONG_TILES_COUNT"))?,
            _ => return Err(type_error("ERROE_WRONG_PACK_CODE")),
        };
        out.push(meld);
    }
    Ok(out)
}

fn wind(n: i64) -> PyResult<Wind> {
    if (0..4).contains(&n) {
        Ok(Wind::from_index(n as usize))
    } else {
        Err(type_error("ERROR_WRONG_WIND"))
    }
}

/// The binding's Chinese name of a fan: its three wait fans are "unique wait" names.
fn chinese(f: Fan) -> &'static str {
    match f {
        Fan::EdgeWait => "独听・边张",
        Fan::ClosedWait => "独听・嵌张",
        Fan::SingleWait => "独听・单钓",
        _ => f.chinese(),
    }
}

fn error_code(e: &HandError) -> &'static str {
    match e {
        HandError::NotWinning => "ERROR_NOT_WIN",
        HandError::TooManyCopies { .. } => "ERROR_TILE_COUNT_GREATER_THAN_4",
        _ => "ERROR_WRONG_TILES_COUNT",
    }
}

/// Fans of a winning hand, as the reference binding returns them: `((points × count,
/// Chinese name), …)`, or with `verbose` `((points, count, Chinese name, English name), …)`.
#[pyfunction]
#[pyo3(name = "MahjongFanCalculator", signature = (pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong,
    isWallLast, seatWind, prevalentWind, verbose = false))]
#[allow(non_snake_case, clippy::too_many_arguments)]
fn fan_calculator<'py>(
    py: Python<'py>,
    pack: &Bound<'py, PyAny>,
    hand: &Bound<'py, PyAny>,
    winTile: &str,
    flowerCount: i64,
    isSelfDrawn: bool,
    is4thTile: bool,
    isAboutKong: bool,
    isWallLast: bool,
    seatWind: i64,
    prevalentWind: i64,
    verbose: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let melds = packs(pack)?;
    let standing = hand_tiles(hand)?;
    let win = code(winTile)?;
    let ctx = WinContext {
        self_drawn: isSelfDrawn,
        last_of_kind: is4thTile,
        kong: isAboutKong,
        last_tile: isWallLast,
        seat_wind: wind(seatWind)?,
        prevalent_wind: wind(prevalentWind)?,
        flowers: flowerCount.clamp(0, 8) as u8,
    };
    let h = Hand::new(melds, standing, win, ctx).map_err(|e| type_error(error_code(&e)))?;
    let s = mcr::score(&h, &reference()).map_err(|e| type_error(error_code(&e)))?;
    if verbose {
        let items: Vec<(u32, u32, &str, &str)> = s
            .fans
            .iter()
            .map(|l| (l.points, l.count, chinese(l.fan), l.fan.name()))
            .collect();
        PyTuple::new(py, items)
    } else {
        let items: Vec<(u32, &str)> = s
            .fans
            .iter()
            .map(|l| (l.points * l.count, chinese(l.fan)))
            .collect();
        PyTuple::new(py, items)
    }
}

fn reference() -> Rules {
    thread_local! {
        static REFERENCE: Rules = Rules::reference();
    }
    REFERENCE.with(|r| r.clone())
}

/// Shanten of standing tiles with declared sets: the least over every shape.
#[pyfunction]
#[pyo3(name = "MahjongShanten")]
#[allow(non_snake_case)]
fn mahjong_shanten(pack: &Bound<'_, PyAny>, hand: &Bound<'_, PyAny>) -> PyResult<i32> {
    let melds = packs(pack)?;
    let standing = hand_tiles(hand)?;
    if standing.len() % 3 != 1 || standing.len() > 13 {
        return Err(type_error("ERROR_INVALID_HAND_OR_PACK"));
    }
    Ok(mcr::shanten(&standing, &melds).min())
}

fn counts(tiles: &[Tile]) -> Counts {
    let mut c = [0u8; KINDS];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

/// A shape's shanten of `c` and the tile kinds that lower it when drawn (the best tile
/// then discarded); `skip_full` leaves out kinds already held four times.
fn with_useful(
    py: Python<'_>,
    c: &Counts,
    f: impl Fn(&Counts) -> i32,
    skip_full: bool,
) -> PyResult<Py<PyTuple>> {
    let now = f(c);
    let mut useful = Vec::new();
    for k in 0..KINDS {
        if skip_full && c[k] >= 4 {
            continue;
        }
        let mut d = *c;
        d[k] += 1;
        let best = (0..KINDS)
            .filter(|&j| d[j] > 0 && j != k)
            .map(|j| {
                let mut e = d;
                e[j] -= 1;
                f(&e)
            })
            .min()
            .unwrap_or(now);
        if best < now {
            useful.push(Tile::from_index(k).expect("a kind").bot_code());
        }
    }
    let useful = PyTuple::new(py, useful)?;
    Ok(PyTuple::new(py, [now.into_pyobject(py)?.into_any(), useful.into_any()])?.unbind())
}

fn shape_shanten(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    sizes: &[usize],
    f: impl Fn(&Counts, usize) -> i32,
    skip_full: bool,
) -> PyResult<Py<PyTuple>> {
    let tiles = hand_tiles(hand)?;
    if !sizes.contains(&tiles.len()) {
        return Err(type_error("ERROR_INVALID_HAND"));
    }
    let melds = (13 - tiles.len()) / 3;
    let c = counts(&tiles);
    if c.iter().any(|&n| n > 4) {
        return Err(type_error("ERROR_INVALID_HAND"));
    }
    with_useful(py, &c, |x| f(x, melds), skip_full)
}

/// Thirteen orphans: `(shanten, useful tiles)` of 13 tiles.
#[pyfunction]
#[pyo3(name = "ThirteenOrphansShanten")]
#[allow(non_snake_case)]
fn thirteen_orphans(py: Python<'_>, hand: &Bound<'_, PyAny>) -> PyResult<Py<PyTuple>> {
    shape_shanten(py, hand, &[13], |c, _| shanten_thirteen_orphans(c), true)
}

/// Seven pairs: `(shanten, useful tiles)` of 13 tiles.
#[pyfunction]
#[pyo3(name = "SevenPairsShanten")]
#[allow(non_snake_case)]
fn seven_pairs(py: Python<'_>, hand: &Bound<'_, PyAny>) -> PyResult<Py<PyTuple>> {
    shape_shanten(py, hand, &[13], |c, _| shanten_seven_pairs(c), true)
}

/// Honours and knitted tiles: `(shanten, useful tiles)` of 13 tiles.
#[pyfunction]
#[pyo3(name = "HonorsAndKnittedTilesShanten")]
#[allow(non_snake_case)]
fn honors_and_knitted(py: Python<'_>, hand: &Bound<'_, PyAny>) -> PyResult<Py<PyTuple>> {
    shape_shanten(py, hand, &[13], |c, _| shanten_honors_knitted(c), true)
}

/// Knitted straight: `(shanten, useful tiles)` of 10 or 13 tiles.
#[pyfunction]
#[pyo3(name = "KnittedStraightShanten")]
#[allow(non_snake_case)]
fn knitted_straight(py: Python<'_>, hand: &Bound<'_, PyAny>) -> PyResult<Py<PyTuple>> {
    shape_shanten(py, hand, &[10, 13], shanten_knitted_straight, false)
}

/// Four sets and a pair: `(shanten, useful tiles)` of 1, 4, 7, 10 or 13 tiles.
#[pyfunction]
#[pyo3(name = "RegularShanten")]
#[allow(non_snake_case)]
fn regular(py: Python<'_>, hand: &Bound<'_, PyAny>) -> PyResult<Py<PyTuple>> {
    shape_shanten(py, hand, &[1, 4, 7, 10, 13], shanten_regular, true)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fan_calculator, m)?)?;
    m.add_function(wrap_pyfunction!(mahjong_shanten, m)?)?;
    m.add_function(wrap_pyfunction!(thirteen_orphans, m)?)?;
    m.add_function(wrap_pyfunction!(seven_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(honors_and_knitted, m)?)?;
    m.add_function(wrap_pyfunction!(knitted_straight, m)?)?;
    m.add_function(wrap_pyfunction!(regular, m)?)?;
    Ok(())
}
