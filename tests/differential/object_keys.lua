-- Tables keyed by tables, functions, rects, coroutines and library
-- functions: where each key lands (and so the order pairs() visits them)
-- must not depend on addresses, which differ between runs and processes.
return { generate = function(map, rng)
  local t = {}
  for i = 1, 20 + rng:int(30) do
    t[{ i }] = i
    t[function() return i end] = -i
    t[Rect.new(i, 1, 1, 1)] = i * 100
    t[coroutine.create(print)] = i * 1000
  end
  t[print], t[string.format], t[pairs] = 1, 2, 3
  local h = 0
  for _, v in pairs(t) do h = (h * 31 + v) % 1000003 end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + h % 40, 3 + h % 5))
  map:set_start(2, 2)
  map:mark(2, 2, "order", { h = h, p = string.format("%p", t) })
end }
