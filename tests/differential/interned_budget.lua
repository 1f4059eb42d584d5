-- Makes short strings until the budget runs out: where it stops (the
-- line in the message) must not depend on what earlier runs interned.
return { generate = function(map, rng)
  local keep = {}
  local i = rng:int(1000)
  while true do
    i = i + 1
    keep[i % 512] = "k" .. i
    local t = { "a" .. (i % 97) }
    if i % 7 == 0 then keep[#keep + 1] = tostring(i) end
  end
end }
