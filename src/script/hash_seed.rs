//! Whether this build's Lua orders string keys the same way in every run.
//!
//! Stock Lua 5.4 seeds its string hash from the clock and from addresses
//! each time a state is made, so `pairs()` over a table with string keys
//! visits them in a different order in every process, and a script that
//! decides anything by that order makes a different map each run.
//! dunlua builds its own Lua (`build.rs`, `src/script/raw/lua/`) with a
//! fixed seed in `lstate.c`, so every build of the crate has it;
//! [`string_hash_is_fixed`] proves it, by iterating a table in a fresh
//! state and comparing with the order the fixed seed gives.

use mlua::{Lua, LuaOptions, StdLib};

/// The keys `key1` .. `key12`, inserted in that order into an empty table,
/// as `pairs()` visits them under the fixed seed `0x64756e6c`. A per-run
/// seed gives this exact order about once in 479 million states.
const FIXED_SEED_ORDER: &str = "key3,key1,key8,key2,key6,key4,key5,key11,key7,key12,key10,key9";

const PROBE: &str = "local t = {}\n\
    for i = 1, 12 do t['key' .. i] = true end\n\
    local order = {}\n\
    for k in pairs(t) do order[#order + 1] = k end\n\
    return table.concat(order, ',')";

/// True when this build's Lua hashes strings with the fixed seed, so
/// `pairs()` over string, number and boolean keys runs in the same order
/// in every run of this build.
pub fn string_hash_is_fixed() -> bool {
    pairs_order_of_fresh_state().as_deref() == Some(FIXED_SEED_ORDER)
}

fn pairs_order_of_fresh_state() -> Option<String> {
    let lua = Lua::new_with(StdLib::TABLE, LuaOptions::default()).ok()?;
    lua.load(PROBE).eval::<String>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_lua_hashes_strings_with_the_fixed_seed() {
        assert!(
            string_hash_is_fixed(),
            "pairs() order over string keys is not the fixed seed's: {:?}; is mlua linked \
             against the Lua build.rs makes (mlua-sys's `external` feature)?",
            pairs_order_of_fresh_state()
        );
    }
}
