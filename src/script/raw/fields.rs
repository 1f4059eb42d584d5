//! The few fields every run reads and writes (the script table's
//! declarations, `ctx`, `params`, the map's size), each group in one
//! protected call: through mlua, every `&str` key becomes a Lua string in
//! a protected call of its own, about 1,300 instructions each, and a run
//! used over twenty. The keys are Lua strings made once per VM and kept
//! in the registry ([`install_keys`]), pushed by index: Lua's
//! `lua_getfield` interns a C string through the state's string cache,
//! which every collection empties, so each run paid about 300
//! instructions a key to hash it again.

use std::ffi::{c_int, c_void, CStr};

use mlua::{ffi, AnyUserData, Lua, Table, Value};

use crate::params::{ParamValue, Params};

/// Every key this module uses, at the index [`key`] names: first the
/// fields of a script's table a run reads, in the order it reads them
/// ([`SCRIPT_FIELDS`]; `width` and `height` are the map's too), then
/// `ctx`'s others.
const KEYS: [&CStr; 14] = [
    c"generate",
    c"validate",
    c"name",
    c"width",
    c"height",
    c"levels",
    c"stairs",
    c"params",
    c"goal",
    c"locks",
    c"one_way",
    c"level",
    c"seed",
    c"above",
];

/// How many of [`KEYS`] are the script table's fields.
pub(crate) const SCRIPT_FIELDS: usize = 11;

/// Where the keys' table is in the registry: this static's address.
static KEYS_SLOT: u8 = 0;

fn keys_slot() -> *const c_void {
    std::ptr::addr_of!(KEYS_SLOT).cast()
}

/// The index in the keys' table of `name` (a name of [`KEYS`]).
fn key(name: &CStr) -> i64 {
    KEYS.iter().position(|k| *k == name).expect("a key of KEYS") as i64 + 1
}

/// Makes the keys' table, once per VM (when it is made: a run that made it
/// would allocate what later runs do not).
pub(crate) fn install_keys(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: leaves the stack as it found it; pushing may raise (memory)
    // with nothing here holding a destructor.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            ffi::lua_createtable(state, KEYS.len() as c_int, 0);
            for (i, name) in KEYS.iter().enumerate() {
                ffi::lua_pushstring(state, name.as_ptr());
                ffi::lua_rawseti(state, -2, i as i64 + 1);
            }
            ffi::lua_rawsetp(state, ffi::LUA_REGISTRYINDEX, keys_slot());
        })
    }
}

/// Pushes the keys' table (see [`install_keys`]) and returns its index.
///
/// SAFETY: `state` is a VM's, with the keys installed.
unsafe fn push_keys(state: *mut ffi::lua_State) -> c_int {
    ffi::lua_rawgetp(state, ffi::LUA_REGISTRYINDEX, keys_slot());
    ffi::lua_gettop(state)
}

/// Sets `table[KEYS[name]]` to the value on top of the stack (popped),
/// raw or through `__newindex` like `lua_setfield`.
unsafe fn set_key(state: *mut ffi::lua_State, table: c_int, keys: c_int, name: &CStr) {
    ffi::lua_rawgeti(state, keys, key(name));
    ffi::lua_insert(state, -2);
    ffi::lua_settable(state, table);
}

/// The script table's fields (the first [`SCRIPT_FIELDS`] of [`KEYS`]), read as `table.field` would
/// (metamethods included), in that order, and how many keys the table has
/// (raw, as `pairs` without `__pairs`): more keys than fields read means a
/// key of the script's own (a typo, maybe), told at a few instructions a
/// slot of the table (`dunlua_rawcount`, no lookup a key).
pub(crate) fn script_fields(
    lua: &Lua,
    table: &Table,
) -> mlua::Result<([Value; SCRIPT_FIELDS], usize)> {
    type Eleven = (
        Value,
        Value,
        Value,
        Value,
        Value,
        Value,
        Value,
        Value,
        Value,
        Value,
        Value,
    );
    // SAFETY: the closure replaces the table exec_raw pushed with the eleven
    // values; lua_getfield may raise (a metamethod, memory), with nothing
    // holding a destructor in this frame; dunlua_rawcount raises nothing.
    let mut count = 0;
    let (a, b, c, d, e, f, g, h, i, j, k): Eleven = unsafe {
        lua.exec_raw(table, |state| {
            let at = ffi::lua_gettop(state);
            count = dunlua_rawcount(state, at) as usize;
            let keys = push_keys(state);
            for i in 1..=SCRIPT_FIELDS as i64 {
                ffi::lua_rawgeti(state, keys, i);
                ffi::lua_gettable(state, at);
            }
            ffi::lua_remove(state, keys);
            ffi::lua_remove(state, at);
        })?
    };
    Ok(([a, b, c, d, e, f, g, h, i, j, k], count))
}

/// The first `most` key-value pairs of `table` in `next` order (raw, as
/// `pairs` without `__pairs`), read in one protected call: through mlua,
/// every step of the iteration is a protected call of its own (a
/// script's `params`, read every run, took 8,000 instructions).
pub(crate) fn first_pairs(
    lua: &Lua,
    table: &Table,
    most: usize,
) -> mlua::Result<Vec<(Value, Value)>> {
    let most = most.min(1 << 16);
    // SAFETY: the closure replaces the table exec_raw pushed with at most
    // `most` keys and values (the stack grown for each pair); lua_next and
    // growing the stack may raise, with nothing here holding a destructor.
    let values: mlua::MultiValue = unsafe {
        lua.exec_raw(table, |state| {
            let at = ffi::lua_gettop(state);
            ffi::lua_pushnil(state);
            let mut n = 0;
            // The stack grows with the pairs (grown to its most at once, a
            // run's stack would be grown and shrunk again every run).
            while n < most && {
                ffi::luaL_checkstack(state, 3, std::ptr::null());
                ffi::lua_next(state, at) != 0
            } {
                // Stack: ..., key, value: keep both and push the key again.
                ffi::lua_pushvalue(state, -2);
                n += 1;
            }
            if n == most {
                // The key pushed again (or nil after the last pair) goes.
                ffi::lua_pop(state, 1);
            }
            ffi::lua_remove(state, at);
        })?
    };
    let mut values = values.into_iter();
    let mut pairs = Vec::new();
    while let (Some(k), Some(v)) = (values.next(), values.next()) {
        pairs.push((k, v));
    }
    Ok(pairs)
}

/// A new `ctx` table: `level`, `levels`, `seed` and, below the first
/// level, `above`; then `rng` is numbered as if made now (`lapi.c`,
/// `dunlua_renumber`: the VM lends the same rng userdata to every run).
pub(crate) fn make_ctx(
    lua: &Lua,
    level: u32,
    levels: u32,
    seed: i64,
    above: Option<&AnyUserData>,
    rng: &AnyUserData,
) -> mlua::Result<Table> {
    // SAFETY: the closure leaves only the new table (popping the arguments
    // exec_raw pushed, a userdata or nil and the rng); nothing in it has a
    // destructor.
    unsafe {
        lua.exec_raw((above, rng), |state| {
            let above = ffi::lua_gettop(state) - 1;
            let keys = push_keys(state);
            ffi::lua_createtable(state, 0, 4);
            let ctx = ffi::lua_gettop(state);
            ffi::lua_pushinteger(state, level.into());
            set_key(state, ctx, keys, c"level");
            ffi::lua_pushinteger(state, levels.into());
            set_key(state, ctx, keys, c"levels");
            ffi::lua_pushinteger(state, seed);
            set_key(state, ctx, keys, c"seed");
            if ffi::lua_type(state, above) != ffi::LUA_TNIL {
                ffi::lua_pushvalue(state, above);
                set_key(state, ctx, keys, c"above");
            }
            ffi::lua_remove(state, keys);
            dunlua_renumber(state, above + 1);
            ffi::lua_remove(state, above + 1);
            ffi::lua_remove(state, above);
        })
    }
}

/// A new table of the parameters' values, as `generate` gets them, with
/// `metatable` (`script::params_table`), after numbering `map` as if made
/// now (see [`make_ctx`]).
pub(crate) fn make_params(
    lua: &Lua,
    map: &AnyUserData,
    params: &Params,
    metatable: &Table,
) -> mlua::Result<Table> {
    // SAFETY: the closure leaves only the new table (it pops the map and
    // the metatable exec_raw pushed); pushing may raise (memory) while it
    // holds only borrows.
    unsafe {
        lua.exec_raw((map, metatable), |state| {
            dunlua_renumber(state, -2);
            ffi::lua_remove(state, -2);
            ffi::lua_createtable(state, 0, params.len().min(1 << 16) as _);
            ffi::lua_insert(state, -2);
            ffi::lua_setmetatable(state, -2);
            let table = ffi::lua_gettop(state);
            for (key, value) in params.iter() {
                ffi::lua_pushlstring(state, key.as_ptr().cast(), key.len());
                match value {
                    ParamValue::Integer(v) => ffi::lua_pushinteger(state, *v),
                    ParamValue::Number(v) => ffi::lua_pushnumber(state, *v),
                    ParamValue::Boolean(v) => ffi::lua_pushboolean(state, (*v).into()),
                    ParamValue::Text(v) => {
                        ffi::lua_pushlstring(state, v.as_ptr().cast(), v.len());
                    }
                }
                ffi::lua_rawset(state, table);
            }
        })
    }
}

/// Sets `width` and `height` in the map's method table (raw).
pub(crate) fn set_size(lua: &Lua, methods: &Table, width: i64, height: i64) -> mlua::Result<()> {
    // SAFETY: the closure pops the table exec_raw pushed.
    unsafe {
        lua.exec_raw::<()>(methods, |state| {
            let at = ffi::lua_gettop(state);
            let keys = push_keys(state);
            ffi::lua_rawgeti(state, keys, key(c"width"));
            ffi::lua_pushinteger(state, width);
            ffi::lua_rawset(state, at);
            ffi::lua_rawgeti(state, keys, key(c"height"));
            ffi::lua_pushinteger(state, height);
            ffi::lua_rawset(state, at);
            ffi::lua_pop(state, 2);
        })
    }
}

extern "C-unwind" {
    /// Gives the userdata at `idx` the next object id (`lapi.c`).
    fn dunlua_renumber(state: *mut ffi::lua_State, idx: c_int);
    /// How many keys the table at `idx` holds, raw (`lapi.c`).
    fn dunlua_rawcount(state: *mut ffi::lua_State, idx: c_int) -> ffi::lua_Unsigned;
}
