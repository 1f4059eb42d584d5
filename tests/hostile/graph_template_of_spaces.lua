-- expect: templates.c: the template is all spaces, so it covers no cell
-- line: 9
-- A template of spaces alone laid out a room that covers no cell.
return { width = 60, height = 40, generate = function(map, rng)
  map:fill("wall")
  local g = graph.new()
  g:room("a", { templates = { "c" } })
  local T = { c = { rows = { "   ", "   " }, legend = { ["."] = "floor" } } }
  g:layout(map, rng, { templates = T })
  map:set_start(1, 1)
end }
