//! The Lua API as data: every name a script can use, whom it belongs to,
//! its parameters, returns and one line of documentation.

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
    /// `ctx.above`, the finished level above.
    LevelView,
    /// A level drawn as a graph (`graph.new()`).
    Graph,
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
            Owner::LevelView => "above",
            Owner::Graph => "g",
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
            Owner::LevelView => "LevelView",
            Owner::Graph => "Graph",
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

pub(super) const fn e(
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
    m("flood", &[("x", "integer"), ("y", "integer"), ("opts?", "{avoid?: Selection}")], &["Selection"], "The walkable cells reachable from a cell (4-connected), never entering the cells of opts.avoid; empty when the cell itself is not walkable (or is avoided)."),
    m("chokepoints", &[], &["Selection"], "The walkable cells whose removal splits their walkable region (4-connected; Brogue's chokepoints, the articulation points), found in linear time."),
    m("disconnects", &[("sel", "Selection")], &["boolean"], "Whether making the selected cells impassable would split a walkable region in pieces (Brogue's levelIsDisconnectedWithBlockingMap); linear in the selection and the regions it touches."),
    m("path", &[("ax", "integer"), ("ay", "integer"), ("bx", "integer"), ("by", "integer"), ("opts?", "{cost?: table<TileName, number|false>, diagonal?: boolean, field?: NoiseField, weight?: number}")], &["{[1]: integer, [2]: integer, x: integer, y: integer}[]?"], "The cheapest path between two cells (A*, specified tie-breaking), start and goal included, or nil; the start may be any cell, a goal that cannot be entered gives nil; with a field, entering a cell also costs weight (default 1) times the field's value there."),
    m("carve_path", &[("path", "({x: integer, y: integer}|{[1]: integer, [2]: integer})[]"), ("t?", "TileName")], &["integer"], "Sets every cell of a path to a tile (floor by default); returns how many changed."),
    m("regions", &[("t?", "TileName|TileName[]")], &["{size: integer, x: integer, y: integer, cells: Selection}[]"], "Connected regions of walkable cells (or of the kinds named), largest first."),
    m("dijkstra", &[("sources", "integer|({[1]: integer, [2]: integer}|{x: integer, y: integer})[]"), ("y?", "integer")], &["DistanceMap"], "Walking distances from `x, y` or from a list of `{x, y}` points; a source that is not walkable is at 0 and spreads into the walkable cells beside it."),
    m("neighbors", XYT, &["integer"], "How many of the 8 neighbours hold `t`."),
    m("cellular", &[("rules", "{birth: integer[], survive: integer[], tile?: TileName, dead?: TileName, steps?: integer, edge_alive?: boolean}")], &[], "Whole-map cellular-automaton steps."),
    m("scatter", &[("t", "TileName"), ("p", "number"), ("rng", "Rng"), ("r?", "Rect")], &[], "Each cell of r (default all) becomes t when rng:float() < p."),
    m("random_cell", &[("t", "TileName"), ("rng", "Rng")], CELL, "A uniformly chosen cell holding t, or nil."),
    m("connect_regions", &[("rng", "Rng"), ("opts?", "{tile?: TileName, avoid?: Selection}")], &["integer"], "Joins every walkable region to the largest with the shortest tunnels, never through opts.avoid."),
    m("add_doors", &[("t?", "TileName|{tile?: TileName, secret?: number, rng?: Rng}")], &["integer"], "Doors in one-cell openings of recorded rooms, never two side by side; with secret = p and rng, each is a secret_door with probability p."),
    m("add_loops", &[("opts?", "{min_distance?: integer, tile?: TileName, rng?: Rng}")], &["integer"], "Opens cells that are not walkable (walls, also water or a kind of the script's own) between walkable cells at least min_distance (default 20) steps apart by walking (Brogue's addLoops); returns how many."),
    m("stamp", &[("x", "integer"), ("y", "integer"), ("rows", "string[]"), ("legend", "table<string, TileName|{tile?: TileName, mark?: string}>"), ("opts?", "{rotate?: 0|90|180|270, mirror?: \"x\"|\"y\"}")], &["Rect"], "Stamps an ASCII prefab (mirrored, then turned clockwise, if asked); a space leaves the cell alone. Returns the Rect it covers (corners: its first and last cells, so map:fill_rect of it covers exactly them)."),
    m("place_prefab", &[("rows", "string[]"), ("legend", "table<string, TileName|{tile?: TileName, mark?: string}>"), ("rng", "Rng"), ("opts?", "{rotate?: integer|\"any\", mirror?: \"x\"|\"y\"|\"any\", on?: TileName|Selection, within?: Rect, tries?: integer}")], &["integer?", "integer?", "integer?", "string?", "Rect?"], "Finds where a prefab fits (on the given cells, inside a rect) and stamps it; returns x, y, rotate, mirror and the Rect it covers once turned (corners: its first and last cells), or nil."),
    m("circle", &[("x", "integer"), ("y", "integer"), ("r", "integer"), ("t", "TileName")], &[], "A filled disc that must fit on the map."),
    m("line", &[("x1", "integer"), ("y1", "integer"), ("x2", "integer"), ("y2", "integer"), ("t", "TileName")], &[], "A straight line (Bresenham), both ends included."),
    m("walk", &[("x", "integer"), ("y", "integer"), ("steps", "integer"), ("rng", "Rng"), ("t?", "TileName")], &["integer", "integer", "integer"], "The drunkard's walk; returns the end x, y and how many cells changed."),
    m("maze", &[("r", "Rect"), ("rng", "Rng"), ("opts?", "{loops?: number, tile?: TileName}")], &["integer"], "A perfect maze in r (recursive backtracker); loops opens extra walls; returns how many maze cells."),
    m("select", &[("t", "TileName")], &["Selection"], "The cells holding t."),
    m("select_rect", &[("r", "Rect")], &["Selection"], "The cells of a rect, corners included (the cells map:fill_rect writes); the rect must lie on the map."),
    m("dead_ends", &[], &["Selection"], "The walkable cells with exactly one walkable 4-neighbour (what check counts as dead_ends)."),
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
    e(Owner::LevelView, Field, "width", &[], &["integer"], "The level above's width."),
    e(Owner::LevelView, Field, "height", &[], &["integer"], "The level above's height."),
    e(Owner::LevelView, Field, "level", &[], &["integer"], "Its level number (ctx.level - 1)."),
    e(Owner::LevelView, Method, "get", XY, &["TileName"], "The tile name at a cell of the level above."),
    e(Owner::LevelView, Method, "in_bounds", XY, &["boolean"], "Whether a cell is on the level above."),
    e(Owner::LevelView, Method, "is_walkable", XY, &["boolean"], "Whether a cell of the level above is walkable."),
    e(Owner::LevelView, Method, "rooms", &[], &["Rect[]"], "The level above's rooms (bounding boxes), in order."),
    e(Owner::LevelView, Method, "start", &[], CELL, "The level above's start."),
    e(Owner::LevelView, Method, "markers", &[], &["{x: integer, y: integer, name: string, props: table<string, string|number|boolean>}[]"], "The level above's markers, in order: where its stairs_down are, when the script marked them."),
    e(Owner::Global("tiles"), Function, "define", &[("name", "string"), ("spec", "{glyph: string, color?: string, bg?: string, walkable?: boolean, transparent?: boolean}")], &[], "Adds a tile kind of the script's own."),
    e(Owner::Global("tiles"), Function, "names", &[], &["string[]"], "The known tile names, built-ins first."),
    e(Owner::Global("markers"), Function, "define", &[("name", "string"), ("spec", "{glyph: string, color?: string}")], &[], "Gives the markers of a name their glyph and colour in the window, PNGs, sheets and --ascii."),
    e(Owner::Global("prefab"), Function, "size", &[("rows", "string[]"), ("opts?", "{rotate?: 0|90|180|270, mirror?: \"x\"|\"y\"}")], &["integer", "integer"], "The width and height, in characters, a prefab covers once turned."),
    e(Owner::Global("graph"), Function, "new", &[], &["Graph"], "An empty graph of rooms, to lay out with room templates (see g:layout)."),
    e(Owner::Graph, Method, "room", &[("name", "string"), ("opts?", "{templates?: string[]}")], &[], "Adds a room (a node) by a unique name, with the names of the templates it may use (without them, any template g:layout is given)."),
    e(Owner::Graph, Method, "connect", &[("a", "string"), ("b", "string"), ("opts?", "{door?: TileName}")], &[], "Connects two rooms: a shared door or a corridor joins them; opts.door is the tile put in that doorway, a walkable kind (default door)."),
    e(Owner::Graph, Method, "layout", &[("map", "Map"), ("rng", "Rng"), ("opts", "{templates: table<string, {rows: string[], legend: table<string, TileName|{tile?: TileName, mark?: string, door?: boolean, socket?: string}>, rotate?: boolean, mirror?: boolean, unique?: boolean}>, corridors?: {length: {[1]: integer, [2]: integer}, tile?: TileName}, attempts?: integer}")], &["table<string, {rect: Rect, template: string, rotate: integer, mirror: boolean, doors: {[1]: integer, [2]: integer, x: integer, y: integer}[]}>?", "string?"], "Places every room from its templates so each connection is a shared door place or (with corridors) a corridor from door to door, with no other connection; stamps the rooms, records them (map:add_room with the room's name) and puts the doors. Returns the placed rooms by name, or nil and the reason."),
    e(Owner::Global("wfc"), Function, "fill", &[("map", "Map"), ("region", "Selection|Rect"), ("opts", "{sample: string[], legend?: table<string, TileName|{tile: TileName}>, n?: integer, symmetry?: 1|2|4|8, border?: TileName, connected?: boolean, path?: integer[][], counts?: table<TileName, integer[]>, attempts?: integer, backtracks?: integer, context?: \"exact\"|\"walkable\"|\"free\"}"), ("rng", "Rng")], &["true?", "string?"], "Fills the region by wave function collapse so every n x n window touching it appears in the sample (cells outside it kept as context: exactly, else by walkability, else free, unless context names one reading); true, or nil and the reason every attempt failed."),
    e(Owner::Global("_G"), Function, "reject", &[("why?", "string")], &[], "Rejects this attempt's map; the host rerolls on the next attempt's stream."),
    e(Owner::Global("_G"), Function, "require", &[("name", "string")], &["any"], "Loads name.lua from the script's folder (dots are folders), once per run."),
];

/// A documented field: name, LuaLS type, one line of documentation.
pub type FieldDoc = (&'static str, &'static str, &'static str);

/// The script table's own fields (what a script returns), the puzzle's
/// after them. A `?` marks an optional field.
pub const SCRIPT_FIELDS: &[FieldDoc] = &[
    ("name?", "string", "The generator's name, shown in the window's title and the exports (default: the script's file name without .lua)."),
    ("width?", "integer", "The map's width (default 80; --size overrides it)."),
    ("height?", "integer", "The map's height (default 50; --size overrides it)."),
    ("params?", "table<string, integer|number|boolean|string>", "Parameter names and defaults; -p name=value sets one, and generate gets them as its params."),
    ("levels?", "integer", "How many linked levels one seed makes (1..32, default 1)."),
    ("stairs?", "\"aligned\"|\"free\"", "\"aligned\": check fails a seed whose stairs_down and the next level's stairs_up differ."),
    ("generate", "fun(map: Map, rng: Rng, params: table, ctx: LevelContext)", "Makes the map (once per level), drawing only from rng."),
    ("validate?", "fun(map: Map): boolean", "Called after generate to judge its map (read-only): false or nil rejects the map and rerolls on the next attempt's stream; true keeps it."),
];

/// The script table's puzzle fields (what `check` and `crate::proof`
/// prove).
pub const PUZZLE_FIELDS: &[FieldDoc] = &[
    ("goal", "PuzzleGoal", "What finishing means: reach a cell marked with one of goal.goals (on the last level); check proves every seed can be finished."),
    ("locks", "table<string, PuzzleLock>", "Tile kind -> the key marker that opens it; such a kind is shut until opened, whatever its walkable flag."),
    ("one_way", "table<string, \"down\">", "Tile kinds that drop the player onto the same (x, y) of the level below, never back."),
];

/// The fields of `goal` and of each `locks` entry.
pub const PUZZLE_CLASSES: &[(&str, &[FieldDoc])] = &[
    ("PuzzleGoal", &[
        ("goals", "string[]", "Marker names; reaching any cell marked with one finishes the dungeon."),
        ("secrets?", "boolean", "Whether secret_door cells are passable (default true); false makes them walls."),
    ]),
    ("PuzzleLock", &[
        ("key", "string", "The marker name of the key; keys are picked up by walking onto them."),
        ("consumed?", "boolean", "true: each opening spends one key and that lock stays open; false (default): a held key opens every lock of the kind."),
    ]),
];
