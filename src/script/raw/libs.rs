//! Lua's `string`, `table` and `utf8` libraries as dunlua compiles them:
//! copies of Lua 5.4.9's patched to charge their work to the run's budget
//! (`c/`, built by `build.rs`), opened in place of the stock ones.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};
use mlua::Lua;

extern "C-unwind" {
    fn luaopen_string(state: *mut lua_State) -> c_int;
    fn luaopen_table(state: *mut lua_State) -> c_int;
    fn luaopen_utf8(state: *mut lua_State) -> c_int;
}

/// Opens the charged libraries as the globals `string`, `table` and `utf8`
/// (the string library also becomes the strings' metatable `__index`, as
/// `luaopen_string` does). The VM's guard must be installed first.
pub(crate) fn open_charged_libs(lua: &Lua) -> mlua::Result<()> {
    let libs: [(&std::ffi::CStr, ffi::lua_CFunction); 3] = [
        (c"string", luaopen_string),
        (c"table", luaopen_table),
        (c"utf8", luaopen_utf8),
    ];
    for (name, open) in libs {
        // SAFETY: luaL_requiref calls the opener (which only builds its
        // table and, for strings, the shared metatable) and sets the global;
        // the pushed copy is popped.
        unsafe {
            lua.exec_raw::<()>((), |state| {
                ffi::luaL_requiref(state, name.as_ptr(), open, 1);
                ffi::lua_pop(state, 1);
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::script::host::Vm;
    use crate::script::Limits;

    /// Exercises the three libraries broadly; returns one string of results
    /// (errors included, by message).
    const SNIPPET: &str = r#"
local out = {}
local function add(...) local t = table.pack(...) for i = 1, t.n do out[#out + 1] = tostring(t[i]) end end
local function try(f, ...) local r = table.pack(pcall(f, ...)) add(table.unpack(r, 1, r.n)) end
local s = "The quick brown fox, 42 jumps; over 7 lazy dogs! (nested (parens)) [x=1, y=22]"
add(s:find("quick"), s:find("o", 20, true), s:find("%d+"), s:find("^The"), s:find("dogs!$"))
add(s:match("(%a+) (%a+)"), s:match("()fox()"), s:match("%b()"), s:match("%f[%a]%a+", 10))
add(s:match("y=(%d+)"), s:match("(h)(.-)(%s)"), ("  trim  "):match("^%s*(.-)%s*$"))
for w in s:gmatch("%a+") do add(w) end
for k, v in s:gmatch("(%w+)=(%w+)") do add(k, v) end
add(s:gsub("o", "0"), s:gsub("%w+", "<%0>", 3), s:gsub("(%w+)=(%w+)", "%2=%1"))
add(s:gsub("%a+", { quick = "slow", fox = false }), s:gsub("%d", function(d) return d * 2 end))
add(("abc"):rep(3), ("abc"):rep(3, ", "), ("x"):rep(0), (""):rep(5))
add(s:upper(), s:lower(), s:reverse(), s:sub(5, 9), s:sub(-5), s:len(), #s)
add(s:byte(1, 5), string.char(72, 105), ("%5.2f|%-5s|%x|%q|%d|%g"):format(3.14159, "ab", 255, "a\n\"b", 42, 1e20))
add(string.pack("i4", 100):len(), string.unpack("i4", string.pack("i4", 100)))
try(string.rep, "x", -1)
try(string.find, s, "[a")
try(string.find, s, "(()")
try(string.gsub, s, "(%w+)", "%2")
try(string.format, "%d", 1.5)
try(string.rep)
local t = { 5, 3, 9, 1, 7 }
table.sort(t) add(table.concat(t, ","))
table.sort(t, function(a, b) return a > b end) add(table.concat(t, ","))
table.insert(t, 4) table.insert(t, 1, 0) add(table.concat(t, ","))
add(table.remove(t), table.remove(t, 1), table.concat(t, ","))
add(table.concat(table.move({1, 2, 3}, 1, 3, 2), ","), table.unpack({1, 2, 3}))
add(table.concat({}, ","), table.concat({1, 2, 3}, ", ", 2, 3))
try(table.concat, {1, {}, 3})
try(table.insert, {1}, 5, 2)
try(table.sort, {3, 1, "x"})
add(utf8.len("héllo wörld"), utf8.char(72, 233, 8364), utf8.codepoint("héllo", 1, -1))
add(utf8.offset("héllo", 3), utf8.len("\xff"), utf8.charpattern)
for p, c in utf8.codes("añb") do add(p, c) end
try(utf8.codepoint, "\xff")
return table.concat(out, "|")
"#;

    #[test]
    fn the_charged_libraries_answer_as_the_stock_ones() {
        let stock = mlua::Lua::new();
        let expected: mlua::LuaString = stock.load(SNIPPET).set_name("=t").eval().unwrap();
        let expected = expected.as_bytes().to_vec();
        let vm = Vm::new(
            std::path::Path::new("x.lua"),
            &Default::default(),
            Limits::default(),
            true,
        )
        .unwrap();
        vm.reset().unwrap();
        let got: mlua::LuaString = vm.lua.load(SNIPPET).set_name("=t").eval().unwrap();
        let (got, expected) = (
            String::from_utf8_lossy(&got.as_bytes()).into_owned(),
            String::from_utf8_lossy(&expected).into_owned(),
        );
        assert_eq!(got, expected);
        assert!(expected.len() > 1000, "{expected}");
    }

    /// Runs `code` as the chunk `x.lua` in a fresh VM and returns its error.
    fn run_failing(limits: Limits, code: &str) -> (crate::script::ScriptError, Vm) {
        let vm = Vm::new(
            std::path::Path::new("x.lua"),
            &Default::default(),
            limits,
            true,
        )
        .unwrap();
        vm.reset().unwrap();
        let chunk = vm
            .lua
            .load(code)
            .set_name("@x.lua")
            .into_function()
            .unwrap();
        let err = vm.call(chunk, ()).unwrap_err();
        (err, vm)
    }

    #[test]
    fn runaway_library_calls_end_with_the_budget() {
        let limits = Limits {
            max_instructions: 20_000_000,
            ..Limits::default()
        };
        for code in [
            r#"string.rep("a", 30000):find(".-.-.-.-.-.-.-.-b")"#,
            r#"string.rep("", math.maxinteger)"#,
            r#"local s = string.rep("x", 10000000) while true do s:upper() end"#,
            r#"local t = {} for i = 1, 100000 do t[i] = i end while true do table.remove(t, 1) end"#,
            r#"local t = {} for i = 1, 100000 do t[i] = -i end while true do table.sort(t) end"#,
            r#"local s = string.rep("é", 1000000) while true do utf8.len(s) end"#,
            r#"local s = string.rep("a", 1000000) while true do s:find(string.rep("a", 500) .. "b", 1, true) end"#,
            r#"table.move({}, 1, math.maxinteger - 2, 1)"#,
        ] {
            let err = run_failing(limits, code).0;
            assert!(
                err.message
                    .starts_with("x.lua:1: instruction budget of 20000000 exceeded"),
                "{code}: {err}"
            );
        }
    }

    #[test]
    fn a_result_too_big_for_the_memory_limit_is_refused_before_it_is_built() {
        let limits = Limits {
            max_memory: 16 << 20,
            ..Limits::default()
        };
        let code = r#"local ok, e = pcall(string.rep, "x", 2^30) return string.rep("x", 2^30)"#;
        let (err, vm) = run_failing(limits, code);
        assert!(
            err.message
                .starts_with("x.lua:1: memory limit of 16 MiB exceeded"),
            "{err}"
        );
        assert!(vm.guard.memory_used() < 16 << 20);
    }
}
