-- expect: chain of 99999 kept
-- line: 17
-- A weak-keyed table holding a chain e[k1] = k2, e[k2] = k3, ... with the
-- keys shuffled: the collector's ephemeron convergence marked a link or a
-- few per pass over the table, so one collection took a pass per link
-- (100,000 links: minutes), inside one atomic step that neither the budget
-- nor the deadline can stop. A marked value's own entry is marked at once
-- (lgc.c, dunlua_followchain): one pass, quick, and the chain is kept.
return { width = 20, height = 10, generate = function(map, rng)
  map:fill("floor") map:set_start(2, 2)
  local keys = {} for i = 1, 100000 do keys[i] = {} end
  rng:shuffle(keys)
  local e = setmetatable({}, { __mode = "k" })
  for i = 1, #keys - 1 do e[keys[i]] = keys[i + 1] end
  local root = keys[1]; keys = nil
  collectgarbage()
  local n = 0 for _ in pairs(e) do n = n + 1 end error(("chain of %d kept, root %s"):format(n, type(root)))
end }
