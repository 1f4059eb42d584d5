-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- A host function's error caught by pcall: mlua makes a traceback of the
-- stack for each (about 20 µs), where the loop counts a few hundred
-- units. A caught host error is charged 6,000.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  for _ = 1, 5000 do pcall(map.set, map, -1, -1, "floor") end
end }
