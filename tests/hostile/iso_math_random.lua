-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local x = math.random(1, 50)
  map:set(x, 10, "wall")
end }
