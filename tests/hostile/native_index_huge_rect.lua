-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  Rect.index():insert(Rect.new(-1000000000, -1000000000, 2000000000, 2000000000))
end }
