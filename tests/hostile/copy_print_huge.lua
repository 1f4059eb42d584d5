-- expect: print needs about 838861867 units of work
-- line: 11
-- ulimit: yes
-- An 800 MiB line (four times a 200 MiB string) is charged, and refused,
-- before any of it is copied (the parts and their join were 1.6 GiB).
-- (838,860,803 bytes with its tabs, 1,000 units a line written and 16 a
-- value)
local s = string.rep("x", 200 << 20)
return { generate = function(map, rng)
  map:fill("floor")
  print(s, s, s, s)
  map:set_start(1, 1)
end }
