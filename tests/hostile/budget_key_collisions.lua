-- args: --max-instructions 40000000 --max-memory 64
-- expect: instruction budget
-- line: 12
-- Integer keys chosen to land in one node of the hash part: a lookup of a
-- missing key walks all 4,096 of them in one instruction. Each hop past
-- the eighth is charged.
local M = 4095
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local t = {} for j = 1, 4096 do t[j * M] = j end
  local miss = 5000 * M
  for _ = 1, 20000 do local x = t[miss] end
end }
