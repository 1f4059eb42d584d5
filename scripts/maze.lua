-- maze.lua: a perfect maze by the recursive backtracker (native map:maze),
-- with `loops` opening extra walls for cycles, as in rot.js's
-- IceyMaze/EllerMaze family and bracket-lib's maze chapter.
--
-- The maze fills the map: cells at odd coordinates, walls between them,
-- the outer ring solid. With loops = 0 there is exactly one path between
-- any two cells; each wall left between two cells opens with probability
-- `loops`. The player starts in the top-left cell; stairs go to the cell
-- farthest away by walking.
--
-- floor ratio: 0.45..0.55 (walkable cells over all cells, defaults, 500 seeds)

local features = require("lib.features")

return {
  name = "Perfect maze",
  width = 81,
  height = 51,
  params = { loops = 0.0, stairs = true },

  generate = function(map, rng, p)
    if p.loops < 0 or p.loops > 1 then
      error(("loops must be in 0..1, got %s"):format(p.loops))
    end
    -- Even sizes leave the last row or column as wall.
    local w = map.width - (map.width + 1) % 2
    local h = map.height - (map.height + 1) % 2
    if w < 3 or h < 3 then
      error(("a %dx%d map is too small for a maze: it needs at least 3x3"):format(map.width, map.height))
    end
    if p.stairs and w < 5 and h < 5 then
      error(("a %dx%d map holds one maze cell, no room for stairs: it needs at least 5x3 or 3x5 (or stairs=false)")
        :format(map.width, map.height))
    end
    map:fill("wall")
    map:maze(Rect.new(0, 0, w - 1, h - 1), rng, { loops = p.loops })
    map:set_start(1, 1)
    features.add(map, { stairs = p.stairs })
  end,
}
