-- args: --max-instructions 2000000
-- expect: instruction budget
-- One lookup through a chain of 1,990 tables (each the __index of the
-- next) is one VM instruction doing 1,990 table lookups: a loop of them ran
-- 2,000 times longer than the budget counted and only the deadline stopped
-- it. Steps through a chain are charged: 2,000 such lookups spend more than
-- this budget (uncharged they cost ~10,000 units and the run succeeded).
return { generate = function(map, rng)
  local t = {}
  for _ = 1, 1990 do t = setmetatable({}, { __index = t }) end
  local found = 0
  for _ = 1, 2000 do
    if t.missing == nil then found = found + 1 end
  end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
