-- args: --max-instructions 4000000 --timeout 5
-- expect: instruction budget of 4000000 exceeded
-- line: 9
-- A stack overflow grows the stack to its error size (a million slots,
-- about 10 ms) and it shrinks back before the next: a loop of caught
-- overflows did that for a few units each. Charged by the slots (ldo.c).
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  while true do pcall(table.unpack, {}, 1, 999999) end
end }
