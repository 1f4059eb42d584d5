-- expect: map:mark: props.loot is 134217728 bytes; at most 65536
-- line: 9
-- quoted: 300
-- ulimit: yes
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local loot = ("$"):rep(2^27)
  map:mark(2, 2, "chest", { loot = loot })
end }
