-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  string.rep("", math.maxinteger)
end }
