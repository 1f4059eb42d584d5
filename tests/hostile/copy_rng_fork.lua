-- expect: rng:fork: name is 134217728 bytes; at most 256
-- line: 8
-- quoted: 300
-- ulimit: yes
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local r = rng:fork(("x"):rep(2^27))
end }
