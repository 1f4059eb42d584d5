-- expect: map:cellular: birth must list whole neighbour counts
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  map:cellular({ birth = { 1.5 }, survive = {} })
end }
