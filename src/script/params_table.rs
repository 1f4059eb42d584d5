//! The `params` table a run's `generate` gets: the declared parameters'
//! values, over a shared metatable that catches a mistyped name. Reading
//! `p.step` when the script declared `steps` gave `nil`, and the run failed
//! lines later with "attempt to perform arithmetic on a nil value", or not
//! at all (`p.step or 3`). A read of an undeclared name close to a declared
//! one is an error naming both; any other undeclared name still reads as
//! `nil`, so `p.optional or default` keeps working as in plain Lua.

use mlua::{Lua, Table, Value};

use super::budget;
use super::cost;
use super::error::located;
use super::run_state::HostState;

/// The metatable every run's `params` table gets: `__index` as above, and
/// protected (`getmetatable(p)` is `false`, `setmetatable(p, ...)` an
/// error) so no run can change what the next run's table does.
pub(crate) fn metatable(lua: &Lua) -> mlua::Result<Table> {
    let index = lua.create_function(|lua, (_, key): (Value, Value)| {
        let Value::String(key) = key else {
            return Ok(Value::Nil);
        };
        let Ok(key) = key.to_str() else {
            return Ok(Value::Nil);
        };
        let state = lua.app_data_ref::<HostState>();
        let declared = state.as_ref().and_then(|s| s.params.as_ref());
        let Some(declared) = declared else {
            return Ok(Value::Nil);
        };
        // Comparing with every declared name is work the script pays for,
        // as a loop reading an undeclared name may do it millions of times.
        let compared: usize = declared.iter().map(|(name, _)| name.len()).sum();
        budget::charge(
            lua,
            "reading an undeclared parameter",
            cost::CALL_UNITS + cost::text((compared * key.len().min(64)) as u64),
        )?;
        match crate::closest::closest(&key, declared.iter().map(|(name, _)| name)) {
            Some(meant) => {
                const LISTED: usize = 10;
                let mut names: Vec<&str> =
                    declared.iter().map(|(name, _)| name).take(LISTED).collect();
                if declared.len() > LISTED {
                    names.push("...");
                }
                Err(located(
                    lua,
                    format!(
                        "params.{key} is not a declared parameter; did you mean params.{meant}? (declared: {}; a parameter is declared in the script's params table)",
                        names.join(", ")
                    ),
                ))
            }
            None => Ok(Value::Nil),
        }
    })?;
    let metatable = lua.create_table()?;
    metatable.raw_set("__index", index)?;
    metatable.raw_set("__metatable", false)?;
    Ok(metatable)
}
