-- args: --timeout 1 --max-instructions 100000000000
-- expect: timed out
-- Calls with 100,000 unpacked arguments until the deadline: the stop made
-- the hook grow the stack, and the allocator, asked for the bigger stack,
-- read the script's line from frames Lua was moving: a segfault (in the
-- CLI, in check, in Python). The allocator no longer reads the stack while
-- Lua moves it or collects; the hook names the line.
return { width = 10, height = 10, generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local f = function() end
  while true do f(table.unpack({}, 1, 100000)) end
end }
