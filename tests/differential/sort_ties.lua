-- table.sort with ties and lopsided partitions: the order it leaves
-- depends on its pivots, which stock Lua "randomizes" with clock() and
-- time() once a partition comes out lopsided. Every run must leave the
-- same order (the sandbox issue's "same seed, same map forever").
local function fingerprint(list)
  local h = 0
  for i = 1, #list do h = (h * 31 + list[i].id) % 2147483647 end
  return h
end

local function sorted(n, key)
  local t = {}
  for i = 1, n do t[i] = { id = i, k = key(i, n) } end
  table.sort(t, function(a, b) return a.k < b.k end)
  return fingerprint(t)
end

return {
  width = 30,
  height = 10,
  generate = function(map, rng)
    map:fill("wall")
    map:carve_room(Rect.new(1, 1, 27, 7))
    map:set_start(2, 2)
    local prints = {
      sorted(5000, function(i) return i // 3 end),             -- in order, ties of 3
      sorted(5000, function(i, n) return (n - i) // 4 end),    -- reversed, ties of 4
      sorted(4000, function(i, n) return math.abs(n // 2 - i) // 2 end), -- organ pipe
      sorted(4000, function(i) return i % 97 end),             -- sawtooth
      sorted(3000, function(i) return rng:int(1, 10) end),     -- the seed's ties
    }
    -- The order shows in the map, and in the markers' data.
    for row, h in ipairs(prints) do
      map:set(1 + h % 27, row, "water")
      map:mark(1 + h % 27, row, "print", { h = h })
    end
  end,
}
