-- args: --max-memory 64
-- expect: memory limit
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local name = string.rep("x", 250)
  while true do map:mark(1, 1, name) end
end }
