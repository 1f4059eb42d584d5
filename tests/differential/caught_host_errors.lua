-- A caught error from a host function takes one of mlua's error boxes,
-- which the reset puts back: a run after one that raised (and did not
-- touch the collector, so its reset takes the quick path) finds the pool
-- as full as a fresh VM's, and the heap it measures the same.
return { generate = function(map, rng, params, ctx)
  map:fill("floor")
  map:set_start(1, 1)
  if ctx.seed % 2 == 0 then
    pcall(map.get, map, "x", 1)
    return
  end
  local before = collectgarbage("count")
  pcall(map.get, map, "x", 1)
  local grew = collectgarbage("count") - before
  if grew > 0.25 then map:set(5, 5, "wall") end
  map:mark(1, 1, "grew", { kb = grew })
end }
