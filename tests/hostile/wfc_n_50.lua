-- expect: wfc.fill: n must be an integer from 1 to 8, got 50
-- line: 7
-- A pattern side of 50: refused before any window is read.
return { generate = function(map, rng)
  map:fill("wall")
  map:set_start(1, 1)
  wfc.fill(map, Rect.new(0, 0, 79, 49), { sample = { ("#."):rep(30) }, n = 50 }, rng)
end }
