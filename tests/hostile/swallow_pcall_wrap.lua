-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- pcall over a wrapped coroutine, then a few instructions and a host call:
-- the main thread raises at its next instruction, not a thousand later.
local steps = 0
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor")
  pcall(coroutine.wrap(function() while true do steps = steps + 1 end end))
  map:set_start(steps % 20, 0)
end }
