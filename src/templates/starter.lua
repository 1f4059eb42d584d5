-- A new dunlua script. Run it:   dunlua THIS_FILE --seed 1
-- Edit and save while the window is open: the map regenerates at once.
-- The Lua API: `dunlua api`, or completion in your editor (see docs/guide, "Writing scripts").
--
-- floor ratio: 0.05..0.60

---@type Script
return {
  name = "My dungeon",
  width = 80,
  height = 50,
  -- Every tunable, with its default; override with -p rooms=20.
  params = { rooms = 12, min_size = 5, max_size = 11, doors = true },

  ---@param map Map
  ---@param rng Rng
  generate = function(map, rng, p)
    map:fill("wall")

    -- Place rooms where they touch no other room (Rect.index answers natively).
    local rooms, placed = {}, Rect.index()
    for _ = 1, p.rooms * 4 do
      if #rooms == p.rooms then
        break
      end
      local w = rng:range(p.min_size, p.max_size)
      local h = rng:range(p.min_size, p.max_size)
      local room = Rect.new(rng:int(map.width - w), rng:int(map.height - h), w, h)
      if not placed:intersects_any(room) then
        placed:insert(room)
        rooms[#rooms + 1] = room
        map:carve_room(room)
        map:add_room(room)
      end
    end
    if #rooms == 0 then
      reject("no room fitted") -- the host rerolls on another stream
    end

    -- Join each room to the one before it with an L-shaped corridor.
    for i = 2, #rooms do
      local ax, ay = rooms[i - 1]:center()
      local bx, by = rooms[i]:center()
      map:l_tunnel(ax, ay, bx, by, rng:coin())
    end
    if p.doors then
      map:add_doors()
    end

    -- The player starts in the first room; stairs down as far away as possible.
    local sx, sy = rooms[1]:center()
    map:set_start(sx, sy)
    local x, y = map:dijkstra(sx, sy):farthest()
    if x ~= sx or y ~= sy then
      map:set(x, y, "stairs_down")
      map:mark(x, y, "stairs_down")
    end
  end,
}
