//! Argument checking for the Lua API. Every refusal names the primitive, the
//! bad value and (for map primitives) the map size, and starts with the
//! script's `file:line`, like Lua's own `luaL_error`.

use std::fmt::Display;

use mlua::{Lua, LuaString, MultiValue, Value};

use crate::geom::Rect;
use crate::map::{MapError, Tile, TileSet};

use super::error::located;

/// A value's type as the API names it: `map`, `rng`, `selection`,
/// `distance map`, `Rect` and `RectIndex` for dunlua's objects.
pub(crate) fn type_name(value: &Value) -> String {
    match value {
        Value::UserData(ud) => {
            let name = ud
                .metatable()
                .ok()
                .and_then(|mt| mt.get::<String>("__name").ok())
                .unwrap_or_default();
            super::error::api_type_name(&name).to_string()
        }
        Value::Integer(_) | Value::Number(_) => "number".to_string(),
        other => other.type_name().to_string(),
    }
}

/// The longest name a script may give (a tile kind, a marker, a property
/// key, an rng fork, a room, a snapshot): longer ones are refused before
/// a byte of them is copied.
pub(crate) const MAX_NAME: usize = 256;

/// The longest string value a script may keep in the map (a marker
/// property's text).
pub(crate) const MAX_TEXT: usize = 64 << 10;

/// The most bytes of a script's string an error message quotes.
pub(crate) const MAX_QUOTED: usize = 200;

/// The first `max` bytes of `bytes` or fewer, cut on a character boundary
/// (a UTF-8 sequence the cut would split is left out whole).
pub(crate) fn prefix(bytes: &[u8], max: usize) -> &[u8] {
    if bytes.len() <= max {
        return bytes;
    }
    let head = &bytes[..max];
    match std::str::from_utf8(head) {
        // Cut inside a character: up to where it starts.
        Err(e) if e.error_len().is_none() => &head[..e.valid_up_to()],
        _ => head,
    }
}

/// A script's string as an error message quotes it: at most
/// [`MAX_QUOTED`] bytes of it (only those are read), then `…` and its
/// length when it was longer.
pub(crate) fn quote(s: &LuaString) -> String {
    let bytes = s.as_bytes();
    let head = prefix(&bytes, MAX_QUOTED);
    let shown = debug_bytes(head);
    if head.len() == bytes.len() {
        return shown;
    }
    // `"head…"`: the ellipsis inside the quotes, before the closing one.
    format!("{}…\" ({} bytes)", &shown[..shown.len() - 1], bytes.len())
}

/// `bytes` quoted as Rust quotes a string, with a byte that is not UTF-8
/// as `\xFF` (it showed as U+FFFD, so "a\xff" and "a\xfe" read alike).
fn debug_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        let valid = format!("{:?}", chunk.valid());
        out.push_str(&valid[1..valid.len() - 1]);
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out.push('"');
    out
}

/// A script's string without quotes, cut short like [`quote`] (for a name
/// a message already sets apart, `ctx.above has no foo`).
pub(crate) fn cut(s: &LuaString) -> String {
    let bytes = s.as_bytes();
    let head = prefix(&bytes, MAX_QUOTED);
    let shown = String::from_utf8_lossy(head).into_owned();
    if head.len() == bytes.len() {
        shown
    } else {
        format!("{shown}… ({} bytes)", bytes.len())
    }
}

/// The text of a script's string, copied into Rust only when it is at
/// most `max` bytes; otherwise a message naming `what`, its length and
/// the limit (the caller adds where). Bytes that are not UTF-8 become
/// U+FFFD, as `to_string_lossy` makes them.
pub(crate) fn bounded_text(s: &LuaString, max: usize, what: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    if bytes.len() > max {
        return Err(too_long(what, bytes.len(), max));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Like [`bounded_text`], but bytes that are not UTF-8 are refused.
pub(crate) fn bounded_utf8(s: &LuaString, max: usize, what: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    if bytes.len() > max {
        return Err(too_long(what, bytes.len(), max));
    }
    match std::str::from_utf8(&bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(_) => Err(format!("{what} {} is not UTF-8 text", quote(s))),
    }
}

fn too_long(what: &str, len: usize, max: usize) -> String {
    format!("{what} is {len} bytes; at most {max}")
}

/// Where a tile name is resolved: a set read from (`&TileSet`: a latent
/// kind not yet in it is found with no cells, see [`TileSet::lookup`]) or
/// written with (`&mut TileSet`: a latent kind joins it, see
/// [`TileSet::resolve_mut`]).
pub(crate) trait Kinds {
    fn named(self, name: &str) -> Result<Tile, crate::map::TileError>;
}

impl Kinds for &TileSet {
    fn named(self, name: &str) -> Result<Tile, crate::map::TileError> {
        self.lookup(name)
    }
}

impl Kinds for &mut TileSet {
    fn named(self, name: &str) -> Result<Tile, crate::map::TileError> {
        self.resolve_mut(name)
    }
}

/// The tile `s` names in `tiles`; a name longer than any tile's is refused
/// by its length, without reading it.
pub(crate) fn tile_named(s: &LuaString, tiles: impl Kinds) -> Result<Tile, String> {
    let bytes = s.as_bytes();
    if bytes.len() > MAX_NAME {
        return Err(too_long("tile name", bytes.len(), MAX_NAME));
    }
    // Never longer than MAX_NAME bytes here.
    let name = String::from_utf8_lossy(&bytes);
    tiles.named(&name).map_err(|e| e.to_string())
}

/// How a value reads in an error message (a string cut short: see [`quote`]).
pub(crate) fn show(value: &Value) -> String {
    match value {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Number(n) if n.is_nan() => "nan".into(),
        Value::Number(n) => format!("{n:?}"),
        Value::String(s) => quote(s),
        Value::Table(_) => "a table".into(),
        Value::Function(_) => "a function".into(),
        // Every userdata a script can hold is the host's, and says what it
        // is in its `__tostring` (`Rect(x1=1, ...)`, `rng(seed=7)`,
        // `selection(12 cells)`): a swapped argument is named as what it is.
        Value::UserData(_) => match value.to_string() {
            Ok(s) if s.len() <= 80 && !s.contains(['\n', '\r']) => s,
            _ => "a userdata".into(),
        },
        other => other.type_name().into(),
    }
}

/// Up to six arguments taken straight off the Lua stack (mlua reads tuples
/// without allocating), the hot path; or any number, for the rest.
pub(crate) type Six = (Value, Value, Value, Value, Value, Value);

// Lives on the stack for one call; boxing the array would bring back the
// allocation it exists to avoid.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ArgValues {
    Few([Value; 6]),
    Many(Vec<Value>),
}

impl From<Six> for ArgValues {
    fn from((a, b, c, d, e, f): Six) -> Self {
        ArgValues::Few([a, b, c, d, e, f])
    }
}

impl From<MultiValue> for ArgValues {
    fn from(values: MultiValue) -> Self {
        ArgValues::Many(values.into_vec())
    }
}

/// The arguments of one API call, with what its errors must mention.
pub(crate) struct Args<'lua> {
    lua: &'lua Lua,
    name: &'static str,
    values: ArgValues,
    /// The map size for error messages, on map primitives only.
    size: Option<(i32, i32)>,
}

impl<'lua> Args<'lua> {
    pub fn new(lua: &'lua Lua, name: &'static str, values: impl Into<ArgValues>) -> Args<'lua> {
        Args {
            lua,
            name,
            values: values.into(),
            size: None,
        }
    }

    pub fn on_map(mut self, width: i32, height: i32) -> Self {
        self.size = Some((width, height));
        self
    }

    pub fn value(&self, i: usize) -> &Value {
        match &self.values {
            ArgValues::Few(few) => few.get(i).unwrap_or(&Value::Nil),
            ArgValues::Many(many) => many.get(i).unwrap_or(&Value::Nil),
        }
    }

    pub fn is_given(&self, i: usize) -> bool {
        !matches!(self.value(i), Value::Nil)
    }

    /// An error for this call, located at the script line.
    pub fn fail(&self, message: impl Display) -> mlua::Error {
        match self.size {
            Some((w, h)) => located(
                self.lua,
                format!("{}: {message} (map is {w}x{h})", self.name),
            ),
            None => located(self.lua, format!("{}: {message}", self.name)),
        }
    }

    /// Charges `units` of work for this call before it is done (see
    /// `budget.rs`); a located stop when they do not fit.
    pub fn charge(&self, units: u64) -> mlua::Result<()> {
        super::budget::charge(self.lua, self.name, units)
    }

    /// Counts `bytes` the host keeps for the script until the reservation drops.
    pub fn reserve(&self, bytes: usize) -> mlua::Result<super::budget::Reservation> {
        super::budget::reserve(self.lua, self.name, bytes)
    }

    /// Grows or shrinks `held` to `bytes`.
    pub fn resize(&self, held: &mut super::budget::Reservation, bytes: usize) -> mlua::Result<()> {
        held.resize(self.lua, self.name, bytes)
    }

    /// An error from the map itself, whose message already names the size.
    pub fn map_failed(&self, err: MapError) -> mlua::Error {
        located(self.lua, format!("{}: {err}", self.name))
    }

    pub(crate) fn bad(&self, what: &str, must: &str, i: usize) -> mlua::Error {
        self.fail(format!(
            "{what} must be {must}, got {}",
            show(self.value(i))
        ))
    }

    /// An integer; a float is accepted only when it is whole (as Lua 5.4's
    /// own library does), never rounded.
    pub fn int(&self, i: usize, what: &str) -> mlua::Result<i64> {
        whole_integer(self.value(i)).ok_or_else(|| self.bad(what, "an integer", i))
    }

    /// An integer that fits a map coordinate (i32); the map checks bounds.
    pub fn coord(&self, i: usize, what: &str) -> mlua::Result<i64> {
        let v = self.int(i, what)?;
        if i32::try_from(v).is_err() {
            return Err(self.bad(what, "a map coordinate", i));
        }
        Ok(v)
    }

    /// A finite number.
    pub fn number(&self, i: usize, what: &str) -> mlua::Result<f64> {
        match self.value(i) {
            Value::Integer(v) => Ok(*v as f64),
            Value::Number(f) if f.is_finite() => Ok(*f),
            _ => Err(self.bad(what, "a finite number", i)),
        }
    }

    pub fn boolean(&self, i: usize, what: &str) -> mlua::Result<bool> {
        match self.value(i) {
            Value::Boolean(b) => Ok(*b),
            _ => Err(self.bad(what, "a boolean", i)),
        }
    }

    /// A name: a string of at most [`MAX_NAME`] bytes, copied only once
    /// its length is checked.
    pub fn name(&self, i: usize, what: &str) -> mlua::Result<String> {
        match self.value(i) {
            Value::String(s) => self.name_of(s, what),
            _ => Err(self.bad(what, "a string", i)),
        }
    }

    /// The text of `s` as a name (see [`Args::name`]): UTF-8, and no NUL
    /// byte, since a name reaches C callers as a C string, which would end
    /// there (or show it as `\0`, the same as those two characters).
    pub fn name_of(&self, s: &LuaString, what: &str) -> mlua::Result<String> {
        // Not UTF-8 is refused, not made U+FFFD: "a\xff" and "a\xfe" were
        // one marker, the second's properties over the first's.
        let name = bounded_utf8(s, MAX_NAME, what).map_err(|e| self.fail(e))?;
        if name.contains('\0') {
            return Err(self.fail(format!(
                "{what} {} holds a NUL byte, which a name cannot (C strings end at it)",
                quote(s)
            )));
        }
        Ok(name)
    }

    /// The text of `s`, which must be UTF-8 of at most `max` bytes.
    pub fn utf8_of(&self, s: &LuaString, max: usize, what: &str) -> mlua::Result<String> {
        bounded_utf8(s, max, what).map_err(|e| self.fail(e))
    }

    pub fn table(&self, i: usize, what: &str) -> mlua::Result<mlua::Table> {
        match self.value(i) {
            Value::Table(t) => Ok(t.clone()),
            _ => Err(self.bad(what, "a table", i)),
        }
    }

    /// A tile given by name, resolved in `tiles`.
    pub fn tile(&self, i: usize, tiles: impl Kinds) -> mlua::Result<Tile> {
        match self.value(i) {
            Value::String(s) => tile_named(s, tiles).map_err(|e| self.fail(e)),
            _ => Err(self.bad("tile", "a tile name (string)", i)),
        }
    }

    /// A tile name, or `default` when the argument is absent.
    pub fn tile_or(&self, i: usize, tiles: impl Kinds, default: Tile) -> mlua::Result<Tile> {
        if self.is_given(i) {
            self.tile(i, tiles)
        } else {
            Ok(default)
        }
    }

    /// Fails naming the first key of `opts` not in `known`.
    pub fn only_options(&self, opts: &mlua::Table, known: &[&str]) -> mlua::Result<()> {
        for pair in opts.pairs::<Value, Value>() {
            let (key, _) = pair?;
            let ok = matches!(&key, Value::String(s) if known.iter().any(|k| k.as_bytes() == s.as_bytes().as_ref()));
            if !ok {
                return Err(self.fail(format!(
                    "unknown option {}; it takes {}",
                    show(&key),
                    known.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// An optional table of options (nil for none).
    pub fn options(&self, i: usize) -> mlua::Result<Option<mlua::Table>> {
        match self.value(i) {
            Value::Nil => Ok(None),
            Value::Table(t) => Ok(Some(t.clone())),
            _ => Err(self.bad("options", "a table", i)),
        }
    }

    /// A `Rect` made by `Rect.new`.
    pub fn rect(&self, i: usize, what: &str) -> mlua::Result<Rect> {
        match super::raw::rect::rect_of(self.lua, self.value(i)) {
            Some(r) => Ok(r),
            None => Err(self.bad(what, "a Rect (from Rect.new)", i)),
        }
    }
}

/// `v` with a whole float (`90.0`) made the integer it holds, as
/// [`whole_integer`] reads it; any other value as it is. Options matched
/// on `Value::Integer` read it first, so they take `90.0` as `90`.
pub(crate) fn as_whole(v: Value) -> Value {
    match whole_integer(&v) {
        Some(i) => Value::Integer(i),
        None => v,
    }
}

/// The integer a value holds: a Lua integer, or a float only when it is
/// whole and exactly representable (as Lua 5.4's own library reads one),
/// never rounded. Options read from tables use it as arguments do.
pub(crate) fn whole_integer(v: &Value) -> Option<i64> {
    const I64_EDGE: f64 = 9_223_372_036_854_775_808.0; // 2^63
    match *v {
        Value::Integer(i) => Some(i),
        // -2^63 <= f < 2^63: every whole float that is an i64 (as
        // `lua_tointegerx` has it), so `2^53` and `-2^60` are integers too.
        Value::Number(f) if f.fract() == 0.0 && (-I64_EDGE..I64_EDGE).contains(&f) => {
            Some(f as i64)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_are_cut_on_a_character_boundary() {
        let lua = Lua::new();
        let short = lua.create_string("a\"b").unwrap();
        assert_eq!(quote(&short), r#""a\"b""#);
        assert_eq!(cut(&short), "a\"b");
        // 300 bytes of two-byte characters: 200 bytes is 100 of them.
        let even = lua.create_string("é".repeat(150)).unwrap();
        assert_eq!(
            quote(&even),
            format!("\"{}…\" (300 bytes)", "é".repeat(100))
        );
        // One byte more in front: byte 200 would split an é, which is left out.
        let odd = lua.create_string(format!("a{}", "é".repeat(150))).unwrap();
        assert_eq!(quote(&odd), format!("\"a{}…\" (301 bytes)", "é".repeat(99)));
        assert_eq!(cut(&odd), format!("a{}… (301 bytes)", "é".repeat(99)));
        // Bytes that are not UTF-8 are cut where asked and shown as \xFF.
        let bad = lua.create_string(vec![0xff; 300]).unwrap();
        assert_eq!(
            quote(&bad),
            format!("\"{}…\" (300 bytes)", "\\xFF".repeat(200))
        );
    }

    /// Every whole float in the i64 range is an integer, as Lua 5.4's own
    /// library reads one (`2^53` was refused as "must be an integer").
    #[test]
    fn whole_floats_are_integers_over_the_whole_i64_range() {
        let whole = |f: f64| whole_integer(&Value::Number(f));
        assert_eq!(whole(2f64.powi(53)), Some(1 << 53));
        assert_eq!(whole(-(2f64.powi(60))), Some(-(1 << 60)));
        assert_eq!(whole(-(2f64.powi(63))), Some(i64::MIN));
        assert_eq!(whole(2f64.powi(63)), None, "one past i64::MAX");
        assert_eq!(whole(2.5), None);
        assert_eq!(whole(f64::INFINITY), None);
        assert_eq!(whole(f64::NAN), None);
        assert_eq!(whole(-0.0), Some(0));
    }

    #[test]
    fn bounded_text_refuses_a_long_string_unread() {
        let lua = Lua::new();
        let long = lua.create_string("x".repeat(MAX_NAME + 1)).unwrap();
        assert_eq!(
            bounded_text(&long, MAX_NAME, "name"),
            Err("name is 257 bytes; at most 256".to_string())
        );
        let name = lua.create_string("x".repeat(MAX_NAME)).unwrap();
        assert_eq!(bounded_text(&name, MAX_NAME, "name").unwrap().len(), 256);
        let bad = lua.create_string(b"a\xffb").unwrap();
        assert_eq!(bounded_text(&bad, 10, "name").unwrap(), "a\u{fffd}b");
        assert_eq!(
            bounded_utf8(&bad, 10, "props key"),
            Err("props key \"a\\xFFb\" is not UTF-8 text".to_string())
        );
    }
}
