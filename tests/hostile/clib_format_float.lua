-- args: --max-instructions 20000000
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  while true do local s = string.format("%99.99f", 1e308) end
end }
