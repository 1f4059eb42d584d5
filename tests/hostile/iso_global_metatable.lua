-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if UNDEFINED_NAME ~= nil then map:fill("wall") map:set(1, 1, "floor") end
  setmetatable(_G, { __index = function() return 1 end, __newindex = function() end })
end }
