-- caves.lua: cellular-automaton caves, the 4-5 rule of RogueBasin's
-- "Cellular Automata Method for Generating Random Cave-Like Levels".
--
-- The inside of the map is seeded with wall at probability `fill`
-- (map:scatter), then `steps` whole-map steps of the 4-5 rule run natively:
-- a wall with 4 or more wall neighbours stays, a floor with 5 or more
-- becomes wall, and the map's edge counts as wall. Pockets smaller than
-- `min_region` cells are filled in; the rest are joined to the largest
-- cave by the shortest tunnels (map:connect_regions). The player starts on
-- a random cell of the largest cave; stairs go as far away as possible.
-- A map with no open cave at all is rejected and rerolled.
--
-- floor ratio: 0.40..0.75 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Cellular automaton caves",
  width = 80,
  height = 50,
  params = { fill = 0.45, steps = 4, min_region = 12, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if W < 5 or H < 5 then
      error(("caves need at least 5x5 cells, got %dx%d"):format(W, H))
    end
    -- The 4-5 rule always walls the inside's 4 corners (5 edge neighbours).
    local room = (W - 2) * (H - 2) - (p.steps >= 1 and 4 or 0)
    if room < p.min_region then
      error(("a %dx%d map leaves at most %d cells for a cave, fewer than min_region = %d"):format(
        W, H, room, p.min_region))
    end
    map:fill("wall")
    local inside = Rect.new(1, 1, W - 3, H - 3)
    map:fill_rect(inside, "floor")
    map:scatter("wall", p.fill, rng, inside)
    map:cellular({ birth = { 5, 6, 7, 8 }, survive = { 4, 5, 6, 7, 8 }, steps = p.steps })

    local regions = map:regions()
    for i = #regions, 2, -1 do
      if regions[i].size < p.min_region then
        map:fill_selection(regions[i].cells, "wall")
      end
    end
    if #regions == 0 or regions[1].size < p.min_region then
      reject("no open cave")
    end
    map:connect_regions(rng)
    map:set_start(regions[1].cells:random_cell(rng))
    features.add(map, { stairs = p.stairs })
  end,
}
