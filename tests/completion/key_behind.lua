-- A corridor: start, locked door, exit. Odd seeds put the key behind the
-- door (unfinishable); even seeds before it.
tiles.define("locked_door", { glyph = "+", color = "#ff4040", walkable = true, transparent = false })

return {
  width = 12, height = 3,
  goal = { goals = { "exit" } },
  locks = { locked_door = { key = "key" } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    map:h_tunnel(1, 10, 1)
    map:set_start(1, 1)
    map:set(6, 1, "locked_door")
    if ctx.seed % 2 == 1 then map:mark(8, 1, "key") else map:mark(3, 1, "key") end
    map:mark(10, 1, "exit")
  end,
}
