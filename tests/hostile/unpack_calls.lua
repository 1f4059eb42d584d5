-- args: --max-instructions 2000000
-- expect: instruction budget
-- A call with 100,000 arguments from table.unpack moves them all in one
-- instruction: a loop of such calls ran past the budget to the deadline,
-- and once crashed the process (the stop's line was read while Lua was
-- moving the stack). Unpacked elements and many values moved by a call or
-- a return are charged: 200 such calls spend more than this budget
-- (uncharged, the run succeeded).
return { generate = function(map, rng)
  local f = function() end
  for _ = 1, 200 do f(table.unpack({}, 1, 100000)) end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
