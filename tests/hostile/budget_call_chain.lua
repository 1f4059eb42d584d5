-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- Calling a table whose __call is a table whose __call is ... a hundred
-- deep: one instruction looks up and shifts a hundred times. Each step
-- through a __call is charged.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local a = function() end for _ = 1, 100 do a = setmetatable({}, { __call = a }) end
  for _ = 1, 20000 do a() end
end }
