-- expect: map:place_prefab: legend 'a' is empty: give it a tile, a mark or both
-- line: 6
-- An empty legend entry stamped nothing, silently.
return { width = 20, height = 10, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  map:place_prefab({ "a" }, { a = {} }, rng)
end }
