-- river.lua: a river across open country, its course the cheapest path
-- (map:path) from the top edge to the bottom through a noise field, so it
-- winds along the field's valleys as water finds its way downhill; it is
-- widened by `banks` cells each side, then bridged where map:connect_regions finds the shortest
-- crossings (tunnels of "bridge" that never cut through the woods), plus
-- a few more spread along its course. Copses of trees come from a second
-- noise field; a clearing cut off by trees is planted over, so every open
-- cell is reachable. The course steps only north, east, south or west, so
-- even where the river is one cell wide nobody crosses it diagonally. The
-- start is anywhere on land, the stairs as far away as walking allows.
--
-- floor ratio: 0.45..0.78 (walkable cells over all cells, defaults, 500 seeds)

tiles.define("tree", { glyph = "♣", color = "#3c8c3c", walkable = false, transparent = false })
tiles.define("bridge", { glyph = "=", color = "#b08040", walkable = true, transparent = true })

return {
  name = "River",
  width = 80,
  height = 50,
  params = { meander = 100, banks = 1, woods = 0.62, bridges = 2, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if W < 5 or H < 3 then
      error(("a %dx%d map is too small for a river: it needs at least 5x3"):format(W, H))
    end
    if p.banks < 0 then
      error(("need banks >= 0, got %d"):format(p.banks))
    end
    if p.meander < 0 then
      error(("need meander >= 0, got %s"):format(p.meander))
    end
    if p.bridges < 0 or p.bridges > 10000 then
      error(("need 0 <= bridges <= 10000, got %d"):format(p.bridges))
    end
    map:fill("wall")
    map:carve_room(Rect.new(0, 0, W - 1, H - 1))

    -- Woods where the first field is high.
    local woods = map:noise(rng:fork("woods"), { scale = 6, octaves = 2 })
    map:fill_selection(woods:select(p.woods, 1):intersect(map:select("floor")), "tree")

    -- The course: cheapest through the second field, trees no obstacle.
    local land = map:noise(rng:fork("river"), { scale = 12, octaves = 3 })
    local top, bottom = rng:range(W // 4, 3 * W // 4), rng:range(W // 4, 3 * W // 4)
    local course = map:path(top, 1, bottom, H - 2, {
      cost = { floor = 1, tree = 1 }, field = land, weight = p.meander,
    })
    map:carve_path(course, "water")
    if p.banks > 0 then
      local river = map:select("water"):grow(p.banks):subtract(map:select("wall"))
      map:fill_selection(river, "water")
    end

    -- Bridges: the shortest crossings joining the banks, then a few more
    -- across the river (west to east) at even steps along its course.
    map:connect_regions(rng, { tile = "bridge", avoid = map:select("tree") })
    for k = 1, p.bridges do
      local c = course[(#course * k) // (p.bridges + 1) + 1]
      local x1, x2 = c.x, c.x
      while map:get(x1 - 1, c.y) == "water" do x1 = x1 - 1 end
      while map:get(x2 + 1, c.y) == "water" do x2 = x2 + 1 end
      if map:is_walkable(x1 - 1, c.y) and map:is_walkable(x2 + 1, c.y) then
        map:h_tunnel(x1, x2, c.y, "bridge")
      end
    end

    -- Clearings the woods cut off are planted over; the largest, which
    -- planting leaves as it is, is where the start goes.
    local regions = map:regions()
    if #regions == 0 then
      error(("no open land is left on the %dx%d map (banks = %d, woods = %s)"):format(W, H, p.banks, p.woods))
    end
    for i = 2, #regions do
      map:fill_selection(regions[i].cells, "tree")
    end

    local sx, sy = regions[1].cells:random_cell(rng)
    map:set_start(sx, sy)
    if p.stairs then
      local ex, ey = map:dijkstra(sx, sy):farthest()
      map:set(ex, ey, "stairs_down")
      map:mark(ex, ey, "stairs_down")
    end
  end,
}
