-- args: --max-instructions 3000000
-- expect: instruction budget of 3000000 exceeded: wfc.fill needs about
-- line: 8
-- A whole 2000x2000 map to fill on a tiny budget: refused before the search.
return { width = 2000, height = 2000, generate = function(map, rng)
  map:fill("wall")
  map:set_start(1, 1)
  wfc.fill(map, Rect.new(0, 0, 1999, 1999), { sample = { "#..#", "....", "#..#", "##.#" }, n = 2, connected = true }, rng)
end }
