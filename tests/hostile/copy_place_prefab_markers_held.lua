-- args: --max-memory 64
-- expect: memory limit
-- line: 13
-- ulimit: yes
-- As copy_prefab_markers_held, through place_prefab.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local row = ("m"):rep(80)
  local rows = {}
  for y = 1, 50 do rows[y] = row end
  for i = 1, 1e9 do
    map:place_prefab(rows, { m = { tile = "floor", mark = i .. ("m"):rep(240) } }, rng)
  end
end }
