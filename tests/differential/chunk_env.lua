-- _ENV rebound at the top of the main chunk: a counter parked there, and the
-- previous run's rng, must not reach the next run.
_ENV = setmetatable({ n = (n or 0) + 1, kept = kept }, { __index = _G })
return { generate = function(map, rng)
  map:fill("wall")
  local w = 3 + n + (kept and kept:int(5) or 0)
  kept = rng
  map:carve_room(Rect.new(1, 1, w, 4))
  map:set_start(2, 2)
end }
