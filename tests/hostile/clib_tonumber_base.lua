-- args: --max-instructions 40000000 --timeout 5
-- expect: instruction budget of 40000000 exceeded
-- line: 10
-- tonumber(s, base) reads every byte of s (digits or spaces) and was
-- charged nothing: a loop of it over 8 MiB ran to the deadline (or for
-- days with no deadline). Charged by the string's length now (lbaselib.c).
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  local s = string.rep("z", 8 * 1024 * 1024)
  while true do tonumber(s, 36) end
end }
