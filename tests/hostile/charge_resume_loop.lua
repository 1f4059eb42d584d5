-- args: --max-instructions 25000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- A million switches into a coroutine and back: each resume is charged.
local co = coroutine.wrap(function() while true do coroutine.yield() end end)
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0
  for _ = 1, 1000000 do co() n = n + 1 end
end }
