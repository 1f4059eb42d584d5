-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 10
-- A huge float written as text in a loop: glibc formats 1e300 in big
-- integers (about a microsecond), while '..' counts as one instruction.
-- Each float written is charged by its exponent.
local f = 1e300
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0 for _ = 1, 300000 do n = n + #(f .. "") end
end }
