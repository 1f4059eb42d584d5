//! `Rect` for scripts: `Rect.new(x, y, w, h)` and the seeds' questions
//! (`center`, `interior`, `intersects`, `contains`) answered by
//! [`geom::Rect`], and `Rect.index()`.
//!
//! The plain calls are answered by raw C functions (`raw/rect.rs`); this
//! module holds the ordinary mlua functions they fall back to for anything
//! else, which answer it or raise the usual located error, and builds the
//! metatables and the global `Rect` table.
//!
//! [`geom::Rect`]: crate::geom::Rect

use mlua::{ffi, Function, Lua, Value};

use super::args::{Args, Six};
use super::error::located;
use super::raw::guard::RawType;
use super::raw::mark_methods;
use super::raw::rect::{
    index_constructor, index_finalizer, index_key, metatable_key, raw_center, raw_closure,
    raw_contains, raw_count, raw_eq, raw_fields, raw_insert, raw_interior, raw_intersects,
    raw_intersects_any, raw_new, rect_of, rect_value, seal_and_register,
};
use crate::geom::Rect;

/// A rect's fields, as scripts read them.
pub(crate) const FIELDS: [&str; 6] = ["x1", "y1", "x2", "y2", "w", "h"];

/// A rect's methods.
pub(crate) const METHODS: [&str; 4] = ["center", "interior", "intersects", "contains"];

/// The index's methods.
pub(crate) const INDEX_METHODS: [&str; 3] = ["insert", "intersects_any", "count"];

/// The ordinary versions: they read the rect through [`rect_of`] and raise
/// located errors for what the raw versions refused.
fn this(lua: &Lua, value: &Value, name: &str) -> mlua::Result<Rect> {
    rect_of(lua, value).ok_or_else(|| {
        located(
            lua,
            format!(
                "{name}: call it on a Rect, as r:{}(...)",
                name.trim_start_matches("Rect:")
            ),
        )
    })
}

/// In the order of [`METHODS`].
fn slow_functions(lua: &Lua) -> mlua::Result<Vec<(&'static str, Function)>> {
    Ok(vec![
        (
            "center",
            lua.create_function(|lua, (r, _): (Value, Six)| {
                Ok(this(lua, &r, "Rect:center")?.center())
            })?,
        ),
        (
            "interior",
            lua.create_function(|lua, (r, _): (Value, Six)| {
                Ok(this(lua, &r, "Rect:interior")?.interior())
            })?,
        ),
        (
            "intersects",
            lua.create_function(|lua, (r, args): (Value, Six)| {
                let r = this(lua, &r, "Rect:intersects")?;
                let other = Args::new(lua, "Rect:intersects", args).rect(0, "other")?;
                Ok(r.intersects(&other))
            })?,
        ),
        (
            "contains",
            lua.create_function(|lua, (r, args): (Value, Six)| {
                let r = this(lua, &r, "Rect:contains")?;
                let args = Args::new(lua, "Rect:contains", args);
                Ok(r.contains(args.coord(0, "x")? as i32, args.coord(1, "y")? as i32))
            })?,
        ),
    ])
}

/// Builds the rect metatable and registers the global `Rect` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let methods = lua.create_table()?;
    let raw: [ffi::lua_CFunction; 4] = [raw_center, raw_interior, raw_intersects, raw_contains];
    for ((name, slow), function) in slow_functions(lua)?.into_iter().zip(raw) {
        methods.raw_set(name, raw_closure(lua, function, slow, None)?)?;
    }
    let unknown = lua.create_function(|lua, (_, key): (Value, Value)| -> mlua::Result<()> {
        Err(located(
            lua,
            format!(
                "Rect has no field {}; it has {} and methods {}",
                super::args::show(&key),
                FIELDS.join(", "),
                METHODS.join(", ")
            ),
        ))
    })?;
    // A method is found in `methods` without leaving the VM; a field (or
    // nothing) by its `__index`, which gets the rect (`mark_methods`).
    let fields = lua.create_table()?;
    fields.raw_set("__index", raw_closure(lua, raw_fields, unknown, None)?)?;
    methods.set_metatable(Some(fields))?;
    mark_methods(lua, &methods)?;
    let metatable = lua.create_table()?;
    metatable.raw_set("__index", methods)?;
    let not_equal = lua.create_function(|_, _: Six| Ok(false))?;
    metatable.raw_set("__eq", raw_closure(lua, raw_eq, not_equal, None)?)?;
    metatable.raw_set(
        "__tostring",
        lua.create_function(|lua, r: Value| {
            Ok(rect_of(lua, &r).map(|r| r.to_string()).unwrap_or_default())
        })?,
    )?;
    seal_and_register(lua, &metatable, "Rect", metatable_key(), RawType::Rect)?;

    let rect = lua.create_table()?;
    let slow_new = lua.create_function(|lua, args: Six| {
        let args = Args::new(lua, "Rect.new", args);
        let x = args.coord(0, "x")?;
        let y = args.coord(1, "y")?;
        let w = args.coord(2, "w")?;
        let h = args.coord(3, "h")?;
        let r = Rect::checked(x, y, w, h).map_err(|e| args.fail(e))?;
        rect_value(lua, r)
    })?;
    rect.set("new", raw_closure(lua, raw_new, slow_new, None)?)?;
    rect.set("index", register_index(lua)?)?;
    lua.globals().set("Rect", rect)
}

/// The ordinary versions only explain what was wrong: the raw ones accept
/// every valid call (an index and a rect are never floats).
fn index_slow_functions(lua: &Lua) -> mlua::Result<Vec<Function>> {
    let refuse = |name: &'static str, takes_rect: bool| {
        lua.create_function(move |lua, (_, args): (Value, Six)| -> mlua::Result<()> {
            let args = Args::new(lua, name, args);
            if takes_rect {
                args.rect(0, "rect")?;
            }
            Err(located(
                lua,
                format!(
                    "{name}: call it on an index from Rect.index(), as ix:{}(...)",
                    name.trim_start_matches("index:")
                ),
            ))
        })
    };
    Ok(vec![
        refuse("index:insert", true)?,
        refuse("index:intersects_any", true)?,
        refuse("index:count", false)?,
    ])
}

fn register_index(lua: &Lua) -> mlua::Result<Function> {
    let methods = lua.create_table()?;
    let raw: [ffi::lua_CFunction; 3] = [raw_insert, raw_intersects_any, raw_count];
    for ((name, slow), function) in INDEX_METHODS
        .into_iter()
        .zip(index_slow_functions(lua)?)
        .zip(raw)
    {
        methods.raw_set(name, raw_closure(lua, function, slow, None)?)?;
    }
    let metatable = lua.create_table()?;
    metatable.raw_set("__index", methods)?;
    metatable.raw_set("__gc", index_finalizer(lua)?)?;
    // Not the default "RectIndex: 0x55..." (an address differs every run).
    metatable.raw_set(
        "__tostring",
        lua.create_function(|_, _: Value| Ok("RectIndex"))?,
    )?;
    seal_and_register(
        lua,
        &metatable,
        "RectIndex",
        index_key(),
        RawType::RectIndex,
    )?;
    index_constructor(lua)
}

#[cfg(test)]
mod tests {
    use mlua::Lua;

    fn lua() -> Lua {
        let lua = Lua::new();
        // The raw functions charge the run's guard, as in a real VM.
        let guard = crate::script::raw::guard::Guard::install(&lua, 64 << 20).unwrap();
        guard.start_run(u64::MAX, None, None);
        super::register(&lua).unwrap();
        lua
    }

    #[test]
    fn rects_answer_as_the_seeds_do() {
        let lua = lua();
        let got: String = lua
            .load(
                r#"
                local r = Rect.new(1, 2, 5, 4)
                local a, b = r:center()
                local i1, i2, i3, i4 = r:interior()
                return table.concat({
                  tostring(r), r.x1, r.y1, r.x2, r.y2, r.w, r.h, a, b, i1, i2, i3, i4,
                  tostring(r == Rect.new(1, 2, 5, 4)), tostring(r == Rect.new(1, 2, 5, 5)),
                  tostring(r:intersects(Rect.new(6, 6, 2, 2))), tostring(r:intersects(Rect.new(7, 2, 2, 2))),
                  tostring(r:contains(6, 6)), tostring(r:contains(3.0, 7)),
                  tostring(r.nothing), type(r), tostring(getmetatable(r)),
                  tostring(Rect.new(0, 0, 2.0, 2)),
                }, " ")
                "#,
            )
            .eval()
            .unwrap();
        assert_eq!(
            got,
            "Rect(x1=1, y1=2, x2=6, y2=6) 1 2 6 6 5 4 3 4 2 3 5 5 true false true false true false nil userdata false Rect(x1=0, y1=0, x2=2, y2=2)"
        );
    }

    #[test]
    fn a_rect_reached_through_another_tables_index_answers_as_itself() {
        let got: String = lua()
            .load(
                r#"
                local r = Rect.new(1, 2, 5, 4)
                local p = setmetatable({}, { __index = r })
                local q = setmetatable({}, { __index = p })
                return table.concat({ p.x1, p.w, q.y2, type(p.center), tostring(q.nothing) }, " ")
                "#,
            )
            .eval()
            .unwrap();
        assert_eq!(got, "1 5 6 function nil");
    }

    #[test]
    fn an_index_answers_like_a_loop_over_its_rects() {
        let lua = lua();
        let got: String = lua
            .load(
                r#"
                local ix, list, out = Rect.index(), {}, {}
                local seed = 7
                local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n end
                for i = 1, 300 do
                  local r = Rect.new(rand(200), rand(200), 1 + rand(12), 1 + rand(12))
                  local slow = false
                  for _, o in ipairs(list) do if o:intersects(r) then slow = true break end end
                  if ix:intersects_any(r) ~= slow then return "disagree at " .. i end
                  if not slow then ix:insert(r) list[#list + 1] = r end
                end
                collectgarbage()
                return ix:count() .. " " .. #list
                "#,
            )
            .eval()
            .unwrap();
        let (a, b) = got.split_once(' ').expect(&got);
        assert_eq!(a, b);
        assert!(a.parse::<usize>().unwrap() > 10, "{got}");
    }

    #[test]
    fn refusals_are_located_errors() {
        let lua = lua();
        for (code, message) in [
            (
                "return Rect.new(1, 2, 0, 3)",
                "Rect.new: w must be at least 1, got 0",
            ),
            (
                "return Rect.new(1.5, 2, 1, 3)",
                "Rect.new: x must be an integer, got 1.5",
            ),
            (
                "return Rect.new(2^40, 2, 1, 3)",
                "Rect.new: x must be a map coordinate",
            ),
            (
                "return Rect.new(1, 1, 2, 2):intersects(5)",
                "Rect:intersects: other must be a Rect (from Rect.new), got 5",
            ),
            (
                "return Rect.new(1, 1, 2, 2).center()",
                "Rect:center: call it on a Rect, as r:center(...)",
            ),
            (
                "return Rect.new(1, 1, 2, 2):contains('a', 1)",
                "Rect:contains: x must be an integer",
            ),
        ] {
            let err = lua
                .load(code)
                .set_name("=t.lua")
                .exec()
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(&format!("t.lua:1: {message}")),
                "{code}: {err}"
            );
        }
    }
}
