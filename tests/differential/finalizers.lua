-- __gc is refused, in the same words every run.
LAST = LAST or 0
return { generate = function(map, rng)
  local ok, err = pcall(setmetatable, {}, { __gc = function() LAST = LAST + 1 end })
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + LAST + (ok and 1 or 0), 4))
  map:set_start(2, 2)
  if rng:int(3) == 0 then error(err) end
end }
