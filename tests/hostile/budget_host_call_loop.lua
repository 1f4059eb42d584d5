-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 9
-- A call into the host is about half a microsecond (arguments converted,
-- a borrow, a result), where its Lua instructions count a few units:
-- every call into the host is charged 100 units.
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0) local t = { 1, 2, 3 }
  for _ = 1, 300000 do local x = rng:pick(t) end
end }
