-- One small key, two small locks: the exit's, and on odd seeds a side
-- closet's too (spending the key there strands the player: softlock).
tiles.define("small_lock", { glyph = "+", color = "#40a0ff", walkable = true, transparent = false })

return {
  width = 12, height = 6,
  goal = { goals = { "exit" } },
  locks = { small_lock = { key = "small_key", consumed = true } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    map:h_tunnel(1, 10, 4)
    map:v_tunnel(1, 3, 4)
    map:set_start(1, 4)
    map:mark(2, 4, "small_key")
    map:set(8, 4, "small_lock")
    if ctx.seed % 2 == 1 then map:set(4, 3, "small_lock") end
    map:mark(10, 4, "exit")
  end,
}
