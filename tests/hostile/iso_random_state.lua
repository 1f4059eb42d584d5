-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if rng:int(2) == 0 then map:set(5, 5, "wall") end
  for i = 1, rng:int(5) do math.random() end
end }
