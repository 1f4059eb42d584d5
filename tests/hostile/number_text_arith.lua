-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- A 250-digit text read as a number in arithmetic: strtod's work, a
-- hundred instructions' worth each time, is charged by the text's length.
local s = string.rep("9", 250)
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0 for _ = 1, 1000000 do n = n + (s + 0) % 2 end
end }
