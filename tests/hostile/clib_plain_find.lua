-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = string.rep("a", 1000000)
  while true do s:find(string.rep("a", 500) .. "b", 1, true) end
end }
