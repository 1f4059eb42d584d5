-- tostring numbers objects per run; math.random follows the run's stream.
KEEP = KEEP or {}
KEEP[#KEEP + 1] = {}
return { generate = function(map, rng)
  local name = tostring({}) .. tostring(print) .. tostring(KEEP[#KEEP])
  local r = math.random(1, 10)
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + #name % 10 + r, 4))
  map:set_start(2, 2)
end }
