-- exit: 0
-- Many differently named markers on one cell, and the same one again and
-- again: marking finds a cell's same-named marker through an index, so
-- this stays linear (a scan per mark would be quadratic, past any budget).
return { width = 8, height = 8, generate = function(map)
  map:fill("floor")
  for i = 1, 60000 do map:mark(3, 3, "n" .. i) end
  for _ = 1, 60000 do map:mark(4, 4, "same") end
  assert(#map:markers() == 60001)
  map:set_start(1, 1)
end }
