-- args: --max-instructions 20000000 --max-memory 64
-- expect: instruction budget
-- line: 10
-- string.unpack of 200 items reads, checks and pushes each in one call:
-- every option of a pack format is charged.
local f = string.rep("i", 200)
local s = string.pack(f, table.unpack((function() local t = {} for i = 1, 200 do t[i] = i end return t end)()))
return { width = 20, height = 20, generate = function(map, rng)
  map:fill("floor") map:set_start(0, 0)
  for _ = 1, 30000 do local x = string.unpack(f, s) end
end }
