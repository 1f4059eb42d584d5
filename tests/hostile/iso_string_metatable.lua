-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local mt = getmetatable("")
  if mt.__index.dunlua_leak or rawget(mt, "__dunlua") then map:fill("wall") map:set(1, 1, "floor") end
  mt.__index.dunlua_leak = true
  rawset(mt, "__dunlua", true)
  mt.__index.rep = function() return "leaked" end
end }
