-- expect: map:stamp: tile name is 134217728 bytes; at most 256
-- line: 10
-- quoted: 300
-- ulimit: yes
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local legend = { x = ("f"):rep(2^27) }
  local kept = {}
  for i = 1, 40 do kept[i] = select(2, pcall(map.stamp, map, 1, 1, { "x" }, legend)) end
  error(kept[40], 0)
end }
