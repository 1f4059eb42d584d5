-- expect: tiles.define: unknown field 'kkkkk
-- expect: … (134217728 bytes)' in the spec of 'lava'
-- line: 8
-- quoted: 300
-- ulimit: yes
local spec = { glyph = "%", [("k"):rep(2^27)] = true }
local kept = {}
for i = 1, 40 do kept[i] = select(2, pcall(tiles.define, "lava", spec)) end
error(kept[40], 0)
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
end }
