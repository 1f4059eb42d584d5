-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- string.byte of a whole long string pushes a result per byte (the stack
-- grows for 100,000 of them) in one call: charged by its results.
local s = string.rep("a", 100000)
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  for _ = 1, 1000 do local x = s:byte(1, -1) end
end }
