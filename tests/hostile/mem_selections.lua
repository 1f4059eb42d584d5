-- args: --max-memory 64
-- expect: memory limit
-- line: 7
return { width = 1000, height = 1000, generate = function(map, rng)
  map:fill("floor")
  local keep = {}
  while true do keep[#keep + 1] = map:select("floor") end
end }
