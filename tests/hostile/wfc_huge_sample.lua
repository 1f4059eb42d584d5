-- args: --max-memory 128
-- expect: wfc.fill: the sample has more than 4096 distinct 3x3 patterns
-- line: 13
-- ulimit: yes
-- A 1000x1000 sample of random tiles: its patterns are counted as they are
-- learned and refused at the limit, nothing allocated past it.
return { width = 1000, height = 1000, generate = function(map, rng)
  map:fill("wall")
  map:set_start(1, 1)
  local glyphs, rows = { "#", ".", "~", "+" }, {}
  local row = {}
  for y = 1, 1000 do for x = 1, 1000 do row[x] = glyphs[rng:int(4) + 1] end rows[y] = table.concat(row) end
  wfc.fill(map, Rect.new(0, 0, 999, 999), { sample = rows }, rng)
end }
