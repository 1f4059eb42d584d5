-- args: --max-instructions 10000000
-- expect: instruction budget
-- '...' with 50,000 values is copied whole by one instruction each time it
-- is passed on. Values beyond 64 are charged: 2,000 passes spend more than
-- this budget (uncharged, the run needed under a million units).
return { generate = function(map, rng)
  local function count(...) return select("#", ...) end
  local function pass(...)
    local n = 0
    for _ = 1, 2000 do n = n + count(...) end
    return n
  end
  local t = {}
  for i = 1, 50000 do t[i] = i end
  pass(table.unpack(t))
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 5, 5))
  map:set_start(2, 2)
end }
