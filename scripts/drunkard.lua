-- drunkard.lua: the drunkard's walk, as in RogueBasin's "Random Walk Cave
-- Generation" and bracket-lib's tutorial chapter.
--
-- From the centre, a drunkard staggers one cell at a time (map:walk,
-- native, `walk` steps a call, more on big maps) until `floor_ratio` of the
-- map's inside is floor. One walker digs everything, so the cave is one
-- piece. The player starts at the centre; stairs go as far away as
-- possible.
--
-- floor ratio: 0.35..0.45 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Drunkard's walk",
  width = 80,
  height = 50,
  params = { floor_ratio = 0.4, walk = 400, stairs = true },

  generate = function(map, rng, p)
    local W, H = map.width, map.height
    if W < 3 or H < 3 then
      error(("a drunkard needs at least 3x3 cells, got %dx%d"):format(W, H))
    end
    if p.floor_ratio <= 0 or p.floor_ratio > 0.9 then
      error(("floor_ratio must be in (0, 0.9], got %s"):format(p.floor_ratio))
    end
    local target = math.max(1, math.floor((W - 2) * (H - 2) * p.floor_ratio))
    if p.stairs and target < 2 then
      error(("a %dx%d map at floor_ratio %s digs 1 cell, and stairs need 2: use a bigger map (5x5 at 0.4), a higher floor_ratio or -p stairs=false"):format(W, H, p.floor_ratio))
    end
    map:fill("wall")
    local cx, cy = W // 2, H // 2
    map:set(cx, cy, "floor")
    -- Longer calls on bigger maps keep the Lua loop short whatever the size.
    local steps = math.max(p.walk, W * H // 8)
    local x, y, dug = cx, cy, 1
    while dug < target do
      local changed
      x, y, changed = map:walk(x, y, steps, rng)
      dug = dug + changed
    end
    map:set_start(cx, cy)
    features.add(map, { stairs = p.stairs })
  end,
}
