-- args: --max-instructions 200000000 --max-memory 64 --timeout 5
-- expect: instruction budget
-- line: 9
-- string.format of a float with a hundred decimals: snprintf writes 400
-- digits of 1e300 in big integers (9 us), once charged as any item. A
-- float's formatted bytes are charged now; the loop ran out the timeout.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  local n = 0 while true do n = n + #string.format("%.99f", 1e300) end
end }
