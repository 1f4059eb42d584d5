//! `Rect` for scripts: `Rect.new(x, y, w, h)` and the seeds' questions
//! (`center`, `interior`, `intersects`, `contains`) answered by [`geom::Rect`].
//!
//! [`geom::Rect`]: crate::geom::Rect

use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods};

use super::args::{Args, Six};
use crate::geom::Rect;
use crate::ops::RectIndex;

/// A rect lent to Lua by value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LuaRect(pub Rect);

impl UserData for LuaRect {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("x1", |_, r| Ok(r.0.x1));
        fields.add_field_method_get("y1", |_, r| Ok(r.0.y1));
        fields.add_field_method_get("x2", |_, r| Ok(r.0.x2));
        fields.add_field_method_get("y2", |_, r| Ok(r.0.y2));
        fields.add_field_method_get("w", |_, r| Ok(r.0.w()));
        fields.add_field_method_get("h", |_, r| Ok(r.0.h()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("center", |_, r, ()| Ok(r.0.center()));
        methods.add_method("interior", |_, r, ()| Ok(r.0.interior()));
        methods.add_method("intersects", |lua, r, args: Six| {
            let other = Args::new(lua, "Rect:intersects", args).rect(0, "other")?;
            Ok(r.0.intersects(&other))
        });
        methods.add_method("contains", |lua, r, args: Six| {
            let args = Args::new(lua, "Rect:contains", args);
            Ok(r.0.contains(args.coord(0, "x")? as i32, args.coord(1, "y")? as i32))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, r, ()| Ok(r.0.to_string()));
        methods.add_meta_method(MetaMethod::Eq, |_, r, other: mlua::AnyUserData| {
            Ok(other.borrow::<LuaRect>().is_ok_and(|o| o.0 == r.0))
        });
    }
}

/// `Rect.index()`: a native spatial index for "does this room touch any
/// placed one?" without a Lua loop over every room.
pub(crate) struct LuaRectIndex(pub RectIndex);

impl UserData for LuaRectIndex {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("intersects_any", |lua, ix, args: Six| {
            let r = Args::new(lua, "index:intersects_any", args).rect(0, "rect")?;
            Ok(ix.0.intersects_any(&r))
        });
        methods.add_method_mut("insert", |lua, ix, args: Six| {
            let r = Args::new(lua, "index:insert", args).rect(0, "rect")?;
            ix.0.insert(r);
            Ok(())
        });
        methods.add_method("count", |_, ix, ()| Ok(ix.0.len()));
    }
}

/// Registers the global `Rect` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let rect = lua.create_table()?;
    rect.set(
        "new",
        lua.create_function(|lua, args: Six| {
            let args = Args::new(lua, "Rect.new", args);
            let x = args.coord(0, "x")?;
            let y = args.coord(1, "y")?;
            let w = args.coord(2, "w")?;
            let h = args.coord(3, "h")?;
            if w < 1 {
                return Err(args.fail(format!("w must be at least 1, got {w}")));
            }
            if h < 1 {
                return Err(args.fail(format!("h must be at least 1, got {h}")));
            }
            if i32::try_from(x + w).is_err() || i32::try_from(y + h).is_err() {
                return Err(args.fail("the rect's far corner is out of range"));
            }
            Ok(LuaRect(Rect::new(x as i32, y as i32, w as i32, h as i32)))
        })?,
    )?;
    rect.set(
        "index",
        lua.create_function(|_, ()| Ok(LuaRectIndex(RectIndex::new())))?,
    )?;
    lua.globals().set("Rect", rect)
}
