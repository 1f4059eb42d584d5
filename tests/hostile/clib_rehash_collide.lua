-- args: --timeout 1
-- expect: timed out
-- line: 13
-- Integer keys that all fall into one chain of the table's next size: the
-- one insertion on line 13 rehashes them all, each walking the chain (one
-- VM instruction, quadratic in Lua's C code: 20 s for k = 17 before).
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local k = 17
  local M, n, t = (1 << (k + 1)) - 1, 1 << k, {}
  for j = 1, n do t[j * M] = true end
  t[(n + 1) * M] = true
end }
