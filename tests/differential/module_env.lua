-- A module that rebinds its own _ENV and keeps state in upvalues.
local m = require("lib.stateful")
return { generate = function(map, rng)
  map:fill("wall")
  local w = 3 + m.bump() + m.env_count()
  map:carve_room(Rect.new(1, 1, math.min(w, 40), 4))
  map:set_start(2, 2)
end }
