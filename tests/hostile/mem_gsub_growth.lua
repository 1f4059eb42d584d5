-- args: --max-memory 64
-- expect: memory limit
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = string.rep("a", 1000000)
  while true do s = s:gsub("a", "aa") end
end }
