-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 8
-- The same where a C function wants a number (luaL_checknumber).
local s = "0x" .. string.rep("f", 248)
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0 for _ = 1, 1000000 do n = n + math.abs(s) % 2 end
end }
