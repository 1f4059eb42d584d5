-- args: --max-memory 50
-- expect: memory limit
-- line: 8
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local big = string.rep("a", 20 * 1024 * 1024)
  local s = table.concat({ big, big, big })
end }
