-- The graph-layout benchmark's fixture (`cargo bench --bench graph`, or
-- `dunlua bench benches/graph_layout.lua -p rooms=10 -p cycles=2`): a chain
-- of `rooms` rooms with `cycles` loops of four rooms closed over it, laid
-- out from three template shapes with corridors of 2..6 cells.

local L = { ["#"] = "wall", ["."] = "floor", D = { tile = "wall", door = true } }
local T = {
  small = { rows = { "##D##", "#...#", "D...D", "#...#", "##D##" }, legend = L },
  hall = { rows = { "####D####", "#.......#", "D.......D", "#.......#", "####D####" }, legend = L },
  cross = { rows = { "  #D#  ", "  #.#  ", "###.###", "D.....D", "###.###", "  #.#  ", "  #D#  " }, legend = L },
}

return {
  name = "graph layout benchmark",
  width = 80, height = 50,
  params = { rooms = 5, cycles = 1 },
  generate = function(map, rng, p)
    map:fill("wall")
    local g = graph.new()
    local shapes = { { "small", "hall" }, { "hall", "cross" }, { "cross", "small" } }
    for i = 1, p.rooms do g:room("r" .. i, { templates = shapes[i % 3 + 1] }) end
    for i = 2, p.rooms do g:connect("r" .. (i - 1), "r" .. i) end
    -- Loops of four: r1-r2-r3-r4-r1, then from the middle of the chain.
    local starts = { 1, p.rooms // 2 }
    for c = 1, p.cycles do g:connect("r" .. starts[c], "r" .. (starts[c] + 3)) end
    local layout, why = g:layout(map, rng, { templates = T, corridors = { length = { 2, 6 } }, attempts = 200 })
    if not layout then error(why) end
    map:set_start(layout.r1.rect:center())
  end,
}
