-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 8
-- The same through tonumber.
local s = string.rep("7", 250)
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0 for _ = 1, 1000000 do n = n + tonumber(s) % 2 end
end }
