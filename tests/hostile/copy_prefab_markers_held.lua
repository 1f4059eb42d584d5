-- args: --max-memory 64
-- expect: memory limit
-- line: 14
-- ulimit: yes
-- Every stamp puts down 4,000 markers of a new 250-byte name: they count
-- against the memory limit as map:mark's do.
return { generate = function(map, rng)
  map:fill("floor")
  map:set_start(1, 1)
  local row = ("m"):rep(80)
  local rows = {}
  for y = 1, 50 do rows[y] = row end
  for i = 1, 1e9 do
    map:stamp(0, 0, rows, { m = { tile = "floor", mark = i .. ("m"):rep(240) } })
  end
end }
