-- expect: map:mark: props key is 134217728 bytes; at most 256
-- line: 10
-- quoted: 300
-- ulimit: yes
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local props = { [("k"):rep(2^27)] = 1 }
  local kept = {}
  for i = 1, 40 do kept[i] = select(2, pcall(map.mark, map, 2, 2, "chest", props)) end
  error(kept[40], 0)
end }
