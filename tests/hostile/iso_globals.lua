-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if LEAK then map:fill("wall") map:set(1, 1, "floor") end
  LEAK = true
  rawset(_G, "print", nil)
end }
