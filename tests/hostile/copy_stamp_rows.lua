-- expect: map:stamp: rows[1] is 67108864 bytes, longer than the map's longest side (80 characters)
-- line: 12
-- quoted: 300
-- ulimit: yes
-- Fifty references to one 64 MiB string: 3 GiB if each were copied.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local row = ("#"):rep(2^26)
  local rows = {}
  for i = 1, 50 do rows[i] = row end
  map:stamp(0, 0, rows, { ["#"] = "wall" })
end }
