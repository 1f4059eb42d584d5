-- Decides by the order pairs() visits the globals and a library: the
-- tables' layout must be the same in every run.
for i = 1, 40 do _G["g" .. i] = i end
string["s" .. (COUNT or 0)] = true
COUNT = (COUNT or 0) + 1
return { generate = function(map, rng)
  local order = {}
  for k in pairs(_G) do order[#order + 1] = tostring(k) end
  for k in pairs(string) do order[#order + 1] = tostring(k) end
  local h = 0
  for i, k in ipairs(order) do h = (h * 31 + #k * i) % 1000003 end
  map:fill("wall")
  map:carve_room(Rect.new(1, 1, 3 + h % 30, 4))
  map:set_start(2, 2)
end }
