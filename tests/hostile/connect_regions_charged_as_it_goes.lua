-- args: --timeout 0 --max-instructions 300000000 --max-memory 3000
-- expect: instruction budget of 300000000 exceeded: map:connect_regions needs about
-- line: 12
-- One map:connect_regions over a 4000x4000 map of scattered rock: a
-- search whose work depends on how the regions lie (a cell is searched
-- again whenever a tunnel brings it closer), 400M-800M units here. It was
-- charged 8 units a cell before it started (128M) and then ran unmetered:
-- seconds past the deadline in every caller. Charged as it goes, it stops
-- at the budget or the deadline midway.
return { width = 4000, height = 4000, generate = function(map, rng)
  map:fill("floor") map:scatter("wall", 0.6, rng) map:set(1, 1, "floor") map:set_start(1, 1)
  map:connect_regions(rng)
end }
