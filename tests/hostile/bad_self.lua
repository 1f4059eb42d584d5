-- expect: map:fill: call it on a map with a colon
-- line: 6
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  map.fill(rng, "floor")
end }
