-- expect: print needs about 838860803 units of work
-- line: 9
-- ulimit: yes
-- An 800 MiB line (four times a 200 MiB string) is charged, and refused,
-- before any of it is copied (the parts and their join were 1.6 GiB).
local s = string.rep("x", 200 << 20)
return { generate = function(map, rng)
  map:fill("floor")
  print(s, s, s, s)
  map:set_start(1, 1)
end }
