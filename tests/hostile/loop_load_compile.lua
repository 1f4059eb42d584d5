-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = string.rep("x = 1 ", 500000)
  while true do load(s) end
end }
