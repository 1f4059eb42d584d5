-- args: --max-instructions 100000000
-- expect: instruction budget of 100000000 exceeded
-- line: 13
-- A small region in a big open map, with a path between the map's far
-- corners: every check of the path searches the whole map. Charged an
-- eighth of the map a search, the fill finished within this budget after
-- 45 M units and 1.4 s (14 s within the default budget at 3000x3000);
-- charged for every cell the search visits, the budget stops it.
return { width = 1000, height = 1000, generate = function(map, rng)
  map:fill("floor")
  local rows, ch = {}, { "#", "." }
  for y = 1, 12 do local r = {} for x = 1, 12 do r[x] = ch[rng:int(2) + 1] end rows[y] = table.concat(r) end
  local ok = wfc.fill(map, Rect.new(470, 470, 60, 60), { sample = rows, n = 2,
    path = { {0, 0}, {999, 999} }, attempts = 10000, backtracks = 1000000 }, rng)
  map:set_start(1, 1)
end }
