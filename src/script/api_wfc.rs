//! `wfc` for scripts: `wfc.fill(map, region, opts, rng)` binds the wave
//! function collapse fill of [`crate::ops::wfc`], reading and checking its
//! options, and charging its work and memory to the run as it goes.

use mlua::{Lua, MultiValue, Table, Value};

use super::api_map::{read_legend, read_rows_from, LuaMap};
use super::api_rng::RngArg;
use super::api_selection::SelectionArg;
use super::args::{show, tile_named, whole_integer, Args};
use super::budget::{self, Reservation};
use super::cost;
use crate::map::{Map, Tile};
use crate::ops::wfc::{self, Charge, Context, Sample, Stopped, WfcError, WfcOptions};
use crate::ops::Selection;

const NAME: &str = "wfc.fill";

/// The options `wfc.fill` reads.
const OPTIONS: &[&str] = &[
    "sample",
    "legend",
    "n",
    "symmetry",
    "border",
    "connected",
    "path",
    "counts",
    "attempts",
    "backtracks",
    "context",
];

/// The most backtracks an attempt may be allowed.
const MAX_BACKTRACKS: i64 = 1_000_000;

/// Registers the global `wfc` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let wfc = lua.create_table()?;
    wfc.set("fill", lua.create_function(fill)?)?;
    lua.globals().set("wfc", wfc)
}

fn fill(lua: &Lua, values: MultiValue) -> mlua::Result<(Value, Value)> {
    let a = Args::new(lua, NAME, values);
    a.charge(cost::CALL_UNITS)?;
    let ud = match a.value(0) {
        Value::UserData(ud) => ud.clone(),
        _ => return Err(a.bad("map", "the map", 0)),
    };
    let Ok(this) = ud.borrow::<LuaMap>() else {
        return Err(a.bad("map", "the map", 0));
    };
    let (w, h) = {
        let map = this.map(lua)?;
        (map.width(), map.height())
    };
    let a = a.on_map(w, h);
    let (region, rng, sample, opts, _held) = {
        let mut map = this.map_mut(lua)?;
        // The arguments in their order, before what the options hold: a
        // call with the rng second names the region, not a missing rng.
        let region = read_region(lua, &a, &map)?;
        let Some(t) = a.options(2)? else {
            return Err(a.bad("options", "a table with sample = rows", 2));
        };
        let rng = a.rng(3)?;
        a.only_options(&t, OPTIONS)?;
        let (sample, held) = read_sample(&a, &t, &mut map)?;
        let opts = read_options(&a, &t, &mut map)?;
        (region, rng, sample, opts, held)
    };
    let mut held = Reservation::none();
    let mut stop: Option<mlua::Error> = None;
    let outcome = this.write_step(lua, &a, NAME, |map| {
        let mut rng = rng.borrow_mut();
        let mut report = |charge: Charge| -> Result<(), Stopped> {
            let done = match charge {
                Charge::Work(units) => budget::charge(lua, NAME, units),
                Charge::Memory(bytes) => held.resize(lua, NAME, bytes),
            };
            done.map_err(|e| {
                stop = Some(e);
                Stopped
            })
        };
        Ok(wfc::fill(
            map,
            &region,
            &sample,
            &opts,
            &mut rng,
            &mut report,
        ))
    })?;
    match outcome {
        Ok(Ok(())) => Ok((Value::Boolean(true), Value::Nil)),
        Ok(Err(reason)) => Ok((Value::Nil, Value::String(lua.create_string(&reason)?))),
        Err(WfcError::Invalid(message)) => Err(a.fail(message)),
        Err(WfcError::Stopped) => Err(stop.unwrap_or_else(|| a.fail("stopped"))),
    }
}

/// The region: a selection of this map, or a Rect on it.
fn read_region(lua: &Lua, a: &Args, map: &Map) -> mlua::Result<Selection> {
    if let Some(rect) = super::raw::rect::rect_of(lua, a.value(1)) {
        a.charge(cost::written(cost::rect_cells(map, &rect)))?;
        return Selection::of_rect(map, &rect).map_err(|e| a.map_failed(e));
    }
    let sel = match a.value(1) {
        Value::UserData(_) => a.selection(1, "region")?,
        _ => return Err(a.bad("region", "a selection or a Rect", 1)),
    };
    if (sel.width(), sel.height()) != (map.width(), map.height()) {
        return Err(a.fail(format!(
            "region is a selection of a {}x{} map, not of this one",
            sel.width(),
            sel.height()
        )));
    }
    a.charge(cost::visited(sel.count() as u64))?;
    Ok(sel.0.clone())
}

/// `sample` (rows) and `legend` as tiles: each character is its legend
/// entry's tile, or the kind drawn with that glyph.
fn read_sample(a: &Args, t: &Table, map: &mut Map) -> mlua::Result<(Sample, Reservation)> {
    let list = match t.get::<Value>("sample")? {
        Value::Table(list) => list,
        other => {
            return Err(a.fail(format!(
                "sample must be a list of rows (strings), got {}",
                show(&other)
            )))
        }
    };
    let (rows, mut held) = read_rows_from(a, &list, map, "sample")?;
    let legend = match t.get::<Value>("legend")? {
        Value::Nil => Vec::new(),
        Value::Table(l) => read_legend(a, map, &l)?.0,
        other => {
            return Err(a.fail(format!(
                "legend must be a table of characters to tile names, got {}",
                show(&other)
            )))
        }
    };
    for (c, cell) in &legend {
        if cell.mark.is_some() || cell.tile.is_none() {
            return Err(a.fail(format!(
                "legend '{c}' must name a tile (a sample has no marks)"
            )));
        }
    }
    let width = rows.first().map_or(0, |r| r.chars().count());
    if width == 0 {
        return Err(a.fail("sample has no rows"));
    }
    let bytes = held.bytes() + width * rows.len();
    a.resize(&mut held, bytes)?;
    let mut cells = Vec::with_capacity(width * rows.len());
    for (k, row) in rows.iter().enumerate() {
        let chars = row.chars().count();
        if chars != width {
            return Err(a.fail(format!(
                "sample[{}] has {} where sample[1] has {width}",
                k + 1,
                crate::one_line::characters(chars)
            )));
        }
        for (col, c) in row.chars().enumerate() {
            let tile = match legend.binary_search_by_key(&c, |(k, _)| *k) {
                Ok(i) => legend[i].1.tile.unwrap_or(Tile::FLOOR),
                Err(_) => match map.tiles().by_glyph(c) {
                    Some(tile) => tile,
                    None => {
                        return Err(a.fail(format!(
                            "sample[{}] has '{c}' at column {}, which neither the legend nor any tile's glyph names",
                            k + 1,
                            col + 1
                        )))
                    }
                },
            };
            cells.push(tile);
        }
    }
    let sample = Sample {
        width,
        height: rows.len(),
        cells,
    };
    Ok((sample, held))
}

/// An integer option in `lo..=hi`, or `default` when absent.
fn int_option(a: &Args, t: &Table, key: &str, lo: i64, hi: i64, default: i64) -> mlua::Result<i64> {
    match t.get::<Value>(key)? {
        Value::Nil => Ok(default),
        Value::Integer(v) if (lo..=hi).contains(&v) => Ok(v),
        Value::Number(f) if f.fract() == 0.0 && (lo as f64..=hi as f64).contains(&f) => {
            Ok(f as i64)
        }
        other => Err(a.fail(format!(
            "{key} must be an integer from {lo} to {hi}, got {}",
            show(&other)
        ))),
    }
}

fn read_options(a: &Args, t: &Table, map: &mut Map) -> mlua::Result<WfcOptions> {
    let mut opts = WfcOptions {
        n: int_option(a, t, "n", 1, wfc::MAX_N as i64, 3)? as usize,
        attempts: int_option(a, t, "attempts", 1, wfc::MAX_ATTEMPTS as i64, 20)? as u32,
        backtracks: int_option(a, t, "backtracks", 0, MAX_BACKTRACKS, 1000)? as u32,
        ..WfcOptions::default()
    };
    opts.symmetry = match int_option(a, t, "symmetry", 1, 8, 8) {
        Ok(s @ (1 | 2 | 4 | 8)) => s as usize,
        _ => {
            return Err(a.fail(format!(
                "symmetry must be 1, 2, 4 or 8, got {}",
                show(&t.get::<Value>("symmetry")?)
            )))
        }
    };
    opts.border = match t.get::<Value>("border")? {
        Value::Nil => None,
        Value::String(s) => {
            Some(tile_named(&s, map.tiles_mut()).map_err(|e| a.fail(format!("border: {e}")))?)
        }
        other => return Err(a.fail(format!("border must be a tile name, got {}", show(&other)))),
    };
    opts.connected = match t.get::<Value>("connected")? {
        Value::Nil => false,
        Value::Boolean(b) => b,
        other => return Err(a.fail(format!("connected must be a boolean, got {}", show(&other)))),
    };
    opts.path = match t.get::<Value>("path")? {
        Value::Nil => None,
        Value::Table(p) => {
            if p.raw_len() != 2 {
                return Err(a.fail(format!(
                    "path must be two points, {{{{sx, sy}}, {{ex, ey}}}}; it has {} entries",
                    p.raw_len()
                )));
            }
            Some([point(a, &p, 1, map)?, point(a, &p, 2, map)?])
        }
        other => {
            return Err(a.fail(format!(
                "path must be two points, {{{{sx, sy}}, {{ex, ey}}}}, got {}",
                show(&other)
            )))
        }
    };
    opts.counts = match t.get::<Value>("counts")? {
        Value::Nil => Vec::new(),
        Value::Table(c) => read_counts(a, &c, map)?,
        other => {
            return Err(a.fail(format!(
                "counts must be a table of tile = {{min, max}}, got {}",
                show(&other)
            )))
        }
    };
    opts.context = match t.get::<Value>("context")? {
        Value::Nil => None,
        Value::String(s) if Context::named(&s.to_string_lossy()).is_some() => {
            Context::named(&s.to_string_lossy())
        }
        other => {
            return Err(a.fail(format!(
                "context must be \"exact\", \"walkable\" or \"free\", got {}",
                show(&other)
            )))
        }
    };
    Ok(opts)
}

/// `path[k]`: an `{x, y}` or `{x =, y =}` point on the map.
fn point(a: &Args, p: &Table, k: usize, map: &Map) -> mlua::Result<(i32, i32)> {
    let Value::Table(pt) = p.raw_get::<Value>(k)? else {
        return Err(a.fail(format!("path[{k}] must be an {{x, y}} point")));
    };
    let coord = |key: &str, index: usize| -> mlua::Result<i64> {
        let v = match pt.raw_get::<Value>(key)? {
            Value::Nil => pt.raw_get::<Value>(index)?,
            v => v,
        };
        whole_integer(&v).ok_or_else(|| {
            a.fail(format!(
                "path[{k}].{key} must be an integer, got {}",
                show(&v)
            ))
        })
    };
    let (x, y) = (coord("x", 1)?, coord("y", 2)?);
    if !map.in_bounds(x, y) {
        return Err(a.fail(format!("path[{k}] ({x}, {y}) is off the map")));
    }
    Ok((x as i32, y as i32))
}

/// `counts = { tile = {min, max} }`, sorted by tile.
fn read_counts(a: &Args, c: &Table, map: &mut Map) -> mlua::Result<Vec<(Tile, u64, u64)>> {
    let mut out: Vec<(Tile, u64, u64)> = Vec::new();
    for pair in c.pairs::<Value, Value>() {
        let (key, value) = pair?;
        a.charge(cost::CALL_UNITS)?;
        if out.len() >= crate::map::TileSet::CAPACITY {
            return Err(a.fail("counts has more entries than there are tile kinds"));
        }
        let Value::String(name) = &key else {
            return Err(a.fail(format!(
                "counts keys must be tile names, got {}",
                show(&key)
            )));
        };
        let tile = tile_named(name, map.tiles_mut()).map_err(|e| a.fail(format!("counts: {e}")))?;
        let kind = map.tiles().kind(tile).name.clone();
        let bound = |k: usize, t: &Table| -> mlua::Result<u64> {
            let v = t.raw_get::<Value>(k)?;
            match whole_integer(&v) {
                Some(n) if n >= 0 => Ok(n as u64),
                _ => Err(a.fail(format!(
                    "counts.{kind}[{k}] must be a whole number of cells, 0 or more, got {}",
                    show(&v)
                ))),
            }
        };
        let (min, max) = match &value {
            Value::Table(t) if t.raw_len() == 2 => (bound(1, t)?, bound(2, t)?),
            other => {
                return Err(a.fail(format!(
                    "counts.{kind} must be {{min, max}}, got {}",
                    show(other)
                )))
            }
        };
        if min > max {
            return Err(a.fail(format!("counts.{kind}: min {min} is more than max {max}")));
        }
        out.push((tile, min, max));
    }
    // Lua's pairs order is unspecified; sort so the reason never depends on it.
    out.sort_by_key(|(t, _, _)| t.0);
    Ok(out)
}
