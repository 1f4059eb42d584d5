-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = string.rep("é", 1000000)
  while true do utf8.len(s) end
end }
