-- args: --max-memory 64
-- expect: memory limit
-- line: 8
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local t = {}
  while true do t[#t + 1] = { 1, 2, 3, 4 } end
end }
