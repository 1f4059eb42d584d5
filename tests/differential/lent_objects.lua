-- The map and rng every run is handed (one userdata each for the VM's
-- life, lent to each run) as table keys among the run's own objects: where
-- each lands, and so the order pairs() visits them, is as when every run
-- made its own map and rng (pinned in differential.rs). Some seeds fail
-- after marking, with the map still lent.
return { generate = function(map, rng, params)
  local t = {}
  t[map], t[rng], t[params] = 1, 2, 3
  for i = 1, 10 + rng:int(20) do
    t[{ i }] = i * 10
    t[Rect.new(i, 1, 1, 1)] = i * 100
  end
  t[map] = t[map] + 7
  local h = 0
  for _, v in pairs(t) do h = (h * 31 + v) % 1000003 end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + h % 40, 3 + h % 5))
  map:set_start(2, 2)
  map:mark(2, 2, "order", { h = h })
  for i = 1, 300 do map:mark(3, 3, "m" .. i) end
  if rng:int(4) == 0 then error("failed after marking") end
end }
