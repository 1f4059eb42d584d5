//! The `map` object a script's `generate` receives: thin bindings from Lua
//! calls to the plain-Rust primitives on [`Map`], with checked arguments.

use mlua::{Lua, MultiValue, UserData, UserDataFields, UserDataMethods};

use super::api_rect::LuaRect;
use super::args::Args;
use crate::map::{Map, Tile};
use crate::replay::Journal;

/// The map lent to Lua for one `generate` call; taken back afterwards.
/// With a journal, every call that changes tiles closes a replay step.
pub(crate) struct LuaMap(pub Map, pub Option<Journal>);

impl LuaMap {
    fn args<'lua>(&self, lua: &'lua Lua, name: &'static str, values: MultiValue) -> Args<'lua> {
        Args::new(lua, name, values).on_map(self.0.width(), self.0.height())
    }
}

/// Adds a method that reads the map: `$body(map, args)`.
macro_rules! reader {
    ($methods:ident, $name:literal, |$map:ident, $args:ident| $body:expr) => {
        $methods.add_method($name, |lua, this, values: MultiValue| {
            let $args = this.args(lua, concat!("map:", $name), values);
            let $map = &this.0;
            $body
        });
    };
}

/// Adds a method that changes the map: `$body(map, args)`; when recording,
/// the tiles it changed become a replay step named after it.
macro_rules! writer {
    ($methods:ident, $name:literal, |$map:ident, $args:ident| $body:expr) => {
        $methods.add_method_mut($name, |lua, this, values: MultiValue| {
            let $args = this.args(lua, concat!("map:", $name), values);
            let result = {
                let $map = &mut this.0;
                $body
            };
            if let Some(journal) = &mut this.1 {
                journal.capture(&mut this.0, $name, false);
            }
            result
        });
    };
}

impl UserData for LuaMap {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("width", |_, this| Ok(this.0.width()));
        fields.add_field_method_get("height", |_, this| Ok(this.0.height()));
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
            let tile = a.tile(2, map.tiles())?;
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
            Ok(map.count(a.tile(0, map.tiles())?))
        });
        writer!(methods, "fill", |map, a| {
            let tile = a.tile(0, map.tiles())?;
            map.fill(tile);
            Ok(())
        });
        writer!(methods, "fill_rect", |map, a| {
            let rect = a.rect(0, "rect")?;
            let tile = a.tile(1, map.tiles())?;
            map.fill_rect(&rect, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "carve_room", |map, a| {
            let rect = a.rect(0, "rect")?;
            let tile = a.tile_or(1, map.tiles(), Tile::FLOOR)?;
            map.carve_room(&rect, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "h_tunnel", |map, a| {
            let (x1, x2, y) = (a.coord(0, "x1")?, a.coord(1, "x2")?, a.coord(2, "y")?);
            let tile = a.tile_or(3, map.tiles(), Tile::FLOOR)?;
            map.h_tunnel(x1, x2, y, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "v_tunnel", |map, a| {
            let (y1, y2, x) = (a.coord(0, "y1")?, a.coord(1, "y2")?, a.coord(2, "x")?);
            let tile = a.tile_or(3, map.tiles(), Tile::FLOOR)?;
            map.v_tunnel(y1, y2, x, tile).map_err(|e| a.map_failed(e))
        });
        writer!(methods, "l_tunnel", |map, a| {
            let from = (a.coord(0, "ax")?, a.coord(1, "ay")?);
            let to = (a.coord(2, "bx")?, a.coord(3, "by")?);
            let horizontal_first = a.boolean(4, "horizontal_first")?;
            let tile = a.tile_or(5, map.tiles(), Tile::FLOOR)?;
            map.l_tunnel(from, to, horizontal_first, tile)
                .map_err(|e| a.map_failed(e))
        });
        writer!(methods, "add_room", |map, a| {
            let rect = a.rect(0, "room")?;
            map.add_room(rect).map_err(|e| a.map_failed(e))
        });
        methods.add_method("rooms", |lua, this, ()| {
            lua.create_sequence_from(this.0.rooms().iter().map(|&r| LuaRect(r)))
        });
        writer!(methods, "set_start", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            map.set_start(x, y).map_err(|e| a.map_failed(e))
        });
        methods.add_method("start", |_, this, ()| match this.0.start() {
            Some((x, y)) => Ok((Some(x), Some(y))),
            None => Ok((None, None)),
        });
        writer!(methods, "mark", |map, a| {
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            let name = a.string(2, "name")?;
            map.mark(x, y, &name).map_err(|e| a.map_failed(e))
        });
        methods.add_method("markers", |lua, this, ()| {
            let list = lua.create_table()?;
            for (i, m) in this.0.markers().iter().enumerate() {
                let t = lua.create_table()?;
                t.set("x", m.x)?;
                t.set("y", m.y)?;
                t.set("name", m.name.as_str())?;
                list.raw_set(i + 1, t)?;
            }
            Ok(list)
        });
        methods.add_method_mut("snapshot", |lua, this, values: MultiValue| {
            let label = this.args(lua, "map:snapshot", values).string(0, "label")?;
            if let Some(journal) = &mut this.1 {
                journal.capture(&mut this.0, &label, true);
            }
            Ok(())
        });
        methods.add_meta_method(mlua::MetaMethod::ToString, |_, this, ()| {
            Ok(format!("map({}x{})", this.0.width(), this.0.height()))
        });
    }
}
