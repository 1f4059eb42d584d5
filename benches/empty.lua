-- empty.lua: a script that does almost nothing (fills the map, carves one
-- room, sets the start), so `dunlua bench benches/empty.lua` measures what
-- a run costs before a script's own work: the reused VM's reset, loading
-- the script's table, calling generate and the few API calls.
return {
  name = "Empty",
  width = 80,
  height = 50,
  generate = function(map)
    map:fill("wall")
    map:carve_room(Rect.new(10, 10, 8, 6))
    map:set_start(12, 12)
  end,
}
