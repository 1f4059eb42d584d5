-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 10
-- tostring of an ordinary float in a loop: snprintf's "%.14g" costs
-- several times the instructions that ask for it, and each float written
-- is charged for it.
local f = 1.5
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0 for _ = 1, 300000 do n = n + #tostring(f) end
end }
