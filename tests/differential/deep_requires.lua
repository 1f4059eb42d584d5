-- Modules requiring modules up to six deep, the first by a computed name
-- (loaded in the run), the last three also by a literal one (so loaded
-- before the first run, with those they name): each level nests
-- host calls deeper, which made call frames, grew the stack and filled
-- mlua's pools in a VM's first run that a later run found ready. The heap
-- at every level shows in the map.
return { generate = function(map, rng)
  DEPTHS = { collectgarbage("count") }
  if rng:int(3) == 0 then
    require("lib.chain.link4")
    DEPTHS = { collectgarbage("count") }
  end
  local first = rng:int(2) == 0 and "link1" or "link2"
  local levels = require("lib.chain." .. first)
  local sum = 0
  for i, kb in ipairs(DEPTHS) do sum = sum + i * math.floor(kb * 1024) end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + (sum + levels) % 40, 4))
  map:set_start(2, 2)
end }
