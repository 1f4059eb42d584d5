-- args: --max-instructions 40000000 --timeout 5
-- expect: instruction budget of 40000000 exceeded
-- line: 10
-- string.unpack("z", s) looks for the string's end with strlen before it
-- checks there is one: over 64 MiB with no zero byte, a few units a call
-- for 1.6 ms of work. The strlen is charged now (lstrlib.c).
return { width = 20, height = 10, generate = function(map)
  map:fill("floor") map:set_start(1, 1)
  local s = string.rep("a", 1 << 26)
  while true do pcall(string.unpack, "z", s) end
end }
