//! `markers` for scripts: `markers.define(name, {glyph =, color =})` gives
//! the markers of one name the look the window, PNGs, sheets, the HTML
//! report and `--ascii` draw them with. Like `tiles.define`, it works at
//! the top of a script, in a module or inside `generate`; a look is part
//! of the run (kept with the map's kinds), never of the next one.

use mlua::{Lua, MultiValue, Table, Value};

use super::api_map::LuaMap;
use super::args::{cut, quote, show, Args};
use super::cost;
use super::run_state::HostState;
use crate::map::{MarkerLook, Rgb};

const SPEC_KEYS: [&str; 2] = ["glyph", "color"];

/// The colour of a look that names none: the markers' magenta.
const DEFAULT_COLOR: Rgb = Rgb(0xff, 0x40, 0xff);

/// Registers the global `markers` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let markers = lua.create_table()?;
    markers.set(
        "define",
        lua.create_function(|lua, values: MultiValue| {
            let args = Args::new(lua, "markers.define", values);
            args.charge(cost::CALL_UNITS)?;
            let name = args.name(0, "name")?;
            if name.is_empty() {
                return Err(args.fail("a marker's name must not be empty"));
            }
            args.charge(cost::text(name.len() as u64))?;
            let spec = args.table(1, "spec")?;
            let look = parse_spec(&args, name, &spec)?;
            // Before generate the looks wait in the host state with the
            // pending kinds; once the map exists they go into its set.
            let map = lua.app_data_ref::<HostState>().and_then(|s| s.map.clone());
            let defined = match map {
                Some(ud) => ud
                    .borrow::<LuaMap>()?
                    .map_mut(lua)?
                    .tiles_mut()
                    .define_marker(look),
                None => match lua.app_data_mut::<HostState>() {
                    Some(mut state) => state.pending_tiles_mut().define_marker(look),
                    None => return Err(args.fail("no host state")),
                },
            };
            defined.map_err(|e| args.fail(e))
        })?,
    )?;
    lua.globals().set("markers", markers)
}

fn parse_spec(args: &Args, name: String, spec: &Table) -> mlua::Result<MarkerLook> {
    for pair in spec.pairs::<Value, Value>() {
        let (key, _) = pair?;
        args.charge(1)?;
        let known = matches!(&key, Value::String(s)
            if SPEC_KEYS.iter().any(|k| k.as_bytes() == s.as_bytes().as_ref()));
        if !known {
            let shown = match &key {
                Value::String(s) => cut(s),
                other => show(other),
            };
            return Err(args.fail(format!(
                "unknown field '{shown}' in the look of marker '{name}'; fields are {}",
                SPEC_KEYS.join(", ")
            )));
        }
    }
    let glyph = match spec.get::<Value>("glyph")? {
        // One character is at most 4 bytes: a longer string is not read.
        Value::String(s) if s.as_bytes().len() > 4 => {
            return Err(args.fail(format!(
                "marker '{name}' needs glyph = one character, got {}",
                quote(&s)
            )))
        }
        Value::String(s) => {
            let bytes = s.as_bytes();
            let mut chars = std::str::from_utf8(&bytes).ok().map(|t| t.chars());
            match chars.as_mut().map(|c| (c.next(), c.next())) {
                Some((Some(c), None)) => c,
                _ => {
                    return Err(args.fail(format!(
                        "marker '{name}' needs glyph = one character, got {}",
                        quote(&s)
                    )))
                }
            }
        }
        other => {
            return Err(args.fail(format!(
                "marker '{name}' needs glyph = a one-character string, got {}",
                show(&other)
            )))
        }
    };
    let color = match spec.get::<Value>("color")? {
        Value::Nil => DEFAULT_COLOR,
        Value::String(s) => {
            let bytes = s.as_bytes();
            (bytes.len() <= 7)
                .then(|| std::str::from_utf8(&bytes).ok())
                .flatten()
                .and_then(Rgb::parse_hex)
                .ok_or_else(|| {
                    args.fail(format!(
                        "marker '{name}': color must be \"#rrggbb\", got {}",
                        quote(&s)
                    ))
                })?
        }
        other => {
            return Err(args.fail(format!(
                "marker '{name}': color must be \"#rrggbb\", got {}",
                show(&other)
            )))
        }
    };
    Ok(MarkerLook { name, glyph, color })
}
