-- expect: entries 1999 (a chain of 1999 kept, 100 garbage entries cleared)
-- A long shuffled chain in a weak-keyed table, live from a local, beside
-- 50 garbage pairs e[a] = b, e[b] = a that nothing else reaches: the
-- collection keeps the chain and clears the pairs, as Lua's ephemeron
-- semantics say. (A first cap on convergence passes marked every value of
-- the table when the chain was long, so the pairs were never freed and a
-- memo table of such entries grew past the memory limit.)
return { width = 20, height = 10, generate = function(map, rng)
  map:fill("floor") map:set_start(2, 2)
  local keys = {} for i = 1, 2000 do keys[i] = {} end
  rng:shuffle(keys)
  local e = setmetatable({}, { __mode = "k" })
  for i = 1, #keys - 1 do e[keys[i]] = keys[i + 1] end
  local root = keys[1]; keys = nil
  for _ = 1, 50 do local a, b = {}, {} e[a] = b e[b] = a end
  collectgarbage() collectgarbage()
  local n = 0 for _ in pairs(e) do n = n + 1 end
  error(("entries %d (a chain of 1999 kept, %d garbage entries cleared)"):format(n, 2099 - n + (root and 0 or 1)), 0)
end }
