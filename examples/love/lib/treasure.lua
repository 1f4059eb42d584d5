-- lib/treasure.lua: gold piles on random floor cells, as markers the game
-- reads from map.markers ({x, y, name = "gold", props = {amount = n}}).
local M = {}

function M.scatter(map, rng, piles)
  for _ = 1, piles do
    local x, y = map:random_cell("floor", rng)
    if x then
      map:mark(x, y, "gold", { amount = rng:range(5, 50) })
    end
  end
end

return M
