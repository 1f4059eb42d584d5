-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local t = setmetatable({}, { __index = function() while true do end end })
  local _ = t.x
end }
