-- expect: called from inside another map primitive
-- line: 8
-- An options table whose reads call back into the map while the fill has
-- it: refused, not aliased.
return { generate = function(map, rng)
  map:fill("wall")
  map:set_start(1, 1)
  local opts = setmetatable({ sample = { "#.#", "...", "#.#" } }, { __index = function() map:fill("floor") end })
  wfc.fill(map, Rect.new(0, 0, 9, 9), opts, rng)
end }
