-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- The same, with the resume as generate's tail call: not one instruction
-- of the script runs after the stop.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor")
  map:set_start(0, 0)
  return coroutine.resume(coroutine.create(function() while true do end end))
end }
