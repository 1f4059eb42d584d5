-- args: --max-instructions 100000000
-- expect: instruction budget
-- line: 11
-- quoted: 300
-- ulimit: yes
-- Each refusal once quoted the whole 128 MiB tile name.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local s, kept = ("x"):rep(2^27), {}
  while true do kept[#kept + 1] = select(2, pcall(map.set, map, 1, 1, s)) end
end }
