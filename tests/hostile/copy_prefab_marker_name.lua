-- expect: map:stamp: legend 'm': mark is 67108864 bytes; at most 256
-- line: 11
-- quoted: 300
-- ulimit: yes
-- A hundred cells marked with one 64 MiB name, kept twice each: 12 GiB.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local legend = { m = { tile = "floor", mark = ("m"):rep(2^26) } }
  local rows = { ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10), ("m"):rep(10) }
  map:stamp(2, 2, rows, legend)
end }
