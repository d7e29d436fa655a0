//! The rules for Python: scoring a hand from the notation or from tile lists, shanten,
//! waits, the fan table, and deals.

use mcr::notation::{parse_flags, parse_hand_text, parse_tiles};
use mcr::{Fan, Hand, Meld, Rules, Scoring, Tile, WinContext, Wind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::value_error;

/// A fan profile by name.
pub(crate) fn profile(name: &str) -> PyResult<Rules> {
    Rules::by_name(name).ok_or_else(|| {
        value_error(format!(
            "fans: no fan profile called '{name}' (choose seeds or reference)"
        ))
    })
}

/// One tile in the notation (`5m`, `E`) or as a bot code (`W5`, `F1`); `field` names it in
/// errors.
pub(crate) fn tile(s: &str, field: &str) -> PyResult<Tile> {
    match parse_tiles(s) {
        Ok(t) if t.len() == 1 => Ok(t[0]),
        Ok(t) => Err(value_error(format!(
            "{field}: '{s}' is {} tiles, expected one",
            t.len()
        ))),
        Err(e) => Err(value_error(format!("{field}: '{s}' is not a tile ({e})"))),
    }
}

/// Tiles from a string of the notation or a list of single tiles.
pub(crate) fn tiles(v: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Tile>> {
    if let Ok(s) = v.extract::<String>() {
        return parse_tiles(&s).map_err(|e| value_error(format!("{field}: {e}")));
    }
    let items: Vec<String> = v
        .extract()
        .map_err(|_| value_error(format!("{field}: a string of tiles or a list of tiles")))?;
    items
        .iter()
        .enumerate()
        .map(|(i, s)| tile(s, &format!("{field}[{i}]")))
        .collect()
}

fn wind(s: &str, field: &str) -> PyResult<Wind> {
    Wind::parse(s).ok_or_else(|| value_error(format!("{field}: '{s}' is not a wind (E, S, W, N)")))
}

/// The winds and flowers of a hand, with no win flags.
fn seating(seat_wind: &str, prevalent_wind: &str, flowers: u8) -> PyResult<WinContext> {
    Ok(WinContext {
        seat_wind: wind(seat_wind, "seat_wind")?,
        prevalent_wind: wind(prevalent_wind, "prevalent_wind")?,
        flowers,
        ..WinContext::default()
    })
}

/// Declared sets as `(kind, tile, from)` tuples: `chow` (its lowest tile; `from` = which
/// of its tiles was claimed, 1–3), `pung` and `kong` (`from` = 1 previous, 2 opposite, 3 next
/// seat), `concealed_kong`.
pub(crate) fn melds(v: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Meld>> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let items: Vec<Bound<'_, PyAny>> = v
        .extract()
        .map_err(|_| value_error("melds: a list of (kind, tile, from) tuples"))?;
    let mut out = Vec::new();
    for (i, m) in items.iter().enumerate() {
        let field = format!("melds[{i}]");
        let (kind, t, from): (String, String, u8) = match m.extract::<(String, String, u8)>() {
            Ok(x) => x,
            Err(_) => {
                let (k, t): (String, String) = m
                    .extract()
                    .map_err(|_| value_error(format!("{field}: expected (kind, tile, from)")))?;
                (k, t, 1)
            }
        };
        let t = tile(&t, &format!("{field} tile"))?;
        let meld = match kind.as_str() {
            "chow" => Meld::chow(t, from)
                .ok_or_else(|| value_error(format!("{field}: no chow starts at {t}")))?,
            "pung" => Meld::pung(t, from),
            "kong" => Meld::melded_kong(t, from),
            "concealed_kong" => Meld::concealed_kong(t),
            k => {
                return Err(value_error(format!(
                    "{field}: '{k}' is not a kind of set (chow, pung, kong, concealed_kong)"
                )))
            }
        };
        meld.check()
            .map_err(|e| value_error(format!("{field}: {e}")))?;
        out.push(meld);
    }
    Ok(out)
}

/// A scoring as a dict: total, fans (number, name, chinese, points, count), reading.
pub(crate) fn scoring_dict<'py>(
    py: Python<'py>,
    s: &Scoring,
    rules: &Rules,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("total", s.total)?;
    let fans = PyList::empty(py);
    for l in &s.fans {
        let f = PyDict::new(py);
        f.set_item("number", l.fan.number())?;
        f.set_item("name", l.fan.name())?;
        f.set_item("chinese", l.fan.chinese())?;
        f.set_item("points", l.points)?;
        f.set_item("count", l.count)?;
        fans.append(f)?;
    }
    d.set_item("fans", fans)?;
    d.set_item("reading", mcr::explain::reading_text(&s.reading))?;
    d.set_item("reaches_minimum", s.reaches_minimum(rules))?;
    Ok(d)
}

/// Scores a hand in the notation (`[123m3][555p2][EEEE]789sPP`, the last tile the winning
/// one) with flags (`self fourth kong last seat=S wind=E flowers=2`).
#[pyfunction]
#[pyo3(signature = (hand, flags = "", fans = "seeds"))]
fn score<'py>(
    py: Python<'py>,
    hand: &str,
    flags: &str,
    fans: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = profile(fans)?;
    let ctx = parse_flags(flags).map_err(|e| value_error(format!("flags: {e}")))?;
    let h = parse_hand_text(hand).map_err(|e| value_error(format!("hand: {e}")))?;
    let hand = Hand::new(h.melds, h.concealed, h.win, ctx)
        .map_err(|e| value_error(format!("hand: {e}")))?;
    let s = mcr::score(&hand, &rules).map_err(|e| value_error(format!("hand: {e}")))?;
    scoring_dict(py, &s, &rules)
}

/// Scores a hand given as lists: the concealed tiles before the win, the winning tile,
/// the declared sets and the circumstances of the win.
#[pyfunction]
#[pyo3(signature = (hand, win_tile, melds = None, *, self_drawn = false, fourth_tile = false,
    kong = false, last_tile = false, seat_wind = "E", prevalent_wind = "E", flowers = 0,
    fans = "seeds"))]
#[allow(clippy::too_many_arguments)]
fn score_tiles<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    win_tile: &str,
    melds: Option<&Bound<'py, PyAny>>,
    self_drawn: bool,
    fourth_tile: bool,
    kong: bool,
    last_tile: bool,
    seat_wind: &str,
    prevalent_wind: &str,
    flowers: u8,
    fans: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = profile(fans)?;
    let ctx = WinContext {
        self_drawn,
        last_of_kind: fourth_tile,
        kong,
        last_tile,
        ..seating(seat_wind, prevalent_wind, flowers)?
    };
    let hand = Hand::new(
        self::melds(melds)?,
        tiles(hand, "hand")?,
        tile(win_tile, "win_tile")?,
        ctx,
    )
    .map_err(|e| value_error(format!("hand: {e}")))?;
    let s = mcr::score(&hand, &rules).map_err(|e| value_error(format!("hand: {e}")))?;
    scoring_dict(py, &s, &rules)
}

/// Shanten by shape and overall (−1 complete, 0 ready) of standing tiles with `melds`
/// declared sets.
#[pyfunction]
#[pyo3(signature = (tiles, melds = 0))]
fn shanten<'py>(
    py: Python<'py>,
    tiles: &Bound<'py, PyAny>,
    melds: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let t = self::tiles(tiles, "tiles")?;
    if melds > 4 || t.len() + 3 * melds > 14 || t.is_empty() {
        return Err(value_error(format!(
            "tiles: {} tiles with {melds} declared sets; a hand has 13 or 14 tiles with at most 4 sets",
            t.len()
        )));
    }
    let fake: Vec<Meld> = (0..melds).map(|_| Meld::pung(Tile::EAST, 1)).collect();
    let s = mcr::shanten(&t, &fake);
    let d = PyDict::new(py);
    d.set_item("shanten", s.min())?;
    d.set_item("regular", s.regular)?;
    d.set_item("seven_pairs", s.seven_pairs)?;
    d.set_item("thirteen_orphans", s.thirteen_orphans)?;
    d.set_item("honors_knitted", s.honors_knitted)?;
    d.set_item("knitted_straight", s.knitted_straight)?;
    Ok(d)
}

/// Shanten and, for a ready hand, every winning tile with what it would score.
#[pyfunction]
#[pyo3(signature = (tiles, melds = None, *, seat_wind = "E", prevalent_wind = "E", flowers = 0,
    fans = "seeds"))]
fn waits<'py>(
    py: Python<'py>,
    tiles: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    seat_wind: &str,
    prevalent_wind: &str,
    flowers: u8,
    fans: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = profile(fans)?;
    let ctx = seating(seat_wind, prevalent_wind, flowers)?;
    let (s, w) = mcr::waits(
        &self::tiles(tiles, "tiles")?,
        &self::melds(melds)?,
        ctx,
        &rules,
    )
    .map_err(|e| value_error(format!("tiles: {e}")))?;
    let d = PyDict::new(py);
    d.set_item("shanten", s.min())?;
    let list = PyList::empty(py);
    for x in w {
        let e = PyDict::new(py);
        e.set_item("tile", x.tile.code())?;
        e.set_item("self_drawn", x.self_drawn)?;
        e.set_item("discard", x.discard)?;
        e.set_item("self_drawn_ok", x.self_drawn_ok)?;
        e.set_item("discard_ok", x.discard_ok)?;
        list.append(e)?;
    }
    d.set_item("waits", list)?;
    Ok(d)
}

/// The fan table of a profile: (number, English name, Chinese name, points).
#[pyfunction]
#[pyo3(signature = (fans = "seeds"))]
fn fan_table(fans: &str) -> PyResult<Vec<(u8, &'static str, &'static str, u8)>> {
    let rules = profile(fans)?;
    Ok((1..=82)
        .filter_map(Fan::from_number)
        .map(|f| (f.number(), f.name(), f.chinese(), rules.points(f)))
        .collect())
}

/// The duplicate deal of a seed, as JSON text (`{"version":1,"seed":…,"seats":…}`).
#[pyfunction]
fn deal_json(seed: u64) -> String {
    table::Deal::generate(seed).to_json().to_string()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(shanten, m)?)?;
    m.add_function(wrap_pyfunction!(waits, m)?)?;
    m.add_function(wrap_pyfunction!(fan_table, m)?)?;
    m.add_function(wrap_pyfunction!(deal_json, m)?)?;
    Ok(())
}
