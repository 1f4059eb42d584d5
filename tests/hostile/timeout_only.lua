-- args: --max-instructions 100000000000 --timeout 1
-- expect: timed out after 1 s
-- line: 7
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  while true do end
end }
