-- Two levels. On level 1 a chasm beside the start drops to level 2; the
-- stairs down lead to level 2's start, next to the exit. On odd seeds the
-- chasm lands in a closet walled off from the exit (softlock); on even
-- seeds the closet opens onto the exit's corridor.
tiles.define("chasm", { glyph = ":", color = "#303030", walkable = false, transparent = true })

return {
  width = 12, height = 5, levels = 2,
  goal = { goals = { "exit" } },
  one_way = { chasm = "down" },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    if ctx.level == 1 then
      map:h_tunnel(1, 10, 2)
      map:set_start(4, 2)
      map:set(2, 2, "chasm")
      map:set(10, 2, "stairs_down")
    else
      map:h_tunnel(1, 3, 2)
      map:h_tunnel(5, 10, 2)
      map:set_start(10, 2)
      map:set(10, 2, "stairs_up")
      map:mark(6, 2, "exit")
      if ctx.seed % 2 == 0 then map:set(4, 2, "floor") end
    end
  end,
}
