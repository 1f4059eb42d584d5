-- args: --max-memory 64
-- expect: memory limit
-- line: 8
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s = "x"
  while true do s = s .. s end
end }
