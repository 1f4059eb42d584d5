-- args: --max-instructions 40000000 --timeout 5
-- expect: instruction budget of 40000000 exceeded
-- line: 10
-- string.format("%5s", s) checks s has no zero byte with strlen before
-- it formats: over 32 MiB ending in a zero byte, an error each time for
-- a few units of 3 ms of work. The strlen is charged now (lstrlib.c).
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  local s = string.rep("a", 32 * 1024 * 1024) .. "\0"
  while true do pcall(string.format, "%5s", s) end
end }
