-- args: --max-instructions 60000000
-- expect: instruction budget
-- rawequal of two distinct equal 32 MiB strings compares every byte, as
-- '==' does (long_string_compare): charged the same, 40 calls spend more
-- than this budget (uncharged, the run needs 30 million units).
return { generate = function(map, rng)
  local a, b = ("x"):rep(2^25), ("x"):rep(2^25)
  local same = 0
  for _ = 1, 40 do if rawequal(a, b) then same = same + 1 end end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
