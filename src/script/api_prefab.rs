//! `prefab` for scripts: questions about an ASCII prefab before it is put
//! down. `prefab.size(rows [, {rotate =}])` is the width and height, in
//! characters, the prefab covers once turned (mirroring keeps its size).

use mlua::{Lua, MultiValue, Value};

use super::args::{show, Args};
use super::cost;

/// The most rows, and characters a row, a prefab may have: no map is wider.
const MAX_SIDE: usize = crate::map::MAX_SIDE as usize;

/// Registers the global `prefab` table.
pub(crate) fn register(lua: &Lua) -> mlua::Result<()> {
    let prefab = lua.create_table()?;
    prefab.set(
        "size",
        lua.create_function(|lua, values: MultiValue| {
            let a = Args::new(lua, "prefab.size", values);
            a.charge(cost::CALL_UNITS)?;
            let rows = a.table(0, "rows")?;
            let count = rows.raw_len();
            if count > MAX_SIDE {
                return Err(a.fail(format!(
                    "rows has {count} rows, more than a map's side may ({MAX_SIDE})"
                )));
            }
            let mut width = None;
            for k in 1..=count {
                let s = match rows.raw_get::<Value>(k)? {
                    Value::String(s) => s,
                    other => {
                        return Err(a.fail(format!(
                            "rows must be a list of strings; rows[{k}] is {}",
                            show(&other)
                        )))
                    }
                };
                let bytes = s.as_bytes();
                if bytes.len() > MAX_SIDE * 4 {
                    return Err(a.fail(format!(
                        "rows[{k}] is {} bytes, longer than a map's side may be ({MAX_SIDE} characters)",
                        bytes.len()
                    )));
                }
                a.charge(cost::text(bytes.len() as u64))?;
                let chars = String::from_utf8_lossy(&bytes).chars().count();
                match width {
                    None => width = Some(chars),
                    Some(w) if w != chars => {
                        return Err(a.fail(format!(
                            "row {k} has {} where row 1 has {w}",
                            crate::one_line::characters(chars)
                        )))
                    }
                    Some(_) => {}
                }
            }
            let (w, h) = (width.unwrap_or(0), count);
            if w == 0 {
                return Err(a.fail("the prefab has no rows"));
            }
            let rotate = match a.options(1)? {
                None => 0,
                Some(opts) => {
                    a.only_options(&opts, &["rotate", "mirror"])?;
                    match opts.get::<Value>("mirror")? {
                        Value::Nil => {}
                        Value::String(m) if matches!(m.as_bytes().as_ref(), b"x" | b"y") => {}
                        other => {
                            return Err(a.fail(format!(
                                "mirror must be \"x\" or \"y\", got {}",
                                show(&other)
                            )))
                        }
                    }
                    match super::args::as_whole(opts.get::<Value>("rotate")?) {
                        Value::Nil => 0,
                        Value::Integer(r @ (0 | 90 | 180 | 270)) => r,
                        other => {
                            return Err(a.fail(format!(
                                "rotate must be 0, 90, 180 or 270, got {}",
                                show(&other)
                            )))
                        }
                    }
                }
            };
            Ok(if rotate % 180 == 90 { (h, w) } else { (w, h) })
        })?,
    )?;
    lua.globals().set("prefab", prefab)
}
