//! `Rect` for scripts: `Rect.new(x, y, w, h)` and the seeds' questions
//! (`center`, `interior`, `intersects`, `contains`) answered by [`geom::Rect`].
//!
//! A rect is a small plain userdata (its four corners, no Rust destructor)
//! with a metatable of raw C functions: a room-placement loop makes and
//! tests thousands of them, and mlua's general userdata (a heap cell, a
//! finalizer, a checked borrow per call) cost several times the work. As in
//! [`super::fast`], each raw function does the plain case and hands
//! anything else to an ordinary mlua function with the same arguments,
//! which answers it or raises the usual located error.
//!
//! [`geom::Rect`]: crate::geom::Rect

use std::ffi::{c_int, c_void};

use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, Function, Lua, Table, Value};

use super::args::{located, Args, Six};
use super::fast::{fall_back, int_arg};
use crate::geom::Rect;
use crate::ops::RectIndex;

/// The registry key of the rect metatable (its address is the key).
static RECT_METATABLE: u8 = 0;

fn metatable_key() -> *const c_void {
    &RECT_METATABLE as *const u8 as *const c_void
}

/// A rect's fields, as scripts read them.
pub(crate) const FIELDS: [&str; 6] = ["x1", "y1", "x2", "y2", "w", "h"];

/// A rect's methods.
pub(crate) const METHODS: [&str; 4] = ["center", "interior", "intersects", "contains"];

/// What a rect userdata holds.
#[repr(C)]
#[derive(Clone, Copy)]
struct Block {
    x1: i32,
    y1: i32,
    x2: i32,
    y2: i32,
}

/// Pushes a new rect userdata.
unsafe fn push_rect(state: *mut lua_State, r: Rect) {
    let block = ffi::lua_newuserdatauv(state, std::mem::size_of::<Block>(), 0) as *mut Block;
    block.write(Block {
        x1: r.x1,
        y1: r.y1,
        x2: r.x2,
        y2: r.y2,
    });
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, metatable_key());
    ffi::lua_setmetatable(state, -2);
}

/// The rect at stack index `idx`, if it is one (also for the map's fast
/// paths, `map:carve_room(r)`).
pub(crate) unsafe fn rect_at(state: *mut lua_State, idx: c_int) -> Option<Rect> {
    let block = ffi::lua_touserdata(state, idx) as *const Block;
    if block.is_null() || ffi::lua_getmetatable(state, idx) == 0 {
        return None;
    }
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, metatable_key());
    let is_rect = ffi::lua_rawequal(state, -1, -2) != 0;
    ffi::lua_pop(state, 2);
    is_rect.then(|| {
        let b = *block;
        Rect {
            x1: b.x1,
            y1: b.y1,
            x2: b.x2,
            y2: b.y2,
        }
    })
}

/// The rect a Lua value holds, if it is one.
pub(crate) fn rect_of(lua: &Lua, value: &Value) -> Option<Rect> {
    let Value::UserData(ud) = value else {
        return None;
    };
    // SAFETY: replaces the userdata with a boolean and four integers.
    let read = unsafe {
        lua.exec_raw::<(bool, i32, i32, i32, i32)>(ud, |state| {
            let rect = rect_at(state, -1);
            ffi::lua_pop(state, 1);
            push_read(state, rect)
        })
    };
    match read {
        Ok((true, x1, y1, x2, y2)) => Some(Rect { x1, y1, x2, y2 }),
        _ => None,
    }
}

unsafe fn push_read(state: *mut lua_State, rect: Option<Rect>) {
    match rect {
        Some(r) => {
            ffi::lua_pushboolean(state, 1);
            for v in [r.x1, r.y1, r.x2, r.y2] {
                ffi::lua_pushinteger(state, v as ffi::lua_Integer);
            }
        }
        None => {
            ffi::lua_pushboolean(state, 0);
            for _ in 0..4 {
                ffi::lua_pushinteger(state, 0);
            }
        }
    }
}

/// A new rect as a Lua value.
pub(crate) fn rect_value(lua: &Lua, r: Rect) -> mlua::Result<AnyUserData> {
    // SAFETY: pushes exactly one userdata.
    unsafe { lua.exec_raw((), |state| push_rect(state, r)) }
}

/// The checks of `Rect.new`, shared by both paths.
fn new_rect(x: i64, y: i64, w: i64, h: i64) -> Result<Rect, String> {
    if w < 1 {
        return Err(format!("w must be at least 1, got {w}"));
    }
    if h < 1 {
        return Err(format!("h must be at least 1, got {h}"));
    }
    match (
        i32::try_from(x),
        i32::try_from(y),
        i32::try_from(x + w),
        i32::try_from(y + h),
    ) {
        (Ok(x), Ok(y), Ok(_), Ok(_)) => Ok(Rect::new(x, y, w as i32, h as i32)),
        _ => Err("the rect's far corner is out of range".into()),
    }
}

/// Defines a raw function over upvalue 1, the ordinary function it falls
/// back to; the body returns `Some(results)` or `None`.
macro_rules! raw_fn {
    ($name:ident, |$state:ident| $body:block) => {
        unsafe extern "C-unwind" fn $name($state: *mut lua_State) -> c_int {
            let done: Option<c_int> = $body;
            match done {
                Some(n) => n,
                None => fall_back($state, 1),
            }
        }
    };
}

raw_fn!(raw_new, |state| {
    (|| {
        // Map coordinates (i32), as the ordinary path's checks demand.
        let mut v = [0i64; 4];
        for (i, slot) in v.iter_mut().enumerate() {
            *slot = int_arg(state, i as c_int + 1).filter(|v| i32::try_from(*v).is_ok())?;
        }
        let r = new_rect(v[0], v[1], v[2], v[3]).ok()?;
        push_rect(state, r);
        Some(1)
    })()
});

raw_fn!(raw_center, |state| {
    (|| {
        let (x, y) = rect_at(state, 1)?.center();
        ffi::lua_pushinteger(state, x as ffi::lua_Integer);
        ffi::lua_pushinteger(state, y as ffi::lua_Integer);
        Some(2)
    })()
});

raw_fn!(raw_interior, |state| {
    (|| {
        let (x1, y1, x2, y2) = rect_at(state, 1)?.interior();
        for v in [x1, y1, x2, y2] {
            ffi::lua_pushinteger(state, v as ffi::lua_Integer);
        }
        Some(4)
    })()
});

raw_fn!(raw_intersects, |state| {
    (|| {
        let (a, b) = (rect_at(state, 1)?, rect_at(state, 2)?);
        ffi::lua_pushboolean(state, a.intersects(&b) as c_int);
        Some(1)
    })()
});

raw_fn!(raw_contains, |state| {
    (|| {
        let r = rect_at(state, 1)?;
        let (x, y) = (int_arg(state, 2)?, int_arg(state, 3)?);
        let (x, y) = (i32::try_from(x).ok()?, i32::try_from(y).ok()?);
        ffi::lua_pushboolean(state, r.contains(x, y) as c_int);
        Some(1)
    })()
});

// `__index`: a field, a method from the table in upvalue 2, or nil (upvalue
// 1 is only for a call on something that is not a rect).
raw_fn!(raw_index, |state| {
    (|| {
        let r = rect_at(state, 1)?;
        if ffi::lua_type(state, 2) != ffi::LUA_TSTRING {
            ffi::lua_pushnil(state);
            return Some(1);
        }
        let mut len = 0usize;
        let key = ffi::lua_tolstring(state, 2, &mut len);
        let key = std::slice::from_raw_parts(key as *const u8, len);
        let field = match key {
            b"x1" => Some(r.x1),
            b"y1" => Some(r.y1),
            b"x2" => Some(r.x2),
            b"y2" => Some(r.y2),
            b"w" => Some(r.w()),
            b"h" => Some(r.h()),
            _ => None,
        };
        match field {
            Some(v) => ffi::lua_pushinteger(state, v as ffi::lua_Integer),
            None => {
                // A method, or nil for an unknown name (as before rects were raw).
                ffi::lua_pushvalue(state, 2);
                ffi::lua_rawget(state, ffi::lua_upvalueindex(2));
            }
        }
        Some(1)
    })()
});

raw_fn!(raw_eq, |state| {
    (|| {
        let equal = rect_at(state, 1)? == rect_at(state, 2)?;
        ffi::lua_pushboolean(state, equal as c_int);
        Some(1)
    })()
});

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

/// A raw closure with the ordinary function as upvalue 1 and, optionally,
/// one more upvalue.
fn raw_closure(
    lua: &Lua,
    function: ffi::lua_CFunction,
    slow: Function,
    extra: Option<&Table>,
) -> mlua::Result<Function> {
    // SAFETY: pops the upvalues it pushed and leaves one closure.
    unsafe {
        match extra {
            None => lua.exec_raw(slow, |state| ffi::lua_pushcclosure(state, function, 1)),
            Some(t) => lua.exec_raw((slow, t), |state| ffi::lua_pushcclosure(state, function, 2)),
        }
    }
}

/// Names a metatable, hides it from scripts (`getmetatable` gives false)
/// and stores it in the registry under `key`, where the raw functions find it.
fn seal_and_register(
    lua: &Lua,
    metatable: &Table,
    name: &str,
    key: *const c_void,
) -> mlua::Result<()> {
    metatable.raw_set("__name", name)?;
    metatable.raw_set("__metatable", false)?;
    // SAFETY: pops the metatable it was given into the registry.
    unsafe {
        lua.exec_raw::<()>(metatable, |state| {
            ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, key);
        })
    }
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
    let metatable = lua.create_table()?;
    metatable.raw_set(
        "__index",
        raw_closure(lua, raw_index, unknown, Some(&methods))?,
    )?;
    let not_equal = lua.create_function(|_, _: Six| Ok(false))?;
    metatable.raw_set("__eq", raw_closure(lua, raw_eq, not_equal, None)?)?;
    metatable.raw_set(
        "__tostring",
        lua.create_function(|lua, r: Value| {
            Ok(rect_of(lua, &r).map(|r| r.to_string()).unwrap_or_default())
        })?,
    )?;
    seal_and_register(lua, &metatable, "Rect", metatable_key())?;

    let rect = lua.create_table()?;
    let slow_new = lua.create_function(|lua, args: Six| {
        let args = Args::new(lua, "Rect.new", args);
        let x = args.coord(0, "x")?;
        let y = args.coord(1, "y")?;
        let w = args.coord(2, "w")?;
        let h = args.coord(3, "h")?;
        let r = new_rect(x, y, w, h).map_err(|e| args.fail(e))?;
        rect_value(lua, r)
    })?;
    rect.set("new", raw_closure(lua, raw_new, slow_new, None)?)?;
    rect.set("index", register_index(lua)?)?;
    lua.globals().set("Rect", rect)
}

/// `Rect.index()`: a native spatial index for "does this room touch any
/// placed one?" without a Lua loop over every room. A userdata holding a
/// boxed [`RectIndex`], freed by its `__gc`; its methods are raw like the
/// rect's.
static INDEX_METATABLE: u8 = 0;

fn index_key() -> *const c_void {
    &INDEX_METATABLE as *const u8 as *const c_void
}

/// The index's methods.
pub(crate) const INDEX_METHODS: [&str; 3] = ["insert", "intersects_any", "count"];

/// The index at stack index `idx`, if it is one.
unsafe fn index_at<'a>(state: *mut lua_State, idx: c_int) -> Option<&'a mut RectIndex> {
    let block = ffi::lua_touserdata(state, idx) as *mut *mut RectIndex;
    if block.is_null() || ffi::lua_getmetatable(state, idx) == 0 {
        return None;
    }
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, index_key());
    let is_index = ffi::lua_rawequal(state, -1, -2) != 0;
    ffi::lua_pop(state, 2);
    if !is_index {
        return None;
    }
    (*block).as_mut()
}

unsafe extern "C-unwind" fn raw_new_index(state: *mut lua_State) -> c_int {
    let block = ffi::lua_newuserdatauv(state, std::mem::size_of::<*mut RectIndex>(), 0)
        as *mut *mut RectIndex;
    block.write(std::ptr::null_mut());
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, index_key());
    ffi::lua_setmetatable(state, -2);
    // Boxed only once the userdata (and so its __gc) exists: nothing leaks
    // if Lua runs out of memory above.
    block.write(Box::into_raw(Box::new(RectIndex::new())));
    1
}

unsafe extern "C-unwind" fn raw_free_index(state: *mut lua_State) -> c_int {
    let block = ffi::lua_touserdata(state, 1) as *mut *mut RectIndex;
    if !block.is_null() && !(*block).is_null() {
        drop(Box::from_raw(*block));
        block.write(std::ptr::null_mut());
    }
    0
}

raw_fn!(raw_insert, |state| {
    (|| {
        let r = rect_at(state, 2)?;
        index_at(state, 1)?.insert(r);
        Some(0)
    })()
});

raw_fn!(raw_intersects_any, |state| {
    (|| {
        let r = rect_at(state, 2)?;
        let hit = index_at(state, 1)?.intersects_any(&r);
        ffi::lua_pushboolean(state, hit as c_int);
        Some(1)
    })()
});

raw_fn!(raw_count, |state| {
    (|| {
        let n = index_at(state, 1)?.len();
        ffi::lua_pushinteger(state, n as ffi::lua_Integer);
        Some(1)
    })()
});

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
    // SAFETY: raw_free_index frees the box once and clears the pointer.
    metatable.raw_set("__gc", unsafe { lua.create_c_function(raw_free_index) }?)?;
    seal_and_register(lua, &metatable, "RectIndex", index_key())?;
    // SAFETY: raw_new_index pushes one userdata.
    unsafe { lua.create_c_function(raw_new_index) }
}

#[cfg(test)]
mod tests {
    use mlua::Lua;

    fn lua() -> Lua {
        let lua = Lua::new();
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
