-- args: --max-instructions 40000000 --max-memory 64 --timeout 4
-- expect: instruction budget
-- line: 10
-- Every read of a key the params table does not hold calls the host
-- (the table's __index); a key that is not a name (not UTF-8, a number)
-- returned nil before the call was charged, so such a loop ran tens of
-- times as long as its budget (the timeout ended it).
return { params = { steps = 4 }, generate = function(map, rng, p)
  map:fill("floor") map:set_start(1, 1)
  local s while true do s = p["\xff"] end
end }
