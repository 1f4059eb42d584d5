-- args: --max-instructions 2000000
-- expect: instruction budget
-- Recursing through pcall to Lua's C-stack limit makes every call at the
-- bottom fail and be caught, each catch unwinding ~200 frames: 15 times the
-- work per budget unit of a plain loop, so the default budget took 27 s and
-- only the deadline stopped it. Caught errors are charged by the frames
-- they unwind: 15,000 of them spend more than this budget (uncharged, they
-- fit in under a million units and the run succeeded).
return { generate = function(map, rng)
  local caught = 0
  local function f(n)
    pcall(f, n + 1)
    caught = caught + 1
    if caught > 15000 then return end
    return f(n + 1)
  end
  f(1)
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
