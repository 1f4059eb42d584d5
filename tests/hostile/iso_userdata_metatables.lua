-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local mt = getmetatable(map)
  if type(mt) == "table" then mt.__index = function() return function() end end end
  local rmt = getmetatable(Rect.new(0, 0, 1, 1))
  if type(rmt) == "table" then rmt.__index = nil end
  if Rect.new(0, 0, 2, 2).w ~= 2 then map:fill("wall") map:set(1, 1, "floor") end
end }
