-- Grows until the memory limit: the same stop, at the same line.
return { generate = function(map, rng)
  local t = {}
  local n = 0
  while true do
    n = n + 1
    t[n] = ("x"):rep(100 + rng:int(50)) .. n
    if n % 3 == 0 then t[n] = nil end
  end
end }
