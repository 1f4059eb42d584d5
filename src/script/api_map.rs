//! The `map` object a script's `generate` receives: thin bindings from Lua
//! calls to the plain-Rust primitives on [`Map`], with checked arguments.

use super::api_rng::RngArg;
use super::api_selection::SelectionArg;
use std::cell::{Cell, Ref, RefCell, RefMut};

use mlua::{Lua, Table, UserData, UserDataFields, UserDataMethods, Value};

use super::api_selection::{LuaDistance, LuaNoise, LuaSelection};
use super::args::{as_whole, show, tile_named, whole_integer, Args, Six, MAX_NAME, MAX_TEXT};
use super::budget::{self, Reservation};
use super::cost::{self, area, rect_cells, span};
use super::error::located;
use super::raw::rect::rect_value;
use crate::geom::Rect;
use crate::map::{Map, Tile};
use crate::ops::meter::{Charge, Stopped};
use crate::ops::{self, CellularRule, Selection, StampCell};
use crate::params::ParamValue;
use crate::replay::Journal;

/// The bytes one marker costs besides its name (position, string header,
/// list slot).
const MARKER_BYTES: usize = 48;

/// A tile named by an options field, or `default` when the field is absent.
fn opt_tile(a: &Args, map: &mut Map, opts: &Table, key: &str, default: Tile) -> mlua::Result<Tile> {
    match opts.get::<Value>(key)? {
        Value::Nil => Ok(default),
        Value::String(s) => tile_named(&s, map.tiles_mut()).map_err(|e| a.fail(e)),
        other => Err(a.fail(format!("{key} must be a tile name, got {}", show(&other)))),
    }
}

/// Whether a script's string is `text` (compared in place, not copied).
fn is(s: &mlua::LuaString, text: &str) -> bool {
    s.as_bytes().as_ref() == text.as_bytes()
}

/// The most bytes a character takes in UTF-8.
const MAX_CHAR_BYTES: usize = 4;

/// A prefab's rows: a list of strings, none longer than the map's longest
/// side and no more of them (no turn of a bigger prefab fits), all of them
/// no more characters than the map has cells. Every bound is checked on
/// the strings' lengths before a byte is copied; then the copy is paid
/// for, and held, while the call lasts.
fn read_rows(a: &Args, i: usize, map: &Map) -> mlua::Result<(Vec<String>, Reservation)> {
    read_rows_from(a, &a.table(i, "rows")?, map, "rows")
}

/// [`read_rows`] of a list found elsewhere (a template's `rows`), named
/// `what` in messages.
pub(super) fn read_rows_from(
    a: &Args,
    list: &Table,
    map: &Map,
    what: &str,
) -> mlua::Result<(Vec<String>, Reservation)> {
    let side = map.width().max(map.height()) as usize;
    let count = list.raw_len();
    if count > side {
        return Err(a.fail(format!(
            "{what} has {count} rows, more than the map's longest side ({side})"
        )));
    }
    let mut total = 0usize;
    for k in 1..=count {
        let len = match list.raw_get::<Value>(k)? {
            Value::String(s) => s.as_bytes().len(),
            other => {
                return Err(a.fail(format!(
                    "{what} must be a list of strings; {what}[{k}] is {}",
                    show(&other)
                )))
            }
        };
        if len > side * MAX_CHAR_BYTES {
            return Err(a.fail(format!(
                "{what}[{k}] is {len} bytes, longer than the map's longest side ({side} characters)"
            )));
        }
        total += len;
    }
    if total > area(map) as usize * MAX_CHAR_BYTES {
        return Err(a.fail(format!(
            "{what} hold {total} bytes, more characters than the map has cells"
        )));
    }
    a.charge(cost::text(total as u64))?;
    let held = a.reserve(total + count * std::mem::size_of::<String>())?;
    let mut rows = Vec::with_capacity(count);
    for k in 1..=count {
        let Value::String(s) = list.raw_get::<Value>(k)? else {
            return Err(a.fail(format!("{what} changed while being read")));
        };
        let row = String::from_utf8_lossy(&s.as_bytes()).into_owned();
        let chars = row.chars().count();
        if chars > side {
            return Err(a.fail(format!(
                "{what}[{k}] has {}, more than the map's longest side ({side})",
                crate::one_line::characters(chars)
            )));
        }
        rows.push(row);
    }
    Ok((rows, held))
}

/// The rect a stamp of (turned) `rows` at `(x, y)` covers: its first and
/// last cells as corners, so `map:fill_rect` of it covers exactly them.
fn covered_rect(x: i32, y: i32, rows: &[String]) -> Rect {
    let w = rows.first().map_or(0, |r| r.chars().count()) as i32;
    Rect {
        x1: x,
        y1: y,
        x2: x + w - 1,
        y2: y + rows.len() as i32 - 1,
    }
}

/// `rotate` of a stamp's options: 0, 90, 180, 270, or `"any"` where
/// `any_ok` (None: drawn per try).
fn read_rotate(a: &Args, opts: &Table, any_ok: bool) -> mlua::Result<Option<u32>> {
    match as_whole(opts.get::<Value>("rotate")?) {
        Value::Nil => Ok(Some(0)),
        Value::Integer(r @ (0 | 90 | 180 | 270)) => Ok(Some(r as u32)),
        Value::String(s) if any_ok && is(&s, "any") => Ok(None),
        other => Err(a.fail(format!(
            "rotate must be 0, 90, 180 or 270{}, got {}",
            if any_ok { " or \"any\"" } else { "" },
            show(&other)
        ))),
    }
}

/// `mirror` of a stamp's options: `"x"`, `"y"`, nil, or `"any"` where `any_ok`.
fn read_mirror(a: &Args, opts: &Table, any_ok: bool) -> mlua::Result<ops::MirrorChoice> {
    use ops::{Mirror, MirrorChoice};
    let value = opts.get::<Value>("mirror")?;
    match &value {
        Value::Nil => Ok(MirrorChoice::Fixed(None)),
        Value::String(s) if is(s, "x") => Ok(MirrorChoice::Fixed(Some(Mirror::X))),
        Value::String(s) if is(s, "y") => Ok(MirrorChoice::Fixed(Some(Mirror::Y))),
        Value::String(s) if any_ok && is(s, "any") => Ok(MirrorChoice::Any),
        _ => Err(a.fail(format!(
            "mirror must be \"x\", \"y\"{} or nil, got {}",
            if any_ok { ", \"any\"" } else { "" },
            show(&value)
        ))),
    }
}

/// A list of `{x, y}` / `{x = , y = }` points (a path), its length charged
/// before it is read.
fn read_point_list(a: &Args, i: usize, what: &str) -> mlua::Result<Vec<(i64, i64)>> {
    let list = a.table(i, what)?;
    let len = list.raw_len();
    // One point, not a list of them, made no path and no error.
    if len == 0
        && (list.raw_get::<Value>("x")? != Value::Nil || list.raw_get::<Value>("y")? != Value::Nil)
    {
        return Err(a.fail(format!(
            "{what} must be a list of {{x, y}} points, got one point; wrap it: {{ {{x = .., y = ..}} }}"
        )));
    }
    a.charge(cost::CALL_UNITS.saturating_add(len as u64 * 4))?;
    let mut out = Vec::with_capacity(len.min(1 << 20));
    for k in 1..=len {
        let Value::Table(p) = list.raw_get::<Value>(k)? else {
            return Err(a.fail(format!("{what}[{k}] must be an {{x, y}} point")));
        };
        let coord = |key: &str, index: i64| -> mlua::Result<i64> {
            let v = match p.raw_get::<Value>(key)? {
                Value::Nil => p.raw_get::<Value>(index)?,
                v => v,
            };
            match whole_integer(&v) {
                Some(i) => Ok(i),
                None => Err(a.fail(format!(
                    "{what}[{k}].{key} (or {what}[{k}][{index}]) must be an integer, got {}",
                    show(&v)
                ))),
            }
        };
        out.push((coord("x", 1)?, coord("y", 2)?));
    }
    Ok(out)
}

/// What a region of `map:regions` holds besides its cells, at most: its
/// entry in the native list (a region and its cell list, about 100 bytes
/// with the allocator's share), and in Lua its table of four fields and its
/// selection's userdata.
const REGION_BYTES: usize = 512;

/// `map:path`'s options: `cost = {tile = number|false}`, `diagonal`, and
/// `field` (a noise field) with its `weight`, per-cell extra costs.
fn path_costs(a: &Args, map: &Map, i: usize) -> mlua::Result<ops::PathCosts> {
    let mut costs = ops::PathCosts::walkable(map);
    let Some(opts) = a.options(i)? else {
        return Ok(costs);
    };
    for pair in opts.pairs::<Value, Value>() {
        let (key, value) = pair?;
        let name = match &key {
            Value::String(s) => ["diagonal", "cost", "field", "weight"]
                .into_iter()
                .find(|k| is(s, k)),
            _ => None,
        };
        match (name, value) {
            (Some("diagonal"), Value::Boolean(b)) => costs.diagonal = b,
            (Some("diagonal"), Value::Nil) => {}
            (Some("cost"), Value::Table(table)) => {
                for entry in table.pairs::<Value, Value>() {
                    let (name, cost) = entry?;
                    let Value::String(name) = name else {
                        return Err(
                            a.fail(format!("cost keys must be tile names, got {}", show(&name)))
                        );
                    };
                    let tile =
                        tile_named(&name, map.tiles()).map_err(|e| a.fail(format!("cost: {e}")))?;
                    let name = &map.tiles().kind(tile).name;
                    let cost = match cost {
                        Value::Boolean(false) => None,
                        Value::Integer(c) => Some(c as f64),
                        Value::Number(c) => Some(c),
                        other => {
                            return Err(a.fail(format!(
                                "cost.{name} must be a positive number or false, got {}",
                                show(&other)
                            )))
                        }
                    };
                    costs
                        .set(tile, cost)
                        .map_err(|e| a.fail(format!("cost.{name}: {e}")))?;
                }
            }
            (Some("field"), Value::UserData(ud)) if ud.is::<LuaNoise>() => {
                let noise = ud.borrow::<LuaNoise>()?;
                let weight = match opts.get::<Value>("weight")? {
                    Value::Nil => 1.0,
                    Value::Integer(w) => w as f64,
                    Value::Number(w) => w,
                    other => {
                        return Err(a.fail(format!("weight must be a number, got {}", show(&other))))
                    }
                };
                costs
                    .add_field(noise.0.shared_values(), weight, map.cells().len())
                    .map_err(|e| a.fail(format!("field: {e}")))?;
            }
            // Read with its field, above.
            (Some("weight"), _) if !matches!(opts.get::<Value>("field")?, Value::Nil) => {}
            (Some("weight"), _) => {
                return Err(a.fail("weight needs a field (field = map:noise(rng))"));
            }
            (Some(k @ ("diagonal" | "cost" | "field")), other) => {
                let want = match k {
                    "cost" => "a table of tile costs",
                    "field" => "a noise field (map:noise(rng))",
                    _ => "a boolean",
                };
                return Err(a.fail(format!("{k} must be {want}, got {}", show(&other))));
            }
            (_, _) => {
                return Err(a.fail(format!(
                    "unknown option {}; path takes cost, diagonal, field and weight",
                    show(&key)
                )))
            }
        }
    }
    Ok(costs)
}

/// Points given as `x, y` or as a list of `{x, y}` / `{x = , y = }` tables.
fn read_points(a: &Args) -> mlua::Result<Vec<(i64, i64)>> {
    if !matches!(a.value(0), Value::Table(_)) {
        return Ok(vec![(a.coord(0, "x")?, a.coord(1, "y")?)]);
    }
    let list = a.table(0, "sources")?;
    let mut out = Vec::new();
    for item in list.sequence_values::<Value>() {
        let Value::Table(p) = item? else {
            return Err(a.fail("sources must be a list of {x, y} points"));
        };
        let coord = |key: &str, index: i64| -> mlua::Result<i64> {
            let v = match p.get::<Value>(key)? {
                Value::Nil => p.get::<Value>(index)?,
                v => v,
            };
            whole_integer(&v).ok_or_else(|| {
                a.fail(format!(
                    "a source's {key} must be an integer, got {}",
                    show(&v)
                ))
            })
        };
        out.push((coord("x", 1)?, coord("y", 2)?));
    }
    if out.is_empty() {
        return Err(a.fail("sources is empty"));
    }
    Ok(out)
}

/// The most properties one marker may carry.
const MAX_MARKER_PROPS: usize = 64;

/// A marker's data from `map:mark`'s 4th argument: string keys (names) to
/// strings (at most [`MAX_TEXT`] bytes), numbers or booleans; with the
/// reservation of the bytes it holds, made before each key and value is
/// copied.
fn marker_props(a: &Args, i: usize) -> mlua::Result<(Vec<(String, ParamValue)>, Reservation)> {
    let mut held = a.reserve(0)?;
    if !a.is_given(i) {
        return Ok((Vec::new(), held));
    }
    let table = a.table(i, "props")?;
    let (mut props, mut bytes) = (Vec::new(), 0);
    for pair in table.pairs::<Value, Value>() {
        let (key, value) = pair?;
        if props.len() == MAX_MARKER_PROPS {
            return Err(a.fail(format!(
                "props: at most {MAX_MARKER_PROPS} properties a marker"
            )));
        }
        let key = match key {
            Value::String(s) if !s.as_bytes().is_empty() => {
                let len = s.as_bytes().len();
                if len <= MAX_NAME {
                    bytes += len + 32;
                    a.resize(&mut held, bytes)?;
                }
                a.utf8_of(&s, MAX_NAME, "props key")?
            }
            other => {
                return Err(a.fail(format!(
                    "props keys must be non-empty strings, got {}",
                    show(&other)
                )))
            }
        };
        let value = match value {
            Value::Integer(v) => ParamValue::Integer(v),
            Value::Number(v) if v.is_finite() => ParamValue::Number(v),
            Value::Boolean(v) => ParamValue::Boolean(v),
            Value::String(s) => {
                let len = s.as_bytes().len();
                if len <= MAX_TEXT {
                    bytes += len;
                    a.resize(&mut held, bytes)?;
                }
                ParamValue::Text(a.utf8_of(&s, MAX_TEXT, &format!("props.{key}"))?)
            }
            other => {
                return Err(a.fail(format!(
                    "props.{key} must be a string, a finite number or a boolean, got {}",
                    show(&other)
                )))
            }
        };
        props.push((key, value));
    }
    Ok((props, held))
}

/// The most entries a stamp legend may have.
const MAX_LEGEND: usize = 1024;

/// What one legend entry holds besides its mark's name.
const LEGEND_ENTRY_BYTES: usize = std::mem::size_of::<(char, StampCell)>();

/// A stamp legend: one-character keys to a tile name or `{tile =, mark =}`,
/// sorted by key; with the bytes it holds, reserved as it is read.
pub(super) fn read_legend(
    a: &Args,
    map: &mut Map,
    legend: &Table,
) -> mlua::Result<(Vec<(char, StampCell)>, Reservation)> {
    read_legend_with(a, map, legend, &[])
}

/// [`read_legend`] whose entries may also hold the fields `more` (a graph
/// template's `door` and `socket`, read by its caller).
pub(super) fn read_legend_with(
    a: &Args,
    map: &mut Map,
    legend: &Table,
    more: &[&str],
) -> mlua::Result<(Vec<(char, StampCell)>, Reservation)> {
    let mut out = Vec::new();
    let mut held = a.reserve(0)?;
    let mut bytes = 0;
    for pair in legend.pairs::<Value, Value>() {
        let (key, value) = pair?;
        if out.len() == MAX_LEGEND {
            return Err(a.fail(format!("legend has more than {MAX_LEGEND} entries")));
        }
        a.charge(cost::CALL_UNITS)?;
        // One character is at most 4 bytes: a longer key is not read.
        let c = match &key {
            Value::String(s) if s.as_bytes().len() <= MAX_CHAR_BYTES => {
                let bytes = s.as_bytes();
                let mut chars = std::str::from_utf8(&bytes).ok().map(|t| t.chars());
                match chars.as_mut().map(|c| (c.next(), c.next())) {
                    Some((Some(c), None)) => Some(c),
                    _ => None,
                }
            }
            // A digit key (`[1] = "wall"`) reads as that character, as Lua
            // would turn it into a string.
            Value::Integer(n @ 0..=9) => char::from_digit(*n as u32, 10),
            _ => None,
        };
        let Some(c) = c else {
            return Err(a.fail(format!(
                "legend keys must be one-character strings, got {}",
                show(&key)
            )));
        };
        let cell = match value {
            Value::String(s) => StampCell {
                tile: Some(tile_named(&s, map.tiles_mut()).map_err(|e| a.fail(e))?),
                mark: None,
            },
            Value::Table(t) => StampCell {
                tile: match legend_fields(a, c, &t, more)?.get::<Value>("tile")? {
                    Value::Nil => None,
                    _ => Some(opt_tile(a, map, &t, "tile", Tile::FLOOR)?),
                },
                mark: match t.get::<Value>("mark")? {
                    Value::Nil => None,
                    Value::String(s) => Some(a.name_of(&s, &format!("legend '{c}': mark"))?),
                    other => {
                        return Err(a.fail(format!(
                            "legend '{c}': mark must be a name, got {}",
                            show(&other)
                        )))
                    }
                },
            },
            other => {
                return Err(a.fail(format!(
                    "legend '{c}' must be a tile name or {{tile =, mark =}}, got {}",
                    show(&other)
                )))
            }
        };
        bytes += LEGEND_ENTRY_BYTES + cell.mark.as_ref().map_or(0, String::len);
        a.resize(&mut held, bytes)?;
        out.push((c, cell));
    }
    // Lua's pairs order is unspecified; sort so nothing depends on it.
    out.sort_by_key(|(c, _)| *c);
    Ok((out, held))
}

/// `t`, once every field of it is `tile` or `mark` and it has one of them
/// (`{tiel = "wall"}` and `{mark = "x", props = {...}}` were read as
/// nothing and as a mark without its props, without a word).
fn legend_fields<'t>(a: &Args, c: char, t: &'t Table, more: &[&str]) -> mlua::Result<&'t Table> {
    let mut any = false;
    for pair in t.pairs::<Value, Value>() {
        let (key, _) = pair?;
        match &key {
            Value::String(k) if matches!(k.as_bytes().as_ref(), b"tile" | b"mark") => any = true,
            Value::String(k) if more.iter().any(|m| m.as_bytes() == k.as_bytes().as_ref()) => {
                any = true
            }
            other => {
                let fields = ["tile", "mark"]
                    .iter()
                    .chain(more)
                    .copied()
                    .collect::<Vec<_>>();
                return Err(a.fail(format!(
                    "legend '{c}': unknown field {}; an entry takes {}",
                    show(other),
                    fields.join(", ")
                )));
            }
        }
    }
    if !any {
        return Err(a.fail(format!(
            "legend '{c}' is empty: give it a tile, a mark or both"
        )));
    }
    Ok(t)
}

/// The most bytes the markers a stamp of `rows` puts down can hold (on a
/// copy of the prefab and on the map: twice), worked out before stamping
/// so they are reserved first. `legend` is sorted by key.
pub(super) fn stamp_marker_bytes(rows: &[String], legend: &[(char, StampCell)]) -> usize {
    let per_char = |c: char| -> usize {
        match legend.binary_search_by_key(&c, |(k, _)| *k) {
            Ok(i) => legend[i]
                .1
                .mark
                .as_ref()
                .map_or(0, |name| MARKER_BYTES + 2 * name.len()),
            Err(_) => 0,
        }
    };
    if legend.iter().all(|(_, cell)| cell.mark.is_none()) {
        return 0;
    }
    2 * rows
        .iter()
        .flat_map(|row| row.chars())
        .map(per_char)
        .sum::<usize>()
}

/// The bytes the markers from `first` on hold (those a stamp added).
pub(super) fn marker_bytes_from(map: &Map, first: usize) -> usize {
    map.markers()[first.min(map.markers().len())..]
        .iter()
        .map(|m| MARKER_BYTES + 2 * m.name.len())
        .sum()
}

/// The map lent to Lua for one `generate` call; taken back afterwards.
/// With a journal, every call that changes tiles closes a replay step.
///
/// Lua only ever borrows this shared (every method is `add_method`); the
/// map inside is a `RefCell`, so the raw fast paths in [`super::fast`] can
/// borrow it too and a re-entrant call (a metamethod calling back into the
/// map from inside a primitive) is refused instead of aliased.
pub(crate) struct LuaMap {
    /// `None` between the runs of a reused VM, whose one map userdata is
    /// lent a new map every run ([`LuaMap::refill`], [`LuaMap::take_parts`]).
    map: RefCell<Option<Map>>,
    journal: RefCell<Option<Journal>>,
    /// The memory the map gathers for the script as it runs (rooms,
    /// markers, the replay journal), counted against the run's limit.
    held: RefCell<Reservation>,
    /// The bytes of rooms and markers added so far.
    records: Cell<usize>,
    /// While `validate` runs: the map may be read, not changed (a change
    /// there was kept in the map made, and blamed on `generate`).
    judging: Cell<bool>,
}

impl LuaMap {
    pub fn new(map: Map, journal: Option<Journal>) -> LuaMap {
        LuaMap {
            map: RefCell::new(Some(map)),
            journal: RefCell::new(journal),
            held: RefCell::new(Reservation::none()),
            records: Cell::new(0),
            judging: Cell::new(false),
        }
    }

    /// Whether the map is being judged by `validate` (read-only).
    pub(crate) fn set_judging(&self, judging: bool) {
        self.judging.set(judging);
    }

    /// Counts `more` bytes of rooms or markers, and whatever the journal
    /// holds now, against the memory limit.
    pub(super) fn hold(&self, a: &Args, more: usize) -> mlua::Result<()> {
        self.records.set(self.records.get() + more);
        let journal = self
            .journal
            .try_borrow()
            .ok()
            .and_then(|j| j.as_ref().map(Journal::heap_bytes))
            .unwrap_or(0);
        let Ok(mut held) = self.held.try_borrow_mut() else {
            return Ok(());
        };
        a.resize(&mut held, self.records.get() + journal)
    }

    /// Closes a labelled replay step of what changed on `map` (this map's,
    /// borrowed by the caller), when recording.
    pub(super) fn record_step(&self, map: &mut Map, label: &str) {
        if let Some(journal) = self.journal.borrow_mut().as_mut() {
            journal.capture(map, label, true);
        }
    }

    /// Runs `body` on the map as a writer does (the `writer!` macro, for a
    /// primitive bound outside this file): when recording, the tiles it
    /// changed become a replay step named `name`.
    pub(super) fn write_step<T>(
        &self,
        lua: &Lua,
        a: &Args,
        name: &str,
        body: impl FnOnce(&mut Map) -> mlua::Result<T>,
    ) -> mlua::Result<T> {
        let mut guard = self.map_mut(lua)?;
        let result = body(&mut guard);
        let recording = match self.journal.borrow_mut().as_mut() {
            Some(journal) => {
                journal.capture(&mut guard, name, false);
                true
            }
            None => false,
        };
        drop(guard);
        if recording {
            self.hold(a, 0)?;
        }
        result
    }

    /// A map userdata's value with no map yet (see [`LuaMap::refill`]).
    pub fn empty() -> LuaMap {
        LuaMap {
            map: RefCell::new(None),
            journal: RefCell::new(None),
            held: RefCell::new(Reservation::none()),
            records: Cell::new(0),
            judging: Cell::new(false),
        }
    }

    /// Lends this value a run's map, as a new `LuaMap::new(map, journal)`
    /// would hold it (the VM keeps one map userdata for its life instead of
    /// making one a run: a userdata with a finalizer is freed only a
    /// collection after the one that finds it garbage, so every reset
    /// collected twice).
    pub fn refill(&self, map: Map, journal: Option<Journal>) -> mlua::Result<()> {
        let mut slot = self
            .map
            .try_borrow_mut()
            .map_err(|_| mlua::Error::runtime("the map is in use"))?;
        *slot = Some(map);
        *self.journal.borrow_mut() = journal;
        *self.held.borrow_mut() = Reservation::none();
        self.records.set(0);
        self.judging.set(false);
        Ok(())
    }

    /// Drops whatever map a run left lent (a run that failed before its
    /// map was taken back), giving back the memory it held.
    pub fn clear(&self) {
        if let Ok(mut slot) = self.map.try_borrow_mut() {
            *slot = None;
        }
        if let Ok(mut journal) = self.journal.try_borrow_mut() {
            *journal = None;
        }
        if let Ok(mut held) = self.held.try_borrow_mut() {
            *held = Reservation::none();
        }
        self.records.set(0);
    }

    /// Takes back the map (and its journal) lent by [`LuaMap::refill`],
    /// giving back the memory it held: what dropping a run's own `LuaMap`
    /// did. Until the next refill, every map primitive called with this
    /// userdata says the map is gone.
    pub fn take_parts(&self) -> mlua::Result<(Map, Option<Journal>)> {
        let map = self
            .map
            .try_borrow_mut()
            .map_err(|_| mlua::Error::runtime("the map is in use"))?
            .take()
            .ok_or_else(|| mlua::Error::runtime("the run's map was taken already"))?;
        let journal = self.journal.borrow_mut().take();
        *self.held.borrow_mut() = Reservation::none();
        self.records.set(0);
        Ok((map, journal))
    }

    /// Whether tile changes are being recorded for the replay.
    pub fn is_recording(&self) -> bool {
        self.journal.try_borrow().map_or(true, |j| j.is_some())
    }

    /// The map, unless a primitive is using it right now.
    pub fn map(&self, lua: &Lua) -> mlua::Result<Ref<'_, Map>> {
        let slot = self.map.try_borrow().map_err(|_| busy(lua))?;
        Ref::filter_map(slot, Option::as_ref).map_err(|_| gone(lua))
    }

    pub fn map_mut(&self, lua: &Lua) -> mlua::Result<RefMut<'_, Map>> {
        if self.judging.get() {
            return Err(located(
                lua,
                "map: validate may only look at the map, not change it (it judges the map generate made; change the map in generate)",
            ));
        }
        let slot = self.map.try_borrow_mut().map_err(|_| busy(lua))?;
        RefMut::filter_map(slot, Option::as_mut).map_err(|_| gone(lua))
    }

    /// For the fast paths: the map if there is one and nobody is using it.
    pub(crate) fn try_map_mut(&self) -> Option<RefMut<'_, Map>> {
        if self.judging.get() {
            return None;
        }
        RefMut::filter_map(self.map.try_borrow_mut().ok()?, Option::as_mut).ok()
    }

    fn args<'lua>(
        &self,
        lua: &'lua Lua,
        name: &'static str,
        values: Six,
    ) -> mlua::Result<Args<'lua>> {
        let (w, h) = {
            let map = self.map(lua)?;
            (map.width(), map.height())
        };
        let args = Args::new(lua, name, values).on_map(w, h);
        args.charge(cost::CALL_UNITS)?;
        Ok(args)
    }
}

/// A map primitive called between runs (from a finalizer the reset's
/// collection runs), when the VM's map userdata holds no map.
fn gone(lua: &Lua) -> mlua::Error {
    located(lua, "map: its run is over")
}

fn busy(lua: &Lua) -> mlua::Error {
    located(
        lua,
        "map: called from inside another map primitive (from a metamethod?); call it after that one returns",
    )
}

/// `map:rooms()`'s list of Rects (also the level view's).
pub(super) fn rooms_list(
    lua: &Lua,
    name: &'static str,
    rooms: Vec<crate::geom::Rect>,
) -> mlua::Result<Table> {
    budget::charge(
        lua,
        name,
        (rooms.len() as u64).saturating_mul(cost::UNITS_PER_VALUE_MADE),
    )?;
    let list = lua.create_table_with_capacity(rooms.len(), 0)?;
    for (i, r) in rooms.into_iter().enumerate() {
        list.raw_set(i + 1, rect_value(lua, r)?)?;
    }
    Ok(list)
}

/// `map:markers()`'s list of `{x, y, name, props}` (also the level view's).
pub(super) fn markers_list(lua: &Lua, name: &'static str, map: &Map) -> mlua::Result<Table> {
    budget::charge(
        lua,
        name,
        (map.markers().len() as u64).saturating_mul(cost::UNITS_PER_VALUE_MADE),
    )?;
    // Each prop a field, and its text (if any) copied into Lua again.
    let props: usize = map
        .markers()
        .iter()
        .flat_map(|m| &m.props)
        .map(|(key, value)| match value {
            ParamValue::Text(text) => cost::FIELD_BYTES + key.len() + text.len(),
            _ => cost::FIELD_BYTES,
        })
        .fold(0usize, usize::saturating_add);
    let bytes = map
        .markers()
        .len()
        .saturating_mul(cost::MARKER_TABLE_BYTES)
        .saturating_add(props);
    budget::make_room(lua, name, bytes)?;
    let list = lua.create_table()?;
    for (i, m) in map.markers().iter().enumerate() {
        let t = lua.create_table()?;
        t.set("x", m.x)?;
        t.set("y", m.y)?;
        t.set("name", m.name.as_str())?;
        let props = lua.create_table()?;
        for (key, value) in &m.props {
            match value {
                ParamValue::Integer(v) => props.set(key.as_str(), *v)?,
                ParamValue::Number(v) => props.set(key.as_str(), *v)?,
                ParamValue::Boolean(v) => props.set(key.as_str(), *v)?,
                ParamValue::Text(v) => props.set(key.as_str(), v.as_str())?,
            }
        }
        t.set("props", props)?;
        list.raw_set(i + 1, t)?;
    }
    Ok(list)
}

/// Adds a method that reads the map: `$body(map, args)`.
macro_rules! reader {
    ($methods:ident, $name:literal, |$map:ident, $args:ident| $body:expr) => {
        $methods.add_method($name, |lua, this, values: Six| {
            let $args = this.args(lua, concat!("map:", $name), values)?;
            let $map = &*this.map(lua)?;
            $body
        });
    };
}

/// Adds a method that changes the map: `$body(map, args)`; when recording,
/// the tiles it changed become a replay step named after it.
macro_rules! writer {
    ($methods:ident, $name:literal, |$map:ident, $args:ident| $body:expr) => {
        $methods.add_method($name, |lua, this, values: Six| {
            let $args = this.args(lua, concat!("map:", $name), values)?;
            let mut guard = this.map_mut(lua)?;
            let result = {
                let $map = &mut *guard;
                $body
            };
            let recording = match this.journal.borrow_mut().as_mut() {
                Some(journal) => {
                    journal.capture(&mut guard, $name, false);
                    true
                }
                None => false,
            };
            drop(guard);
            if recording {
                this.hold(&$args, 0)?;
            }
            result
        });
    };
}

impl UserData for LuaMap {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("width", |lua, this| Ok(this.map(lua)?.width()));
        fields.add_field_method_get("height", |lua, this| Ok(this.map(lua)?.height()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        reader!(methods, "get", |map, a| {
            let tile = map
                .get(a.coord(0, "x")?, a.coord(1, "y")?)
                .map_err(|e| a.map_failed(e))?;
            Ok(map.tiles().kind(tile).name.clone())
        });
        writer!(methods, "set", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            let tile = a.tile(2, map.tiles_mut())?;
            map.set(x, y, tile).map_err(|e| a.map_failed(e))
        });
        reader!(methods, "in_bounds", |map, a| {
            Ok(map.in_bounds(a.int(0, "x")?, a.int(1, "y")?))
        });
        reader!(methods, "is_walkable", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            map.index(x, y).map_err(|e| a.map_failed(e))?;
            Ok(map.is_walkable(x, y))
        });
        reader!(methods, "count", |map, a| {
            a.charge(cost::written(area(map)))?;
            Ok(map.count(a.tile(0, map.tiles())?))
        });
        writer!(methods, "fill", |map, a| {
            let tile = a.tile(0, map.tiles_mut())?;
            a.charge(cost::written(area(map)))?;
            map.fill(tile);
            Ok(())
        });
        writer!(methods, "fill_rect", |map, a| {
            let rect = a.rect(0, "rect")?;
            let tile = a.tile(1, map.tiles_mut())?;
            a.charge(cost::written(rect_cells(map, &rect)))?;
            map.fill_rect(&rect, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "carve_room", |map, a| {
            let rect = a.rect(0, "rect")?;
            let tile = a.tile_or(1, map.tiles_mut(), Tile::FLOOR)?;
            a.charge(cost::written(rect_cells(map, &rect)))?;
            map.carve_room(&rect, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "h_tunnel", |map, a| {
            let (x1, x2, y) = (a.coord(0, "x1")?, a.coord(1, "x2")?, a.coord(2, "y")?);
            let tile = a.tile_or(3, map.tiles_mut(), Tile::FLOOR)?;
            a.charge(cost::written(span(x1, x2, map.width())))?;
            map.h_tunnel(x1, x2, y, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "v_tunnel", |map, a| {
            let (y1, y2, x) = (a.coord(0, "y1")?, a.coord(1, "y2")?, a.coord(2, "x")?);
            let tile = a.tile_or(3, map.tiles_mut(), Tile::FLOOR)?;
            a.charge(cost::written(span(y1, y2, map.height())))?;
            map.v_tunnel(y1, y2, x, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "l_tunnel", |map, a| {
            let from = (a.coord(0, "ax")?, a.coord(1, "ay")?);
            let to = (a.coord(2, "bx")?, a.coord(3, "by")?);
            let horizontal_first = a.boolean(4, "horizontal_first")?;
            let tile = a.tile_or(5, map.tiles_mut(), Tile::FLOOR)?;
            a.charge(cost::written(
                span(from.0, to.0, map.width()) + span(from.1, to.1, map.height()),
            ))?;
            map.l_tunnel(from, to, horizontal_first, tile)
                .map_err(|e| a.map_failed(e))
        });
        methods.add_method("add_room", |lua, this, values: Six| {
            let a = this.args(lua, "map:add_room", values)?;
            let (rect, cells) = match a.value(0) {
                Value::UserData(ud) if ud.is::<super::api_selection::LuaSelection>() => {
                    let sel = a.selection(0, "room")?;
                    a.charge(cost::visited(sel.count() as u64))?;
                    (None, Some(sel.0.clone()))
                }
                _ => (Some(a.rect(0, "room")?), None),
            };
            let (mut name, mut kind) = (None, None);
            if let Some(opts) = a.options(1)? {
                a.only_options(&opts, &["name", "kind"])?;
                for (key, slot) in [("name", &mut name), ("kind", &mut kind)] {
                    *slot = match opts.get::<Value>(key)? {
                        Value::Nil => None,
                        // A name, as a marker's: it reaches C callers as a C string.
                        Value::String(s) => match a.name_of(&s, key)? {
                            text if text.is_empty() => {
                                return Err(a.fail(format!(
                                    "{key} must not be empty (leave it out for none)"
                                )))
                            }
                            text => Some(text),
                        },
                        other => {
                            return Err(
                                a.fail(format!("{key} must be a string, got {}", show(&other)))
                            )
                        }
                    };
                }
            }
            let bytes = std::mem::size_of::<crate::geom::Rect>()
                + cells.as_ref().map_or(0, |c| c.heap_bytes())
                + name.as_ref().map_or(0, |n| n.len())
                + kind.as_ref().map_or(0, |k| k.len())
                + 64;
            this.map_mut(lua)?
                .add_shaped_room(rect, cells, name, kind)
                .map_err(|e| a.map_failed(e))?;
            this.hold(&a, bytes)
        });
        methods.add_method("room", |lua, this, values: Six| {
            let a = this.args(lua, "map:room", values)?;
            let i = a.int(0, "i")?;
            let (rect, details) = {
                let map = this.map(lua)?;
                let count = map.rooms().len();
                if i < 1 || i as usize > count {
                    return Err(a.fail(format!("room {i} does not exist (there are {count})")));
                }
                let k = i as usize - 1;
                (map.rooms()[k], map.room_details()[k].clone())
            };
            let t = lua.create_table()?;
            t.set("rect", rect_value(lua, rect)?)?;
            t.set("name", details.name)?;
            t.set("kind", details.kind)?;
            if let Some(cells) = details.cells {
                t.set("cells", LuaSelection::held(&a, cells)?)?;
            }
            Ok(t)
        });
        methods.add_method("rooms", |lua, this, ()| {
            let rooms = this.map(lua)?.rooms().to_vec();
            rooms_list(lua, "map:rooms", rooms)
        });
        writer!(methods, "set_start", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            map.set_start(x, y).map_err(|e| a.map_failed(e))
        });
        methods.add_method("start", |lua, this, ()| match this.map(lua)?.start() {
            Some((x, y)) => Ok((Some(x), Some(y))),
            None => Ok((None, None)),
        });
        methods.add_method("mark", |lua, this, values: Six| {
            let a = this.args(lua, "map:mark", values)?;
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            let name = a.name(2, "name")?;
            let (props, props_held) = marker_props(&a, 3)?;
            this.map_mut(lua)?
                .mark_with(x, y, &name, props)
                .map_err(|e| a.map_failed(e))?;
            // The props' bytes move from their own reservation to the map's.
            // The name is kept twice: in the marker and in the map's index.
            let bytes = props_held.bytes();
            drop(props_held);
            this.hold(&a, MARKER_BYTES + 2 * name.len() + bytes)
        });
        methods.add_method("unmark", |lua, this, values: Six| {
            let a = this.args(lua, "map:unmark", values)?;
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            let name = if a.is_given(2) {
                Some(a.name(2, "name")?)
            } else {
                None
            };
            budget::charge(lua, "map:unmark", this.map(lua)?.markers().len() as u64)?;
            this.map_mut(lua)?
                .unmark(x, y, name.as_deref())
                .map_err(|e| a.map_failed(e))
        });
        methods.add_method("markers", |lua, this, ()| {
            markers_list(lua, "map:markers", &*this.map(lua)?)
        });
        reader!(methods, "flood", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            map.index(x, y).map_err(|e| a.map_failed(e))?;
            let avoid = match a.options(2)? {
                Some(opts) => {
                    a.only_options(&opts, &["avoid"])?;
                    a.opt_selection(&opts, "avoid", (map.width(), map.height()))?
                }
                None => None,
            };
            a.charge(cost::visited(area(map)))?;
            // Two bitsets, and a stack of up to a u32 a cell.
            let _mask_memory = a.reserve(area(map) as usize * 4 + area(map) as usize / 4)?;
            LuaSelection::held(
                &a,
                ops::flood_selection(map, x, y, avoid.as_deref().map(|s| &s.0)),
            )
        });
        reader!(methods, "chokepoints", |map, a| {
            // The depth-first search visits each walkable cell and its four
            // neighbours once; then one pass gathers the cells.
            a.charge(cost::visited(area(map) * 4))?;
            // Discovery times and low points (u32 each), the walkable and
            // result masks, and the search's stack (up to a cell each).
            let _search = a.reserve(area(map) as usize * 18)?;
            let mask = ops::chokepoints(map);
            LuaSelection::held(&a, Selection::from_mask(map.width(), map.height(), &mask))
        });
        reader!(methods, "disconnects", |map, a| {
            let sel = a.selection(0, "selection")?;
            // At worst two searches over the map (the pieces after, the
            // regions before) and a look at each selected cell.
            a.charge(cost::visited(area(map) * 2 + sel.count() as u64 * 4))?;
            // Four bitsets and a queue of up to a cell each.
            let _search = a.reserve(area(map) as usize * 9)?;
            ops::disconnects(map, &sel).map_err(|e| a.map_failed(e))
        });
        methods.add_method("regions", |lua, this, values: Six| {
            let a = this.args(lua, "map:regions", values)?;
            let regions = {
                let map = this.map(lua)?;
                // Which cells: walkable ones, or those of the kinds named.
                let kinds = match a.value(0) {
                    Value::Nil => None,
                    Value::String(_) => Some(vec![a.tile(0, map.tiles())?]),
                    Value::Table(list) => {
                        let mut kinds = Vec::new();
                        for (k, name) in list.clone().sequence_values::<Value>().enumerate() {
                            if k == 256 {
                                return Err(a.fail("at most 256 tile names"));
                            }
                            match name? {
                                Value::String(s) => {
                                    kinds.push(tile_named(&s, map.tiles()).map_err(|e| a.fail(e))?)
                                }
                                other => {
                                    return Err(a.fail(format!(
                                        "kinds[{}] must be a tile name, got {}",
                                        k + 1,
                                        show(&other)
                                    )))
                                }
                            }
                        }
                        Some(kinds)
                    }
                    other => {
                        return Err(a.fail(format!(
                            "t must be a tile name or a list of them, got {}",
                            show(other)
                        )))
                    }
                };
                a.charge(cost::visited(area(&map)))?;
                let member = match kinds {
                    None => ops::RegionKinds::walkable(&map),
                    Some(kinds) => ops::RegionKinds::of(&kinds),
                };
                // The runs being joined (counted first: a checkerboard has
                // a run every other cell), and the regions' cells after.
                let runs = ops::region_runs(&map, &member);
                let _labels = a.reserve(runs * 20 + area(&map) as usize * 4)?;
                let labels = ops::label_regions(&map, &member);
                // Each region is a table and a selection made for the
                // script: charged, and its own memory reserved, before any
                // is made (a million one-cell regions are refused, not
                // built past the limit).
                a.charge((labels.len() as u64).saturating_mul(3 * cost::UNITS_PER_VALUE_MADE))?;
                let _each = a.reserve(labels.len() * REGION_BYTES)?;
                labels.into_regions(&map)
            };
            let list = lua.create_table()?;
            for (i, region) in regions.into_iter().enumerate() {
                let t = lua.create_table()?;
                t.set("size", region.size)?;
                t.set("x", region.x)?;
                t.set("y", region.y)?;
                t.set("cells", LuaSelection::held(&a, region.cells)?)?;
                list.raw_set(i + 1, t)?;
            }
            Ok(list)
        });
        reader!(methods, "dijkstra", |map, a| {
            let sources = read_points(&a)?;
            a.charge(cost::visited(area(map) * 4 + sources.len() as u64))?;
            let _queue = a.reserve(area(map) as usize * 8)?;
            let distances = ops::dijkstra(map, &sources).map_err(|e| a.map_failed(e))?;
            LuaDistance::held(&a, distances)
        });
        reader!(methods, "neighbors", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            let tile = a.tile(2, map.tiles())?;
            map.neighbors(x, y, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "cellular", |map, a| {
            let opts = a.table(0, "rules")?;
            a.only_options(
                &opts,
                &["birth", "survive", "tile", "dead", "steps", "edge_alive"],
            )?;
            let list = |key: &str| -> mlua::Result<Vec<i64>> {
                match opts.get::<Value>(key)? {
                    // A hole (`{[2] = 5}`) or a key that is not a position
                    // was read as a shorter list, silently.
                    Value::Table(t) if t.pairs::<Value, Value>().count() != t.raw_len() => {
                        Err(a.fail(format!(
                            "{key} must be a list of neighbour counts (1, 2, 3, ... with no holes), got {}",
                            show(&Value::Table(t))
                        )))
                    }
                    Value::Table(t) => t
                        .sequence_values::<Value>()
                        .map(|v| match as_whole(v?) {
                            Value::Integer(n) => Ok(n),
                            other => Err(a.fail(format!(
                                "{key} must list whole neighbour counts, got {}",
                                show(&other)
                            ))),
                        })
                        .collect(),
                    other => Err(a.fail(format!(
                        "{key} must be a list of neighbour counts, got {}",
                        show(&other)
                    ))),
                }
            };
            let alive = opt_tile(&a, map, &opts, "tile", Tile::WALL)?;
            let dead = opt_tile(&a, map, &opts, "dead", Tile::FLOOR)?;
            let mut rule = CellularRule::new(alive, dead, &list("birth")?, &list("survive")?)
                .map_err(|e| a.map_failed(e))?;
            rule.edge_alive = match opts.get::<Value>("edge_alive")? {
                Value::Nil => true,
                Value::Boolean(b) => b,
                other => {
                    return Err(a.fail(format!(
                        "edge_alive must be a boolean, got {}",
                        show(&other)
                    )))
                }
            };
            let steps = match as_whole(opts.get::<Value>("steps")?) {
                Value::Nil => 1,
                Value::Integer(n) if (0..=10_000).contains(&n) => n as usize,
                other => {
                    return Err(a.fail(format!(
                        "steps must be an integer 0..=10000, got {}",
                        show(&other)
                    )))
                }
            };
            a.charge(cost::visited(area(map)).saturating_mul(steps as u64 * 2))?;
            let _scratch = a.reserve(area(map) as usize)?;
            map.cellular(&rule, steps);
            Ok(())
        });
        reader!(methods, "random_cell", |map, a| {
            let tile = a.tile(0, map.tiles())?;
            let rng = a.rng(1)?;
            a.charge(cost::written(area(map)))?;
            let cell = map.random_cell(tile, &mut rng.borrow_mut());
            Ok(cell.map_or((None, None), |(x, y)| (Some(x), Some(y))))
        });
        writer!(methods, "connect_regions", |map, a| {
            let rng = a.rng(0)?;
            let (tile, avoid) = match a.options(1)? {
                Some(opts) => {
                    a.only_options(&opts, &["tile", "avoid"])?;
                    (
                        opt_tile(&a, map, &opts, "tile", Tile::FLOOR)?,
                        a.opt_selection(&opts, "avoid", (map.width(), map.height()))?,
                    )
                }
                None => (Tile::FLOOR, None),
            };
            if !map.tiles().kind(tile).walkable {
                return Err(a.fail(format!(
                    "tile \"{}\" is not walkable: its tunnels would join nothing",
                    map.tiles().kind(tile).name
                )));
            }
            // Charged and held as it goes: its work depends on how the
            // regions lie, not on the map's size alone.
            let mut held = Reservation::none();
            let mut stop: Option<mlua::Error> = None;
            let mut report = |charge: Charge| -> Result<(), Stopped> {
                let done = match charge {
                    Charge::Work(units) => a.charge(units),
                    Charge::Memory(bytes) => a.resize(&mut held, bytes),
                };
                done.map_err(|e| {
                    stop = Some(e);
                    Stopped
                })
            };
            let dug = map.connect_regions_metered(
                &mut rng.borrow_mut(),
                tile,
                avoid.as_deref().map(|s| &s.0),
                &mut report,
            );
            match dug {
                Ok(dug) => Ok(dug),
                Err(Stopped) => Err(stop.unwrap_or_else(|| a.fail("stopped"))),
            }
        });
        writer!(methods, "add_loops", |map, a| {
            let (mut min_distance, mut tile, mut rng) = (20i64, Tile::DOOR, None);
            if let Some(opts) = a.options(0)? {
                a.only_options(&opts, &["min_distance", "tile", "rng"])?;
                match as_whole(opts.get::<Value>("min_distance")?) {
                    Value::Nil => {}
                    Value::Integer(d) if (1..=10_000).contains(&d) => min_distance = d,
                    other => {
                        return Err(a.fail(format!(
                            "min_distance must be an integer 1..=10000, got {}",
                            show(&other)
                        )))
                    }
                }
                tile = opt_tile(&a, map, &opts, "tile", Tile::DOOR)?;
                rng = match opts.get::<Value>("rng")? {
                    Value::Nil => None,
                    Value::UserData(ud) => match ud.borrow::<super::api_rng::LuaRng>() {
                        Ok(r) => Some(r.0.clone()),
                        Err(_) => return Err(a.fail("rng must be an rng")),
                    },
                    other => {
                        return Err(a.fail(format!("rng must be an rng, got {}", show(&other))))
                    }
                };
            }
            a.charge(cost::visited(area(map)))?;
            let searches = map.loop_candidates() as u64;
            let per_search = (min_distance as u64).pow(2).min(area(map));
            a.charge(cost::visited(searches.saturating_mul(per_search)))?;
            let _marks = a.reserve(area(map) as usize * 4)?;
            let mut stream = rng.as_ref().map(|r| r.borrow_mut());
            Ok(map.add_loops(min_distance as u32, tile, stream.as_deref_mut()))
        });
        writer!(methods, "add_doors", |map, a| {
            if let Value::Table(opts) = a.value(0) {
                a.only_options(opts, &["tile", "secret", "rng"])?;
                let tile = opt_tile(&a, map, opts, "tile", Tile::DOOR)?;
                let secret = match opts.get::<Value>("secret")? {
                    Value::Nil => None,
                    Value::Integer(p) => Some(p as f64),
                    Value::Number(p) => Some(p),
                    other => {
                        return Err(a.fail(format!(
                            "secret must be a probability, got {}",
                            show(&other)
                        )))
                    }
                };
                // Anything but nil or an rng is said as add_loops says it
                // (a string was dropped silently when `secret` was not given).
                let rng = match opts.get::<Value>("rng")? {
                    Value::Nil => None,
                    Value::UserData(ud) if ud.borrow::<super::api_rng::LuaRng>().is_ok() => ud
                        .borrow::<super::api_rng::LuaRng>()
                        .ok()
                        .map(|r| r.0.clone()),
                    other => {
                        return Err(a.fail(format!("rng must be an rng, got {}", show(&other))))
                    }
                };
                let ring: u64 = map
                    .rooms()
                    .iter()
                    .map(|r| 2 * (r.x2.abs_diff(r.x1) as u64 + r.y2.abs_diff(r.y1) as u64) + 4)
                    .sum();
                a.charge(cost::visited(ring))?;
                return match (secret, rng) {
                    (None, _) => Ok(map.add_doors(tile)),
                    (Some(p), Some(rng)) if (0.0..=1.0).contains(&p) => map
                        .add_doors_secret(tile, p, &mut rng.borrow_mut())
                        .map_err(|e| a.map_failed(e)),
                    (Some(p), Some(_)) => Err(a.fail(format!("secret must be 0..1, got {p}"))),
                    (Some(_), None) => {
                        Err(a.fail("secret doors need rng = rng (the stream that picks them)"))
                    }
                };
            }
            let tile = a.tile_or(0, map.tiles_mut(), Tile::DOOR)?;
            let ring: u64 = map
                .rooms()
                .iter()
                .map(|r| 2 * (r.x2.abs_diff(r.x1) as u64 + r.y2.abs_diff(r.y1) as u64) + 4)
                .sum();
            a.charge(cost::visited(ring))?;
            Ok(map.add_doors(tile))
        });
        // Written out (not `writer!`): the markers a stamp puts down are
        // held against the memory limit like `map:mark`'s.
        methods.add_method("stamp", |lua, this, values: Six| {
            let a = this.args(lua, "map:stamp", values)?;
            let mut guard = this.map_mut(lua)?;
            let done = (|| -> mlua::Result<(mlua::Result<Rect>, usize)> {
                let map = &mut *guard;
                let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
                let (rows, _rows) = read_rows(&a, 2, map)?;
                let (legend, _legend) = read_legend(&a, map, &a.table(3, "legend")?)?;
                let cells: usize = rows.iter().map(|r| r.len()).sum();
                a.charge(cost::visited(cells as u64).saturating_mul(2))?;
                // Turning builds the prefab again as a grid of chars.
                let _turned = a.reserve(cells * 8)?;
                let (rotate, mirror) = match a.options(4)? {
                    Some(opts) => {
                        a.only_options(&opts, &["rotate", "mirror"])?;
                        (
                            read_rotate(&a, &opts, false)?.unwrap_or(0),
                            match read_mirror(&a, &opts, false)? {
                                ops::MirrorChoice::Fixed(m) => m,
                                ops::MirrorChoice::Any => None,
                            },
                        )
                    }
                    None => (0, None),
                };
                let _markers = a.reserve(stamp_marker_bytes(&rows, &legend))?;
                let rows = ops::orient(&rows, rotate, mirror).map_err(|e| a.map_failed(e))?;
                let before = map.markers().len();
                // What it covers once turned: its first and last cells.
                let covered = covered_rect(x as i32, y as i32, &rows);
                let stamped = map.stamp(x, y, &rows, &legend).map(|()| covered);
                // Markers put down before a failure stay, as tiles do.
                Ok((
                    stamped.map_err(|e| a.map_failed(e)),
                    marker_bytes_from(map, before),
                ))
            })();
            if let Some(journal) = this.journal.borrow_mut().as_mut() {
                journal.capture(&mut guard, "stamp", false);
            }
            drop(guard);
            let (stamped, added) = done?;
            this.hold(&a, added)?;
            rect_value(lua, stamped?)
        });
        methods.add_method("place_prefab", |lua, this, values: Six| {
            let a = this.args(lua, "map:place_prefab", values)?;
            // Its rows, legend and options are tables read key by key.
            a.charge(cost::CALL_UNITS)?;
            let rng = a.rng(2)?;
            let (placed, added) = {
                let mut guard = this.map_mut(lua)?;
                let map = &mut *guard;
                let (rows, _rows) = read_rows(&a, 0, map)?;
                let (legend, _legend) = read_legend(&a, map, &a.table(1, "legend")?)?;
                let mut how = ops::Placement {
                    rotate: Some(0),
                    mirror: ops::MirrorChoice::Fixed(None),
                    on: None,
                    within: None,
                    tries: 100,
                };
                if let Some(opts) = a.options(3)? {
                    a.only_options(&opts, &["rotate", "mirror", "on", "within", "tries"])?;
                    how.rotate = read_rotate(&a, &opts, true)?;
                    how.mirror = read_mirror(&a, &opts, true)?;
                    how.on = match opts.get::<Value>("on")? {
                        Value::Nil => None,
                        Value::String(s) => {
                            let tile = tile_named(&s, map.tiles())
                                .map_err(|e| a.fail(format!("on: {e}")))?;
                            // Checked on the map cell by cell within the
                            // tries (charged below), never as a whole-map
                            // selection.
                            Some(ops::PlaceOn::Tile(tile))
                        }
                        _ => a
                            .opt_selection(&opts, "on", (map.width(), map.height()))?
                            .map(|s| ops::PlaceOn::Cells(s.0.clone())),
                    };
                    how.within = match opts.get::<Value>("within")? {
                        Value::Nil => None,
                        value => Some(super::raw::rect::rect_of(lua, &value).ok_or_else(|| {
                            a.fail(format!(
                                "within must be a Rect (from Rect.new), got {}",
                                show(&value)
                            ))
                        })?),
                    };
                    how.tries = match as_whole(opts.get::<Value>("tries")?) {
                        Value::Nil => 100,
                        Value::Integer(t) if (1..=100_000).contains(&t) => t as u32,
                        other => {
                            return Err(a.fail(format!(
                                "tries must be an integer 1..=100000, got {}",
                                show(&other)
                            )))
                        }
                    };
                }
                let cells: usize = rows.iter().map(|r| r.len()).sum();
                // Each try draws a spot (and a turn) and checks the prefab's
                // cells there: a small prefab that fits nowhere took about
                // 16 units of time a try beyond its cells.
                a.charge(
                    cost::visited(cells as u64 + cost::PREFAB_TRY_UNITS)
                        .saturating_mul(how.tries as u64 + 1),
                )?;
                // The turned copy, and the copy of the map the size of the
                // prefab that checks its rows and legend.
                let probe = rows.len() * rows.iter().map(|r| r.len()).max().unwrap_or(0);
                let _copy = a.reserve(cells * 8 + probe)?;
                let _markers = a.reserve(stamp_marker_bytes(&rows, &legend))?;
                let before = map.markers().len();
                let placed = map
                    .place_prefab(&rows, &legend, &mut rng.borrow_mut(), &how)
                    .map_err(|e| a.map_failed(e))?;
                if let Some(journal) = this.journal.borrow_mut().as_mut() {
                    if placed.is_some() {
                        journal.capture(map, "place_prefab", false);
                    }
                }
                // What it covers, turned as it went down.
                let placed = placed.map(|(x, y, rotate, mirror)| {
                    let (w, h) = (
                        rows.first().map_or(0, |r| r.chars().count()) as i32,
                        rows.len() as i32,
                    );
                    let (w, h) = if rotate % 180 == 90 { (h, w) } else { (w, h) };
                    let covered = Rect {
                        x1: x,
                        y1: y,
                        x2: x + w - 1,
                        y2: y + h - 1,
                    };
                    ((x, y, rotate, mirror), covered)
                });
                (placed, marker_bytes_from(map, before))
            };
            // The markers it put down, and whatever the journal holds now.
            this.hold(&a, added)?;
            Ok(match placed {
                Some(((x, y, rotate, mirror), covered)) => (
                    Some(x),
                    Some(y),
                    Some(rotate),
                    mirror.map(|m| if m == ops::Mirror::X { "x" } else { "y" }),
                    Some(rect_value(lua, covered)?),
                ),
                None => (None, None, None, None, None),
            })
        });
        writer!(methods, "circle", |map, a| {
            let (x, y, r) = (a.coord(0, "x")?, a.coord(1, "y")?, a.coord(2, "r")?);
            let tile = a.tile(3, map.tiles_mut())?;
            let side = span(x - r, x + r, map.width().max(map.height()));
            a.charge(cost::visited(side.saturating_mul(side)))?;
            map.circle(x, y, r, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "line", |map, a| {
            let from = (a.coord(0, "x1")?, a.coord(1, "y1")?);
            let to = (a.coord(2, "x2")?, a.coord(3, "y2")?);
            let tile = a.tile(4, map.tiles_mut())?;
            a.charge(cost::visited(
                span(from.0, to.0, map.width()) + span(from.1, to.1, map.height()),
            ))?;
            map.line(from, to, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "walk", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            let steps = a.int(2, "steps")?;
            let rng = a.rng(3)?;
            let tile = a.tile_or(4, map.tiles_mut(), Tile::FLOOR)?;
            // Refused at once, before walking, when the steps cannot be paid for.
            a.charge(cost::visited(steps.max(0) as u64).saturating_mul(2))?;
            let walked = map.walk(x, y, steps, &mut rng.borrow_mut(), tile);
            walked.map_err(|e| a.map_failed(e))
        });
        writer!(methods, "scatter", |map, a| {
            let tile = a.tile(0, map.tiles_mut())?;
            let p = a.number(1, "p")?;
            let rng = a.rng(2)?;
            let area = if a.is_given(3) {
                a.rect(3, "rect")?
            } else {
                crate::geom::Rect {
                    x1: 0,
                    y1: 0,
                    x2: map.width() - 1,
                    y2: map.height() - 1,
                }
            };
            a.charge(cost::visited(rect_cells(map, &area)))?;
            let scattered = map.scatter(tile, p, &area, &mut rng.borrow_mut());
            scattered.map_err(|e| a.map_failed(e))
        });
        writer!(methods, "maze", |map, a| {
            let area = a.rect(0, "rect")?;
            let rng = a.rng(1)?;
            let (mut loops, mut tile) = (0.0, Tile::FLOOR);
            if let Some(opts) = a.options(2)? {
                a.only_options(&opts, &["loops", "tile"])?;
                tile = opt_tile(&a, map, &opts, "tile", Tile::FLOOR)?;
                loops = match opts.get::<Value>("loops")? {
                    Value::Nil => 0.0,
                    Value::Integer(i) => i as f64,
                    Value::Number(f) if f.is_finite() => f,
                    other => {
                        return Err(a.fail(format!("loops must be a number, got {}", show(&other))))
                    }
                };
            }
            a.charge(cost::visited(rect_cells(map, &area)).saturating_mul(4))?;
            let _stack = a.reserve(rect_cells(map, &area) as usize * 8)?;
            let carved = map.maze(&area, &mut rng.borrow_mut(), loops, tile);
            carved.map_err(|e| a.map_failed(e))
        });
        methods.add_method("path", |lua, this, values: Six| {
            let a = this.args(lua, "map:path", values)?;
            let (ax, ay) = (a.coord(0, "ax")?, a.coord(1, "ay")?);
            let (bx, by) = (a.coord(2, "bx")?, a.coord(3, "by")?);
            let found = {
                let map = this.map(lua)?;
                let costs = path_costs(&a, &map, 4)?;
                // A* may open every cell, each pushed a few times.
                a.charge(cost::visited(area(&map)).saturating_mul(8))?;
                let _state = a.reserve(area(&map) as usize * 32)?;
                ops::path(&map, (ax, ay), (bx, by), &costs).map_err(|e| a.map_failed(e))?
            };
            let Some(cells) = found else {
                return Ok(Value::Nil);
            };
            budget::make_room(
                lua,
                "map:path",
                cells.len().saturating_mul(cost::PATH_POINT_BYTES),
            )?;
            let list = lua.create_table_with_capacity(cells.len(), 0)?;
            for (k, (x, y)) in cells.into_iter().enumerate() {
                let point = lua.create_table_with_capacity(2, 2)?;
                point.raw_set(1, x)?;
                point.raw_set(2, y)?;
                point.raw_set("x", x)?;
                point.raw_set("y", y)?;
                list.raw_set(k + 1, point)?;
            }
            Ok(Value::Table(list))
        });
        writer!(methods, "carve_path", |map, a| {
            let cells = read_point_list(&a, 0, "path")?;
            let tile = a.tile_or(1, map.tiles_mut(), Tile::FLOOR)?;
            map.carve_path(&cells, tile).map_err(|e| a.map_failed(e))
        });
        reader!(methods, "noise", |map, a| {
            let rng = a.rng(0)?;
            let (mut scale, mut octaves) = (8.0, 3i64);
            if let Some(opts) = a.options(1)? {
                a.only_options(&opts, &["scale", "octaves"])?;
                match opts.get::<Value>("scale")? {
                    Value::Nil => {}
                    Value::Integer(i) => scale = i as f64,
                    Value::Number(f) => scale = f,
                    other => {
                        return Err(a.fail(format!("scale must be a number, got {}", show(&other))))
                    }
                }
                match as_whole(opts.get::<Value>("octaves")?) {
                    Value::Nil => {}
                    Value::Integer(i) => octaves = i,
                    other => {
                        return Err(
                            a.fail(format!("octaves must be an integer, got {}", show(&other)))
                        )
                    }
                }
            }
            let octaves = u32::try_from(octaves).unwrap_or(u32::MAX);
            if (1.0..=ops::NOISE_MAX_SCALE).contains(&scale) && (1..=8).contains(&octaves) {
                let draws = ops::noise_draws(map.width(), map.height(), scale, octaves);
                a.charge(cost::visited(area(map)).saturating_mul(octaves as u64) + draws * 4)?;
                let _lattice = a.reserve(draws as usize * 8)?;
            }
            let field = ops::Noise::new(
                map.width(),
                map.height(),
                &mut rng.borrow_mut(),
                scale,
                octaves,
            )
            .map_err(|e| a.map_failed(e))?;
            super::api_selection::LuaNoise::held(&a, field)
        });
        reader!(methods, "select", |map, a| {
            let tile = a.tile(0, map.tiles())?;
            a.charge(cost::visited(area(map)))?;
            let _room = a.reserve(area(map) as usize * 4)?;
            LuaSelection::held(&a, Selection::of_tile(map, tile))
        });
        reader!(methods, "select_rect", |map, a| {
            let rect = a.rect(0, "rect")?;
            a.charge(cost::visited(rect_cells(map, &rect)))?;
            let _room = a.reserve(rect_cells(map, &rect) as usize * 4)?;
            let sel = Selection::of_rect(map, &rect).map_err(|e| a.map_failed(e))?;
            LuaSelection::held(&a, sel)
        });
        reader!(methods, "dead_ends", |map, a| {
            a.charge(cost::visited(area(map).saturating_mul(5)))?;
            let _room = a.reserve(area(map) as usize * 4)?;
            LuaSelection::held(&a, Selection::dead_ends(map))
        });
        writer!(methods, "fill_selection", |map, a| {
            let sel = a.selection(0, "selection")?;
            let tile = a.tile(1, map.tiles_mut())?;
            a.charge(cost::written(sel.count() as u64))?;
            map.fill_selection(&sel, tile).map_err(|e| a.map_failed(e))
        });
        methods.add_method("snapshot", |lua, this, values: Six| {
            let label = this.args(lua, "map:snapshot", values)?.name(0, "label")?;
            let a = this.args(lua, "map:snapshot", Six::default())?;
            // Refused in validate whether or not a replay is recorded (the
            // window records, check does not: a script passing check
            // failed in the window).
            drop(this.map_mut(lua)?);
            let recording = match this.journal.borrow_mut().as_mut() {
                Some(journal) => {
                    journal.capture(&mut *this.map_mut(lua)?, &label, true);
                    true
                }
                None => false,
            };
            if recording {
                this.hold(&a, 0)?;
            }
            Ok(())
        });
        methods.add_meta_method(mlua::MetaMethod::ToString, |lua, this, ()| {
            let map = this.map(lua)?;
            Ok(format!("map({}x{})", map.width(), map.height()))
        });
    }
}
