-- args: --max-instructions 20000000
-- expect: instruction budget
local big = string.rep("x", 1 << 20)
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  while true do print(big) end
end }
