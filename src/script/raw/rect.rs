//! The raw side of `Rect` (see `api_rect.rs` for the ordinary side and the
//! registration): rect and index userdata, and the raw C functions that
//! answer the plain calls.
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

use super::guard::{charge_for, hold, raw_metatable, release, set_raw_metatable, RawType};
use super::{fall_back, int_arg};
use crate::geom::Rect;
use crate::ops::RectIndex;

/// The registry key of the rect metatable (its address is the key): the
/// registry keeps the metatable alive; the raw functions find it by its
/// address, which the guard records ([`RawType::Rect`]).
static RECT_METATABLE: u8 = 0;

pub(crate) fn metatable_key() -> *const c_void {
    &RECT_METATABLE as *const u8 as *const c_void
}

/// What a rect userdata holds.
#[repr(C)]
#[derive(Clone, Copy)]
struct Block {
    x1: i32,
    y1: i32,
    x2: i32,
    y2: i32,
}

extern "C-unwind" {
    /// The memory of the full userdata at `idx` if its metatable is the
    /// table at `metatable`, else null (`src/script/raw/lua/lapi.c`).
    fn dunlua_touserdata_of(
        state: *mut lua_State,
        idx: c_int,
        metatable: *const c_void,
    ) -> *mut c_void;
    /// Pushes a new full userdata of `size` bytes with the metatable at
    /// `metatable` (kept alive by the caller).
    fn dunlua_newuserdata_of(
        state: *mut lua_State,
        size: usize,
        metatable: *const c_void,
    ) -> *mut c_void;
}

/// Pushes a new rect userdata.
unsafe fn push_rect(state: *mut lua_State, r: Rect) {
    let metatable = raw_metatable(state, RawType::Rect);
    let block = dunlua_newuserdata_of(state, std::mem::size_of::<Block>(), metatable) as *mut Block;
    block.write(Block {
        x1: r.x1,
        y1: r.y1,
        x2: r.x2,
        y2: r.y2,
    });
}

/// The rect at stack index `idx`, if it is one (also for the map's fast
/// paths, `map:carve_room(r)`).
pub(crate) unsafe fn rect_at(state: *mut lua_State, idx: c_int) -> Option<Rect> {
    let block =
        dunlua_touserdata_of(state, idx, raw_metatable(state, RawType::Rect)) as *const Block;
    block.as_ref().map(|b| Rect {
        x1: b.x1,
        y1: b.y1,
        x2: b.x2,
        y2: b.y2,
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

/// Defines a raw function over upvalue 1, the ordinary function it falls
/// back to; the body returns `Some(results)` or `None`.
macro_rules! raw_fn {
    ($name:ident, |$state:ident| $body:block) => {
        pub(crate) unsafe extern "C-unwind" fn $name($state: *mut lua_State) -> c_int {
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
        let r = Rect::checked(v[0], v[1], v[2], v[3]).ok()?;
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

// The fields: the `__index` of the rect's method table, which is marked
// (`mark_methods`), so it gets the rect itself for a key that is not a
// method; a field's value, or nil for an unknown key (as before rects were
// raw). Upvalue 1 is only for a call on something that is not a rect.
raw_fn!(raw_fields, |state| {
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
            None => ffi::lua_pushnil(state),
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

/// A raw closure with the ordinary function as upvalue 1 and, optionally,
/// one more upvalue.
pub(crate) fn raw_closure(
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

/// Names a metatable, hides it from scripts (`getmetatable` gives false),
/// keeps it in the registry under `key` and records its address for the
/// raw functions as `kind`'s.
pub(crate) fn seal_and_register(
    lua: &Lua,
    metatable: &Table,
    name: &str,
    key: *const c_void,
    kind: RawType,
) -> mlua::Result<()> {
    metatable.raw_set("__name", name)?;
    metatable.raw_set("__metatable", false)?;
    set_raw_metatable(lua, kind, metatable.to_pointer());
    // SAFETY: pops the metatable it was given into the registry.
    unsafe {
        lua.exec_raw::<()>(metatable, |state| {
            ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, key);
        })
    }
}

/// `Rect.index()`: a native spatial index for "does this room touch any
/// placed one?" without a Lua loop over every room. A userdata holding a
/// boxed [`RectIndex`], freed by its `__gc`; its methods are raw like the
/// rect's.
static INDEX_METATABLE: u8 = 0;

pub(crate) fn index_key() -> *const c_void {
    &INDEX_METATABLE as *const u8 as *const c_void
}

/// What an index userdata holds: the boxed index and the bytes of it
/// counted against the run's memory limit.
#[repr(C)]
struct IndexBlock {
    index: *mut RectIndex,
    held: usize,
}

/// The index at stack index `idx`, if it is one.
unsafe fn index_at<'a>(state: *mut lua_State, idx: c_int) -> Option<&'a mut IndexBlock> {
    let metatable = raw_metatable(state, RawType::RectIndex);
    let block = dunlua_touserdata_of(state, idx, metatable) as *mut IndexBlock;
    match block.as_mut() {
        Some(b) if !b.index.is_null() => Some(b),
        _ => None,
    }
}

unsafe extern "C-unwind" fn raw_new_index(state: *mut lua_State) -> c_int {
    let metatable = raw_metatable(state, RawType::RectIndex);
    let block = dunlua_newuserdata_of(state, std::mem::size_of::<IndexBlock>(), metatable)
        as *mut IndexBlock;
    block.write(IndexBlock {
        index: std::ptr::null_mut(),
        held: 0,
    });
    // Boxed only once the userdata (and so its __gc) exists: nothing leaks
    // if Lua runs out of memory above.
    (*block).index = Box::into_raw(Box::new(RectIndex::new()));
    1
}

unsafe extern "C-unwind" fn raw_free_index(state: *mut lua_State) -> c_int {
    let block = ffi::lua_touserdata(state, 1) as *mut IndexBlock;
    if !block.is_null() && !(*block).index.is_null() {
        drop(Box::from_raw((*block).index));
        (*block).index = std::ptr::null_mut();
        release(state, (*block).held);
        (*block).held = 0;
    }
    0
}

raw_fn!(raw_insert, |state| {
    (|| {
        let r = rect_at(state, 2)?;
        let block = index_at(state, 1)?;
        // Raises the located stop (nothing here has a destructor) when the
        // buckets cannot be paid for or the index outgrows the memory limit.
        charge_for(
            state,
            "rect_index:insert",
            RectIndex::buckets_touched(&r) as usize,
        );
        let index = &mut *block.index;
        index.insert(r);
        let grown = index.heap_bytes().saturating_sub(block.held);
        hold(state, grown);
        block.held += grown;
        Some(0)
    })()
});

raw_fn!(raw_intersects_any, |state| {
    (|| {
        let r = rect_at(state, 2)?;
        let block = index_at(state, 1)?;
        charge_for(
            state,
            "rect_index:intersects_any",
            RectIndex::buckets_touched(&r) as usize,
        );
        let hit = (*block.index).intersects_any(&r);
        ffi::lua_pushboolean(state, hit as c_int);
        Some(1)
    })()
});

raw_fn!(raw_count, |state| {
    (|| {
        let n = (*index_at(state, 1)?.index).len();
        ffi::lua_pushinteger(state, n as ffi::lua_Integer);
        Some(1)
    })()
});

/// The index's finalizer, which frees its boxed [`RectIndex`].
pub(crate) fn index_finalizer(lua: &Lua) -> mlua::Result<Function> {
    // SAFETY: raw_free_index frees the box once and clears the pointer.
    unsafe { lua.create_c_function(raw_free_index) }
}

/// `Rect.index` itself: makes an empty index (the metatable must be
/// registered under [`index_key`] first).
pub(crate) fn index_constructor(lua: &Lua) -> mlua::Result<Function> {
    // SAFETY: raw_new_index pushes one userdata.
    unsafe { lua.create_c_function(raw_new_index) }
}
