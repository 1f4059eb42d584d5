-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- A coroutine's spent budget ends its resume with false; the run then
-- returns at once, with no instruction left for the main thread's hook.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor")
  map:set_start(0, 0)
  coroutine.resume(coroutine.create(function() while true do end end))
end }
