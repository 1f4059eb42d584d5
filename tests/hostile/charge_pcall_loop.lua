-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 6
-- A million protected calls: each is charged what the instructions it
-- stands for would cost, so the budget is spent before the loop ends.
local f = function() end
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  for _ = 1, 1000000 do pcall(f) end
end }
