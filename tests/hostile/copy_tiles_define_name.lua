-- expect: tiles.define: name is 67108864 bytes; at most 256
-- line: 5
-- quoted: 300
-- ulimit: yes
tiles.define(("x"):rep(2^26), { glyph = "%" })
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
end }
