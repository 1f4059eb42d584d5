-- What a weak table still holds depends on when the collector ran: it must
-- run at the same points in every run.
local cache = setmetatable({}, { __mode = "k" })
return { generate = function(map, rng)
  for i = 1, 3000 + rng:int(3000) do
    cache[{ i }] = i
    local junk = { tostring(i), i * 2 }
  end
  local n = 0
  for _ in pairs(cache) do n = n + 1 end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + n % 40, 4))
  map:set_start(2, 2)
  map:mark(2, 2, "count", { n = n })
end }
