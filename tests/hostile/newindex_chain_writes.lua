-- args: --max-instructions 2000000
-- expect: instruction budget
-- The same as index_chain_lookups for assignments: a write through a chain
-- of 1,990 tables (each the __newindex of the next) walks them all in one
-- instruction; 2,000 such writes spend more than this budget once the
-- steps are charged (uncharged, the run succeeded).
return { generate = function(map, rng)
  local t = {}
  for _ = 1, 1990 do t = setmetatable({}, { __newindex = t }) end
  for i = 1, 2000 do t[i % 7] = nil end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
