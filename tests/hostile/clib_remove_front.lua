-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local t = {}
  for i = 1, 100000 do t[i] = i end
  while true do table.remove(t, 1) end
end }
