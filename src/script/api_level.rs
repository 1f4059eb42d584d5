//! `ctx.above`: a read-only view of the finished level above the one being
//! generated, so a level can put its up stairs under the down stairs of
//! the level before. It holds its own copy of that map; nothing a script
//! does through it reaches the level above.

use std::rc::Rc;

use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value};

use super::api_map::{markers_list, rooms_list};
use super::args::{Args, Six};
use super::cost;
use super::error::located;
use crate::map::Map;

/// What `ctx.above` offers, for the error that names them.
const OFFERS: &str = "width, height, level, get, in_bounds, is_walkable, rooms, start, markers";

pub(crate) struct LevelView {
    map: Rc<Map>,
    level: u32,
}

impl LevelView {
    pub fn new(map: Rc<Map>, level: u32) -> LevelView {
        LevelView { map, level }
    }

    fn args<'lua>(
        &self,
        lua: &'lua Lua,
        name: &'static str,
        values: Six,
    ) -> mlua::Result<Args<'lua>> {
        let args = Args::new(lua, name, values).on_map(self.map.width(), self.map.height());
        args.charge(cost::CALL_UNITS)?;
        Ok(args)
    }
}

impl UserData for LevelView {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("width", |_, this| Ok(this.map.width()));
        fields.add_field_method_get("height", |_, this| Ok(this.map.height()));
        fields.add_field_method_get("level", |_, this| Ok(this.level));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("get", |lua, this, values: Six| {
            let a = this.args(lua, "ctx.above:get", values)?;
            let tile = this
                .map
                .get(a.coord(0, "x")?, a.coord(1, "y")?)
                .map_err(|e| a.map_failed(e))?;
            Ok(this.map.tiles().kind(tile).name.clone())
        });
        methods.add_method("in_bounds", |lua, this, values: Six| {
            let a = this.args(lua, "ctx.above:in_bounds", values)?;
            Ok(this.map.in_bounds(a.int(0, "x")?, a.int(1, "y")?))
        });
        methods.add_method("is_walkable", |lua, this, values: Six| {
            let a = this.args(lua, "ctx.above:is_walkable", values)?;
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            this.map.index(x, y).map_err(|e| a.map_failed(e))?;
            Ok(this.map.is_walkable(x, y))
        });
        methods.add_method("rooms", |lua, this, ()| {
            rooms_list(lua, "ctx.above:rooms", this.map.rooms().to_vec())
        });
        methods.add_method("start", |_, this, ()| match this.map.start() {
            Some((x, y)) => Ok((Some(x), Some(y))),
            None => Ok((None, None)),
        });
        methods.add_method("markers", |lua, this, ()| {
            markers_list(lua, "ctx.above:markers", &this.map)
        });
        // No address in it: a script that prints it makes the same map every run.
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!(
                "ctx.above (level {}, {}x{})",
                this.level,
                this.map.width(),
                this.map.height()
            ))
        });
        // Anything else (a map writer, a typo) is refused by name.
        methods.add_meta_method(MetaMethod::Index, |lua, _, key: Value| {
            // A string key as written, cut short; anything else as shown.
            let key = match &key {
                Value::String(s) => super::args::cut(s),
                other => super::args::show(other),
            };
            Err::<(), _>(located(
                lua,
                format!("ctx.above has no {key}: the level above is finished and read-only; it offers {OFFERS}"),
            ))
        });
    }
}
