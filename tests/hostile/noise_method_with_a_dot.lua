-- expect: noise:select: call it on a noise with a colon, as noise:select(...)
-- line: 6
-- A noise field's method called with a dot named the host's type
-- (LuaNoise), as a graph's did.
return { width = 40, height = 30, generate = function(map, rng)
  local n = map:noise(rng) n.select(0.5, 1)
  map:fill("floor") map:set_start(1, 1)
end }
