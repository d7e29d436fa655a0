//! The JSON Lines hand format of `tools/oracle/hands.py` (docs/hands.md), both ways.

use mcr::{Hand, Meld, Rules, Tile, WinContext, Wind};
use serde_json::{json, Map, Value};

fn tile_of(v: &Value, field: &str) -> Result<Tile, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("{field}: expected a tile string, got {v}"))?;
    Tile::parse(s)
        .or_else(|| {
            mcr::parse_tiles(s)
                .ok()
                .filter(|t| t.len() == 1)
                .map(|t| t[0])
        })
        .ok_or_else(|| format!("{field}: '{s}' is not a tile"))
}

fn tiles_of(v: &Value, field: &str) -> Result<Vec<Tile>, String> {
    match v {
        Value::String(s) => mcr::parse_tiles(s).map_err(|e| format!("{field}: {e}")),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| tile_of(x, &format!("{field}[{i}]")))
            .collect(),
        _ => Err(format!("{field}: expected a list of tiles")),
    }
}

fn wind_of(v: Option<&Value>, field: &str) -> Result<Wind, String> {
    match v {
        None | Some(Value::Null) => Ok(Wind::East),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(i @ 0..=3) => Ok(Wind::from_index(i as usize)),
            _ => Err(format!("{field}: wind number {n} must be 0-3")),
        },
        Some(Value::String(s)) => {
            Wind::parse(s).ok_or_else(|| format!("{field}: '{s}' is not a wind (E, S, W or N)"))
        }
        Some(other) => Err(format!("{field}: {other} is not a wind")),
    }
}

fn flag(o: &Map<String, Value>, k: &str) -> Result<bool, String> {
    match o.get(k) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(format!("{k}: expected true or false, got {v}")),
    }
}

fn meld_of(m: &Value, i: usize) -> Result<Meld, String> {
    let f = format!("melds[{i}]");
    let o = m
        .as_object()
        .ok_or_else(|| format!("{f}: expected an object"))?;
    let kind = o
        .get("kind")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{f}.kind: missing"))?;
    let tiles = match o.get("tiles") {
        Some(v) => Some(tiles_of(v, &format!("{f}.tiles"))?),
        None => None,
    };
    let tile = match (o.get("tile"), &tiles) {
        (Some(v), _) => tile_of(v, &format!("{f}.tile"))?,
        (None, Some(ts)) if !ts.is_empty() => *ts.iter().min().expect("non-empty"),
        _ => return Err(format!("{f}: needs 'tile' or 'tiles'")),
    };
    let from = match o.get("from") {
        None | Some(Value::Null) => 0,
        Some(v) => match v.as_u64() {
            Some(x @ 0..=3) => x as u8,
            _ => return Err(format!("{f}.from: {v} must be 0-3")),
        },
    };
    let concealed = flag(o, "concealed").map_err(|e| format!("{f}.{e}"))?;
    let meld = match kind {
        "chow" => {
            Meld::chow(tile, from).ok_or_else(|| format!("{f}: a chow cannot start at {tile}"))?
        }
        "pung" if concealed => {
            return Err(format!(
                "{f}: declared pungs are melded; put a concealed pung in 'hand'"
            ))
        }
        "pung" => Meld::pung(tile, from),
        "kong" if concealed => Meld::concealed_kong(tile),
        "kong" => Meld::melded_kong(tile, from),
        other => return Err(format!("{f}.kind: '{other}' is not chow, pung or kong")),
    };
    if let Some(ts) = tiles {
        let mut want: Vec<Tile> = meld.tiles().collect();
        let mut got = ts;
        want.sort();
        got.sort();
        if want != got {
            return Err(format!("{f}: tiles do not match a {kind} of {tile}"));
        }
    }
    Ok(meld)
}

/// Reads a hand object of the oracle format.
pub fn hand_from_json(v: &Value) -> Result<Hand, String> {
    let o = v.as_object().ok_or("expected a JSON object")?;
    let melds = match o.get("melds") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, m)| meld_of(m, i))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("melds: expected a list".into()),
    };
    let concealed = tiles_of(o.get("hand").ok_or("hand: missing")?, "hand")?;
    let win = tile_of(o.get("win_tile").ok_or("win_tile: missing")?, "win_tile")?;
    let flowers = match o.get("flowers") {
        None | Some(Value::Null) => 0,
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= 8)
            .ok_or_else(|| format!("flowers: {v} must be 0-8"))? as u8,
    };
    let ctx = WinContext {
        self_drawn: flag(o, "self_drawn")?,
        last_of_kind: flag(o, "fourth_tile")?,
        kong: flag(o, "kong_related")?,
        last_tile: flag(o, "last_tile")?,
        seat_wind: wind_of(o.get("seat_wind"), "seat_wind")?,
        prevalent_wind: wind_of(o.get("prevalent_wind"), "prevalent_wind")?,
        flowers,
    };
    Hand::new(melds, concealed, win, ctx).map_err(|e| e.to_string())
}

/// Scores one JSON line and returns the object with `fans` and `total`, or `error`.
pub fn score_line(line: &str, rules: &Rules) -> Value {
    let mut v: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({ "error": format!("bad JSON: {e}") }),
    };
    let result = hand_from_json(&v).and_then(|h| mcr::score(&h, rules).map_err(|e| e.to_string()));
    let Some(o) = v.as_object_mut() else {
        return json!({ "error": "expected a JSON object" });
    };
    match result {
        Ok(s) => {
            let fans: Vec<Value> = s
                .fans
                .iter()
                .map(|l| json!({"no": l.fan.number(), "name": l.fan.name(), "points": l.points, "count": l.count}))
                .collect();
            o.insert("fans".into(), Value::Array(fans));
            o.insert("total".into(), json!(s.total));
        }
        Err(e) => {
            o.insert("error".into(), Value::String(e));
        }
    }
    v
}
