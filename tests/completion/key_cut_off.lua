-- A corridor: start, locked door, exit; the key lies in a pocket below the
-- corridor. Seeds 1 and 4 wall the pocket in (no lock or passage leads
-- there); seeds 2 and 5 shut it with a door of another kind (whose key is
-- nowhere); seeds 0 and 3 leave it open.
tiles.define("locked_door", { glyph = "+", color = "#ff4040", walkable = true, transparent = false })
tiles.define("blue_door", { glyph = "+", color = "#4040ff", walkable = true, transparent = false })

return {
  width = 12, height = 5,
  goal = { goals = { "exit" } },
  locks = { locked_door = { key = "key" }, blue_door = { key = "blue_key" } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    map:h_tunnel(1, 10, 1)
    map:h_tunnel(1, 3, 3)
    map:set_start(1, 1)
    map:set(6, 1, "locked_door")
    map:mark(10, 1, "exit")
    map:mark(3, 3, "key")
    local variant = ctx.seed % 3
    if variant == 0 then map:set(2, 2, "floor") end
    if variant == 2 then map:set(2, 2, "blue_door") end
  end,
}
