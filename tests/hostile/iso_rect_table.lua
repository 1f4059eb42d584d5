-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if Rect.leak then map:fill("wall") map:set(1, 1, "floor") end
  Rect.leak = true
  Rect.new = function() error("replaced") end
end }
