-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 5
-- The script's main chunk swallows the stop before returning its table.
local ok = coroutine.resume(coroutine.create(function() while true do end end))
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor")
  map:set_start(0, 0)
end }
