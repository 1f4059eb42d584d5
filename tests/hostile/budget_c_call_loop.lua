-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- A call of a C function makes and drops a frame, where the call counts
-- as one instruction: every C function call a Lua function makes is
-- charged 8 units more.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0) local a, b = {}, {}
  for _ = 1, 2000000 do local x = rawequal(a, b) end
end }
