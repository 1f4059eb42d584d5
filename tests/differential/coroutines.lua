-- A coroutine kept in a global and resumed in every run.
CO = CO or coroutine.create(function() local n = 0 while true do n = n + 1 coroutine.yield(n) end end)
return { generate = function(map, rng)
  local _, n = coroutine.resume(CO)
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + (n or 0), 4))
  map:set_start(2, 2)
end }
