-- expect: graph:room: call it on a graph with a colon, as graph:room(...)
-- line: 6
-- A graph's method called with a dot said "LuaGraph:room: call it on a
-- LuaGraph", the host's type name, where the map and rng say map: and rng:.
return { width = 40, height = 30, generate = function(map, rng)
  local g = graph.new() g.room("a")
  map:fill("floor") map:set_start(1, 1)
end }
