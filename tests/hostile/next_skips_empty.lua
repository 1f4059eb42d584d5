-- args: --max-instructions 15000000
-- expect: instruction budget
-- next(t, k) scans every empty slot after k: past the last of a million
-- array entries, 48,576 of them, in one instruction. Skipped slots are
-- charged: 4,000 such calls spend more than this budget (uncharged, the
-- run needed about 5 million units).
return { generate = function(map, rng)
  local t = {}
  for i = 1, 1000000 do t[i] = true end
  for _ = 1, 4000 do local _ = next(t, 1000000) end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
