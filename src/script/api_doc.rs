//! The Lua API described once: `dunlua api` prints it, `types/dunlua.lua`
//! (LuaLS annotations for editor completion) is generated from it, and a
//! test checks it against what the host really registers, so neither can
//! drift from the code.

#[cfg(test)]
use mlua::{FromLuaMulti, IntoLua, IntoLuaMulti, Lua, UserData, UserDataFields, UserDataMethods};

/// Who a name belongs to, as a LuaLS class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    Map,
    Rect,
    RectIndex,
    Selection,
    DistanceMap,
    NoiseField,
    Rng,
    /// Functions in a global table (`Rect.new`, `tiles.define`) or global functions.
    Global(&'static str),
}

impl Owner {
    /// How the examples (and the fuzzer's scripts) name an object of this
    /// owner: `map`, `r`, `ix`, `sel`, `d`, `rng`, or the global table.
    pub fn lua_object(self) -> &'static str {
        match self {
            Owner::Map => "map",
            Owner::Rect => "r",
            Owner::RectIndex => "ix",
            Owner::Selection => "sel",
            Owner::DistanceMap => "d",
            Owner::NoiseField => "field",
            Owner::Rng => "rng",
            Owner::Global(table) => table,
        }
    }

    pub fn class(self) -> &'static str {
        match self {
            Owner::Map => "Map",
            Owner::Rect => "Rect",
            Owner::RectIndex => "RectIndex",
            Owner::Selection => "Selection",
            Owner::DistanceMap => "DistanceMap",
            Owner::NoiseField => "NoiseField",
            Owner::Rng => "Rng",
            Owner::Global(table) => table,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Field,
    Method,
    Function,
}

/// One documented name.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub owner: Owner,
    pub kind: Kind,
    pub name: &'static str,
    /// `name: type` pairs (LuaLS types; a `?` after the name marks it optional).
    pub params: &'static [(&'static str, &'static str)],
    /// LuaLS return types, or the field's type.
    pub returns: &'static [&'static str],
    pub doc: &'static str,
}

impl Entry {
    /// How it is written in Lua: `map:set`, `map.width`, `Rect.new`, `reject`.
    pub fn lua_name(&self) -> String {
        if self.owner == Owner::Global("_G") {
            return self.name.to_string();
        }
        let owner = self.owner.lua_object();
        let sep = match (self.kind, self.owner) {
            (Kind::Method, _) => ":",
            _ => ".",
        };
        format!("{owner}{sep}{}", self.name)
    }

    /// `map:set(x: integer, y: integer, t: TileName)`
    pub fn signature(&self) -> String {
        if self.kind == Kind::Field {
            return format!("{}: {}", self.lua_name(), self.returns.join(", "));
        }
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(n, t)| format!("{n}: {t}"))
            .collect();
        let ret = if self.returns.is_empty() {
            String::new()
        } else {
            format!(" -> {}", self.returns.join(", "))
        };
        format!("{}({}){ret}", self.lua_name(), params.join(", "))
    }
}

const fn m(
    name: &'static str,
    params: &'static [(&'static str, &'static str)],
    returns: &'static [&'static str],
    doc: &'static str,
) -> Entry {
    Entry {
        owner: Owner::Map,
        kind: Kind::Method,
        name,
        params,
        returns,
        doc,
    }
}

const fn e(
    owner: Owner,
    kind: Kind,
    name: &'static str,
    params: &'static [(&'static str, &'static str)],
    returns: &'static [&'static str],
    doc: &'static str,
) -> Entry {
    Entry {
        owner,
        kind,
        name,
        params,
        returns,
        doc,
    }
}

const XY: &[(&str, &str)] = &[("x", "integer"), ("y", "integer")];
const XYT: &[(&str, &str)] = &[("x", "integer"), ("y", "integer"), ("t", "TileName")];
const CELL: &[&str] = &["integer?", "integer?"];

use Kind::{Field, Function, Method};

/// Everything the host gives a script.
pub const API: &[Entry] = &[
    e(Owner::Map, Field, "width", &[], &["integer"], "The map's width in cells."),
    e(Owner::Map, Field, "height", &[], &["integer"], "The map's height in cells."),
    m("get", XY, &["TileName"], "The tile name at a cell."),
    m("set", XYT, &[], "Sets one cell."),
    m("in_bounds", XY, &["boolean"], "Whether the cell is on the map (never an error for integers)."),
    m("is_walkable", XY, &["boolean"], "Whether the tile at the cell can be walked on."),
    m("count", &[("t", "TileName")], &["integer"], "How many cells hold `t`."),
    m("fill", &[("t", "TileName")], &[], "Sets every cell."),
    m("fill_rect", &[("r", "Rect"), ("t", "TileName")], &[], "Sets the whole rect, corners included."),
    m("carve_room", &[("r", "Rect"), ("t?", "TileName")], &[], "Sets the rect's interior (default floor); its ring stays."),
    m("h_tunnel", &[("x1", "integer"), ("x2", "integer"), ("y", "integer"), ("t?", "TileName")], &[], "A row from x1 to x2, both inclusive, either order."),
    m("v_tunnel", &[("y1", "integer"), ("y2", "integer"), ("x", "integer"), ("t?", "TileName")], &[], "A column from y1 to y2, both inclusive, either order."),
    m("l_tunnel", &[("ax", "integer"), ("ay", "integer"), ("bx", "integer"), ("by", "integer"), ("horizontal_first", "boolean"), ("t?", "TileName")], &[], "An L-shaped tunnel from a to b, bending as the seeds' tunnelBetween."),
    m("room", &[("i", "integer")], &["{rect: Rect, name: string?, kind: string?, cells: Selection?}"], "Room i (1-based): its rect (the bounding box), name, kind, and cells for a room of any shape."),
    m("add_room", &[("r", "Rect|Selection"), ("opts?", "{name?: string, kind?: string}")], &[], "Records a room (must lie on the map): a Rect, or a Selection for a room of any shape (its bounding box is its rect), with an optional name and kind."),
    m("rooms", &[], &["Rect[]"], "The recorded rooms, in order."),
    m("set_start", XY, &[], "The player's start; checked to be walkable when generate returns."),
    m("start", &[], CELL, "The start, or nil."),
    m("mark", &[("x", "integer"), ("y", "integer"), ("name", "string"), ("props?", "table<string, string|number|boolean>")], &[], "A named marker (stairs, items, monsters) with optional data, exported; marking a cell with a name it has replaces the data."),
    m("unmark", &[("x", "integer"), ("y", "integer"), ("name?", "string")], &["integer"], "Removes the markers at a cell (or only those named so); returns how many."),
    m("markers", &[], &["{x: integer, y: integer, name: string, props: table<string, string|number|boolean>}[]"], "The markers, in order."),
    m("snapshot", &[("label", "string")], &[], "Closes a labelled replay step (recorded only when the window is open)."),
    m("noise", &[("rng", "Rng"), ("opts?", "{scale?: number, octaves?: integer}")], &["NoiseField"], "Value noise over the map from rng's stream (specified: see the determinism rules); scale 1..4096 (default 8), octaves 1..8 (default 3)."),
    m("flood", &[("x", "integer"), ("y", "integer"), ("opts?", "{avoid?: Selection}")], &["Selection"], "The walkable cells reachable from a cell (4-connected), never entering the cells of opts.avoid."),
    m("path", &[("ax", "integer"), ("ay", "integer"), ("bx", "integer"), ("by", "integer"), ("opts?", "{cost?: table<TileName, number|false>, diagonal?: boolean}")], &["{[1]: integer, [2]: integer, x: integer, y: integer}[]?"], "The cheapest path between two cells (A*, specified tie-breaking), start and goal included, or nil."),
    m("carve_path", &[("path", "{x: integer, y: integer}[]"), ("t?", "TileName")], &["integer"], "Sets every cell of a path to a tile (floor by default); returns how many changed."),
    m("regions", &[("t?", "TileName|TileName[]")], &["{size: integer, x: integer, y: integer, cells: Selection}[]"], "Connected regions of walkable cells (or of the kinds named), largest first."),
    m("dijkstra", &[("sources", "integer|{[1]: integer, [2]: integer}[]"), ("y?", "integer")], &["DistanceMap"], "Walking distances from `x, y` or from a list of `{x, y}` points."),
    m("neighbors", XYT, &["integer"], "How many of the 8 neighbours hold `t`."),
    m("cellular", &[("rules", "{birth: integer[], survive: integer[], tile?: TileName, dead?: TileName, steps?: integer, edge_alive?: boolean}")], &[], "Whole-map cellular-automaton steps."),
    m("scatter", &[("t", "TileName"), ("p", "number"), ("rng", "Rng"), ("r?", "Rect")], &[], "Each cell of r (default all) becomes t when rng:float() < p."),
    m("random_cell", &[("t", "TileName"), ("rng", "Rng")], CELL, "A uniformly chosen cell holding t, or nil."),
    m("connect_regions", &[("rng", "Rng"), ("opts?", "{tile?: TileName, avoid?: Selection}")], &["integer"], "Joins every walkable region to the largest with the shortest tunnels, never through opts.avoid."),
    m("add_doors", &[("t?", "TileName|{tile?: TileName, secret?: number, rng?: Rng}")], &["integer"], "Doors in one-cell openings of recorded rooms, never two side by side; with secret = p and rng, each is a secret_door with probability p."),
    m("add_loops", &[("opts?", "{min_distance?: integer, tile?: TileName, rng?: Rng}")], &["integer"], "Opens walls between walkable cells at least min_distance (default 20) steps apart by walking (Brogue's addLoops); returns how many."),
    m("stamp", &[("x", "integer"), ("y", "integer"), ("rows", "string[]"), ("legend", "table<string, TileName|{tile?: TileName, mark?: string}>"), ("opts?", "{rotate?: 0|90|180|270, mirror?: \"x\"|\"y\"}")], &[], "Stamps an ASCII prefab (mirrored, then turned clockwise, if asked); a space leaves the cell alone."),
    m("place_prefab", &[("rows", "string[]"), ("legend", "table<string, TileName|{tile?: TileName, mark?: string}>"), ("rng", "Rng"), ("opts?", "{rotate?: integer|\"any\", mirror?: \"x\"|\"y\"|\"any\", on?: TileName|Selection, within?: Rect, tries?: integer}")], &["integer?", "integer?", "integer?", "string?"], "Finds where a prefab fits (on the given cells, inside a rect) and stamps it; returns x, y, rotate, mirror, or nil."),
    m("circle", &[("x", "integer"), ("y", "integer"), ("r", "integer"), ("t", "TileName")], &[], "A filled disc that must fit on the map."),
    m("line", &[("x1", "integer"), ("y1", "integer"), ("x2", "integer"), ("y2", "integer"), ("t", "TileName")], &[], "A straight line (Bresenham), both ends included."),
    m("walk", &[("x", "integer"), ("y", "integer"), ("steps", "integer"), ("rng", "Rng"), ("t?", "TileName")], &["integer", "integer", "integer"], "The drunkard's walk; returns the end x, y and how many cells changed."),
    m("maze", &[("r", "Rect"), ("rng", "Rng"), ("opts?", "{loops?: number, tile?: TileName}")], &["integer"], "A perfect maze in r (recursive backtracker); loops opens extra walls."),
    m("select", &[("t", "TileName")], &["Selection"], "The cells holding t."),
    m("fill_selection", &[("sel", "Selection"), ("t", "TileName")], &[], "Sets every selected cell."),
    e(Owner::Rect, Field, "x1", &[], &["integer"], "Left corner (inclusive)."),
    e(Owner::Rect, Field, "y1", &[], &["integer"], "Top corner (inclusive)."),
    e(Owner::Rect, Field, "x2", &[], &["integer"], "Right corner (inclusive): x + w."),
    e(Owner::Rect, Field, "y2", &[], &["integer"], "Bottom corner (inclusive): y + h."),
    e(Owner::Rect, Field, "w", &[], &["integer"], "Width as given to Rect.new."),
    e(Owner::Rect, Field, "h", &[], &["integer"], "Height as given to Rect.new."),
    e(Owner::Rect, Method, "center", &[], &["integer", "integer"], "The centre, with truncating division as the seeds."),
    e(Owner::Rect, Method, "interior", &[], &["integer", "integer", "integer", "integer"], "The interior's inclusive bounds x1, y1, x2, y2."),
    e(Owner::Rect, Method, "intersects", &[("o", "Rect")], &["boolean"], "Inclusive overlap: rects sharing an edge intersect."),
    e(Owner::Rect, Method, "contains", XY, &["boolean"], "Whether the cell is on or inside the corners."),
    e(Owner::RectIndex, Method, "insert", &[("r", "Rect")], &[], "Adds a rect."),
    e(Owner::RectIndex, Method, "intersects_any", &[("r", "Rect")], &["boolean"], "Whether r intersects any rect inserted (native, by grid buckets)."),
    e(Owner::RectIndex, Method, "count", &[], &["integer"], "How many rects were inserted."),
    e(Owner::Selection, Method, "count", &[], &["integer"], "How many cells (also #sel)."),
    e(Owner::Selection, Method, "contains", XY, &["boolean"], "Whether the cell is selected."),
    e(Owner::Selection, Method, "union", &[("o", "Selection")], &["Selection"], "Cells in either."),
    e(Owner::Selection, Method, "intersect", &[("o", "Selection")], &["Selection"], "Cells in both."),
    e(Owner::Selection, Method, "subtract", &[("o", "Selection")], &["Selection"], "Cells in this one but not o."),
    e(Owner::Selection, Method, "grow", &[("n?", "integer")], &["Selection"], "Adds the 8 neighbours, n times (default 1)."),
    e(Owner::Selection, Method, "random_cell", &[("rng", "Rng")], CELL, "A uniformly chosen cell, or nil."),
    e(Owner::Selection, Method, "cells", &[], &["{[1]: integer, [2]: integer}[]"], "The cells as {x, y} lists (builds Lua tables: for small selections)."),
    e(Owner::DistanceMap, Method, "get", XY, &["integer?"], "Steps from the nearest source, or nil where unreachable."),
    e(Owner::DistanceMap, Method, "farthest", &[("opts?", "{within?: Selection}")], &["integer?", "integer?", "integer?"], "The farthest reachable cell x, y and its distance (among opts.within's cells only, when given)."),
    e(Owner::DistanceMap, Method, "max", &[], &["integer?"], "The largest distance."),
    e(Owner::NoiseField, Method, "get", XY, &["number"], "The field's value at a cell, in [0, 1)."),
    e(Owner::NoiseField, Method, "select", &[("lo", "number"), ("hi", "number")], &["Selection"], "The cells whose value is in lo..hi (lo included, hi not)."),
    e(Owner::Rng, Field, "seed", &[], &["integer"], "This stream's 64-bit seed."),
    e(Owner::Rng, Method, "range", &[("lo", "integer"), ("hi", "integer")], &["integer"], "An integer in lo..hi, both inclusive."),
    e(Owner::Rng, Method, "int", &[("n", "integer")], &["integer"], "An integer in 0..n-1 (Lemire)."),
    e(Owner::Rng, Method, "float", &[], &["number"], "A number in [0, 1)."),
    e(Owner::Rng, Method, "chance", &[("p", "number")], &["boolean"], "rng:float() < p."),
    e(Owner::Rng, Method, "coin", &[], &["boolean"], "rng:int(2) == 1."),
    e(Owner::Rng, Method, "pick", &[("list", "any[]")], &["any"], "A random element of a non-empty list."),
    e(Owner::Rng, Method, "weighted", &[("list", "{[1]: any, [2]: integer}[]")], &["any"], "A value chosen by weight from {{value, weight}, ...}: one rng:int(total), then the first entry whose cumulative weight exceeds it."),
    e(Owner::Rng, Method, "shuffle", &[("list", "any[]")], &["any[]"], "Shuffles the list in place (Fisher-Yates) and returns it."),
    e(Owner::Rng, Method, "fork", &[("name", "string")], &["Rng"], "An independent named stream; draws nothing from this one."),
    e(Owner::Global("Rect"), Function, "new", &[("x", "integer"), ("y", "integer"), ("w", "integer"), ("h", "integer")], &["Rect"], "A rect with corners (x, y) and (x + w, y + h)."),
    e(Owner::Global("Rect"), Function, "index", &[], &["RectIndex"], "A native spatial index of rects."),
    e(Owner::Global("tiles"), Function, "define", &[("name", "string"), ("spec", "{glyph: string, color?: string, bg?: string, walkable?: boolean, transparent?: boolean}")], &[], "Adds a tile kind of the script's own."),
    e(Owner::Global("tiles"), Function, "names", &[], &["string[]"], "The known tile names, built-ins first."),
    e(Owner::Global("_G"), Function, "reject", &[("why?", "string")], &[], "Rejects this attempt's map; the host rerolls on the next attempt's stream."),
    e(Owner::Global("_G"), Function, "require", &[("name", "string")], &["any"], "Loads name.lua from the script's folder (dots are folders), once per run."),
];

/// The reference as text: `dunlua api`.
pub fn reference() -> String {
    let mut out = String::from(
        "dunlua Lua API (scripts get map, rng and params in generate(map, rng, params))\n",
    );
    let mut last = None;
    for entry in API {
        let group = entry.owner.class();
        if last != Some(group) {
            out.push_str(&format!("\n{group}\n"));
            last = Some(group);
        }
        out.push_str(&format!("  {}\n      {}\n", entry.signature(), entry.doc));
    }
    out.push_str("\nmath.random(), math.random(m), math.random(m, n) draw from rng's stream; math.randomseed is an error.\n");
    out
}

fn annotate_params(out: &mut String, entry: &Entry) {
    for (name, ty) in entry.params {
        out.push_str(&format!("---@param {name} {ty}\n"));
    }
    for ty in entry.returns {
        out.push_str(&format!("---@return {ty}\n"));
    }
}

/// `types/dunlua.lua`: LuaLS annotations for editors.
pub fn luals() -> String {
    let mut out = String::from(
        "---@meta dunlua\n-- Generated by `dunlua api --luals`; do not edit (tests check it is current).\n\n\
         ---@alias TileName \"wall\"|\"floor\"|\"door\"|\"stairs_down\"|\"stairs_up\"|\"water\"|string\n\n\
         ---What a generation script returns.\n---@class Script\n---@field name? string\n---@field width? integer\n\
         ---@field height? integer\n---@field params? table<string, integer|number|boolean|string>\n\
         ---@field generate fun(map: Map, rng: Rng, params: table)\n---@field validate? fun(map: Map): boolean\n\n",
    );
    let classes = [
        "Map",
        "Rect",
        "RectIndex",
        "Selection",
        "DistanceMap",
        "NoiseField",
        "Rng",
    ];
    for class in classes {
        out.push_str(&format!("---@class {class}\n"));
        for entry in API
            .iter()
            .filter(|e| e.owner.class() == class && e.kind == Kind::Field)
        {
            out.push_str(&format!(
                "---@field {} {} {}\n",
                entry.name,
                entry.returns.join("|"),
                entry.doc
            ));
        }
        // Rect is also the global table with Rect.new; the rest are local.
        if class == "Rect" {
            out.push_str("Rect = {}\n\n");
        } else {
            out.push_str(&format!("local {class} = {{}}\n\n"));
        }
        for entry in API
            .iter()
            .filter(|e| e.owner.class() == class && e.kind == Kind::Method)
        {
            out.push_str(&format!("---{}\n", entry.doc));
            annotate_params(&mut out, entry);
            let names: Vec<&str> = entry
                .params
                .iter()
                .map(|(n, _)| n.trim_end_matches('?'))
                .collect();
            out.push_str(&format!(
                "function {class}:{}({}) end\n\n",
                entry.name,
                names.join(", ")
            ));
        }
    }
    for table in ["Rect", "tiles", "_G"] {
        if table == "tiles" {
            out.push_str("tiles = {}\n\n");
        }
        for entry in API.iter().filter(|e| e.owner == Owner::Global(table)) {
            out.push_str(&format!("---{}\n", entry.doc));
            annotate_params(&mut out, entry);
            let names: Vec<&str> = entry
                .params
                .iter()
                .map(|(n, _)| n.trim_end_matches('?'))
                .collect();
            let prefix = if table == "_G" {
                String::new()
            } else {
                format!("{table}.")
            };
            out.push_str(&format!(
                "function {prefix}{}({}) end\n\n",
                entry.name,
                names.join(", ")
            ));
        }
    }
    out
}

#[cfg(test)]
/// Records the names a `UserData` type registers (fields and methods,
/// not metamethods), by running its registration against this recorder.
#[derive(Default)]
pub(crate) struct NameRecorder {
    pub fields: Vec<String>,
    pub methods: Vec<String>,
}

#[cfg(test)]
impl<T> UserDataFields<T> for NameRecorder {
    fn add_field<V: IntoLua + 'static>(&mut self, name: impl Into<String>, _: V) {
        self.fields.push(name.into());
    }
    fn add_field_method_get<M, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
        self.fields.push(name.into());
    }
    fn add_field_method_set<M, A>(&mut self, name: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<()> + 'static,
        A: mlua::FromLua,
    {
        self.fields.push(name.into());
    }
    fn add_field_function_get<F, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: Fn(&Lua, mlua::AnyUserData) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
        self.fields.push(name.into());
    }
    fn add_field_function_set<F, A>(&mut self, name: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, mlua::AnyUserData, A) -> mlua::Result<()> + 'static,
        A: mlua::FromLua,
    {
        self.fields.push(name.into());
    }
    fn add_meta_field<V: IntoLua + 'static>(&mut self, _: impl Into<String>, _: V) {}
    fn add_meta_field_with<F, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: FnOnce(&Lua) -> mlua::Result<R> + 'static,
        R: IntoLua,
    {
    }
}

#[cfg(test)]
impl<T> UserDataMethods<T> for NameRecorder {
    fn add_method<M, A, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_method_mut<M, A, R>(&mut self, name: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_function<F, A, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_function_mut<F, A, R>(&mut self, name: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
        self.methods.push(name.into());
    }
    fn add_meta_method<M, A, R>(&mut self, _: impl Into<String>, _: M)
    where
        M: Fn(&Lua, &T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_method_mut<M, A, R>(&mut self, _: impl Into<String>, _: M)
    where
        M: FnMut(&Lua, &mut T, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_function<F, A, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: Fn(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
    fn add_meta_function_mut<F, A, R>(&mut self, _: impl Into<String>, _: F)
    where
        F: FnMut(&Lua, A) -> mlua::Result<R> + 'static,
        A: FromLuaMulti,
        R: IntoLuaMulti,
    {
    }
}

#[cfg(test)]
/// The names a userdata type registers, as `owner`'s Lua names.
pub(crate) fn registered<T: UserData>(owner: Owner) -> Vec<(Owner, Kind, String)> {
    let mut r = NameRecorder::default();
    T::add_fields(&mut r);
    T::add_methods(&mut r);
    let mut out: Vec<(Owner, Kind, String)> = r
        .fields
        .into_iter()
        .map(|n| (owner, Kind::Field, n))
        .collect();
    out.extend(r.methods.into_iter().map(|n| (owner, Kind::Method, n)));
    out
}

#[cfg(test)]
/// What is registered but not documented, and documented but not
/// registered, as messages; empty when the two agree.
pub(crate) fn out_of_sync(
    registered: &[(Owner, Kind, String)],
    documented: &[Entry],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (owner, kind, name) in registered {
        if !documented
            .iter()
            .any(|e| e.owner == *owner && e.kind == *kind && e.name == name)
        {
            problems.push(format!(
                "{}.{name} is registered but not annotated in api_doc.rs",
                owner.class()
            ));
        }
    }
    for e in documented {
        if !registered
            .iter()
            .any(|(o, k, n)| *o == e.owner && *k == e.kind && n == e.name)
        {
            problems.push(format!("{} is annotated but not registered", e.lua_name()));
        }
    }
    problems
}

#[cfg(test)]
/// Every name the host registers: userdata fields and methods, and the
/// functions it adds to the globals (read from a real VM).
pub(crate) fn host_api() -> mlua::Result<Vec<(Owner, Kind, String)>> {
    use super::api_map::LuaMap;
    use super::api_rng::LuaRng;
    use super::api_selection::{LuaDistance, LuaNoise, LuaSelection};
    let mut out = registered::<LuaMap>(Owner::Map);
    let rect = super::api_rect::FIELDS
        .iter()
        .map(|n| (Owner::Rect, Kind::Field, n.to_string()));
    out.extend(rect);
    let rect = super::api_rect::METHODS.into_iter();
    out.extend(rect.map(|n| (Owner::Rect, Kind::Method, n.to_string())));
    let index = super::api_rect::INDEX_METHODS.into_iter();
    out.extend(index.map(|n| (Owner::RectIndex, Kind::Method, n.to_string())));
    out.extend(registered::<LuaSelection>(Owner::Selection));
    out.extend(registered::<LuaDistance>(Owner::DistanceMap));
    out.extend(registered::<LuaNoise>(Owner::NoiseField));
    out.extend(registered::<LuaRng>(Owner::Rng));
    let vm = super::host::Vm::new(
        std::path::Path::new("x.lua"),
        &Default::default(),
        super::Limits::default(),
        true,
    )?;
    // The same standard names a script has (string, table and utf8 come as
    // dunlua's charged copies).
    let standard =
        super::host::safe_libs() | mlua::StdLib::STRING | mlua::StdLib::TABLE | mlua::StdLib::UTF8;
    let plain = Lua::new_with(standard, mlua::LuaOptions::default())?;
    let mut names: Vec<(String, mlua::Value)> = vm
        .lua
        .globals()
        .pairs::<String, mlua::Value>()
        .collect::<mlua::Result<_>>()?;
    names.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, value) in names {
        if plain.globals().contains_key(name.as_str())? {
            continue;
        }
        match (name.as_str(), value) {
            ("Rect", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("Rect"), Kind::Function, key?.0));
                }
            }
            ("tiles", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("tiles"), Kind::Function, key?.0));
                }
            }
            (other, _) => out.push((Owner::Global("_G"), Kind::Function, other.to_string())),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_name_is_annotated_and_back() {
        let host = host_api().unwrap();
        assert!(host.len() > 60, "{} names", host.len());
        let problems = out_of_sync(&host, API);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// A primitive registered without an annotation is caught.
    struct Fixture;

    impl UserData for Fixture {
        fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
            methods.add_method("documented", |_, _, ()| Ok(()));
            methods.add_method("forgotten", |_, _, ()| Ok(()));
        }
    }

    #[test]
    fn an_unannotated_primitive_fails_the_check() {
        let docs = [
            e(Owner::Rng, Method, "documented", &[], &[], "Has docs."),
            e(Owner::Rng, Method, "gone", &[], &[], "Not registered."),
        ];
        let problems = out_of_sync(&registered::<Fixture>(Owner::Rng), &docs);
        assert_eq!(
            problems,
            [
                "Rng.forgotten is registered but not annotated in api_doc.rs",
                "rng:gone is annotated but not registered"
            ]
        );
    }

    #[test]
    fn the_committed_annotations_are_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("types/dunlua.lua");
        if std::env::var_os("DUNLUA_BLESS").is_some() {
            std::fs::write(&path, luals()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == luals(),
            "types/dunlua.lua is stale: run `cargo run -- api --luals > types/dunlua.lua` (or DUNLUA_BLESS=1 cargo test)"
        );
    }

    #[test]
    fn the_reference_lists_everything() {
        let text = reference();
        for entry in API {
            assert!(text.contains(&entry.signature()), "{}", entry.signature());
        }
        assert!(text.contains("map:set(x: integer, y: integer, t: TileName)"));
    }
}
