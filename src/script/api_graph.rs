//! `graph` for scripts: a level drawn as a graph of rooms and laid out
//! with room templates (`graph.new()`, `g:room`, `g:connect`, `g:layout`).
//! The search itself is plain Rust in [`crate::layout`]; this module reads
//! and checks the script's values, charges the work to the budget, stamps
//! the result and records the search's steps for the replay.

use std::cell::RefCell;
use std::collections::BTreeMap;

use mlua::{Lua, MetaMethod, MultiValue, Table, UserData, UserDataMethods, Value};

use super::api_map::{
    marker_bytes_from, read_legend_with, read_rows_from, stamp_marker_bytes, LuaMap,
};
use super::api_rng::RngArg;
use super::args::{show, tile_named, whole_integer, Args, Six};
use super::budget::{self, Reservation};
use super::cost;
use super::error::script_location;
use super::raw::rect::rect_value;
use crate::geom::Rect;
use crate::layout::{self, CellKind, Edge, Event, Graph, Joints, Node, Problem, TemplateSpec};
use crate::map::{Map, Tile};
use crate::ops::StampCell;

/// The most templates one room may list.
const MAX_ROOM_TEMPLATES: usize = 256;
/// The default number of attempts.
const DEFAULT_ATTEMPTS: u32 = 100;

/// One edge as the script declared it.
struct EdgeSpec {
    a: usize,
    b: usize,
    door: Option<String>,
    /// The `file:line` of the `g:connect` that named `door`: the kind may
    /// be defined (`tiles.define`) up to `g:layout`, which looks it up and
    /// names this line when there is no such kind.
    at: Option<String>,
}

/// A graph being drawn by a script.
#[derive(Default)]
struct Drawing {
    nodes: Vec<(String, Vec<String>)>,
    by_name: BTreeMap<String, usize>,
    edges: Vec<EdgeSpec>,
    bytes: usize,
}

/// The graph userdata, its memory held against the run's limit.
pub(crate) struct LuaGraph {
    drawing: RefCell<Drawing>,
    held: RefCell<Reservation>,
}

impl LuaGraph {
    /// A graph holding nothing and no memory: what the host makes once
    /// when it sets a VM up, so the type's metatable exists before any run.
    pub(crate) fn placeholder() -> LuaGraph {
        LuaGraph {
            drawing: RefCell::new(Drawing::default()),
            held: RefCell::new(Reservation::none()),
        }
    }
}

/// Registers the global `graph` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let graph = lua.create_table()?;
    graph.set(
        "new",
        lua.create_function(|lua, values: MultiValue| {
            let a = Args::new(lua, "graph.new", values);
            a.charge(cost::CALL_UNITS)?;
            Ok(LuaGraph {
                drawing: RefCell::new(Drawing::default()),
                held: RefCell::new(a.reserve(64)?),
            })
        })?,
    )?;
    lua.globals().set("graph", graph)
}

/// The error for changing a graph while it is being laid out (from a
/// metamethod that `g:layout` set off).
fn busy(a: &Args) -> mlua::Error {
    a.fail("the graph is being laid out; change it after g:layout returns")
}

impl LuaGraph {
    /// Counts `more` bytes of the drawing against the memory limit.
    fn grow(&self, a: &Args, more: usize) -> mlua::Result<()> {
        let total = {
            let mut d = self.drawing.try_borrow_mut().map_err(|_| busy(a))?;
            d.bytes += more;
            d.bytes
        };
        let mut held = self.held.try_borrow_mut().map_err(|_| busy(a))?;
        a.resize(&mut held, total + 64)
    }
}

impl UserData for LuaGraph {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("room", |lua, this, values: Six| {
            let a = Args::new(lua, "graph:room", values);
            a.charge(cost::CALL_UNITS)?;
            let name = a.name(0, "name")?;
            let opts = a.options(1)?;
            let listed = match &opts {
                Some(opts) => {
                    a.only_options(opts, &["templates"])?;
                    opts.get::<Value>("templates")?
                }
                None => Value::Nil,
            };
            // No list: the room may use every template g:layout is given
            // (kept as an empty list, read there).
            let list = match listed {
                Value::Nil => None,
                Value::Table(t) => Some(t),
                other => {
                    return Err(a.fail(format!(
                        "opts.templates must be a list of template names, got {}",
                        show(&other)
                    )))
                }
            };
            let count = list.as_ref().map_or(0, |l| l.raw_len());
            if list.is_some() && (count == 0 || count > MAX_ROOM_TEMPLATES) {
                return Err(a.fail(format!(
                    "opts.templates must list 1 to {MAX_ROOM_TEMPLATES} template names, got {count}"
                )));
            }
            let mut templates = Vec::with_capacity(count);
            let mut bytes = name.len() + 64;
            if let Some(list) = &list {
                for k in 1..=count {
                    a.charge(cost::CALL_UNITS / 4)?;
                    match list.raw_get::<Value>(k)? {
                        Value::String(s) => {
                            let t = a.name_of(&s, &format!("opts.templates[{k}]"))?;
                            bytes += t.len() + 32;
                            templates.push(t);
                        }
                        other => {
                            return Err(a.fail(format!(
                                "opts.templates[{k}] must be a template name, got {}",
                                show(&other)
                            )))
                        }
                    }
                }
            }
            {
                let d = this.drawing.borrow();
                if d.by_name.contains_key(&name) {
                    return Err(a.fail(format!("room \"{name}\" is already in the graph")));
                }
                if d.nodes.len() >= layout::MAX_ROOMS {
                    return Err(
                        a.fail(format!("a graph holds at most {} rooms", layout::MAX_ROOMS))
                    );
                }
            }
            this.grow(&a, bytes)?;
            let mut d = this.drawing.try_borrow_mut().map_err(|_| busy(&a))?;
            let i = d.nodes.len();
            d.by_name.insert(name.clone(), i);
            d.nodes.push((name, templates));
            Ok(())
        });
        methods.add_method("connect", |lua, this, values: Six| {
            let a = Args::new(lua, "graph:connect", values);
            a.charge(cost::CALL_UNITS)?;
            let (na, nb) = (a.name(0, "a")?, a.name(1, "b")?);
            let door = match a.options(2)? {
                None => None,
                Some(opts) => {
                    a.only_options(&opts, &["door"])?;
                    match opts.get::<Value>("door")? {
                        Value::Nil => None,
                        Value::String(s) => Some(a.name_of(&s, "opts.door")?),
                        other => {
                            return Err(a.fail(format!(
                                "opts.door must be a tile name, got {}",
                                show(&other)
                            )))
                        }
                    }
                }
            };
            let (ia, ib) = {
                let d = this.drawing.borrow();
                let find = |n: &str| {
                    d.by_name.get(n).copied().ok_or_else(|| {
                        a.fail(format!(
                            "no room \"{n}\" in the graph (add it with g:room first)"
                        ))
                    })
                };
                let (ia, ib) = (find(&na)?, find(&nb)?);
                if ia == ib {
                    return Err(a.fail(format!("room \"{na}\" cannot be connected to itself")));
                }
                if d.edges
                    .iter()
                    .any(|e| (e.a, e.b) == (ia, ib) || (e.a, e.b) == (ib, ia))
                {
                    return Err(a.fail(format!("\"{na}\" and \"{nb}\" are already connected")));
                }
                if d.edges.len() >= layout::MAX_EDGES {
                    return Err(a.fail(format!(
                        "a graph holds at most {} connections",
                        layout::MAX_EDGES
                    )));
                }
                (ia, ib)
            };
            let at = door.as_ref().and_then(|_| script_location(lua));
            let text = door.as_ref().map_or(0, String::len) + at.as_ref().map_or(0, String::len);
            this.grow(&a, 48 + text)?;
            this.drawing.borrow_mut().edges.push(EdgeSpec {
                a: ia,
                b: ib,
                door,
                at,
            });
            Ok(())
        });
        methods.add_method("layout", |lua, this, values: Six| {
            layout_call(lua, this, values)
        });
        // Not the default "userdata: 0x55..." (an address differs every run).
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            let d = this.drawing.borrow();
            Ok(format!(
                "graph ({} rooms, {} connections)",
                d.nodes.len(),
                d.edges.len()
            ))
        });
    }
}

/// The sockets named so far: 0 is the unnamed one.
#[derive(Default)]
struct Sockets(BTreeMap<String, u32>);

impl Sockets {
    fn id(&mut self, name: Option<String>) -> u32 {
        match name {
            None => 0,
            Some(n) => {
                let next = self.0.len() as u32 + 1;
                *self.0.entry(n).or_insert(next)
            }
        }
    }
}

/// The legend entry a character came from (a digit may be an integer key).
fn legend_entry(legend: &Table, c: char) -> mlua::Result<Value> {
    let mut buf = [0u8; 4];
    let v = legend.raw_get::<Value>(&*c.encode_utf8(&mut buf))?;
    match (v, c.to_digit(10)) {
        (Value::Nil, Some(d)) => legend.raw_get::<Value>(d as i64),
        (v, _) => Ok(v),
    }
}

/// A template read from `T[name]`: its spec for the search, and the
/// legend `map:stamp` puts it down with.
struct Template {
    spec: TemplateSpec,
    legend: Vec<(char, StampCell)>,
    _held: [Reservation; 2],
}

fn read_template(
    a: &Args,
    map: &mut Map,
    name: &str,
    value: Value,
    sockets: &mut Sockets,
) -> mlua::Result<Template> {
    let what = format!("templates.{name}");
    let t = match value {
        Value::Table(t) => t,
        Value::Nil => {
            return Err(a.fail(format!(
                "unknown template \"{name}\": opts.templates has no entry of that name"
            )))
        }
        other => {
            return Err(a.fail(format!(
                "{what} must be a table {{rows =, legend =}}, got {}",
                show(&other)
            )))
        }
    };
    a.only_options(&t, &["rows", "legend", "rotate", "mirror", "unique"])?;
    let flag = |key: &str, default: bool| -> mlua::Result<bool> {
        match t.get::<Value>(key)? {
            Value::Nil => Ok(default),
            Value::Boolean(b) => Ok(b),
            other => Err(a.fail(format!(
                "{what}.{key} must be a boolean, got {}",
                show(&other)
            ))),
        }
    };
    let (rotate, mirror, unique) = (
        flag("rotate", true)?,
        flag("mirror", true)?,
        flag("unique", false)?,
    );
    let rows_list = match t.get::<Value>("rows")? {
        Value::Table(r) => r,
        other => {
            return Err(a.fail(format!(
                "{what}.rows must be a list of strings, got {}",
                show(&other)
            )))
        }
    };
    let (rows, rows_held) = read_rows_from(a, &rows_list, map, &format!("{what}.rows"))?;
    let legend_table = match t.get::<Value>("legend")? {
        Value::Table(l) => l,
        other => {
            return Err(a.fail(format!(
                "{what}.legend must be a table, got {}",
                show(&other)
            )))
        }
    };
    let (legend, legend_held) = read_legend_with(a, map, &legend_table, &["door", "socket"])?;
    let mut kinds = Vec::with_capacity(legend.len());
    for (c, cell) in &legend {
        a.charge(cost::CALL_UNITS / 4)?;
        let door = match legend_entry(&legend_table, *c)? {
            Value::Table(entry) => {
                let socket = match entry.get::<Value>("socket")? {
                    Value::Nil => None,
                    Value::String(s) => {
                        Some(a.name_of(&s, &format!("{what}.legend '{c}': socket"))?)
                    }
                    other => {
                        return Err(a.fail(format!(
                            "{what}.legend '{c}': socket must be a name, got {}",
                            show(&other)
                        )))
                    }
                };
                match entry.get::<Value>("door")? {
                    Value::Nil | Value::Boolean(false) if socket.is_none() => None,
                    Value::Nil | Value::Boolean(false) => {
                        return Err(a.fail(format!(
                            "{what}.legend '{c}': a socket is only for a door place (door = true)"
                        )))
                    }
                    Value::Boolean(true) => Some(sockets.id(socket)),
                    other => {
                        return Err(a.fail(format!(
                            "{what}.legend '{c}': door must be a boolean, got {}",
                            show(&other)
                        )))
                    }
                }
            }
            _ => None,
        };
        let open = cell
            .tile
            .is_some_and(|tile| map.tiles().kind(tile).walkable);
        kinds.push((*c, CellKind { open, door }));
    }
    let width = rows.first().map_or(0, |r| r.chars().count());
    if width == 0 {
        return Err(a.fail(format!("{what}: the template has no rows")));
    }
    for (k, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            return Err(a.fail(format!(
                "{what}: row {} has {} where row 1 has {width}",
                k + 1,
                crate::one_line::characters(len)
            )));
        }
        if let Some(c) = row
            .chars()
            .find(|&c| c != ' ' && kinds.binary_search_by_key(&c, |(k, _)| *k).is_err())
        {
            return Err(a.fail(format!(
                "{what}: row {} uses '{c}', which its legend does not define",
                k + 1
            )));
        }
    }
    // A space is no cell: a template of spaces alone is a room of none.
    if rows.iter().all(|row| row.chars().all(|c| c == ' ')) {
        return Err(a.fail(format!(
            "{what}: the template is all spaces, so it covers no cell"
        )));
    }
    let spec = TemplateSpec {
        name: name.to_string(),
        rows,
        kinds,
        rotate,
        mirror,
        unique,
    };
    layout::shapes::check_doors(&spec).map_err(|e| a.fail(e))?;
    Ok(Template {
        spec,
        legend,
        _held: [rows_held, legend_held],
    })
}

/// How the call's options read.
struct Options {
    joints: Joints,
    corridor_tile: Tile,
    attempts: u32,
}

fn read_options(a: &Args, map: &mut Map, opts: &Table) -> mlua::Result<Options> {
    a.only_options(opts, &["templates", "corridors", "attempts"])?;
    let attempts = match opts.get::<Value>("attempts")? {
        Value::Nil => DEFAULT_ATTEMPTS,
        Value::Integer(n) if (1..=layout::MAX_ATTEMPTS as i64).contains(&n) => n as u32,
        Value::Number(f)
            if f.fract() == 0.0 && (1.0..=layout::MAX_ATTEMPTS as f64).contains(&f) =>
        {
            f as u32
        }
        other => {
            return Err(a.fail(format!(
                "opts.attempts must be an integer from 1 to {}, got {}",
                layout::MAX_ATTEMPTS,
                show(&other)
            )))
        }
    };
    let side = map.width().max(map.height()) as i64;
    let (joints, corridor_tile) = match opts.get::<Value>("corridors")? {
        Value::Nil => (Joints::Shared, Tile::FLOOR),
        Value::Table(c) => {
            a.only_options(&c, &["length", "tile"])?;
            // A whole float is an integer (as everywhere); the message
            // shows the pair as given, not "a table".
            let length = c.get::<Value>("length")?;
            let (min, max) = match &length {
                Value::Table(l) => {
                    let (lo, hi) = (l.raw_get::<Value>(1)?, l.raw_get::<Value>(2)?);
                    match (whole_integer(&lo), whole_integer(&hi)) {
                        (Some(lo), Some(hi)) if 1 <= lo && lo <= hi && hi <= side => {
                            (lo as u32, hi as u32)
                        }
                        _ => {
                            return Err(bad_length(
                                a,
                                side,
                                &format!("{{{}, {}}}", show(&lo), show(&hi)),
                            ))
                        }
                    }
                }
                other => return Err(bad_length(a, side, &show(other))),
            };
            let tile = match c.get::<Value>("tile")? {
                Value::Nil => Tile::FLOOR,
                Value::String(s) => tile_named(&s, map.tiles_mut()).map_err(|e| a.fail(e))?,
                other => {
                    return Err(a.fail(format!(
                        "opts.corridors.tile must be a tile name, got {}",
                        show(&other)
                    )))
                }
            };
            if !map.tiles().kind(tile).walkable {
                return Err(a.fail(format!(
                    "opts.corridors.tile \"{}\" is not walkable",
                    map.tiles().kind(tile).name
                )));
            }
            (Joints::Corridors { min, max }, tile)
        }
        other => {
            return Err(a.fail(format!(
                "opts.corridors must be a table {{length = {{min, max}}}} or nil, got {}",
                show(&other)
            )))
        }
    };
    Ok(Options {
        joints,
        corridor_tile,
        attempts,
    })
}

/// The error for a corridor length that is not `{min, max}` in range.
fn bad_length(a: &Args, side: i64, got: &str) -> mlua::Error {
    a.fail(format!(
        "opts.corridors.length must be {{min, max}}, integers with 1 <= min <= max <= {side} (the map's longest side), got {got}"
    ))
}

/// The error for an edge whose door kind no tile set defines by the time
/// `g:layout` runs, or is not walkable: located at the `g:connect` that
/// named it (the line with the mistake), saying where the layout looked.
fn bad_door(lua: &Lua, a: &Args, edge: &EdgeSpec, why: String) -> mlua::Error {
    match &edge.at {
        Some(at) => {
            let layout = script_location(lua).map_or(String::new(), |l| format!(" at {l}"));
            mlua::Error::RuntimeError(format!(
                "{at}: graph:connect: opts.door: {why} (looked up by g:layout{layout})"
            ))
        }
        None => a.fail(format!("opts.door: {why}")),
    }
}

/// The names of every template in `opts.templates`, sorted, when a room
/// named none (it may use any of them); `None` when every room has its
/// list.
fn every_template(a: &Args, drawing: &Drawing, table: &Table) -> mlua::Result<Option<Vec<String>>> {
    let Some((room, _)) = drawing.nodes.iter().find(|(_, t)| t.is_empty()) else {
        return Ok(None);
    };
    let mut names = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        a.charge(cost::CALL_UNITS / 4)?;
        let (key, _) = pair?;
        let Value::String(key) = &key else {
            return Err(a.fail(format!(
                "opts.templates must be a table of templates by name, got the key {}",
                show(&key)
            )));
        };
        names.push(a.name_of(key, "a template's name")?);
        if names.len() > MAX_ROOM_TEMPLATES {
            break;
        }
    }
    names.sort_unstable();
    if names.is_empty() || names.len() > MAX_ROOM_TEMPLATES {
        return Err(a.fail(format!(
            "room \"{room}\" names no templates, so it may use every one in opts.templates: \
             that is 1 to {MAX_ROOM_TEMPLATES}, and opts.templates has {}",
            if names.len() > MAX_ROOM_TEMPLATES {
                format!("more than {MAX_ROOM_TEMPLATES}")
            } else {
                names.len().to_string()
            }
        )));
    }
    Ok(Some(names))
}

/// `g:layout(map, rng, opts)`.
fn layout_call(lua: &Lua, this: &LuaGraph, values: Six) -> mlua::Result<MultiValue> {
    let a = Args::new(lua, "graph:layout", values);
    a.charge(cost::CALL_UNITS)?;
    let map_ud = match a.value(0) {
        Value::UserData(ud) if ud.is::<LuaMap>() => ud.clone(),
        _ => return Err(a.bad("map", "the map", 0)),
    };
    let lua_map = map_ud.borrow::<LuaMap>()?;
    let rng = a.rng(1)?;
    let opts = a.table(2, "opts")?;
    let drawing = this.drawing.borrow();
    let mut map_ref = lua_map.map_mut(lua)?;
    let map = &mut *map_ref;
    let a = a.on_map(map.width(), map.height());
    let options = read_options(&a, map, &opts)?;
    let table = match opts.get::<Value>("templates")? {
        Value::Table(t) => t,
        other => {
            return Err(a.fail(format!(
                "opts.templates must be a table of templates by name, got {}",
                show(&other)
            )))
        }
    };
    // Only the templates the rooms name (all of them when a room names
    // none), in name order (pairs' order is not the same from run to run).
    let every = every_template(&a, &drawing, &table)?;
    let mut names: Vec<&str> = drawing
        .nodes
        .iter()
        .flat_map(|(_, t)| t.iter().map(String::as_str))
        .chain(every.iter().flatten().map(String::as_str))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut sockets = Sockets::default();
    let mut templates = Vec::with_capacity(names.len());
    for name in &names {
        let value = table.raw_get::<Value>(*name)?;
        templates.push(read_template(&a, map, name, value, &mut sockets)?);
    }
    let index_of = |n: &str| names.binary_search(&n).unwrap_or(0);
    let graph = Graph {
        nodes: drawing
            .nodes
            .iter()
            .map(|(name, t)| Node {
                name: name.clone(),
                templates: match (t.is_empty(), &every) {
                    (true, Some(all)) => all.iter().map(|n| index_of(n)).collect(),
                    _ => t.iter().map(|n| index_of(n)).collect(),
                },
            })
            .collect(),
        edges: drawing
            .edges
            .iter()
            .map(|e| Edge { a: e.a, b: e.b })
            .collect(),
    };
    let mut door_tiles = Vec::with_capacity(drawing.edges.len());
    for e in &drawing.edges {
        door_tiles.push(match &e.door {
            None => Tile::DOOR,
            Some(kind) => {
                let s = lua.create_string(kind)?;
                let tile =
                    tile_named(&s, map.tiles_mut()).map_err(|why| bad_door(lua, &a, e, why))?;
                // A door that cannot be walked through would block the
                // very connection it stands for.
                if !map.tiles().kind(tile).walkable {
                    return Err(bad_door(
                        lua,
                        &a,
                        e,
                        format!(
                            "\"{}\" is not walkable, so the door would block the connection",
                            map.tiles().kind(tile).name
                        ),
                    ));
                }
                tile
            }
        });
    }
    let problem = Problem {
        graph,
        templates: templates.iter().map(|t| t.spec.clone()).collect(),
        joints: options.joints,
        attempts: options.attempts,
    };
    // The board and the shapes (up to 8 turns and mirrors of a template,
    // 24 bytes a cell), and the pre-check's keys of their doors (two lists
    // and a set of them, at most 40 bytes a door), held while the search
    // runs.
    let shape_bytes: usize = problem
        .templates
        .iter()
        .map(|t| {
            t.rows
                .iter()
                .map(|r| r.len() * 8 * (24 + 40))
                .sum::<usize>()
        })
        .sum();
    let area = map.width() as usize * map.height() as usize;
    // The board, and its undo log: a write per cell of the rooms and
    // corridors placed at one time (at most every room's biggest template
    // and every edge's longest corridor, never more than the map twice).
    let biggest = problem
        .templates
        .iter()
        .map(|t| t.rows.iter().map(|r| r.chars().count()).sum::<usize>())
        .max()
        .unwrap_or(0);
    let corridor = match options.joints {
        Joints::Shared => 1,
        Joints::Corridors { max, .. } => max as usize + 2,
    };
    let placed =
        (problem.graph.nodes.len() * biggest + problem.graph.edges.len() * corridor).min(area * 2);
    let _board = a.reserve(
        layout::board::Board::bytes_for(area)
            + placed * layout::board::Board::LOG_ENTRY_BYTES
            + shape_bytes,
    )?;
    let recording = lua_map.is_recording();
    let mut events = Vec::new();
    let mut failed_so_far = None;
    let solved = {
        let cells = map.cells();
        let tiles = map.tiles();
        let mut charge = |units: u64| a.charge(units);
        layout::solve(
            &problem,
            map.width(),
            map.height(),
            |i| tiles.kind(cells[i]).walkable,
            &mut rng.borrow_mut(),
            &mut charge,
            recording.then_some(&mut events),
            &mut failed_so_far,
        )
    };
    let solved = solved.inspect_err(|_| {
        if let Some(why) = &failed_so_far {
            budget::add_stop_detail(lua, why);
        }
    })?;
    let outcome = match solved {
        Ok(o) => o,
        Err(why) => {
            let mut out = MultiValue::new();
            out.push_back(Value::Nil);
            out.push_back(Value::String(lua.create_string(why)?));
            return Ok(out);
        }
    };
    if recording {
        replay_search(&a, &lua_map, map, &outcome, &problem, &events)?;
    }
    // Put the rooms down, then the corridors, then the doors over both.
    let markers_before = map.markers().len();
    let marker_bytes: usize = outcome
        .rooms
        .iter()
        .map(|p| {
            let shape = &outcome.shapes[p.shape];
            stamp_marker_bytes(&shape.rows, &templates[shape.template].legend)
        })
        .sum();
    let _markers = a.reserve(marker_bytes)?;
    for placed in &outcome.rooms {
        let shape = &outcome.shapes[placed.shape];
        a.charge(cost::visited(shape.cells.len() as u64))?;
        map.stamp(
            placed.x as i64,
            placed.y as i64,
            &shape.rows,
            &templates[shape.template].legend,
        )
        .map_err(|e| a.map_failed(e))?;
    }
    for (e, realised) in outcome.edges.iter().enumerate() {
        a.charge(cost::written(realised.corridor.len() as u64 + 2))?;
        for &(x, y) in &realised.corridor {
            map.set(x as i64, y as i64, options.corridor_tile)
                .map_err(|e| a.map_failed(e))?;
        }
        for &(x, y) in &realised.doors {
            map.set(x as i64, y as i64, door_tiles[e])
                .map_err(|e| a.map_failed(e))?;
        }
    }
    let mut room_bytes = 0;
    let result = lua.create_table()?;
    for (node, placed) in outcome.rooms.iter().enumerate() {
        let shape = &outcome.shapes[placed.shape];
        let name = &problem.graph.nodes[node].name;
        let rect = Rect {
            x1: placed.x,
            y1: placed.y,
            x2: placed.x + shape.w - 1,
            y2: placed.y + shape.h - 1,
        };
        room_bytes += std::mem::size_of::<Rect>() + name.len() + 64;
        map.add_shaped_room(Some(rect), None, Some(name.clone()), None)
            .map_err(|e| a.map_failed(e))?;
        a.charge(cost::CALL_UNITS + placed.doors.len() as u64 * 20)?;
        let room = lua.create_table()?;
        room.set("rect", rect_value(lua, rect)?)?;
        room.set("template", problem.templates[shape.template].name.as_str())?;
        room.set("rotate", shape.rotate)?;
        room.set("mirror", shape.mirror)?;
        let doors = lua.create_table_with_capacity(placed.doors.len(), 0)?;
        for (k, &(x, y)) in placed.doors.iter().enumerate() {
            let p = lua.create_table()?;
            p.raw_set(1, x)?;
            p.raw_set(2, y)?;
            p.set("x", x)?;
            p.set("y", y)?;
            doors.raw_set(k + 1, p)?;
        }
        room.set("doors", doors)?;
        result.set(name.as_str(), room)?;
    }
    lua_map.record_step(map, "graph: layout");
    let added = marker_bytes_from(map, markers_before);
    drop(map_ref);
    lua_map.hold(&a, added + room_bytes)?;
    let mut out = MultiValue::new();
    out.push_back(Value::Table(result));
    Ok(out)
}

/// Plays the search back on the map as labelled replay steps (placed,
/// backtracked, restarted), then puts the map back as it was so the real
/// stamping starts from it.
fn replay_search(
    a: &Args,
    lua_map: &LuaMap,
    map: &mut Map,
    outcome: &layout::Outcome,
    problem: &Problem,
    events: &[Event],
) -> mlua::Result<()> {
    let original: Vec<Tile> = map.cells().to_vec();
    let _copy = a.reserve(original.len() * std::mem::size_of::<Tile>())?;
    let width = map.width();
    let mut shown: Vec<Option<(usize, i32, i32)>> = vec![None; problem.graph.nodes.len()];
    let name = |n: usize| problem.graph.nodes[n].name.as_str();
    let restore = |map: &mut Map, shape: usize, x: i32, y: i32| -> mlua::Result<()> {
        for &(dx, dy, _) in &outcome.shapes[shape].cells {
            let i = ((y + dy) * width + (x + dx)) as usize;
            map.set((x + dx) as i64, (y + dy) as i64, original[i])
                .map_err(|e| a.map_failed(e))?;
        }
        Ok(())
    };
    for event in events {
        match *event {
            Event::Place { node, shape, x, y } => {
                let s = &outcome.shapes[shape];
                a.charge(cost::visited(s.cells.len() as u64) * 2)?;
                // Floor and wall: the search's view of the room, without
                // the markers a real stamp would leave behind.
                for &(dx, dy, open) in &s.cells {
                    let tile = if open { Tile::FLOOR } else { Tile::WALL };
                    map.set((x + dx) as i64, (y + dy) as i64, tile)
                        .map_err(|e| a.map_failed(e))?;
                }
                shown[node] = Some((shape, x, y));
                lua_map.record_step(map, &format!("graph: place {}", name(node)));
            }
            Event::Backtrack { node } => {
                if let Some((shape, x, y)) = shown[node].take() {
                    a.charge(cost::visited(outcome.shapes[shape].cells.len() as u64))?;
                    restore(map, shape, x, y)?;
                    lua_map.record_step(map, &format!("graph: backtrack {}", name(node)));
                }
            }
            Event::Restart { attempt } => {
                for slot in shown.iter_mut() {
                    if let Some((shape, x, y)) = slot.take() {
                        a.charge(cost::visited(outcome.shapes[shape].cells.len() as u64))?;
                        restore(map, shape, x, y)?;
                    }
                }
                lua_map.record_step(map, &format!("graph: attempt {attempt}"));
            }
        }
    }
    a.charge(cost::written(original.len() as u64))?;
    for slot in shown.iter_mut() {
        if let Some((shape, x, y)) = slot.take() {
            restore(map, shape, x, y)?;
        }
    }
    Ok(())
}
