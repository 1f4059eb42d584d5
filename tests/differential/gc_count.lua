-- The heap's size as the script sees it.
GARBAGE = GARBAGE or {}
for i = 1, 200 do GARBAGE[#GARBAGE + 1] = { i } end
return { generate = function(map, rng)
  local kb = collectgarbage("count")
  local step = collectgarbage("step") and 1 or 0
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + math.floor(kb) % 40, 3 + step))
  map:set_start(2, 2)
end }
