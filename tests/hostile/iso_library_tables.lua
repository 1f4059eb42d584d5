-- exit: 0
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  if string.leak or table.leak or math.leak then map:fill("water") map:set(1, 1, "floor") end
  if math.floor(2.5) ~= 2 then map:set(2, 2, "wall") end
  string.leak, table.leak, math.leak = true, true, true
  math.floor = function() return 99 end
  table.insert = nil
end }
