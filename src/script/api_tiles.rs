//! `tiles` for scripts: the names every tile argument accepts, and
//! `tiles.define(name, spec)` for a script's own kinds.

use mlua::{Lua, MultiValue, Table, Value};

use super::api_map::LuaMap;
use super::args::Args;
use super::host::HostState;
use crate::map::{Rgb, TileKind};

const SPEC_KEYS: [&str; 5] = ["glyph", "color", "bg", "walkable", "transparent"];

/// Registers the global `tiles` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let tiles = lua.create_table()?;
    tiles.set(
        "define",
        lua.create_function(|lua, values: MultiValue| {
            let args = Args::new(lua, "tiles.define", values);
            let name = args.string(0, "name")?;
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
                    Some(mut state) => state.pending_tiles.define(kind),
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
                    .names()
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                None => lua
                    .app_data_ref::<HostState>()
                    .map(|s| {
                        s.pending_tiles
                            .names()
                            .iter()
                            .map(|n| n.to_string())
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            lua.create_sequence_from(names)
        })?,
    )?;
    lua.globals().set("tiles", tiles)
}

fn parse_spec(args: &Args, name: String, spec: &Table) -> mlua::Result<TileKind> {
    let mut unknown: Vec<String> = Vec::new();
    for pair in spec.pairs::<Value, Value>() {
        let (key, _) = pair?;
        let key_text = match &key {
            Value::String(s) => s.to_string_lossy(),
            other => super::args::show(other),
        };
        if !SPEC_KEYS.contains(&key_text.as_str()) {
            unknown.push(key_text);
        }
    }
    if let Some(first) = unknown.iter().min() {
        return Err(args.fail(format!(
            "unknown field '{first}' in the spec of '{name}'; fields are {}",
            SPEC_KEYS.join(", ")
        )));
    }
    let glyph_text = match spec.get::<Value>("glyph")? {
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
            Value::String(s) => Rgb::parse_hex(&s.to_string_lossy()).ok_or_else(|| {
                args.fail(format!(
                    "'{name}': {key} must be \"#rrggbb\", got {:?}",
                    s.to_string_lossy()
                ))
            }),
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
