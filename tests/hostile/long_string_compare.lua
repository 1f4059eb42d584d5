-- args: --max-instructions 60000000
-- expect: instruction budget
-- Comparing two strings is one instruction however long they are: a loop
-- ordering or testing two 32 MiB strings for equality ran for minutes
-- inside the budget, stopped only by the deadline. Long comparisons are
-- charged by their bytes: 40 of each kind (2.5 GiB compared) spend more
-- than this budget (uncharged, the run needs 30 million units and
-- succeeded).
return { generate = function(map, rng)
  local a, b = ("x"):rep(2^25), ("x"):rep(2^25)
  local same = 0
  for _ = 1, 40 do
    if a <= b then same = same + 1 end
    if a == b then same = same + 1 end
  end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
