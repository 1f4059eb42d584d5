-- Two levels, a corridor each; on odd seeds a wall cuts level 1's
-- stairs_down off from the start.
return {
  width = 12, height = 5, levels = 2,
  goal = { goals = { "exit" } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    map:h_tunnel(1, 10, 2)
    map:set_start(1, 2)
    if ctx.level == 1 then
      map:set(10, 2, "stairs_down")
      if ctx.seed % 2 == 1 then map:set(5, 2, "wall") end
    else
      map:mark(9, 2, "exit")
    end
  end,
}
