-- expect: map:walk needs about
-- line: 6
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  map:walk(1, 1, math.maxinteger, rng)
end }
