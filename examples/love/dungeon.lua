-- dungeon.lua: the example game's own script. The game reads it (and
-- lib/treasure.lua, its module) through love.filesystem, so it works from
-- the game's folder and from a .love archive alike. Rooms joined in the
-- order they were placed, stairs down in the last one, gold on the floor.
local treasure = require("lib.treasure")

return {
  name = "LÖVE example dungeon",
  width = 60,
  height = 36,
  params = { rooms = 14, min_size = 4, max_size = 9, gold = 8 },

  generate = function(map, rng, p)
    map:fill("wall")
    local rooms = {}
    for _ = 1, p.rooms * 4 do
      if #rooms == p.rooms then
        break
      end
      local w, h = rng:range(p.min_size, p.max_size), rng:range(p.min_size, p.max_size)
      local room = Rect.new(rng:int(map.width - w - 1), rng:int(map.height - h - 1), w, h)
      local free = true
      for _, other in ipairs(rooms) do
        if room:intersects(other) then
          free = false
          break
        end
      end
      if free then
        map:carve_room(room)
        if #rooms > 0 then
          local ax, ay = rooms[#rooms]:center()
          local bx, by = room:center()
          map:l_tunnel(ax, ay, bx, by, rng:coin())
        end
        map:add_room(room)
        rooms[#rooms + 1] = room
      end
    end
    map:set_start(rooms[1]:center())
    local ex, ey = rooms[#rooms]:center()
    map:set(ex, ey, "stairs_down")
    treasure.scatter(map, rng, p.gold)
  end,
}
