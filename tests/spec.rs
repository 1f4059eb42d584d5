//! What the API reference specifies, replayed: `tests/spec/draws.lua`
//! transcribes the draws `docs/guide/src/api.md` lists for `map:maze`,
//! `map:connect_regions` and `map:place_prefab`, and checks the edge cases
//! it states (`Rect:center` of negative corners, searches from and to cells
//! that are not walkable, `map:add_loops` opening water), so the reference
//! and the primitives cannot drift apart unnoticed.

use crate::util::generate;

#[test]
fn the_draws_and_edge_cases_the_api_reference_writes_out_hold() {
    for seed in [0, 1, 7, 42] {
        if let Err(e) = generate("tests/spec/draws.lua", seed, &[]) {
            panic!("seed {seed}: {e}");
        }
    }
}
