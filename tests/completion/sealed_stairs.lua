-- Two levels; the stairs down lead to level 2's start. On odd seeds that
-- start is a pocket walled off from the exit, with no stairs back up
-- (unfinishable); on even seeds a passage joins them.
return {
  width = 12, height = 5, levels = 2,
  goal = { goals = { "exit" } },
  generate = function(map, rng, p, ctx)
    map:fill("wall")
    if ctx.level == 1 then
      map:h_tunnel(1, 10, 2)
      map:set_start(1, 2)
      map:set(10, 2, "stairs_down")
    else
      map:h_tunnel(1, 4, 2)
      map:h_tunnel(6, 10, 2)
      map:set_start(2, 2)
      map:mark(9, 2, "exit")
      if ctx.seed % 2 == 0 then map:set(5, 2, "floor") end
    end
  end,
}
