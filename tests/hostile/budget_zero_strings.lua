-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 10
-- Ordering two strings compares them a zero-separated segment at a time
-- (a strcoll and two strlen each): 256 zeros are 257 segments in one
-- instruction. Each segment past the first is charged.
local s1, s2 = string.rep("\0", 256), string.rep("\0", 256)
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  for _ = 1, 100000 do local x = s1 < s2 end
end }
