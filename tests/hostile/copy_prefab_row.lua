-- expect: map:place_prefab: rows[2] is 134217728 bytes, longer than the map's longest side (80 characters)
-- line: 9
-- quoted: 300
-- ulimit: yes
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local row = ("#"):rep(2^27)
  map:place_prefab({ "#", row }, { ["#"] = "wall" }, rng)
end }
