//! The `params` table a run's `generate` gets: the declared parameters'
//! values, over a shared metatable that catches a mistyped name. Reading
//! `p.step` when the script declared `steps` gave `nil`, and the run failed
//! lines later with "attempt to perform arithmetic on a nil value", or not
//! at all (`p.step or 3`). A read of an undeclared name close to a declared
//! one, written in the script, is an error naming both; any other
//! undeclared name still reads as `nil`, so `p.optional or default` keeps
//! working as in plain Lua.

use mlua::{Lua, Table, Value};

use super::budget;
use super::cost;
use super::error::located;
use super::run_state::HostState;

/// Units per declared name compared with an undeclared one read, besides
/// the distance table's cells.
const COMPARE_UNITS: u64 = 8;

/// How a script writes the read of parameter `name`: `params.steps`, or
/// `params["max size"]` when the name is not a Lua identifier.
fn field(name: &str) -> String {
    if is_identifier(name) {
        format!("params.{name}")
    } else {
        format!("params[{}]", listed(name))
    }
}

/// `name` as the list of declared names shows it: bare, or quoted when it
/// is not a Lua identifier (`""`, `"max size"`).
fn listed(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        format!("{name:?}")
    }
}

fn is_identifier(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The metatable every run's `params` table gets: `__index` as above, and
/// protected (`getmetatable(p)` is `false`, `setmetatable(p, ...)` an
/// error) so no run can change what the next run's table does.
pub(crate) fn metatable(lua: &Lua) -> mlua::Result<Table> {
    let index = lua.create_function(|lua, (_, key): (Value, Value)| {
        // Every read that misses comes here, whatever its key: the call
        // is paid for before anything else.
        budget::charge(lua, "reading an undeclared parameter", cost::CALL_UNITS)?;
        let Value::String(key) = key else {
            return Ok(Value::Nil);
        };
        let Ok(key) = key.to_str() else {
            return Ok(Value::Nil);
        };
        // Only a read the script wrote is checked: a library or host
        // function handed the table (`string.gsub(s, pat, p)`, an options
        // table) looks up keys of its own, and a miss there reads as nil,
        // as in plain Lua (and is not the script's typo).
        let from_c = lua.inspect_stack(1, |d| d.source().what == "C");
        if from_c != Some(false) {
            return Ok(Value::Nil);
        }
        let state = lua.app_data_ref::<HostState>();
        let declared = state.as_ref().and_then(|s| s.params.as_ref());
        let Some(declared) = declared else {
            return Ok(Value::Nil);
        };
        // Comparing with every declared name is work the script pays for,
        // as a loop reading an undeclared name may do it millions of times:
        // a few nanoseconds a cell of each distance table, and a little
        // per name.
        let key_len = key.chars().count().min(64) as u64;
        let compared: u64 = declared
            .iter()
            .map(|(name, _)| COMPARE_UNITS + key_len * name.len() as u64 / 2)
            .sum();
        budget::charge(lua, "reading an undeclared parameter", compared)?;
        match crate::closest::closest(&key, declared.iter().map(|(name, _)| name)) {
            Some(meant) => {
                const LISTED: usize = 10;
                let mut names: Vec<String> = declared
                    .iter()
                    .take(LISTED)
                    .map(|(name, _)| listed(name))
                    .collect();
                if declared.len() > LISTED {
                    names.push("...".to_string());
                }
                Err(located(
                    lua,
                    format!(
                        "{} is not a declared parameter; did you mean {}? (declared: {}; a parameter is declared in the script's params table)",
                        field(&key),
                        field(meant),
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
