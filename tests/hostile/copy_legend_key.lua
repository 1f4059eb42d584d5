-- expect: map:stamp: legend keys must be one-character strings, got "xxxxxxxxxx
-- expect: …" (134217728 bytes)
-- line: 12
-- quoted: 300
-- ulimit: yes
-- Every refusal quotes the key: kept, forty whole copies would be 5 GiB.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local legend = { [("x"):rep(2^27)] = "floor" }
  local kept = {}
  for i = 1, 40 do kept[i] = select(2, pcall(map.stamp, map, 1, 1, { "x" }, legend)) end
  error(kept[40], 0)
end }
