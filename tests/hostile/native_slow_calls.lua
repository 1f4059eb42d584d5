-- args: --max-instructions 20000000
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  while true do map:get(1, 1) end
end }
