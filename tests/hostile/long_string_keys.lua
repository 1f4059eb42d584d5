-- args: --max-instructions 60000000
-- expect: instruction budget
-- Looking a table up by a 32 MiB string equal to (but not the same string
-- as) a stored key compares all its bytes in one instruction: a loop of
-- such lookups, or of rawget, ran for minutes inside the budget. Lookups
-- by long keys are charged as that comparison: 40 of each (2.5 GiB
-- compared) spend more than this budget (uncharged, the run needs 30
-- million units and succeeded).
return { generate = function(map, rng)
  local a, b = ("x"):rep(2^25), ("x"):rep(2^25)
  local t = { [a] = 1 }
  local found = 0
  for _ = 1, 40 do
    found = found + t[b] + rawget(t, b)
  end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
