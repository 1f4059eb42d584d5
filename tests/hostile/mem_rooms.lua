-- args: --max-memory 16
-- expect: memory limit
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local r = Rect.new(1, 1, 3, 3)
  while true do map:add_room(r) end
end }
