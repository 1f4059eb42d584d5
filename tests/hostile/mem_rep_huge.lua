-- args: --max-memory 64
-- expect: memory limit
-- line: 7
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = string.rep("x", 2^30)
end }
