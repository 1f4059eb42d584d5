-- expect: selection:grow needs about
return { width = 5000, height = 5000, generate = function(map, rng)
  map:fill("floor")
  local s = map:select("floor")
  s:grow(10000)
end }
