-- Two levels. Level 2's start room holds the exit and a small_key: the
-- player may pick the key up without stepping on the exit, go back up the
-- stairs, spend it on level 1's small_lock and fall through the chasm
-- behind it. On odd seeds that chasm lands in a pocket walled off from the
-- exit (softlock: entering the exit's room is not finishing, only stepping
-- on the exit is); on even seeds the pocket opens onto the exit's room.
tiles.define("small_lock", { glyph = "+", color = "#40a0ff", walkable = true, transparent = false })
tiles.define("chasm", { glyph = ":", color = "#303030", walkable = false, transparent = true })

return {
  width = 9, height = 3, levels = 2,
  goal = { goals = { "exit" } },
  locks = { small_lock = { key = "small_key", consumed = true } },
  one_way = { chasm = "down" },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    if ctx.level == 1 then
      map:h_tunnel(1, 7, 1)
      map:set_start(1, 1)
      map:set(3, 1, "stairs_down")
      map:set(5, 1, "small_lock")
      map:set(7, 1, "chasm")
    else
      map:h_tunnel(1, 4, 1)
      map:set(1, 1, "stairs_up")
      map:set_start(2, 1)
      map:mark(3, 1, "small_key")
      map:mark(4, 1, "exit")
      map:set(7, 1, "floor")
      if ctx.seed % 2 == 0 then map:h_tunnel(5, 6, 1) end
    end
  end,
}
