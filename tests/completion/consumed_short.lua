-- Three small locks on the only way to the exit; seeds divisible by 3
-- place only two small keys before them (unfinishable), others three.
tiles.define("small_lock", { glyph = "+", color = "#40a0ff", walkable = true, transparent = false })

return {
  width = 16, height = 3,
  goal = { goals = { "exit" } },
  locks = { small_lock = { key = "small_key", consumed = true } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    map:h_tunnel(1, 14, 1)
    map:set_start(1, 1)
    for _, x in ipairs({ 7, 9, 11 }) do map:set(x, 1, "small_lock") end
    map:mark(2, 1, "small_key")
    map:mark(3, 1, "small_key")
    if ctx.seed % 3 ~= 0 then map:mark(4, 1, "small_key") end
    map:mark(14, 1, "exit")
  end,
}
