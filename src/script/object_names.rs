//! `tostring` without addresses. Lua names a table, function, coroutine or
//! userdata without `__tostring` by its address (`table: 0x55d0c...`),
//! which differs in every run, so a script that used such a name as a key
//! or printed it into a marker made a different map each time. dunlua's
//! `tostring`, and `string.format("%s", ...)` (the patched `lstrlib.c`
//! calls it through the registry; `%p` shows the number alone), number
//! those objects instead, in the
//! order a run first names them: `table: #1`, `function: #2`. The numbers
//! are per run (the table that holds them lives in the run's
//! [`HostState`] and keeps the named objects alive until the run ends), so
//! a reused VM names them as a fresh one does.

use mlua::{Function, Lua, LuaString, Table, Value};

use super::run_state::HostState;

/// Where the patched `string.format` finds this `tostring` (see
/// `src/script/raw/c/lstrlib.c`, `dunlua_tolstring`).
pub(crate) const REGISTRY_KEY: &str = "dunlua.tostring";

/// Where the patched `string.format("%p")` finds an object's number in
/// the run (the one `tostring` shows), without its `__tostring`.
const NUMBER_KEY: &str = "dunlua.objectnumber";

/// Lua's own `tostring` first (so `__tostring` and `__name` work as
/// always), then the address replaced for the four kinds that have one.
/// The name is cut from the shown text by Lua's own (charged) `string.sub`:
/// a `__tostring` may return a long text, which is never copied into Rust.
const WRAPPER: &str = r##"
local raw_tostring, type, sub, name_of = tostring, type, string.sub, ...
return function(...)
  if select("#", ...) == 0 then error("bad argument #1 to 'tostring' (value expected)", 2) end
  local value = ...
  local shown = raw_tostring(value)
  local kind = type(value)
  if kind == "table" or kind == "function" or kind == "userdata" or kind == "thread" then
    local cut, number = name_of(value, shown)
    if cut then return sub(shown, 1, cut) .. ": #" .. number end
  end
  return shown
end
"##;

/// Replaces the global `tostring` and registers it for `string.format`.
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    // Where the name ends and the object's number, when `shown` ends in
    // an address; nothing otherwise.
    let name_of = lua.create_function(|lua, (value, shown): (Value, LuaString)| {
        // What a script's own `__tostring` returned is its text, whatever
        // it looks like ("color: ff" is not an address).
        if has_own_tostring(&value)? {
            return Ok((None, None));
        }
        let bytes = shown.as_bytes();
        let Some(prefix) = without_address(&bytes) else {
            return Ok((None, None));
        };
        Ok((Some(prefix.len()), Some(number_of(lua, value)?)))
    })?;
    let tostring: Function = lua.load(WRAPPER).set_name("=sandbox").call(name_of)?;
    lua.globals().set("tostring", tostring.clone())?;
    lua.set_named_registry_value(REGISTRY_KEY, tostring)?;
    let number = lua.create_function(|lua, value: Value| number_of(lua, value))?;
    lua.set_named_registry_value(NUMBER_KEY, number)
}

/// Whether `value`'s metatable has a `__tostring` (read raw, as Lua's own
/// `tostring` reads it), so what `tostring` showed came from it.
fn has_own_tostring(value: &Value) -> mlua::Result<bool> {
    Ok(match value {
        Value::Table(t) => match t.metatable() {
            Some(mt) => !mt.raw_get::<Value>("__tostring")?.is_nil(),
            None => false,
        },
        Value::UserData(ud) => ud
            .metatable()
            .is_ok_and(|mt| mt.contains("__tostring").unwrap_or(false)),
        _ => false,
    })
}

/// The object's number in this run, given on first use.
fn number_of(lua: &Lua, value: Value) -> mlua::Result<u64> {
    let (ids, next) = {
        let state = lua
            .app_data_ref::<HostState>()
            .ok_or_else(|| mlua::Error::runtime("tostring: no run under way"))?;
        (state.object_names.clone(), state.named_objects + 1)
    };
    let ids: Table = match ids {
        Some(ids) => ids,
        None => {
            let ids = lua.create_table()?;
            if let Some(mut state) = lua.app_data_mut::<HostState>() {
                state.object_names = Some(ids.clone());
            }
            ids
        }
    };
    if let Some(id) = ids.raw_get::<Option<u64>>(value.clone())? {
        return Ok(id);
    }
    ids.raw_set(value, next)?;
    if let Some(mut state) = lua.app_data_mut::<HostState>() {
        state.named_objects = next;
    }
    Ok(next)
}

/// How far from its end [`without_address`] looks for `: ` (an address
/// and its separator, with room to spare).
const ADDRESS_TAIL: usize = 32;

/// `name` of a `name: ADDRESS` as Lua's `%p` prints an address (`0x`
/// and up to 16 hex digits, or exactly 8 or 16 bare hex digits on
/// Windows), if `shown` is one. A text such as `got: 2` or `Node: 7` is
/// not an address: taking any hex digits for one turned the message
/// `error("expected 3 rooms, got: 2", 0)` into "(error object is a
/// expected 3 rooms, got value)".
pub(super) fn without_address(shown: &[u8]) -> Option<&[u8]> {
    // An address is at most 18 characters (`0x` and 16 digits): only the
    // end of a long text is searched.
    let from = shown.len().saturating_sub(ADDRESS_TAIL);
    let cut = from + shown[from..].windows(2).rposition(|w| w == b": ")?;
    let address = &shown[cut + 2..];
    let hex = |digits: &[u8]| digits.iter().all(u8::is_ascii_hexdigit);
    // Bare digits are Windows' `%p` only: on unix, "checksum: deadbeef"
    // or "seed: 20261128" is the script's text.
    let is_address = match address.strip_prefix(b"0x") {
        Some(digits) => (1..=16).contains(&digits.len()) && hex(digits),
        None => cfg!(windows) && matches!(address.len(), 8 | 16) && hex(address),
    };
    is_address.then_some(&shown[..cut])
}

#[cfg(test)]
mod tests {
    use super::without_address;

    #[test]
    fn addresses_are_recognised_as_lua_prints_them() {
        assert_eq!(
            without_address(b"table: 0x55d0c8a1b2c0"),
            Some(&b"table"[..])
        );
        assert_eq!(
            without_address(b"map: 000001F2A3B4C5D6"),
            cfg!(windows).then_some(&b"map"[..])
        );
        assert_eq!(without_address(b"a: b: 0x1"), Some(&b"a: b"[..]));
        assert_eq!(without_address(b"Rect(1, 2, 3, 4)"), None);
        assert_eq!(without_address(b"table: "), None);
        assert_eq!(without_address(b"room: big"), None);
        assert_eq!(without_address(b"expected 3 rooms, got: 2"), None);
        assert_eq!(without_address(b"Node: 7"), None);
        assert_eq!(without_address(b"custom: 1f"), None);
        assert_eq!(without_address(b"map: 0x"), None);
        assert_eq!(without_address(b"map: 0x12345678901234567"), None);
        assert_eq!(
            without_address(b"map: 0055D0C8"),
            cfg!(windows).then_some(&b"map"[..])
        );
        assert_eq!(
            without_address(b"checksum: deadbeef"),
            if cfg!(windows) {
                Some(&b"checksum"[..])
            } else {
                None
            }
        );
        let long = [b"x".repeat(1000), b": 0x1f".to_vec()].concat();
        assert_eq!(without_address(&long), Some(&long[..1000]));
        let far = [b"a: ".to_vec(), b"f".repeat(40)].concat();
        assert_eq!(without_address(&far), None, "too long for an address");
    }
}
