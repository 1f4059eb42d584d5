//! Fast paths for the hottest primitives (`map:set`, the tunnels,
//! `rng:int`, ...): raw Lua C functions that skip mlua's general callback
//! machinery, which costs several hundred nanoseconds a call.
//!
//! Each fast function handles only the plain case: the run's own map (or
//! rng) as `self`, integer arguments, known tile names, a call the primitive
//! accepts. Anything else (a float, a wrong type, an off-map cell, a
//! re-entrant call, a map being recorded for the replay) is handed, with
//! the same arguments, to the ordinary mlua binding, which does the work or
//! raises the usual located error. The primitives check everything before
//! they change anything, so a refused fast attempt leaves nothing behind,
//! and the answers are the same either way (the tests run every script both
//! with and without the window's recording, which takes the slow path).
//!
//! Why this is sound:
//! - the fast functions reach the map and rng through [`FastState`], which
//!   the host fills when it hands them to `generate` and empties before it
//!   takes them back, and a fast function acts only when argument 1 *is*
//!   that userdata (compared by address);
//! - Lua never holds a `&mut LuaMap` (every map method is `add_method`) and
//!   the map sits in a `RefCell`, so the fast path's borrow can neither
//!   alias a method's nor be taken while one is running;
//! - nothing with a destructor is alive when a fast function calls back
//!   into Lua (which may raise an error and `longjmp` over the frame).

use std::cell::{Cell, RefCell, RefMut};
use std::ffi::{c_int, c_void};
use std::rc::Rc;

use mlua::ffi::{self, lua_State};
use mlua::{AnyUserData, Function, Lua, Table, Value};

use super::guard::fast_charge;
use super::rect::rect_at;
use super::{fall_back, int_arg};
use crate::map::{Map, Tile};
use crate::rng::Rng;
use crate::script::api_map::LuaMap;
use crate::script::api_rng::LuaRng;
use crate::script::cost;

/// What the fast functions may touch during the current run; empty between runs.
pub(crate) struct FastState {
    map_block: Cell<*const c_void>,
    map: Cell<*const LuaMap>,
    rng_block: Cell<*const c_void>,
    rng: Cell<*const RefCell<Rng>>,
    /// Calls a fast function completed itself (for tests and profiling).
    pub hits: Cell<u64>,
}

impl FastState {
    pub fn new() -> Rc<FastState> {
        Rc::new(FastState {
            map_block: Cell::new(std::ptr::null()),
            map: Cell::new(std::ptr::null()),
            rng_block: Cell::new(std::ptr::null()),
            rng: Cell::new(std::ptr::null()),
            hits: Cell::new(0),
        })
    }

    /// Lets the fast functions use this run's map and rng. `map` and `rng`
    /// must stay alive and untaken until [`FastState::detach`]. Returns the
    /// map's size.
    pub fn attach(&self, map: &AnyUserData, rng: &AnyUserData) -> mlua::Result<(i32, i32)> {
        let lua_map = map.borrow::<LuaMap>()?;
        let size = lua_map
            .try_map_mut()
            .map(|m| (m.width(), m.height()))
            .ok_or_else(|| mlua::Error::RuntimeError("the map is in use".into()))?;
        // A recorded map takes the slow path, which writes the replay.
        if !lua_map.is_recording() {
            self.map.set(&*lua_map as *const LuaMap);
            self.map_block.set(map.to_pointer());
        }
        let lua_rng = rng.borrow::<LuaRng>()?;
        self.rng.set(Rc::as_ptr(&lua_rng.0));
        self.rng_block.set(rng.to_pointer());
        Ok(size)
    }

    pub fn detach(&self) {
        self.map_block.set(std::ptr::null());
        self.map.set(std::ptr::null());
        self.rng_block.set(std::ptr::null());
        self.rng.set(std::ptr::null());
    }

    /// The run's map when argument `idx` is its userdata and nobody is using it.
    unsafe fn map_at(&self, state: *mut lua_State, idx: c_int) -> Option<RefMut<'_, Map>> {
        let block = self.map_block.get();
        if block.is_null() || !std::ptr::eq(ffi::lua_touserdata(state, idx), block) {
            return None;
        }
        (*self.map.get()).try_map_mut()
    }

    unsafe fn rng_at(&self, state: *mut lua_State, idx: c_int) -> Option<RefMut<'_, Rng>> {
        let block = self.rng_block.get();
        if block.is_null() || !std::ptr::eq(ffi::lua_touserdata(state, idx), block) {
            return None;
        }
        (*self.rng.get()).try_borrow_mut().ok()
    }
}

/// Keeps the [`FastState`] alive as long as the Lua state that points at it.
struct KeepAlive(#[allow(dead_code)] Rc<FastState>);

/// Rooms the fast `add_room` records before leaving it to the ordinary
/// binding (64 KiB of rects, not counted against the memory limit).
const FAST_ROOMS: usize = 4096;

/// `Some` when `units` of work fit the run's budget; `None` sends the call
/// to the ordinary binding, which charges again and raises the located stop.
unsafe fn paid(state: *mut lua_State, units: u64) -> Option<()> {
    fast_charge(state, units).then_some(())
}

/// An integer argument that fits a map coordinate.
unsafe fn coord_arg(state: *mut lua_State, idx: c_int) -> Option<i64> {
    int_arg(state, idx).filter(|v| i32::try_from(*v).is_ok())
}

/// A tile given by name, known to `map`.
unsafe fn tile_arg(state: *mut lua_State, idx: c_int, map: &Map) -> Option<Tile> {
    if ffi::lua_type(state, idx) != ffi::LUA_TSTRING {
        return None;
    }
    let mut len = 0usize;
    let ptr = ffi::lua_tolstring(state, idx, &mut len);
    // Longer than any tile's name: not read (the ordinary binding says so).
    if len > crate::script::args::MAX_NAME {
        return None;
    }
    let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
    map.tiles().by_name(std::str::from_utf8(bytes).ok()?)
}

/// An optional tile: absent or nil means `default`.
unsafe fn tile_or_arg(state: *mut lua_State, idx: c_int, map: &Map, default: Tile) -> Option<Tile> {
    if ffi::lua_isnoneornil(state, idx) != 0 {
        Some(default)
    } else {
        tile_arg(state, idx, map)
    }
}

unsafe fn bool_arg(state: *mut lua_State, idx: c_int) -> Option<bool> {
    (ffi::lua_type(state, idx) == ffi::LUA_TBOOLEAN).then(|| ffi::lua_toboolean(state, idx) != 0)
}

/// Defines a raw C function whose body returns `Some(results pushed)` when
/// it did the work, or `None` to fall back to the ordinary binding. The
/// body's borrows end before the fall-back call.
macro_rules! fast_fn {
    ($name:ident, |$state:ident, $fast:ident| $body:block) => {
        unsafe extern "C-unwind" fn $name($state: *mut lua_State) -> c_int {
            let $fast =
                &*(ffi::lua_touserdata($state, ffi::lua_upvalueindex(1)) as *const FastState);
            let done: Option<c_int> = $body;
            match done {
                Some(n) => {
                    $fast.hits.set($fast.hits.get() + 1);
                    n
                }
                None => fall_back($state, 2),
            }
        }
    };
}

fast_fn!(map_set, |state, fast| {
    (|| {
        let mut map = fast.map_at(state, 1)?;
        let (x, y) = (coord_arg(state, 2)?, coord_arg(state, 3)?);
        let tile = tile_arg(state, 4, &map)?;
        map.set(x, y, tile).ok()?;
        Some(0)
    })()
});

fast_fn!(map_is_walkable, |state, fast| {
    (|| {
        let walkable = {
            let map = fast.map_at(state, 1)?;
            let (x, y) = (coord_arg(state, 2)?, coord_arg(state, 3)?);
            map.index(x, y).ok()?;
            map.is_walkable(x, y)
        };
        ffi::lua_pushboolean(state, walkable as c_int);
        Some(1)
    })()
});

fast_fn!(map_fill, |state, fast| {
    (|| {
        let mut map = fast.map_at(state, 1)?;
        let tile = tile_arg(state, 2, &map)?;
        paid(state, cost::written(cost::area(&map)))?;
        map.fill(tile);
        Some(0)
    })()
});

fast_fn!(map_h_tunnel, |state, fast| {
    (|| {
        let mut map = fast.map_at(state, 1)?;
        let (x1, x2, y) = (
            coord_arg(state, 2)?,
            coord_arg(state, 3)?,
            coord_arg(state, 4)?,
        );
        let tile = tile_or_arg(state, 5, &map, Tile::FLOOR)?;
        paid(state, cost::written(cost::span(x1, x2, map.width())))?;
        map.h_tunnel(x1, x2, y, tile).ok()?;
        Some(0)
    })()
});

fast_fn!(map_v_tunnel, |state, fast| {
    (|| {
        let mut map = fast.map_at(state, 1)?;
        let (y1, y2, x) = (
            coord_arg(state, 2)?,
            coord_arg(state, 3)?,
            coord_arg(state, 4)?,
        );
        let tile = tile_or_arg(state, 5, &map, Tile::FLOOR)?;
        paid(state, cost::written(cost::span(y1, y2, map.height())))?;
        map.v_tunnel(y1, y2, x, tile).ok()?;
        Some(0)
    })()
});

fast_fn!(map_l_tunnel, |state, fast| {
    (|| {
        let mut map = fast.map_at(state, 1)?;
        let from = (coord_arg(state, 2)?, coord_arg(state, 3)?);
        let to = (coord_arg(state, 4)?, coord_arg(state, 5)?);
        let horizontal_first = bool_arg(state, 6)?;
        let tile = tile_or_arg(state, 7, &map, Tile::FLOOR)?;
        paid(
            state,
            cost::written(
                cost::span(from.0, to.0, map.width()) + cost::span(from.1, to.1, map.height()),
            ),
        )?;
        map.l_tunnel(from, to, horizontal_first, tile).ok()?;
        Some(0)
    })()
});

fast_fn!(map_carve_room, |state, fast| {
    (|| {
        let rect = rect_at(state, 2)?;
        let mut map = fast.map_at(state, 1)?;
        let tile = tile_or_arg(state, 3, &map, Tile::FLOOR)?;
        paid(state, cost::written(cost::rect_cells(&map, &rect)))?;
        map.carve_room(&rect, tile).ok()?;
        Some(0)
    })()
});

fast_fn!(map_fill_rect, |state, fast| {
    (|| {
        let rect = rect_at(state, 2)?;
        let mut map = fast.map_at(state, 1)?;
        let tile = tile_arg(state, 3, &map)?;
        paid(state, cost::written(cost::rect_cells(&map, &rect)))?;
        map.fill_rect(&rect, tile).ok()?;
        Some(0)
    })()
});

fast_fn!(map_add_room, |state, fast| {
    (|| {
        // Only `map:add_room(rect)`: a selection or options go the slow way.
        if ffi::lua_gettop(state) != 2 {
            return None;
        }
        let rect = rect_at(state, 2)?;
        let mut map = fast.map_at(state, 1)?;
        // Past a few thousand rooms the ordinary binding takes over, which
        // counts the list against the memory limit.
        if map.rooms().len() >= FAST_ROOMS {
            return None;
        }
        map.add_room(rect).ok()?;
        Some(0)
    })()
});

fast_fn!(map_set_start, |state, fast| {
    (|| {
        let mut map = fast.map_at(state, 1)?;
        map.set_start(coord_arg(state, 2)?, coord_arg(state, 3)?)
            .ok()?;
        Some(0)
    })()
});

fast_fn!(rng_int, |state, fast| {
    (|| {
        let v = {
            let mut rng = fast.rng_at(state, 1)?;
            rng.int_checked(int_arg(state, 2)?).ok()?
        };
        ffi::lua_pushinteger(state, v as i64);
        Some(1)
    })()
});

fast_fn!(rng_range, |state, fast| {
    (|| {
        let v = {
            let mut rng = fast.rng_at(state, 1)?;
            rng.range(int_arg(state, 2)?, int_arg(state, 3)?).ok()?
        };
        ffi::lua_pushinteger(state, v);
        Some(1)
    })()
});

fast_fn!(rng_coin, |state, fast| {
    (|| {
        let v = fast.rng_at(state, 1)?.coin();
        ffi::lua_pushboolean(state, v as c_int);
        Some(1)
    })()
});

fast_fn!(rng_float, |state, fast| {
    (|| {
        let v = fast.rng_at(state, 1)?.float();
        ffi::lua_pushnumber(state, v);
        Some(1)
    })()
});

/// The map methods with a fast path.
const MAP_FAST: &[(&str, ffi::lua_CFunction)] = &[
    ("set", map_set),
    ("is_walkable", map_is_walkable),
    ("fill", map_fill),
    ("h_tunnel", map_h_tunnel),
    ("v_tunnel", map_v_tunnel),
    ("l_tunnel", map_l_tunnel),
    ("set_start", map_set_start),
    ("carve_room", map_carve_room),
    ("fill_rect", map_fill_rect),
    ("add_room", map_add_room),
];

/// The rng methods with a fast path.
const RNG_FAST: &[(&str, ffi::lua_CFunction)] = &[
    ("int", rng_int),
    ("range", rng_range),
    ("coin", rng_coin),
    ("float", rng_float),
];

/// For the map and the rng: `__index` is the table of fast functions
/// itself, so a method lookup never leaves the VM. Every other method is
/// fetched from mlua's lookup and kept when the VM is made (see
/// [`install`]); other keys go to mlua's lookup each time. The map's table
/// also holds the run's `width` and `height` (a run has exactly one map;
/// set when the map is lent). The rng's forks each have their own `seed`:
/// its table is marked (`dunlua_markmethods`), so a missed key reaches
/// mlua's lookup with the rng itself, not the table (patched `lvm.c`).
const DISPATCH_TABLE: &str = r#"
local fast, index, rawset, type = ...
setmetatable(fast, { __index = function(t, key)
  local v = index(t, key)
  if type(v) == "function" then rawset(fast, key, v) end
  return v
end })
return fast
"#;

/// Installs the fast paths for the map and rng types: `sample_map` and
/// `sample_rng` are throwaway userdata of each type, through which the
/// shared metatables are reached.
/// Returns the map's method table, whose `width` and `height` the host
/// sets for each run.
pub(crate) fn install(
    lua: &Lua,
    fast: &Rc<FastState>,
    sample_map: &AnyUserData,
    sample_rng: &AnyUserData,
) -> mlua::Result<Table> {
    lua.set_app_data(KeepAlive(fast.clone()));
    let fast_ptr = Rc::as_ptr(fast) as *mut c_void;
    let rng_methods = patch_index(lua, sample_rng, fast_ptr, RNG_FAST)?;
    super::mark_methods(lua, &rng_methods)?;
    let methods = patch_index(lua, sample_map, fast_ptr, MAP_FAST)?;
    // Every method fetched and kept now, not on a run's first use: the
    // fetch runs Lua instructions (mlua's `__index` is Lua code), which the
    // first run of a VM would count and a later one would not.
    for name in crate::script::registered_names::methods::<LuaRng>() {
        rng_methods.get::<Value>(name)?;
    }
    for name in crate::script::registered_names::methods::<LuaMap>() {
        methods.get::<Value>(name)?;
    }
    Ok(methods)
}

/// Replaces the `__index` of `sample`'s type with a table of fast
/// functions (made by [`DISPATCH_TABLE`]), each closing over the fast state
/// and the ordinary method it falls back to; returns the table.
fn patch_index(
    lua: &Lua,
    sample: &AnyUserData,
    fast_ptr: *mut c_void,
    functions: &[(&str, ffi::lua_CFunction)],
) -> mlua::Result<Table> {
    // SAFETY: each closure leaves exactly the values it promises on the stack.
    let index: Function = unsafe {
        lua.exec_raw(sample, |state| {
            ffi::lua_getmetatable(state, -1);
            ffi::lua_getfield(state, -1, c"__index".as_ptr());
            ffi::lua_replace(state, -3);
            ffi::lua_pop(state, 1);
        })
    }?;
    let table = lua.create_table()?;
    for &(name, function) in functions {
        let slow: Function = index.call((sample, name))?;
        let closure: Function = unsafe {
            lua.exec_raw(slow, |state| {
                ffi::lua_pushlightuserdata(state, fast_ptr);
                ffi::lua_insert(state, -2);
                ffi::lua_pushcclosure(state, function, 2);
            })
        }?;
        table.raw_set(name, closure)?;
    }
    let globals = lua.globals();
    let dispatch: Table = lua.load(DISPATCH_TABLE).set_name("=dispatch").call((
        table,
        index,
        globals.get::<Function>("rawset")?,
        globals.get::<Function>("type")?,
    ))?;
    unsafe {
        lua.exec_raw::<()>((sample, dispatch.clone()), |state| {
            ffi::lua_getmetatable(state, -2);
            ffi::lua_insert(state, -2);
            ffi::lua_setfield(state, -2, c"__index".as_ptr());
            ffi::lua_pop(state, 2);
        })
    }?;
    Ok(dispatch)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::script::{Request, Session};

    fn scripts() -> Vec<PathBuf> {
        let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts");
        let mut out: Vec<PathBuf> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "lua"))
            .collect();
        out.sort();
        out
    }

    fn session(script: &std::path::Path, fast_paths: bool, params: &[&str]) -> Session {
        let mut request = Request::new(script, 0);
        request.fast_paths = fast_paths;
        request.params = params.iter().map(|p| p.to_string()).collect();
        Session::new(&request).unwrap()
    }

    #[test]
    fn fast_paths_make_the_same_maps_as_the_ordinary_bindings() {
        for script in scripts() {
            for params in [&[][..], &["features=true"][..]] {
                if !params.is_empty() && !script.ends_with("rooms.lua") {
                    continue;
                }
                let (fast, slow) = (
                    session(&script, true, params),
                    session(&script, false, params),
                );
                for seed in 0..12 {
                    let (a, b) = (fast.run(seed).unwrap(), slow.run(seed).unwrap());
                    assert_eq!(
                        a.map.hash64(),
                        b.map.hash64(),
                        "{} seed {seed}",
                        script.display()
                    );
                    assert_eq!(
                        a.map.rooms(),
                        b.map.rooms(),
                        "{} seed {seed}",
                        script.display()
                    );
                }
                assert!(
                    fast.vm.fast.hits.get() > 0,
                    "{} took no fast path",
                    script.display()
                );
                assert_eq!(slow.vm.fast.hits.get(), 0);
            }
        }
    }

    fn run_source(source: &str, fast_paths: bool) -> Result<String, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.lua");
        std::fs::write(&path, source).unwrap();
        let mut request = Request::new(&path, 3);
        request.fast_paths = fast_paths;
        let session = Session::new(&request).map_err(|e| e.to_string())?;
        session
            .run(3)
            .map(|g| g.map.to_string())
            .map_err(|e| e.message.replace(&dir.path().display().to_string(), "DIR"))
    }

    fn script(body: &str) -> String {
        format!(
            "return {{ width = 12, height = 8, generate = function(map, rng, p)\n{body}\nmap:set_start(1, 1) end }}\n"
        )
    }

    #[test]
    fn unusual_arguments_get_the_ordinary_answer_or_error() {
        let bodies = [
            "map:fill('floor') map:set(2.0, 3, 'wall') map:h_tunnel(1, 5.0, 2, 'wall')",
            "map:fill('floor') map:l_tunnel(1, 1, 10, 6, false, nil) map:v_tunnel(6, 0, 3)",
            "map:fill('floor') map:set(1.5, 3, 'wall')",
            "map:fill('floor') map:set(1, 3, 'lava')",
            "map:fill('floor') map:set(12, 3, 'wall')",
            "map:fill('floor') map:set('1', 3, 'wall')",
            "map:fill('floor') map.set(1, 3, 'wall')",
            "map:fill('floor') map:set(1, 3)",
            "map:fill('floor') map:l_tunnel(1, 1, 10, 9, true)",
            "map:fill('floor') map:l_tunnel(1, 1, 10, 6, 1)",
            "map:fill('floor') local x = rng:int(0)",
            "map:fill('floor') local x = rng:range(5, 1)",
            "map:fill('floor') local x = rng:range(1.0, 3) map:set(x, 1, 'wall')",
            "map:fill(7)",
            "map:fill('floor') local f = rng:fork('x') map:set(f:int(12), f.seed % 8, 'wall') map:set(1, rng.seed % 8, 'wall')",
            "map:fill('floor') local x = rng.nothing",
        ];
        for body in bodies {
            let source = script(body);
            assert_eq!(
                run_source(&source, true),
                run_source(&source, false),
                "{body}"
            );
        }
        let err = run_source(&script("map:fill('floor')\nmap:set(1.5, 3, 'wall')"), true);
        assert_eq!(
            err.unwrap_err(),
            "DIR/t.lua:3: map:set: x must be an integer, got 1.5 (map is 12x8)"
        );
    }

    #[test]
    fn a_primitive_called_from_inside_another_is_refused() {
        let body = "map:fill('floor')\n\
            local rules = setmetatable({ birth = { 5 }, survive = { 4 } },\n\
              { __index = function() map:set(0, 0, 'wall') end })\n\
            map:cellular(rules)";
        for fast_paths in [true, false] {
            let err = run_source(&script(body), fast_paths).unwrap_err();
            assert!(
                err.contains("DIR/t.lua:4: map: called from inside another map primitive"),
                "{err}"
            );
        }
    }
}
