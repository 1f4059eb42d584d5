//! `tiles` for scripts: the names every tile argument accepts, and
//! `tiles.define(name, spec)` for a script's own kinds.

use std::cmp::Ordering;

use mlua::{Lua, MultiValue, Table, Value};

use super::api_map::LuaMap;
use super::args::Args;
use super::cost;
use super::run_state::HostState;
use crate::map::{Rgb, TileKind};

const SPEC_KEYS: [&str; 5] = ["glyph", "color", "bg", "walkable", "transparent"];

/// Registers the global `tiles` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let tiles = lua.create_table()?;
    tiles.set(
        "define",
        lua.create_function(|lua, values: MultiValue| {
            let args = Args::new(lua, "tiles.define", values);
            // A name longer than MAX_NAME is refused unread; a shorter one
            // is checked and compared with every kind's name: paid first.
            let name = args.name(0, "name")?;
            let kinds = {
                let map = lua.app_data_ref::<HostState>().and_then(|s| s.map.clone());
                match map {
                    Some(ud) => ud.borrow::<LuaMap>()?.map(lua)?.tiles().len(),
                    None => lua
                        .app_data_ref::<HostState>()
                        .map_or(0, |s| s.pending_tiles().len()),
                }
            };
            args.charge(
                cost::CALL_UNITS + cost::text(name.len() as u64).saturating_mul(kinds as u64 + 1),
            )?;
            let spec = args.table(1, "spec")?;
            let kind = parse_spec(&args, name, &spec)?;
            // Before generate the kinds wait in the host state; once the map
            // exists they go straight into its tile set.
            let map = lua.app_data_ref::<HostState>().and_then(|s| s.map.clone());
            let defined = match map {
                Some(ud) => ud
                    .borrow::<LuaMap>()?
                    .map_mut(lua)?
                    .tiles_mut()
                    .define(kind),
                None => match lua.app_data_mut::<HostState>() {
                    Some(mut state) => state.pending_tiles_mut().define(kind),
                    None => return Err(args.fail("no host state")),
                },
            };
            defined.map(|_| ()).map_err(|e| args.fail(e))
        })?,
    )?;
    tiles.set(
        "names",
        lua.create_function(|lua, ()| {
            let map = lua.app_data_ref::<HostState>().and_then(|s| s.map.clone());
            let names: Vec<String> = match map {
                Some(ud) => ud
                    .borrow::<LuaMap>()?
                    .map(lua)?
                    .tiles()
                    .known_names()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                None => lua
                    .app_data_ref::<HostState>()
                    .map(|s| {
                        s.pending_tiles()
                            .known_names()
                            .iter()
                            .map(|n| n.to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            // A Lua string and a table slot a name (256 names: 50 µs,
            // which was charged nothing, so a loop of it outlasted the
            // budget's promise by 70 times).
            super::budget::charge(
                lua,
                "tiles.names",
                super::cost::CALL_UNITS + names.len() as u64 * super::cost::UNITS_PER_VALUE_MADE,
            )?;
            lua.create_sequence_from(names)
        })?,
    )?;
    lua.globals().set("tiles", tiles)
}

/// The bytes [`key_order`] may compare of `key`.
fn shown_len(key: &Value) -> usize {
    match key {
        Value::String(s) => s.as_bytes().len(),
        other => super::args::show(other).len(),
    }
}

/// The order of spec keys for naming the first unknown one: a string by
/// its bytes, anything else by how a message shows it.
fn key_order(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.as_bytes().as_ref().cmp(y.as_bytes().as_ref()),
        (Value::String(x), other) => x
            .as_bytes()
            .as_ref()
            .cmp(super::args::show(other).as_bytes()),
        (other, Value::String(y)) => super::args::show(other)
            .as_bytes()
            .cmp(y.as_bytes().as_ref()),
        (x, y) => super::args::show(x).cmp(&super::args::show(y)),
    }
}

fn parse_spec(args: &Args, name: String, spec: &Table) -> mlua::Result<TileKind> {
    // The first unknown key in byte order (pairs() order is unspecified),
    // compared in place: no key is copied, and comparing two long ones is
    // paid for first.
    let mut first: Option<Value> = None;
    for pair in spec.pairs::<Value, Value>() {
        let (key, _) = pair?;
        args.charge(1)?;
        if let Value::String(s) = &key {
            if SPEC_KEYS
                .iter()
                .any(|k| k.as_bytes() == s.as_bytes().as_ref())
            {
                continue;
            }
        }
        let earlier = match &first {
            None => true,
            Some(f) => {
                let shortest = shown_len(&key).min(shown_len(f));
                args.charge(cost::text(shortest as u64))?;
                key_order(&key, f) == Ordering::Less
            }
        };
        if earlier {
            first = Some(key);
        }
    }
    if let Some(first) = first {
        let shown = match &first {
            Value::String(s) => super::args::cut(s),
            other => super::args::show(other),
        };
        return Err(args.fail(format!(
            "unknown field '{shown}' in the spec of '{name}'; fields are {}",
            SPEC_KEYS.join(", ")
        )));
    }
    let glyph_text = match spec.get::<Value>("glyph")? {
        // One character is at most 4 bytes: a longer string is not read.
        Value::String(s) if s.as_bytes().len() > 4 => {
            return Err(args.fail(format!(
                "'{name}' needs glyph = one character, got {}",
                super::args::quote(&s)
            )))
        }
        Value::String(s) => match s.to_str() {
            Ok(text) => text.to_string(),
            // Not shown as U+FFFD: two bad bytes would look like one glyph.
            Err(_) => {
                return Err(args.fail(format!(
                    "'{name}' needs glyph = one character, got bytes that are not UTF-8"
                )))
            }
        },
        other => {
            return Err(args.fail(format!(
                "'{name}' needs glyph = a one-character string, got {}",
                super::args::show(&other)
            )))
        }
    };
    let mut chars = glyph_text.chars();
    let glyph = match (chars.next(), chars.next()) {
        (Some(c), None) => c,
        _ => {
            return Err(args.fail(format!(
                "'{name}' needs glyph = one character, got {glyph_text:?}"
            )))
        }
    };
    let color = |key: &str, default: Rgb| -> mlua::Result<Rgb> {
        match spec.get::<Value>(key)? {
            Value::Nil => Ok(default),
            Value::String(s) => {
                let bytes = s.as_bytes();
                // "#rrggbb" is 7 bytes: a longer string is not read.
                let parsed = (bytes.len() <= 7)
                    .then(|| std::str::from_utf8(&bytes).ok())
                    .flatten()
                    .and_then(Rgb::parse_hex);
                parsed.ok_or_else(|| {
                    args.fail(format!(
                        "'{name}': {key} must be \"#rrggbb\", got {}",
                        super::args::quote(&s)
                    ))
                })
            }
            other => Err(args.fail(format!(
                "'{name}': {key} must be \"#rrggbb\", got {}",
                super::args::show(&other)
            ))),
        }
    };
    let flag = |key: &str, default: bool| -> mlua::Result<bool> {
        match spec.get::<Value>(key)? {
            Value::Nil => Ok(default),
            Value::Boolean(b) => Ok(b),
            other => Err(args.fail(format!(
                "'{name}': {key} must be a boolean, got {}",
                super::args::show(&other)
            ))),
        }
    };
    let walkable = flag("walkable", false)?;
    Ok(TileKind {
        glyph,
        color: color("color", Rgb(0xff, 0xff, 0xff))?,
        background: color("bg", Rgb(0, 0, 0))?,
        walkable,
        transparent: flag("transparent", walkable)?,
        name,
    })
}
