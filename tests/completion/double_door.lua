-- A double door on the only way to the exit: a locked_door (kept key)
-- touching a small_lock (consumed key), opened in turn from inside the
-- first. Both keys lie before it on even seeds (finishable); on odd seeds
-- the small_key lies behind it (unfinishable: the small_lock is named).
tiles.define("locked_door", { glyph = "+", color = "#ff4040", walkable = true, transparent = false })
tiles.define("small_lock", { glyph = "+", color = "#40a0ff", walkable = true, transparent = false })

return {
  width = 16, height = 3,
  goal = { goals = { "exit" } },
  locks = {
    locked_door = { key = "key" },
    small_lock = { key = "small_key", consumed = true },
  },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    map:h_tunnel(1, 14, 1)
    map:set_start(1, 1)
    map:mark(2, 1, "key")
    map:set(6, 1, "locked_door")
    map:set(7, 1, "small_lock")
    if ctx.seed % 2 == 1 then map:mark(10, 1, "small_key") else map:mark(3, 1, "small_key") end
    map:mark(14, 1, "exit")
  end,
}
